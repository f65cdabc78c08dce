// The arithmetic of one tcgen05.mma (Blackwell's tensor-core MMA, sm_100a)
// on logical tiles: D = A * B + C for the float kinds (tf32, f16 with f16 or
// bf16 inputs, f8f6f4 with any pair of e4m3, e5m2, e2m3, e3m2, e2m1), bit-exact
// per the model of MMA-Sim 2.1.1's Blackwell TCGen05MMA (docs/tcgen05.md,
// "Simulation").
//
// Tiles hold raw bit patterns, one per uint64_t, row-major, as wgmma_tile's
// (sim/numerics/wgmma_model.h): A is M x K, B is K x N, C and D are M x N in
// D's type (tcgen05.mma accumulates in place in TMEM).  The 6- and 4-bit
// types sit one a byte (e2m3, e3m2 in bits 5:0, e2m1 in bits 5:2).
//
// Every output is a chain of fused blocks (sim/numerics/fused_chain.h) from
// one ArchParams row (tcgen05_arith.cc): 32 bytes of inputs a block (16
// f16/bf16, 8 tf32, 32 f8f6f4 products: the instruction's whole K, so one
// block), terms kept to 25 bits below the largest, zero terms at 2^-133 (f32
// D) / 2^-21 (f16 D), f32 toward zero, f16 nearest-even.  Its f16/bf16/tf32
// columns are sm_100's mma.sync row and its f8f6f4 columns sm_120's mma.sync
// kind::f8f6f4 row (fused, 32 products, 25 kept bits, a full f32 result) —
// not wgmma's fp8 (13 kept bits, e8m13).
//
// Simulated: cta_group::1 (M = 64, 128), dense, no negation.  Not: kind::i8
// and cta_group::2 (MMA-Sim models neither), negate A/B.
//
//     Tcgen05Instr i = *parse_tcgen05_name("tcgen05.mma.cta_group::1.kind::f16.m128n16k16.f32.bf16.bf16");
//     tcgen05_tile(i, tcgen05_arith("sm_100"), a, b, c, d);
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/program/dtype.h"
#include "core/tcgen05/tcgen05_instr.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// The instruction as the simulator and its vector files name it:
// "tcgen05.mma.cta_group::1.kind::f16.m128n16k16.f32.bf16.bf16" (D, A, B
// types last; the major-ness is the replay's choice, not the name's).
std::string tcgen05_name(const Tcgen05Instr& instr);
// Reads tcgen05_name() back (K-major A and B); nullopt when the text is no
// tcgen05.mma the simulator has (tcgen05_sim_problem() not "").
std::optional<Tcgen05Instr> parse_tcgen05_name(std::string_view name);

// "" when the simulator computes this instruction, else why not (invalid
// per Tcgen05Instr::problem(), or one of the forms above it does not model).
std::string tcgen05_sim_problem(const Tcgen05Instr& instr);

// The DType of a tcgen05 A/B or D format name ("e2m1" -> DType::e2m1).
DType tcgen05_dtype(std::string_view format);

// The tcgen05.mma arithmetic of an architecture, in ArchParams' columns.
// Throws Error for an architecture without tcgen05 (only sm_100 here).
const ArchParams& tcgen05_arith(std::string_view arch);
std::span<const ArchParams> all_tcgen05_arith();

// D = A * B + C.  Throws Error when the instruction is not simulated or a
// span does not have its tile's size.
void tcgen05_tile(const Tcgen05Instr& instr, const ArchParams& arith, std::span<const std::uint64_t> a,
                  std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
