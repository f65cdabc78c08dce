// Frame — the PTX register fragment of one mma operand: which logical element
// of the instruction's tile each (lane, element index) holds.
//
// PTX ISA §9.7.14.5 ("Matrix fragments for mma.m16n8k*", "mma.m8n8k4") gives
// every fragment as formulas in groupID g = lane / 4 and threadID_in_group
// t = lane % 4 and the bits of the element index i.  All of them are linear in
// (g, t, bits of i), so a frame is a row of coefficients:
//
//     row = row.g * g + row.t * t + sum_b row.bit[b] * ((i >> b) & 1)
//     col = col.g * g + col.t * t + sum_b col.bit[b] * ((i >> b) & 1)
//
// e.g. m16n8k16 A (16-bit): row = g + 8*bit1, col = 2t + bit0 + 8*bit2, so
// element a2 of lane 5 (g=1, t=1) is A[9][2].
//
// Elements are numbered as PTX numbers them (a0, a1, ...); register r holds
// elements [r*per_reg, (r+1)*per_reg), the lowest-numbered element in the
// low bits.  Operand C describes both C and D.  The table (ptx_frame.cc) is
// written once and read by the prover (as the specification), the simulator
// (to gather and scatter) and the CUDA backend.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace mmacheck {

enum class Operand : std::uint8_t { A, B, C };  // C: the accumulator, C and D alike
std::string_view operand_name(Operand op);      // "A", "B", "C"

// One coordinate of a frame as a linear form in g, t and the index bits.
struct FrameAxis {
  int g = 0;
  int t = 0;
  std::array<int, 8> bit{};  // coefficient of bit b of the element index (b1 A: 7 bits)

  int at(int lane, int elem) const {
    int v = g * (lane >> 2) + t * (lane & 3);
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
  int rows;       // logical tile: A is m x k, B is k x n, C is m x n
  int cols;
  int regs;      // registers per lane
  int reg_bits;  // 32, or 64 for f64
  FrameAxis row;
  FrameAxis col;

  int per_reg() const { return reg_bits / elem_bits; }
  int elems() const { return regs * per_reg(); }
  TileCoord at(int lane, int elem) const { return {row.at(lane, elem), col.at(lane, elem)}; }
};

// Every frame of the table.
std::span<const Frame> all_frames();
// The frame of `shape`'s operand with elements of `elem_bits` bits; throws
// Error when the table has no such row.
const Frame& find_frame(std::string_view shape, Operand op, int elem_bits);
// The same, nullptr when the table has no such row.
const Frame* lookup_frame(std::string_view shape, Operand op, int elem_bits);

}  // namespace mmacheck
