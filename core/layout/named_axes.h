// named_axes — every axis a layout names, in its shard, its replica or its
// offset, ordered by name (Axis's order).  These are the keys of each owner
// apply() returns, and the columns of the `layout` command's tables.
//
//   named_axes(S[(16, 2) : (1@laneid, 1)] + R[2 : 1@warpid] + 4@P) == {P, laneid, m, warpid}
#pragma once

#include <set>

#include "core/layout/tile_layout.h"

namespace mmacheck {

std::set<Axis> named_axes(const TileLayout& layout);

}  // namespace mmacheck
