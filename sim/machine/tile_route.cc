#include "sim/machine/tile_route.h"

#include <string>

#include "core/base/error.h"
#include "sim/machine/fragment.h"

namespace mmacheck::sim {

TileRoute::TileRoute(const Frame& frame) : frame_(&frame) {
  const std::size_t elements = static_cast<std::size_t>(frame.rows) * frame.cols;
  std::vector<bool> seen(elements, false);
  places_.resize(elements);
  for (int lane = 0; lane < kWarpLanes; ++lane)
    for (int e = 0; e < frame.elems(); ++e) {
      const TileCoord at = frame.at(lane, e);
      const std::size_t i = static_cast<std::size_t>(at.row) * frame.cols + at.col;
      if (at.row < 0 || at.row >= frame.rows || at.col < 0 || at.col >= frame.cols || seen[i])
        throw Error("the " + std::string(frame.shape) + " " + std::string(operand_name(frame.operand)) +
                    " frame does not place each tile element once (lane " + std::to_string(lane) + ", element " +
                    std::to_string(e) + ")");
      seen[i] = true;
      places_[i] = {static_cast<std::uint8_t>(lane), static_cast<std::uint8_t>(e / frame.per_reg()),
                    static_cast<std::uint8_t>((e % frame.per_reg()) * frame.elem_bits),
                    static_cast<std::uint8_t>(e % frame.per_reg())};
    }
  for (std::size_t i = 0; i < elements; ++i)
    if (!seen[i])
      throw Error("the " + std::string(frame.shape) + " " + std::string(operand_name(frame.operand)) +
                  " frame leaves tile element " + std::to_string(i) + " unplaced");
}

}  // namespace mmacheck::sim
