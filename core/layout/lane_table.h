// lane_table — an owner map (owner_map.h) turned around: one row per
// thread, one column per register slot, each cell the elements held there.
// It answers "which elements does lane 5 hold in which register", as
// `layout --by-lane` prints it.
//
// A row is keyed by the thread axes' coordinates, outer scope first
// (warpid before laneid); a column by the memory axes' coordinates, in
// name order (m, or P and m, ...); a cell lists the logical coordinates in
// the map's order (row-major), one per replica that lands there.
//
//   S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)] over [16, 8], lane 5:
//     thread_axes {laneid}, memory_axes {m},
//     rows {{5}: {{0}: [(1, 2)], {1}: [(1, 3)], {2}: [(9, 2)], {3}: [(9, 3)]}}
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/layout/owner_map.h"

namespace mmacheck {

struct LaneTable {
  std::vector<Axis> thread_axes, memory_axes;
  // thread coordinates -> memory coordinates -> the elements held there.
  std::map<std::vector<std::int64_t>, std::map<std::vector<std::int64_t>, std::vector<Shape>>> rows;
};

// `axes` are the axes the map's owners list (named_axes of its layout).
// With `lane`, only the rows of that lane of the warp: laneid, or tx % 32
// for a layout over tx (the rows are empty when the lane holds nothing).
LaneTable lane_table(const std::vector<ElementOwners>& map, const std::set<Axis>& axes,
                     std::optional<int> lane = std::nullopt);

}  // namespace mmacheck
