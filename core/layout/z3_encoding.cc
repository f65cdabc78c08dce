#include "core/layout/z3_encoding.h"

#include <algorithm>
#include <bit>
#include <map>

#include "core/base/error.h"
#include "core/layout/detail.h"

namespace mmacheck {

z3::expr Bv::num(std::int64_t value) const { return ctx_->bv_val(value, width_); }

z3::expr Bv::var(const std::string& name) const { return ctx_->bv_const(name.c_str(), width_); }

z3::expr Bv::in_range(const z3::expr& x, std::int64_t lo, std::int64_t hi) const { return num(lo) <= x && x < num(hi); }

z3::expr Bv::table(const z3::expr& index, std::span<const std::int64_t> values) const {
  // values[b .. b + n) below; the split compares the absolute index.
  const auto subtree = [&](const auto& self, std::size_t b, std::size_t n) -> z3::expr {
    const auto part = values.subspan(b, n);
    if (std::all_of(part.begin(), part.end(), [&](std::int64_t v) { return v == part.front(); }))
      return num(part.front());
    const std::size_t half = n / 2;
    return z3::ite(z3::ult(index, num(static_cast<std::int64_t>(b + half))), self(self, b, half),
                   self(self, b + half, n - half));
  };
  return subtree(subtree, 0, values.size());
}

std::optional<unsigned> bv_width(std::int64_t bound) {
  const auto magnitude = static_cast<std::uint64_t>(std::max<std::int64_t>(bound, 1));
  const unsigned bits = static_cast<unsigned>(std::bit_width(magnitude)) + 2;  // sign, one carry
  if (bits > 62) return std::nullopt;
  return std::max(bits, 8u);
}

std::int64_t layout_bound(const TileLayout& layout, const Shape& shape) {
  std::int64_t bound = layout.size();
  for (std::int64_t e : shape) bound = std::max(bound, e);
  // The magnitudes' sum, exact (|(e - 1) * s| is (e - 1) * s with the
  // factor's sign flipped, e - 1 >= 0); past int64 it is INT64_MAX, which
  // bv_width refuses.
  layout_detail::ExactSum sum;
  for (const auto* iters : {&layout.shard(), &layout.replica()})
    for (const Iter& it : *iters) sum.add(it.stride < 0 ? 1 - it.extent : it.extent - 1, it.stride);
  for (const auto& [axis, value] : layout.offset()) sum.add(value < 0 ? -1 : 1, value);
  return std::max(bound, sum.saturated());
}

namespace {

// Adds the row-major digits of `x` over `iters` (last fastest), each times
// its stride, into `sums` per axis.
void add_digits(const z3::expr& x, std::span<const Iter> iters, std::map<Axis, z3::expr>& sums, const Bv& bv) {
  std::int64_t below = 1;  // product of the extents after the current iter
  for (std::size_t k = iters.size(); k-- > 0;) {
    const Iter& it = iters[k];
    if (it.extent != 1 && it.stride != 0) {
      z3::expr digit = below == 1 ? x : z3::udiv(x, bv.num(below));
      if (k != 0) digit = z3::urem(digit, bv.num(it.extent));  // the first digit is already < extent
      const z3::expr term = it.stride == 1 ? digit : digit * bv.num(it.stride);
      const auto found = sums.find(it.axis);
      if (found == sums.end()) sums.emplace(it.axis, term);
      else found->second = found->second + term;
    }
    below *= it.extent;
  }
}

}  // namespace

std::vector<std::vector<z3::expr>> apply_symbolic(const TileLayout& layout, const Shape& shape,
                                                  const std::vector<z3::expr>& coord, std::span<const Axis> axes,
                                                  const Bv& bv) {
  std::map<Axis, z3::expr> sums;
  // Per dim where the layout groups by the shape: no flat index, no division
  // across dims.
  std::optional<GroupedLayout> grouped;
  try {
    grouped = layout.group(shape);
  } catch (const Error&) {
  }
  if (grouped) {
    for (int d = 0; d < grouped->groups(); ++d) add_digits(coord[d], grouped->group(d), sums, bv);
  } else {
    z3::expr flat = bv.num(0);
    for (std::size_t d = 0; d < shape.size(); ++d) flat = flat * bv.num(shape[d]) + coord[d];
    add_digits(flat, layout.shard(), sums, bv);
  }

  // Replica shifts, row-major (last replica iter fastest), as constants.
  std::vector<std::map<Axis, std::int64_t>> shifts{{}};
  for (const Iter& it : layout.replica()) {
    std::vector<std::map<Axis, std::int64_t>> next;
    for (const auto& s : shifts)
      for (std::int64_t r = 0; r < it.extent; ++r) {
        auto t = s;
        t[it.axis] = layout_detail::add(t[it.axis], layout_detail::mul(r, it.stride, "apply"), "apply");
        next.push_back(std::move(t));
      }
    shifts = std::move(next);
  }

  std::vector<std::vector<z3::expr>> owners;
  for (const auto& shift : shifts) {
    std::vector<z3::expr> owner;
    for (const Axis& a : axes) {
      std::int64_t constant = 0;
      if (const auto it = layout.offset().find(a); it != layout.offset().end()) constant = it->second;
      if (const auto it = shift.find(a); it != shift.end())
        constant = layout_detail::add(constant, it->second, "apply");
      const auto sum = sums.find(a);
      if (sum == sums.end()) owner.push_back(bv.num(constant));
      else owner.push_back(constant == 0 ? sum->second : sum->second + bv.num(constant));
    }
    owners.push_back(std::move(owner));
  }
  return owners;
}

}  // namespace mmacheck
