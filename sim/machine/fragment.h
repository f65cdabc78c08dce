// The lane-accurate view of one mma operand: the registers it occupies in
// the 32 lanes of a warp, moved to and from the logical tile through the PTX
// frame table (core/gemm/ptx_frame.h), and the execution of one mma on them.
//
// Register r of a lane holds elements [r*per_reg, (r+1)*per_reg) of that
// lane, the lowest-numbered element in the low bits; registers are 32-bit
// (64-bit for f64) and are stored in a uint64_t each, high bits zero.
// Element e of lane l is logical tile element frame.at(l, e) (row, col).
//
//     const MmaInst& inst = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
//     WarpRegs a = scatter_tile(inst.frame(Operand::A), a_tile);  // 16x16 row-major
//     ...
//     WarpRegs d = execute_mma(inst, arch_params("sm_90"), a, b, c);
//     d.element(5, 2) == d_tile[9 * 8 + 2]   // lane 5, element 2 is D[9][2]
//     d.reg(5, 1)     == d_tile[9 * 8 + 2]   // f32: one element per register
//
// A warp machine keeps one WarpRegs per operand fragment, fills registers
// with set_reg / set_element as the program stages them, and calls
// execute_mma for each mma statement of its nest.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "core/gemm/ptx_frame.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

class WarpRegs {
 public:
  explicit WarpRegs(const Frame& frame);  // every register zero

  const Frame& frame() const { return *frame_; }
  // Register r of lane (r < frame().regs), a 32- or 64-bit word.
  std::uint64_t reg(int lane, int r) const { return words_[lane * frame_->regs + r]; }
  // Stores the low reg_bits of word.
  void set_reg(int lane, int r, std::uint64_t word);
  // The bits of element elem (< frame().elems()) of lane.
  std::uint64_t element(int lane, int elem) const;
  // Stores the low elem_bits of bits into element elem of lane.
  void set_element(int lane, int elem, std::uint64_t bits);
  // All registers, lane-major: words()[lane * frame().regs + r].
  std::span<const std::uint64_t> words() const { return words_; }

 private:
  const Frame* frame_;
  std::vector<std::uint64_t> words_;
};

// Logical tile (frame.rows x frame.cols element bit patterns, row-major) to
// registers.  Throws Error when the tile has the wrong size.
WarpRegs scatter_tile(const Frame& frame, std::span<const std::uint64_t> tile);
// Registers back to the logical tile, row-major.
std::vector<std::uint64_t> gather_tile(const WarpRegs& regs);

// D = A * B + C on lane registers: gathers A, B, C through inst's frames,
// runs mma_tile, scatters D into a fresh WarpRegs with inst's D frame
// (MmaInst::d_frame: C's, unless D's type is not C's).
// Throws Error when an operand's frame is not the instruction's.
WarpRegs execute_mma(const MmaInst& inst, const ArchParams& arch, const WarpRegs& a, const WarpRegs& b,
                     const WarpRegs& c);

}  // namespace mmacheck::sim
