// LaneMma — one instruction run the way the vector files test it: the
// logical A, B and C tiles scattered into a warp's lane registers through
// the PTX frames, gathered back into tiles for the arithmetic model, and D
// scattered into its registers and gathered out again.  What
// scatter_tile / execute_mma / gather_tile (sim/machine/fragment.h) do, with
// the frames resolved once (TileRoute) and no allocation per call, so that a
// file of thousands of cases runs at the speed of the model.
//
//     LaneMma lanes(*find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), arch_params("sm_90"));
//     lanes.run(a, b, c, d);   // logical tiles, row-major; d gets D
//
// A block-scaled instruction runs through run_scaled: its scale tiles
// (sim/numerics/block_scaled.h) are placed into each lane's scale word by the
// scale-factor frame and the selectors (core/gemm/scale_frame.h) and read
// back the way the instruction reads them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "core/gemm/scale_frame.h"
#include "sim/machine/tile_route.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

class LaneMma {
 public:
  // Throws Error when `arch` has no model of the instruction.
  LaneMma(const MmaInst& inst, const ArchParams& arch);

  const MmaInst& inst() const { return *inst_; }
  // Throws Error when a tile has the wrong size (as mma_tile does).
  void run(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
           std::span<std::uint64_t> d);
  // The same for a block-scaled instruction, with its scale tiles (m x
  // scale_vec, scale_vec x n) and selectors; throws Error for a selector the
  // instruction does not take.
  void run_scaled(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                  std::span<const std::uint64_t> scale_a, std::span<const std::uint64_t> scale_b, ScaleSelector sel_a,
                  ScaleSelector sel_b, std::span<std::uint64_t> d);

 private:
  void operands_through_lanes(std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                              std::span<const std::uint64_t> c, std::span<std::uint64_t> d);
  // One operand's registers in the 32 lanes, lane-major as WarpRegs holds them.
  struct Lanes {
    explicit Lanes(const Frame& frame);
    void scatter(std::span<const std::uint64_t> tile);
    void gather(std::span<std::uint64_t> tile) const;
    TileRoute route;
    int regs;  // per lane
    std::uint64_t elem_mask;
    std::vector<std::uint32_t> index;  // per tile element: lane * regs + reg
    std::vector<std::uint64_t> words;
  };

  const MmaInst* inst_;
  const ArchParams* arch_;
  Lanes a_, b_, c_, d_;  // D's frame is C's unless their types differ (MmaInst::d_frame)
  std::vector<std::uint64_t> tile_a_, tile_b_, tile_c_, tile_d_;
  std::vector<std::uint64_t> tile_sa_, tile_sb_;
};

}  // namespace mmacheck::sim
