// The arithmetic of one wgmma.mma_async (Hopper's warpgroup MMA) on logical
// tiles: D = A * B + C for m64nNk16 (f16, bf16), m64nNk8 (tf32), m64nNk32
// (e4m3, e5m2, s8, u8), bit-exact per the model of MMA-Sim 2.1.1's Hopper
// WGMMA (docs/wgmma.md, "Arithmetic").
//
// Tiles hold raw bit patterns, one per uint64_t, row-major, as mma_tile's
// (sim/numerics/mma_model.h): A is 64 x K, B is K x N, C and D are 64 x N;
// C has D's type (wgmma accumulates in place).
//
// The models, per output element, from one WgmmaArith row (wgmma_arith.cc):
//   f16, bf16, tf32  one fused block (sim/numerics/fused_dot.h) over all of K
//                    (16 f16/bf16 or 8 tf32 products: 32 bytes of A), kept_bits
//                    25, zero-term exponent -133 (f32) / -21 (f16): on sm_90 the
//                    same numbers as mma.sync m16n8k16 / m16n8k8, so a wgmma
//                    output equals the mma.sync output over the same row and
//                    column;
//   e4m3, e5m2       native: one fused block of all 32 products, terms kept to
//                    13 bits below the largest, an f32 result cut toward zero
//                    to 13 fraction bits (e8m13), f16 nearest-even; NOT the
//                    conversion to f16 that CUDA emulates mma.sync fp8 with on
//                    sm_90 (sim/numerics/fp8_emulation.h);
//   s8, u8           exact products and sum onto C, wrapping to 32 bits
//                    (.satfinite: clamped).  MMA-Sim has no integer wgmma; this
//                    is the ISA's definition.
//
//     const WgmmaInst inst = *parse_wgmma_inst("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16");
//     wgmma_tile(inst, wgmma_arith("sm_90"), a, b, c, d);
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/program/dtype.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// One wgmma instruction: its N and element types (C = D).
struct WgmmaInst {
  int n = 8;
  DType d = DType::f32;
  DType a = DType::f16;
  DType b = DType::f16;
  bool satfinite = false;  // s32 only

  static constexpr int kM = 64;  // M of every wgmma
  int k() const;                 // 16, 8 or 32 from the input type
  // "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" (".satfinite" before the types for s32).
  std::string ptx() const;
  // "" when wgmma has this instruction, else why not.
  std::string problem() const;
};

// Reads ptx() back; nullopt when the text is no wgmma instruction (or no valid one).
std::optional<WgmmaInst> parse_wgmma_inst(std::string_view ptx);

// The type rows of wgmma with inputs in shared memory: (d, a, b) that the ISA
// has for sm_90a, for any N.  f32.f16.f16, f16.f16.f16, f32.bf16.bf16,
// f32.tf32.tf32, {f32, f16} x {e4m3, e5m2}^2, s32 x {s8, u8}^2.
struct WgmmaTypes {
  DType d, a, b;
};
std::span<const WgmmaTypes> wgmma_type_rows();

// The wgmma arithmetic of an architecture, in ArchParams' columns (block_*:
// products per fused block; fp8 always Fp8Path::fused).  Throws Error for an
// architecture without wgmma (only sm_90 has it).
const ArchParams& wgmma_arith(std::string_view arch);
std::span<const ArchParams> all_wgmma_arith();

// D = A * B + C.  Throws Error when a span does not have its tile's size or
// the instruction is invalid.
void wgmma_tile(const WgmmaInst& inst, const ArchParams& arith, std::span<const std::uint64_t> a,
                std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
