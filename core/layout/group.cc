// TVM's Group (src/tirx/ir/layout/tile_tile_ops.cc) and GroupedLayout.
//
// Walking the shard left to right, the running product of extents must pass
// through every prefix product of the shape; an iter that a prefix boundary
// falls inside is split in two, its outer part taking stride * inner extent.
// S[(4, 8) : (8, 1)] grouped by [8, 4]: the boundary 8 falls inside the
// second iter, giving (4, 8), (2, 4), (4, 1) with seps [0, 2, 3].
#include <algorithm>

#include "core/layout/detail.h"
#include "core/layout/shape_text.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

GroupedLayout TileLayout::group(const Shape& shape) const {
  const auto fail = [&] { return Error("layout " + str() + " can not be grouped by shape " + list_text(shape)); };
  for (std::int64_t e : shape)
    if (e <= 0)
      throw Error("group: extent must be positive, got " + std::to_string(e) + " in shape " + list_text(shape));

  std::vector<Iter> out;
  std::vector<int> seps{0};
  std::size_t dim = 0;
  std::int64_t prod = 1;  // the part of the current dim's extent met so far
  for (const Iter& it : shard_) {
    std::int64_t extent = it.extent;
    prod *= extent;  // bounded by the shard size
    while (dim < shape.size() && prod % shape[dim] == 0) {
      const std::int64_t inner = prod / shape[dim];  // what spills into later dims
      if (extent % inner != 0) throw fail();
      out.push_back(Iter{extent / inner, layout_detail::mul(it.stride, inner, "group"), it.axis});
      extent = inner;
      prod = inner;
      ++dim;
      seps.push_back(static_cast<int>(out.size()));
    }
    if (extent != 1) {
      if (dim >= shape.size()) throw fail();
      out.push_back(Iter{extent, it.stride, it.axis});
    }
  }
  if (dim != shape.size()) throw fail();
  return GroupedLayout(TileLayout(std::move(out), replica_, offset_), std::move(seps));
}

GroupedLayout::GroupedLayout(TileLayout layout, std::vector<int> seps)
    : layout_(std::move(layout)), seps_(std::move(seps)) {
  const bool valid = !seps_.empty() && seps_.front() == 0 && seps_.back() == static_cast<int>(layout_.shard().size()) &&
                     std::is_sorted(seps_.begin(), seps_.end());
  if (!valid)
    throw Error("GroupedLayout: separators " + list_text(seps_) + " do not split the " +
                std::to_string(layout_.shard().size()) + " shard iters of " + layout_.str());
}

std::span<const Iter> GroupedLayout::group(int g) const {
  if (g < 0 || g >= groups())
    throw Error("GroupedLayout: group " + std::to_string(g) + " out of range of " + std::to_string(groups()) +
                " groups");
  return std::span<const Iter>(layout_.shard()).subspan(seps_[g], seps_[g + 1] - seps_[g]);
}

TileLayout GroupedLayout::permute_by_groups(std::span<const int> perm) const {
  std::vector<int> sorted(perm.begin(), perm.end());
  std::sort(sorted.begin(), sorted.end());
  bool valid = static_cast<int>(sorted.size()) == groups();
  for (std::size_t i = 0; valid && i < sorted.size(); ++i) valid = sorted[i] == static_cast<int>(i);
  if (!valid)
    throw Error("permute_by_groups: " + list_text(perm) + " is not a permutation of the " + std::to_string(groups()) +
                " groups of " + layout_.str());
  std::vector<int> flat;
  for (int g : perm)
    for (int k = seps_[g]; k < seps_[g + 1]; ++k) flat.push_back(k);
  return layout_.permute_dims(flat);
}

}  // namespace mmacheck
