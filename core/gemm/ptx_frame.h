// Frame — the PTX register fragment of one mma operand: which logical element
// of the instruction's tile each (lane, element index) holds.
//
// PTX ISA §9.7.14.5 ("Matrix fragments for mma.m16n8k*", "mma.m8n8k4") gives
// every fragment as formulas in groupID g = lane / 4 and threadID_in_group
// t = lane % 4 and the bits of the element index i.  All of them are linear in
// (g, t, bits of i), so a frame is a row of coefficients:
//
//     row = row.g * g + row.t * t + sum_b row.lane_bit[b] * ((lane >> b) & 1)
//                                 + sum_b row.bit[b] * ((i >> b) & 1)
//     col = (the same with col's coefficients)
//
// e.g. m16n8k16 A (16-bit): row = g + 8*bit1, col = 2t + bit0 + 8*bit2, so
// element a2 of lane 5 (g=1, t=1) is A[9][2].
//
// m8n8k4 with f16 inputs (sm_70, §9.7.14.5.1) is not of the g/t form: a warp
// computes four independent 8x8x4 products, one per quad pair (QP p = lanes
// 4p..4p+3 and 16+4p..16+4p+3), and within a QP the row is lane % 4 + 4 *
// (lane >= 16).  Its rows use the lane-bit coefficients instead (lane_bit[b]
// for bit b of the lane id; zero in every other row), and its tile stacks
// the four products along the rows (`products` = 4): product p's A is rows
// 8p..8p+7 of the 32x4 tile, its B rows 4p..4p+3 of the 16x8 tile, its C/D
// rows 8p..8p+7 of the 32x8 tile, so that the QP index (lane bits 2 and 3)
// is one more lane-bit coefficient (8 and 16 for A).  E.g. f16 A .row: row =
// lane_b0 + 2 lane_b1 + 8 lane_b2 + 16 lane_b3 + 4 lane_b4, col = i: element
// a1 of lane 21 (QP 1, high half) is A[8 + 5][1].  Its A and B exist in both
// layouts (`layout` "row" or "col", PTX's .alayout/.blayout); every other
// frame has one (`layout` empty: A .row, B .col).
//
// Elements are numbered as PTX numbers them (a0, a1, ...); register r holds
// elements [r*per_reg, (r+1)*per_reg), the lowest-numbered element in the
// low bits.  Operand C describes both C and D (each with its own element
// width, MmaInst::d_frame: m8n8k4 has an f32 D from an f16 C).  The table (ptx_frame.cc) is
// written once and read by the prover (as the specification), the simulator
// (to gather and scatter) and the CUDA backend.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace mmacheck {

inline constexpr int kWarpLanes = 32;  // the threads of a warp

enum class Operand : std::uint8_t { A, B, C };  // C: the accumulator, C and D alike
std::string_view operand_name(Operand op);      // "A", "B", "C"

// One coordinate of a frame as a linear form in g, t, the lane bits and the
// index bits.
struct FrameAxis {
  int g = 0;
  int t = 0;
  std::array<int, 8> bit{};       // coefficient of bit b of the element index (b1 A: 7 bits)
  std::array<int, 5> lane_bit{};  // coefficient of bit b of the lane id (m8n8k4 f16's quad pairs only)

  int at(int lane, int elem) const {
    int v = g * (lane >> 2) + t * (lane & 3);
    for (std::size_t b = 0; b < lane_bit.size(); ++b) v += lane_bit[b] * ((lane >> b) & 1);
    for (std::size_t b = 0; b < bit.size(); ++b) v += bit[b] * ((elem >> b) & 1);
    return v;
  }
};

struct TileCoord {
  int row;
  int col;
  bool operator==(const TileCoord&) const = default;
};

struct Frame {
  std::string_view shape;  // "m16n8k16"
  Operand operand;
  int elem_bits;  // bits of one element in the register (tf32: 32)
  int rows;       // logical tile: A is m x k, B is k x n, C is m x n (times `products`, stacked)
  int cols;
  int regs;      // registers per lane
  int reg_bits;  // 32, or 64 for f64
  FrameAxis row;
  FrameAxis col;
  std::string_view layout{};  // "row" or "col" where the operand has both (m8n8k4 f16 A, B); else empty
  int products = 1;           // independent products per warp, stacked along rows (m8n8k4 f16: 4)

  int per_reg() const { return reg_bits / elem_bits; }
  int elems() const { return regs * per_reg(); }
  TileCoord at(int lane, int elem) const { return {row.at(lane, elem), col.at(lane, elem)}; }
};

// Every frame of the table.
std::span<const Frame> all_frames();
// The frame of `shape`'s operand with elements of `elem_bits` bits (and
// `layout`, for an operand that has two); throws Error when the table has no
// such row.
const Frame& find_frame(std::string_view shape, Operand op, int elem_bits, std::string_view layout = {});
// The same, nullptr when the table has no such row.
const Frame* lookup_frame(std::string_view shape, Operand op, int elem_bits, std::string_view layout = {});

}  // namespace mmacheck
