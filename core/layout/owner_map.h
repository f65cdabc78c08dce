// owner_map — who holds every element of a tensor under a layout: for each
// logical coordinate, in row-major order, its owners (one per replica, in
// replica order, as apply() gives them), each listing every axis the layout
// names (named_axes.h), zeros included.  The `layout --shape` map and the
// `--by-lane` tables (lane_table.h) are read off it.
//
//   owner_map(S[(2, 4) : (1@warpid, 1@laneid)], {8}, "--shape", 64)[5]
//       == {coord (5), owners {{laneid: 1, warpid: 1}}}
//
// The map lists (elements x replicas) owners; `max_owners` bounds it, since
// the shape is user input.  Errors name the shape as `shape_name` (the
// option or buffer it came from): "--shape [16, 8] has 128 elements but the
// layout covers 256", "--shape: the map would list more than 4194304 owners".
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/layout/tile_layout.h"

namespace mmacheck {

struct ElementOwners {
  Shape coord;
  std::vector<Owner> owners;
};

// Throws Error unless every extent of `shape` is positive, its element count
// is the layout's size and the map stays within `max_owners` owners.
std::vector<ElementOwners> owner_map(const TileLayout& layout, const Shape& shape, std::string_view shape_name,
                                     std::int64_t max_owners);

}  // namespace mmacheck
