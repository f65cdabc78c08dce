// Storage: a buffer's placement, tabulated both ways.
#include <algorithm>
#include <set>

#include "core/base/checked.h"
#include "core/layout/named_axes.h"
#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

std::int64_t axis_value(const Axis& axis, Thread thread, std::int64_t slot) {
  if (axis == Axis::laneid()) return thread.lane;
  if (axis == Axis::warpid()) return thread.warp;
  if (axis == Axis::tx()) return 32 * std::int64_t{thread.warp} + thread.lane;
  return axis == Axis::m() ? slot : 0;
}

Storage::Storage(const BufferDecl& buffer) : buffer_(&buffer), span_(buffer.layout.span(Axis::m())) {
  const std::set<Axis> axes = named_axes(buffer.layout);
  axes_.assign(axes.begin(), axes.end());
}

const Storage::Tables& Storage::tables() const {
  if (tables_) return *tables_;
  const BufferDecl& buffer = *buffer_;
  // Bounded by check_resources (core/gemm/resources.h) before any Storage is made.
  const std::int64_t elements = checked_product(buffer.shape, "elements of '" + buffer.name + "'");
  auto t = std::make_shared<Tables>();
  t->owners.resize(static_cast<std::size_t>(elements));
  for (std::int64_t flat = 0; flat < elements; ++flat) {
    for (const Owner& o : buffer.layout.apply(coord(flat), buffer.shape)) {
      Key key;
      for (const Axis& a : axes_) key.push_back(owner_coord(o, a));
      t->owners[flat].push_back(key);
      t->inverse.emplace_back(std::move(key), flat);
    }
  }
  std::sort(t->inverse.begin(), t->inverse.end());
  tables_ = std::move(t);
  return *tables_;
}

std::optional<std::int64_t> Storage::held_by_scan(Thread thread, std::int64_t slot) const {
  if (tables_) return held(thread, slot);
  const Key k = key(thread, slot);
  const std::int64_t elements = checked_product(buffer_->shape, "elements of '" + buffer_->name + "'");
  for (std::int64_t flat = 0; flat < elements; ++flat)
    for (const Owner& o : buffer_->layout.apply(coord(flat), buffer_->shape)) {
      bool same = true;
      for (std::size_t a = 0; a < axes_.size() && same; ++a) same = owner_coord(o, axes_[a]) == k[a];
      if (same) return flat;
    }
  return std::nullopt;
}

Shape Storage::coord(std::int64_t flat) const {
  const Shape& shape = buffer_->shape;
  Shape c(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    c[d] = flat % shape[d];
    flat /= shape[d];
  }
  return c;
}

std::int64_t Storage::flat(std::span<const std::int64_t> coord) const {
  std::int64_t f = 0;
  for (std::size_t d = 0; d < coord.size(); ++d) f = f * buffer_->shape[d] + coord[d];
  return f;
}

Key Storage::key(Thread thread, std::int64_t slot) const {
  Key k;
  for (const Axis& a : axes_) k.push_back(axis_value(a, thread, slot));
  return k;
}

bool Storage::places(std::int64_t flat, Thread thread, std::int64_t slot) const {
  const Key k = key(thread, slot);
  const std::vector<Key>& owners = tables().owners[flat];
  return std::find(owners.begin(), owners.end(), k) != owners.end();
}

std::optional<std::int64_t> Storage::held(Thread thread, std::int64_t slot) const {
  const Key k = key(thread, slot);
  const auto& inverse = tables().inverse;
  const auto it = std::lower_bound(inverse.begin(), inverse.end(), std::pair{k, std::int64_t{0}});
  if (it == inverse.end() || it->first != k) return std::nullopt;
  return it->second;
}

int Storage::axis_index(const Axis& axis) const {
  const auto it = std::find(axes_.begin(), axes_.end(), axis);
  return it == axes_.end() ? -1 : static_cast<int>(it - axes_.begin());
}

std::string_view gemm_operand_name(GemmOperand op) {
  switch (op) {
    case GemmOperand::A: return "A";
    case GemmOperand::B: return "B";
    case GemmOperand::C: return "C";
    case GemmOperand::D: return "D";
  }
  return "?";
}

}  // namespace mmacheck::prove_detail
