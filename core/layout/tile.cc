// TVM's TileLayoutNode::Tile and the Python tile_to.
//
// inner.tile(outer, outer_shape, inner_shape) lays out a tensor of shape
// outer_shape[i] * inner_shape[i]: each element's tile index goes through
// `outer`, its position inside the tile through `inner`.  On an axis both
// use, the outer strides count whole inner spans, so tiles do not overlap:
//
//   S[2 : 1].tile(S[4 : 1], [4], [2]) == S[8 : 1]     (stride 1 -> 2, fused)
#include <map>

#include "core/layout/detail.h"
#include "core/layout/shape_text.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

TileLayout TileLayout::tile(const TileLayout& outer_in, const Shape& outer_shape, const Shape& inner_shape,
                            Target target) const {
  if (outer_shape.size() != inner_shape.size())
    throw Error("tile: outer shape " + list_text(outer_shape) + " and inner shape " + list_text(inner_shape) +
                " have different ranks");
  const GroupedLayout outer = outer_in.canonicalize(target).group(outer_shape);
  const GroupedLayout inner = canonicalize(target).group(inner_shape);

  // The span of the inner layout on each axis its shard uses.
  std::map<Axis, std::int64_t> inner_span;
  for (const Iter& it : inner.layout().shard())
    if (!inner_span.contains(it.axis)) inner_span.emplace(it.axis, inner.layout().span(it.axis));
  const auto scaled = [&](const Iter& it) {
    const auto span = inner_span.find(it.axis);
    if (span == inner_span.end()) return it;
    return Iter{it.extent, layout_detail::mul(it.stride, span->second, "tile"), it.axis};
  };

  std::vector<Iter> shard;
  for (int d = 0; d < outer.groups(); ++d) {
    for (const Iter& it : outer.group(d)) shard.push_back(scaled(it));
    for (const Iter& it : inner.group(d)) shard.push_back(it);
  }
  std::vector<Iter> replica = inner.layout().replica();
  replica.insert(replica.end(), outer.layout().replica().begin(), outer.layout().replica().end());
  Offset offset = inner.layout().offset();
  for (const auto& [axis, value] : outer.layout().offset())
    offset[axis] = layout_detail::add(offset[axis], value, "tile");
  return TileLayout(std::move(shard), std::move(replica), std::move(offset)).canonicalize(target);
}

TileLayout TileLayout::tile_to(const Shape& to_shape, const Shape& current_shape, Target target) const {
  const auto fail = [&](const std::string& why) {
    return Error("tile_to: can not tile " + list_text(current_shape) + " to " + list_text(to_shape) + ": " + why);
  };
  if (to_shape.size() != current_shape.size()) throw fail("different ranks");
  Shape tiles;
  for (std::size_t i = 0; i < to_shape.size(); ++i) {
    if (current_shape[i] <= 0 || to_shape[i] <= 0) throw fail("extent must be positive");
    if (to_shape[i] % current_shape[i] != 0) throw fail("not a multiple");
    tiles.push_back(to_shape[i] / current_shape[i]);
  }
  return tile(row_major(tiles), tiles, current_shape, target);
}

}  // namespace mmacheck
