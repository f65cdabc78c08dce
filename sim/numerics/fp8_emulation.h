// fp8 (e4m3, e5m2) mma.sync m16n8k32 and m16n8k16 on sm_90, which has no
// fp8 unit for mma.sync: CUDA 13's compiler emulates them, and this models
// its SASS (ptxas 13.0 -arch=sm_90, docs/numerics.md), for either fp8 type
// in A and B and either accumulator:
//
//   1. every fp8 element is converted to f16 (F2FP.F16.E4M3/E5M2.UNPACK_B,
//      exact; NaN -> f16 NaN);
//   2. HMMA.16816 (k32) or HMMA.1688 (k16) over the k with k mod 4 in {0, 1},
//      accumulator +0, with the instruction's accumulator type (.F32: f32
//      out, toward zero; .F16: f16 out, nearest-even);
//   3. the same over the k with k mod 4 in {2, 3}, accumulating onto step
//      2's result (both are the fused f16 model, sim/numerics/fused_dot.h);
//   4. the add of C: FADD (IEEE f32) or HADD2 (IEEE f16), nearest-even,
//      subnormals kept, any NaN result canonical (0x7FFFFFFF, 0x7FFF).
// The model depends on the compiler (record the CUDA version with captures).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// Whether the emulation of `inst` (an fp8 instruction) has been measured
// and modelled; "m16n8k32 with f32 accumulators" for errors.
bool fp8_emulation_known(const MmaInst& inst);
std::string fp8_emulated_shapes();

// D = A * B + C for an fp8 instruction; tiles as in mma_tile.  Throws Error
// for an architecture other than sm_90.
void fp8_mma_emulated(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                      std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
