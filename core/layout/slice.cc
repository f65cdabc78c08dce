// TVM's TileLayoutNode::Slice and SlicePerGroup (src/tirx/ir/layout/tile_slice.cc).
//
// Each logical dim owns one group of shard iters (after canonicalize and
// group).  A range [begin, begin + extent) of that dim is a mixed-radix
// interval over the group's extents.  The start moves into the offset; the
// interval itself must again be a product of iters, which happens when
//  - the group is a single iter (any range);
//  - the fastest iters are covered whole (peeled), and the range then sits
//    inside one value of the rest, or inside one iter (the pivot);
//  - the range crosses the pivot's end exactly at its midpoint, with the
//    next slower iter on the same axis: two pieces of extent/2, the second
//    one jump (delta) away from the first.
// Any other range gives nullopt.
#include "core/layout/detail.h"
#include "core/layout/shape_text.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

namespace {

const char* const kWhat = "slice";

void add_offset(Offset& offset, const Axis& axis, std::int64_t value) {
  offset[axis] = layout_detail::add(offset[axis], value, kWhat);
}

// The slice [begin, begin + extent) of one group; its offset holds the
// start only.
std::optional<TileLayout> slice_group(const TileLayout& group, std::int64_t begin, std::int64_t extent, Target target) {
  const std::vector<Iter> shard = group.canonicalize(target).shard();
  const int n = static_cast<int>(shard.size());
  if (n == 0) return std::nullopt;

  // start[k]: begin's digit in iter k (mixed radix, last iter fastest).
  std::vector<std::int64_t> start(n);
  Offset offset;
  std::int64_t below = 1;  // product of the extents after k
  for (int k = n - 1; k >= 0; --k) {
    start[k] = n == 1 ? begin / below : (begin / below) % shard[k].extent;
    below *= shard[k].extent;
    add_offset(offset, shard[k].axis, layout_detail::mul(start[k], shard[k].stride, kWhat));
  }
  if (n == 1) return TileLayout({Iter{extent, shard[0].stride, shard[0].axis}}, {}, offset);

  std::int64_t rest = extent;
  int pivot = n - 1;
  while (pivot >= 0 && start[pivot] == 0 && rest % shard[pivot].extent == 0) {
    rest /= shard[pivot].extent;
    --pivot;
  }
  const std::vector<Iter> peeled(shard.begin() + (pivot + 1), shard.end());
  const auto with_peeled = [&](std::vector<Iter> head) {
    head.insert(head.end(), peeled.begin(), peeled.end());
    return TileLayout(std::move(head), {}, offset);
  };
  if (pivot < 0) {
    if (rest != 1) return std::nullopt;
    return with_peeled({});
  }

  const Iter& p = shard[pivot];
  if (start[pivot] + rest <= p.extent) return with_peeled({Iter{rest, p.stride, p.axis}});

  const std::int64_t half = rest / 2;
  const bool at_midpoint = rest % 2 == 0 && start[pivot] + half == p.extent;
  if (at_midpoint && (pivot == 0 || shard[pivot - 1].axis == p.axis)) {
    const std::int64_t slower = pivot > 0 ? shard[pivot - 1].stride : 0;
    const std::int64_t delta = layout_detail::sub(slower, layout_detail::mul(p.extent - half, p.stride, kWhat), kWhat);
    return with_peeled({Iter{2, delta, p.axis}, Iter{half, p.stride, p.axis}});
  }
  return std::nullopt;
}

}  // namespace

std::optional<TileLayout> TileLayout::slice(const Shape& shape, const Region& region, Target target) const {
  const auto region_text = [&] {
    std::string s = "[";
    for (std::size_t i = 0; i < region.size(); ++i) {
      if (i > 0) s += ", ";
      s += "(" + std::to_string(region[i].first) + ", " + std::to_string(region[i].second) + ")";
    }
    s += ']';
    return s;
  };
  if (region.size() != shape.size())
    throw Error("slice: region " + region_text() + " does not match the rank of shape " + list_text(shape));
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (region[d].first < 0 || region[d].first >= region[d].second || region[d].second > shape[d])
      throw Error("slice: region " + region_text() + " is empty or out of range of shape " + list_text(shape));

  const GroupedLayout grouped = canonicalize(target).group(shape);
  std::vector<Iter> shard;
  Offset offset = grouped.layout().offset();
  for (int d = 0; d < grouped.groups(); ++d) {
    const std::span<const Iter> iters = grouped.group(d);
    const std::optional<TileLayout> piece = slice_group(TileLayout(std::vector<Iter>(iters.begin(), iters.end())),
                                                        region[d].first, region[d].second - region[d].first, target);
    if (!piece) return std::nullopt;
    shard.insert(shard.end(), piece->shard().begin(), piece->shard().end());
    for (const auto& [axis, value] : piece->offset()) add_offset(offset, axis, value);
  }
  return TileLayout(std::move(shard), grouped.layout().replica(), std::move(offset));
}

}  // namespace mmacheck
