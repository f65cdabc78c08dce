// A fast path for the fused model on whole tiles (f16, bf16, tf32 inputs; K
// within one block): fixed-point alignment in 32/64-bit integers, vectorized
// across the n columns of B.  Bit-identical to sim/numerics/fused_dot.h, which stays
// the reference; tests compare the two on random and special tiles.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// Computes D and returns true when the instruction is one this path covers
// (m16n8, K within one fused block); otherwise returns false and leaves d
// untouched (the caller falls back to the reference).  Outputs that a NaN
// or an Inf reaches are taken from the reference model, the rest stay on the
// fast path.
bool fused_tile_fast(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                     std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

// The instruction sets the path has kernels for.  fused_tile_fast takes the
// best one the processor runs; tests and bench name one to compare them
// (all compute the same bits).
enum class TileIsa { portable, avx2, avx512 };
std::string_view tile_isa_name(TileIsa isa);  // "portable", "AVX2", "AVX-512"
bool tile_isa_available(TileIsa isa);         // compiled in and run by this processor
TileIsa best_tile_isa();
// fused_tile_fast with the kernels of `isa`, which must be available.
bool fused_tile_fast(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                     std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d,
                     TileIsa isa);

}  // namespace mmacheck::sim
