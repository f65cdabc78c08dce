#include "core/wgmma/wgmma_frame.h"

namespace mmacheck {

namespace {
using Bits = std::array<int, 8>;

// PTX ISA §9.7.15.5.1.1, Figures 148-153.  Columns: shape, fragment, element
// bits, K (A) or 0 (D), then row = (warp, g, t, bits) and col = (warp, g, t,
// bits).  D: c0..c3 of mma.m16n8 repeated every 8 columns (bits 2.. step 8,
// 16, ... up to N = 256); the same for every K and for f16 or 32-bit elements.
constexpr Bits kDCols{1, 0, 8, 16, 32, 64, 128, 0};
constexpr WgmmaFrame kFrames[] = {
    // m64nNk16, f16/bf16 A: a0..a7 in four .f16x2 registers (Figure 148).
    {"m64nNk16", WgmmaFragment::A, 16, 16, {16, 1, 0, Bits{0, 8, 0}}, {0, 0, 2, Bits{1, 0, 8}}},
    // m64nNk8, tf32 A: a0..a3, rows g / g+8 alternate (Figure 150).
    {"m64nNk8", WgmmaFragment::A, 32, 8, {16, 1, 0, Bits{8, 0}}, {0, 0, 1, Bits{0, 4}}},
    // m64nNk32, e4m3/e5m2/s8/u8 A: a0..a15, four per register (Figure 152).
    {"m64nNk32", WgmmaFragment::A, 8, 32, {16, 1, 0, Bits{0, 0, 8, 0}}, {0, 0, 4, Bits{1, 2, 0, 16}}},
    // D, f32 (and s32) and f16 accumulators (Figures 149, 151, 153).
    {"m64nNk16", WgmmaFragment::D, 32, 0, {16, 1, 0, Bits{0, 8}}, {0, 0, 2, kDCols}},
    {"m64nNk16", WgmmaFragment::D, 16, 0, {16, 1, 0, Bits{0, 8}}, {0, 0, 2, kDCols}},
    {"m64nNk8", WgmmaFragment::D, 32, 0, {16, 1, 0, Bits{0, 8}}, {0, 0, 2, kDCols}},
    {"m64nNk32", WgmmaFragment::D, 32, 0, {16, 1, 0, Bits{0, 8}}, {0, 0, 2, kDCols}},
    {"m64nNk32", WgmmaFragment::D, 16, 0, {16, 1, 0, Bits{0, 8}}, {0, 0, 2, kDCols}},
};
}  // namespace

std::span<const WgmmaFrame> wgmma_frames() { return kFrames; }

const WgmmaFrame* find_wgmma_frame(std::string_view shape, WgmmaFragment fragment, int elem_bits) {
  for (const WgmmaFrame& f : kFrames)
    if (f.shape == shape && f.fragment == fragment && f.elem_bits == elem_bits) return &f;
  return nullptr;
}

}  // namespace mmacheck
