// Where each element of an operand's logical tile lives in a warp's
// registers under a PTX frame: tile element i (row-major) is in `lane`'s
// frame register `reg`, at bit `shift`.  Built once per frame, it lets the
// warp machine move a tile between register files and the arithmetic model
// without materialising per-lane register arrays on every mma.
//
//     TileRoute r(inst.frame(Operand::A));      // m16n8k16 A: 256 elements
//     r[0] == {.lane = 0, .reg = 0, .shift = 0, .sub = 0}  // A[0][0]: lane 0, a0, low half
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/ptx_frame.h"

namespace mmacheck::sim {

struct ElementPlace {
  std::uint8_t lane;
  std::uint8_t reg;    // the frame's register index (a0, a1, ...)
  std::uint8_t shift;  // bit offset of the element in that register
  std::uint8_t sub;    // the element's index in that register: shift / element bits
};

class TileRoute {
 public:
  // Throws Error when the frame does not cover each tile element exactly once.
  explicit TileRoute(const Frame& frame);

  const Frame& frame() const { return *frame_; }
  std::size_t size() const { return places_.size(); }
  const ElementPlace& operator[](std::size_t i) const { return places_[i]; }
  std::span<const ElementPlace> places() const { return places_; }

 private:
  const Frame* frame_;
  std::vector<ElementPlace> places_;
};

}  // namespace mmacheck::sim
