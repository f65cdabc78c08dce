#include "core/program/release_ldmatrix.h"

#include <algorithm>

#include "core/layout/shape_text.h"
#include "core/program/program.h"

namespace mmacheck {

namespace {

// The element at `coords` of the region: the view's row-major index.
std::int64_t flat_index(const ReleaseMatrixOperand& op, const std::vector<std::int64_t>& coords) {
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < op.shape.size(); ++d) flat = flat * op.shape[d] + coords[d];
  return flat;
}

// begin + (repeat..., matrix, row, word), the pattern's canonical coordinate.
std::vector<std::int64_t> at(const ReleaseMatrixOperand& op, const Shape& repeat, std::int64_t matrix, std::int64_t row,
                             std::int64_t word) {
  std::vector<std::int64_t> c = repeat;
  c.insert(c.end(), {matrix, row, word});
  for (std::size_t d = 0; d < c.size(); ++d) c[d] += op.begin[d];
  return c;
}

// Every repeat index of the region's leading axes, row-major.
std::vector<Shape> repeat_indices(const Shape& extent) {
  std::vector<Shape> out{Shape{}};
  for (std::size_t d = 0; d + 3 < extent.size(); ++d) {
    std::vector<Shape> next;
    for (const Shape& r : out)
      for (std::int64_t i = 0; i < extent[d]; ++i) {
        Shape s = r;
        s.push_back(i);
        next.push_back(std::move(s));
      }
    out = std::move(next);
  }
  return out;
}

std::string coord(const std::vector<std::int64_t>& c) { return tuple_text(c); }

}  // namespace

std::optional<std::pair<int, bool>> ldmatrix_opcode(std::string_view opcode) {
  constexpr std::string_view kHead = "ldmatrix.sync.aligned.m8n8.x";
  if (!opcode.starts_with(kHead) || opcode.size() < kHead.size() + 1) return std::nullopt;
  const char n = opcode[kHead.size()];
  if (n != '1' && n != '2' && n != '4') return std::nullopt;
  std::string_view rest = opcode.substr(kHead.size() + 1);
  const bool trans = rest.starts_with(".trans");
  if (trans) rest.remove_prefix(6);
  if (rest.starts_with(".shared::cta")) rest.remove_prefix(12);
  else if (rest.starts_with(".shared")) rest.remove_prefix(7);
  if (rest != ".b16") return std::nullopt;
  return std::pair{n - '0', trans};
}

std::int64_t view_word(const ReleaseMatrixOperand& view, const std::vector<std::int64_t>& indices) {
  return owner_coord(view.layout.apply_flat(flat_index(view, indices)), Axis::m());
}

