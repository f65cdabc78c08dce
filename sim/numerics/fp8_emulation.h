// fp8 (e4m3, e5m2) mma.sync m16n8k32 on sm_90, which has no fp8 unit for
// mma.sync: CUDA 13's compiler emulates it, and this models its SASS.
//
//   1. every fp8 element is converted to f16 (exactly; NaN -> f16 NaN);
//   2. HMMA.16816.F32 over the 16 k with k mod 4 in {0, 1}, accumulator +0;
//   3. HMMA.16816.F32 over the 16 k with k mod 4 in {2, 3}, accumulating
//      onto step 2's result (both are the fused f16 model, sim/numerics/fused_dot.h);
//   4. FADD of C: IEEE f32 add, nearest-even, subnormals kept, any NaN
//      result canonical (0x7FFFFFFF).
// The model depends on the compiler (record the CUDA version with captures).
#pragma once

#include <cstdint>
#include <span>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// D = A * B + C for an fp8 instruction; tiles as in mma_tile.  Throws Error
// for an architecture other than sm_90.
void fp8_mma_emulated(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                      std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                      std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
