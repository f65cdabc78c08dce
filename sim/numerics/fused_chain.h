// D = A * B + C over an M x N x K tile of float inputs whose every output is
// a chain of fused blocks (sim/numerics/fused_dot.h): K split into blocks of
// fused_block(a, arith) products, each block rounded onto the running
// accumulator.  The whole-instruction models share it: wgmma
// (sim/numerics/wgmma_model.h) and tcgen05.mma (sim/tcgen05/tcgen05_arith.h).
//
// Tiles hold raw bit patterns, one per uint64_t, row-major: A is M x K, B is
// K x N, C and D are M x N in D's type.  The shape is trusted (the callers
// check the instruction and the spans' sizes).
//
//     fused_chain_tile({.m = 64, .n = 8, .k = 16, .a = DType::f16, .b = DType::f16, .d = DType::f32},
//                      wgmma_arith("sm_90"), a, b, c, d);   // one block of 16 per output
#pragma once

#include <cstdint>
#include <span>

#include "core/program/dtype.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

struct FusedTileShape {
  int m, n, k;
  DType a, b, d;  // inputs; D (= C) f32 or f16
};

// Products per fused block for inputs of type `in`: block_tf32, block_fp8
// (the f8f6f4 types) or block_16bit.
int fused_block(DType in, const ArchParams& arith);

void fused_chain_tile(const FusedTileShape& s, const ArchParams& arith, std::span<const std::uint64_t> a,
                      std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