std::optional<std::string> ldmatrix_refusal(const ReleaseMatrixCopy& copy) {
  const Shape atom{copy.num, 8, 4};
  std::optional<Shape> repeats;
  // Region(): scope, trailing atom shape, repeats, bounds; dst first.
  const auto region = [&](const ReleaseMatrixOperand& op, const std::string& name,
                          bool local) -> std::optional<std::string> {
    if ((op.scope == MemScope::local) != local)
      return name + ": expected storage scope " + (local ? "('local',)" : "('shared', 'shared.dyn')") + ", got " +
             std::string(mem_scope_name(op.scope));
    const Shape& s = op.extent;
    if (s.size() < 3 || !std::equal(atom.begin(), atom.end(), s.end() - 3))
      return name + ": expected trailing atom shape " + tuple_text(atom) + ", got " + tuple_text(s);
    const Shape rep(s.begin(), s.end() - 3);
    if (!repeats) repeats = rep;
    if (rep != *repeats)
      return "Repeat shapes must agree: " + name + "=" + tuple_text(rep) + ", expected " + tuple_text(*repeats);
    for (std::size_t d = 0; d < s.size(); ++d) {
      if (op.begin[d] < 0) return name + ": cannot prove region start is in bounds";
      if (op.begin[d] + s[d] > op.shape[d]) return name + ": region exceeds tensor shape";
    }
    return std::nullopt;
  };
  if (auto r = region(copy.dst, "dst", true)) return r;
  if (auto r = region(copy.src, "src", false)) return r;
  for (const auto& [op, name] : {std::pair{&copy.src, "src"}, std::pair{&copy.dst, "dst"}})
    if (op->bits != 32) return std::string(name) + ": expected scalar 32-bit elements; use an explicit dtype view";

  const std::vector<Shape> reps = repeat_indices(copy.src.extent);
  for (std::int64_t matrix = 0; matrix < copy.num; ++matrix)
    for (std::int64_t row = 0; row < 8; ++row) {
      // smem.contiguous: a 16-byte aligned row, then its four words in order.
      for (const Shape& rep : reps) {
        std::int64_t base = 0;
        for (std::int64_t word = 0; word < 4; ++word) {
          const std::vector<std::int64_t> c = at(copy.src, rep, matrix, row, word);
          const Owner o = copy.src.layout.apply_flat(flat_index(copy.src, c));
          for (const auto& entry : o)
            if (!(entry.first == Axis::m())) return "src: memory operand has thread or TMEM axes";
          const std::int64_t m = owner_coord(o, Axis::m());
          if (word == 0) {
            base = m;
            if (m * copy.src.bits % 128 != 0)
              return "src: atom address must be 16-byte aligned: row " + coord(c) + " of '" + copy.src.view +
                     "' starts at word " + std::to_string(m) + " (byte " + std::to_string(4 * m) + ")";
          } else if (m != base + word) {
            return "src: atom needs consecutive elements in canonical order: word " + coord(c) + " of '" +
                   copy.src.view + "' is at word " + std::to_string(m) + ", not " + std::to_string(base + word);
          }
        }
      }
      // regs.owner: word (matrix, row, w) of the registers belongs to lane 4·row + w.
      for (std::int64_t word = 0; word < 4; ++word)
        for (const Shape& rep : reps) {
          const std::int64_t lane = 4 * row + word;
          const std::vector<std::int64_t> c = at(copy.dst, rep, matrix, row, word);
          Owner o = copy.dst.layout.apply_flat(flat_index(copy.dst, c));
          std::erase_if(o, [](const auto& e) {
            return !(e.first == Axis::m()) && !(e.first == Axis::laneid()) && e.second == 0;
          });
          std::string axes;
          bool unexpected = false;
          for (const auto& entry : o) {
            const Axis& axis = entry.first;
            axes += (axes.empty() ? "'" : ", '") + axis.name() + "'";
            unexpected = unexpected || (!(axis == Axis::m()) && !(axis == Axis::laneid()));
          }
          if (unexpected) return "dst: unexpected ownership axes (" + axes + ")";
          if (const std::int64_t owner = owner_coord(o, Axis::laneid()); owner != lane)
            return "dst: incorrect laneid owner; expected " + std::to_string(lane) + ": word " + coord(c) + " of '" +
                   copy.dst.view + "' is in lane " + std::to_string(owner);
        }
    }
  // regs.nonoverlapping
  std::vector<std::pair<std::int64_t, std::int64_t>> storage;
  for (const Iter& it : copy.dst.layout.shard())
    if (it.axis == Axis::m() && it.extent > 1) storage.emplace_back(it.stride, it.extent);
  std::sort(storage.begin(), storage.end());
  std::int64_t span = 1;
  for (const auto& [stride, extent] : storage) {
    if (stride < span) return "dst: register layout must have nonoverlapping storage strides";
    span += (extent - 1) * stride;
  }
  return std::nullopt;
}

LdmatrixLowering ldmatrix_lowering(const ReleaseMatrixCopy& copy) {
  // Repeat axes of extent 1 (a warp's own slice, `A_w[warp:warp + 1, ...]`) run the instruction once.
  const auto single = [](const ReleaseMatrixOperand& op) {
    return op.extent.size() >= 3 &&
           std::all_of(op.extent.begin(), op.extent.end() - 3, [](std::int64_t e) { return e == 1; });
  };
  if (!single(copy.dst) || !single(copy.src))
    throw Error(copy.loc,
                "mmacheck reads the ldmatrix pattern on (count, 8, 4) regions, without repeat axes (or of extent 1)");
  const Shape dst_rep(copy.dst.extent.size() - 3, 0), src_rep(copy.src.extent.size() - 3, 0);
  LdmatrixLowering out;
  for (std::int64_t i = 0; i < copy.num; ++i) {
    std::optional<std::int64_t> word;
    for (std::int64_t lane = 0; lane < 32; ++lane) {
      const std::vector<std::int64_t> c = at(copy.dst, dst_rep, i, lane / 4, lane % 4);
      const std::int64_t w = view_word(copy.dst, c);
      if (word && *word != w)
        throw Error(copy.loc, "register " + std::to_string(i) + " of the ldmatrix is word " + std::to_string(*word) +
                                  " of '" + copy.dst.alloc + "' in lane 0 but word " + std::to_string(w) + " in lane " +
                                  std::to_string(lane) + " (a lane-dependent register; mmacheck reads one per matrix)");
      word = w;
    }
    out.words.push_back(*word);
  }
  for (std::int64_t lane = 0; lane < 8 * copy.num; ++lane)
    out.lane_words.push_back(view_word(copy.src, at(copy.src, src_rep, lane / 8 % copy.num, lane % 8, 0)));
  return out;
}

}  // namespace mmacheck
