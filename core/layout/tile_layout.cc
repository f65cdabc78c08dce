// TileLayout construction, queries and apply.  The operations live in
// core/layout_*.cc, one per file.
#include "core/layout/tile_layout.h"

#include <algorithm>

#include "core/base/error.h"
#include "core/layout/detail.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

void check_extents(const std::vector<Iter>& iters) {
  for (const Iter& it : iters)
    if (it.extent <= 0)
      throw Error("TileLayout: extent must be positive, got " + std::to_string(it.extent) + " (iter on axis " +
                  it.axis.name() + ")");
}

// Every axis the layout names, at 0: the skeleton of an owner.
Owner zero_owner(const TileLayout& layout) {
  Owner owner;
  for (const Iter& it : layout.shard()) owner.emplace(it.axis, 0);
  for (const Iter& it : layout.replica()) owner.emplace(it.axis, 0);
  for (const auto& [axis, value] : layout.offset()) owner.emplace(axis, 0);
  return owner;
}

// The replica iters' contributions, row-major, last iter fastest.  Every
// element gets each of them, so their number is bounded before anything is
// allocated (the commands' --max-replicas is lower; this guards the algebra).
std::vector<Owner> replica_shifts(const std::vector<Iter>& replica) {
  constexpr std::int64_t kMaxReplicaOwners = std::int64_t{1} << 16;  // each owner is a map: 2^16 stay in megabytes
  std::int64_t count = 1;
  for (const Iter& it : replica)
    if (__builtin_mul_overflow(count, it.extent, &count) || count > kMaxReplicaOwners)
      throw Error("apply: the replicas give every element more than " + std::to_string(kMaxReplicaOwners) + " owners");
  std::vector<Owner> shifts{Owner{}};
  for (const Iter& it : replica) {
    std::vector<Owner> next;
    next.reserve(shifts.size() * static_cast<std::size_t>(it.extent));
    for (const Owner& shift : shifts)
      for (std::int64_t c = 0; c < it.extent; ++c) {
        Owner o = shift;
        o[it.axis] = layout_detail::add(o[it.axis], layout_detail::mul(c, it.stride, "apply"), "apply");
        next.push_back(std::move(o));
      }
    shifts = std::move(next);
  }
  return shifts;
}

}  // namespace

TileLayout::TileLayout(std::vector<Iter> shard, std::vector<Iter> replica, Offset offset)
    : shard_(std::move(shard)), replica_(std::move(replica)), offset_(std::move(offset)) {
  check_extents(shard_);
  check_extents(replica_);
  std::int64_t n = 1;
  for (const Iter& it : shard_) n = layout_detail::mul(n, it.extent, "TileLayout size");
}

TileLayout TileLayout::row_major(const Shape& shape) {
  std::vector<Iter> shard;
  std::int64_t stride = 1;
  for (auto it = shape.rbegin(); it != shape.rend(); ++it) {
    shard.push_back(Iter{*it, stride, Axis::m()});
    stride = layout_detail::mul(stride, *it, "row-major layout");
  }
  std::reverse(shard.begin(), shard.end());
  return TileLayout(std::move(shard));
}

std::int64_t TileLayout::size(std::optional<Axis> axis) const {
  std::int64_t n = 1;
  for (const Iter& it : shard_)
    if (!axis || it.axis == *axis) n *= it.extent;  // bounded by the constructor's check
  return n;
}

std::int64_t TileLayout::span(std::optional<Axis> axis) const {
  // With no axis the span is over the memory axes, so every axis must be
  // classified: TVM refuses an unregistered one ("no thread classification").
  const auto counts = [&](const Axis& a) {
    if (axis) return a == *axis;
    if (!a.is_registered())
      throw Error("layout " + str() + ": axis '" + a.name() +
                  "' is not registered, so its span over the memory axes is undefined (TVM: no thread classification)");
    return a.is_memory();
  };
  const char* what = "layout span";
  std::int64_t span = 1;
  for (const auto* iters : {&shard_, &replica_})
    for (const Iter& it : *iters)
      if (counts(it.axis)) span = layout_detail::add(span, layout_detail::mul(it.extent - 1, it.stride, what), what);
  for (const auto& [a, value] : offset_)
    if (counts(a)) span = layout_detail::add(span, value, what);
  return span;
}

Shape TileLayout::shard_shape() const {
  Shape shape;
  for (const Iter& it : shard_) shape.push_back(it.extent);
  return shape;
}

Owner TileLayout::apply_flat(std::int64_t index) const {
  if (index < 0 || index >= size())
    throw Error("apply: flat index " + std::to_string(index) + " out of range of layout " + str() + " of size " +
                std::to_string(size()));
  Owner owner = zero_owner(*this);
  for (auto it = shard_.rbegin(); it != shard_.rend(); ++it) {
    const std::int64_t c = index % it->extent;
    index /= it->extent;
    owner[it->axis] = layout_detail::add(owner[it->axis], layout_detail::mul(c, it->stride, "apply"), "apply");
  }
  for (const auto& [axis, value] : offset_) owner[axis] = layout_detail::add(owner[axis], value, "apply");
  return owner;
}

std::vector<Owner> TileLayout::apply(std::span<const std::int64_t> coord, std::span<const std::int64_t> shape) const {
  if (coord.size() != shape.size())
    throw Error("apply: coordinate " + list_text(coord) + " has " + std::to_string(coord.size()) + " dims but shape " +
                list_text(shape) + " has " + std::to_string(shape.size()));
  std::int64_t elements = 1;
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] <= 0) throw Error("apply: shape " + list_text(shape) + " has a non-positive extent");
    if (coord[d] < 0 || coord[d] >= shape[d])
      throw Error("apply: coordinate " + list_text(coord) + " out of range of shape " + list_text(shape));
    elements = layout_detail::mul(elements, shape[d], "apply: shape element count");
    flat = flat * shape[d] + coord[d];  // < elements, so no overflow
  }
  if (elements != size())
    throw Error("apply: shape " + list_text(shape) + " has " + std::to_string(elements) + " elements but layout " +
                str() + " has size " + std::to_string(size()));
  const Owner base = apply_flat(flat);
  std::vector<Owner> owners;
  for (const Owner& shift : replica_shifts(replica_)) {
    Owner o = base;
    for (const auto& [axis, value] : shift) o[axis] = layout_detail::add(o[axis], value, "apply");
    owners.push_back(std::move(o));
  }
  return owners;
}

TileLayout TileLayout::storage() const {
  const auto memory = [](const std::vector<Iter>& iters) {
    std::vector<Iter> kept;
    std::copy_if(iters.begin(), iters.end(), std::back_inserter(kept),
                 [](const Iter& it) { return it.axis.is_memory(); });
    return kept;
  };
  Offset offset;
  for (const auto& [axis, value] : offset_)
    if (axis.is_memory()) offset.emplace(axis, value);
  return TileLayout(memory(shard_), memory(replica_), std::move(offset));
}

TileLayout TileLayout::permute_dims(std::span<const int> perm) const {
  std::vector<int> sorted(perm.begin(), perm.end());
  std::sort(sorted.begin(), sorted.end());
  bool valid = sorted.size() == shard_.size();
  for (std::size_t i = 0; valid && i < sorted.size(); ++i) valid = sorted[i] == static_cast<int>(i);
  if (!valid)
    throw Error("permute_dims: " + list_text(perm) + " is not a permutation of the " + std::to_string(shard_.size()) +
                " shard iters of " + str());
  std::vector<Iter> shard;
  for (int i : perm) shard.push_back(shard_[i]);
  return TileLayout(std::move(shard), replica_, offset_);
}

}  // namespace mmacheck
