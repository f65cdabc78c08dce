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

// One owner's coordinates, each an exact sum until narrowed.
using ExactOwner = std::map<Axis, layout_detail::ExactSum>;

// Every axis the layout names, at 0: the skeleton of an owner.
ExactOwner zero_owner(const TileLayout& layout) {
  ExactOwner owner;
  for (const Iter& it : layout.shard()) owner.emplace(it.axis, 0);
  for (const Iter& it : layout.replica()) owner.emplace(it.axis, 0);
  for (const auto& [axis, value] : layout.offset()) owner.emplace(axis, 0);
  return owner;
}

// D(index) + O, exact.
ExactOwner shard_owner(const TileLayout& layout, std::int64_t index) {
  ExactOwner owner = zero_owner(layout);
  for (auto it = layout.shard().rbegin(); it != layout.shard().rend(); ++it) {
    owner[it->axis].add(index % it->extent, it->stride);
    index /= it->extent;
  }
  for (const auto& [axis, value] : layout.offset()) owner[axis].add(value);
  return owner;
}

Owner narrowed(const ExactOwner& exact, const TileLayout& layout, std::int64_t index) {
  Owner owner;
  for (const auto& [axis, sum] : exact) {
    const std::optional<std::int64_t> v = sum.narrow();
    if (!v)
      sum.fail("apply: coordinate " + axis.name() + " of flat index " + std::to_string(index) + " of layout " +
               layout.str());
    owner.emplace_hint(owner.end(), axis, *v);
  }
  return owner;
}

// The number of replica owners of every element, bounded before anything is
// allocated (the commands' --max-replicas is lower; this guards the algebra).
std::int64_t replica_count(const std::vector<Iter>& replica) {
  constexpr std::int64_t kMaxReplicaOwners = std::int64_t{1} << 16;  // each owner is a map: 2^16 stay in megabytes
  std::int64_t count = 1;
  for (const Iter& it : replica)
    if (__builtin_mul_overflow(count, it.extent, &count) || count > kMaxReplicaOwners)
      throw Error("apply: the replicas give every element more than " + std::to_string(kMaxReplicaOwners) + " owners");
  return count;
}

}  // namespace

TileLayout::TileLayout(std::vector<Iter> shard, std::vector<Iter> replica, Offset offset)
    : shard_(std::move(shard)), replica_(std::move(replica)), offset_(std::move(offset)) {
  check_extents(shard_);
  check_extents(replica_);
  std::int64_t n = 1;
  for (const Iter& it : shard_) n = layout_detail::mul(n, it.extent, "layout size (the product of the shard extents)");
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
  layout_detail::ExactSum span(1);
  for (const auto* iters : {&shard_, &replica_})
    for (const Iter& it : *iters)
      if (counts(it.axis)) span.add(it.extent - 1, it.stride);
  for (const auto& [a, value] : offset_)
    if (counts(a)) span.add(value);
  if (const std::optional<std::int64_t> v = span.narrow()) return *v;
  span.fail("the span of layout " + str() + (axis ? " on axis " + axis->name() : " over its memory axes"));
}

std::pair<std::int64_t, std::int64_t> TileLayout::owner_range(const Axis& axis) const {
  layout_detail::ExactSum low, high;
  for (const auto* iters : {&shard_, &replica_})
    for (const Iter& it : *iters)
      if (it.axis == axis) (it.stride < 0 ? low : high).add(it.extent - 1, it.stride);
  if (const auto it = offset_.find(axis); it != offset_.end()) {
    low.add(it->second);
    high.add(it->second);
  }
  const auto fitting = [&](const layout_detail::ExactSum& sum, const char* which) {
    if (const std::optional<std::int64_t> v = sum.narrow()) return *v;
    sum.fail(std::string("the ") + which + " coordinate on axis " + axis.name() + " of layout " + str());
  };
  return {fitting(low, "least"), fitting(high, "greatest")};
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
  return narrowed(shard_owner(*this, index), *this, index);
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
  const ExactOwner base = shard_owner(*this, flat);
  const std::int64_t replicas = replica_count(replica_);
  std::vector<Owner> owners;
  owners.reserve(static_cast<std::size_t>(replicas));
  // Replica r's digits, row-major (last replica iter fastest).
  for (std::int64_t r = 0; r < replicas; ++r) {
    ExactOwner o = base;
    std::int64_t rest = r;
    for (auto it = replica_.rbegin(); it != replica_.rend(); ++it) {
      o[it->axis].add(rest % it->extent, it->stride);
      rest /= it->extent;
    }
    owners.push_back(narrowed(o, *this, flat));
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
