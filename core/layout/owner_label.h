// owner_label — the compact text of an element's owners, as the `layout`
// grid and the `draw` pictures show them.
//
//   T5:3         laneid 5, register slot (m) 3
//   W1.T5:3      warpid 1, laneid 5, slot 3 (thread axes outer scope first)
//   tx=37:3      other thread axes as name=value
//   T5:3,P=1     memory axes other than m as name=value after the ':'
//   T0:1|T16:1   replicas, joined by '|'
#pragma once

#include <string>
#include <vector>

#include "core/layout/tile_layout.h"

namespace mmacheck {

std::string owner_label(const std::vector<Owner>& owners);
// How a thread axis is written in a label: "T" (laneid), "W" (warpid), else "name=".
std::string thread_axis_prefix(const Axis& axis);

}  // namespace mmacheck
