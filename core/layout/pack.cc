// TVM's pack / unpack (python/tvm_tirx/tirx/layout.py of 0.1.0a4): change
// the element size on one storage axis.  unpack(n) splits every element into
// n contiguous ones: strides and offsets on the axis times n, and a new
// innermost iter (n, 1, axis).  pack(n) is its inverse: the innermost iter
// must be (e, 1, axis) with n | e; it becomes (e / n, 1, axis) and every
// other stride and offset on the axis (shard and replica) is divided by n,
// which must divide it.  Neither canonicalizes.
#include "core/layout/detail.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

namespace {

void check_count(std::int64_t num, std::string_view op) {
  if (num <= 0) throw Error(std::string(op) + ": the element count must be positive, got " + std::to_string(num));
}

}  // namespace

TileLayout TileLayout::unpack(std::int64_t num, const Axis& axis) const {
  check_count(num, "unpack");
  const auto scale = [&](std::vector<Iter> iters) {
    for (Iter& it : iters)
      if (it.axis == axis) it.stride = layout_detail::mul(it.stride, num, "unpack");
    return iters;
  };
  std::vector<Iter> shard = scale(shard_);
  shard.push_back(Iter{num, 1, axis});
  Offset offset = offset_;
  for (auto& [a, v] : offset)
    if (a == axis) v = layout_detail::mul(v, num, "unpack");
  return TileLayout(std::move(shard), scale(replica_), std::move(offset));
}

TileLayout TileLayout::pack(std::int64_t num, const Axis& axis) const {
  check_count(num, "pack");
  if (shard_.empty() || shard_.back().stride != 1 || shard_.back().extent % num != 0 || shard_.back().axis != axis)
    throw Error("layout " + str() + " can not be packed into " + std::to_string(num) +
                " elements (its innermost iter must be a multiple of " + std::to_string(num) + " at stride 1 on " +
                axis.name() + ")");
  const auto scale = [&](std::vector<Iter> iters) {
    for (Iter& it : iters) {
      if (it.axis != axis) continue;
      if (it.stride % num != 0)
        throw Error("layout " + str() + ": storage stride " + std::to_string(it.stride) + " is not divisible by " +
                    std::to_string(num));
      it.stride /= num;
    }
    return iters;
  };
  std::vector<Iter> shard(shard_.begin(), shard_.end() - 1);
  shard = scale(std::move(shard));
  shard.push_back(Iter{shard_.back().extent / num, 1, axis});
  Offset offset = offset_;
  for (auto& [a, v] : offset) {
    if (a != axis) continue;
    if (v % num != 0)
      throw Error("layout " + str() + ": storage offset " + std::to_string(v) + " is not divisible by " +
                  std::to_string(num));
    v /= num;
  }
  return TileLayout(std::move(shard), scale(replica_), std::move(offset));
}

}  // namespace mmacheck
