// Nest — the fully unrolled statement list a gemm lowers to, as plain data.
//
// Per output tile (m, n), in TVM's emission order:
//   1. an InitStmt: D's accumulator slots of the tile are zeroed (beta = 0),
//      set to a scalar C (GemmCall::c_scalar), or copied from C's slots (beta = 1);
//   2. per K tile k, one MmaStmt: D = A * B + C on registers of the four
//      buffers, with C = D (accumulate in place).
//
// Indices are per-thread storage positions of the operand buffers, the same
// in every lane (registers must be compile-time constants):
//   - InitStmt lists *slots* (elements).
//   - MmaStmt lists *registers* in PTX operand order: register r of a buffer
//     is slots [r * per_reg, (r + 1) * per_reg) of that buffer, per_reg =
//     frame.per_reg() (two f16 per b32, four s8, one f32 or f64).
//
// Example, the seed m16n8k16 tile (beta = 0):
//   Init{m=0, n=0, d_slots={0,1,2,3}, c_slots={}}
//   Mma{m=0, n=0, k=0, d={0,1,2,3}, a={0,1,2,3}, b={0,1}, c={0,1,2,3}}
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/program/dtype.h"
#include "core/gemm/mma_inst.h"

namespace mmacheck {

struct InitStmt {
  int tile_m = 0;
  int tile_n = 0;
  std::vector<int> d_slots;
  std::vector<int> c_slots;  // same length as d_slots; empty when setting them to `bits`
  // The element bits D's slots are set to when c_slots is empty: 0 zeroes
  // them; a scalar C (the released TIRx's T.float32(1.5)) is its f32 bits.
  std::uint64_t bits = 0;
};

struct MmaStmt {
  int tile_m = 0;
  int tile_n = 0;
  int tile_k = 0;
  std::vector<int> d, a, b, c;  // registers, PTX operand order
  // Where the statement comes from when a program states its nest (a lowered
  // dump's "T.ptx.mma at line 27 (repeat_2 = 1)"); empty for a dispatched nest.
  std::string origin{};
};

using NestStmt = std::variant<InitStmt, MmaStmt>;

// One operand buffer as the nest sees it.
struct NestOperand {
  std::string buffer;  // name in the program
  DType dtype;
  int slots;  // per-thread storage span (elements)
};

struct Nest {
  const MmaInst* inst = nullptr;
  NestOperand d, a, b, c;
  int tiles_m = 0, tiles_n = 0, tiles_k = 0;  // per warp
  bool use_c = false;                         // beta == 1
  std::vector<NestStmt> stmts;
  // Where each mma statement the program writes begins in stmts, when it
  // writes more than one (the released TIRx's applies, ReleaseMma::statements):
  // the program runs each part where its statement stands.  Empty: one part.
  std::vector<std::size_t> parts;

  int mma_count() const;
  // What D starts from, for the emitted text's header: "beta=1" (C copied),
  // "beta=0" (zeroed), or "C=1.5" (a scalar C, the released TIRx's
  // T.float32(1.5): its inits set D to its f32 bits).
  std::string c_term() const;
  // The first statement out of the dispatch's order (per (m, n), row-major,
  // an init of tile (m, n), then the mma of each k in turn), or
  // stmts.size() when there are more or fewer statements than that order
  // has; nullopt when the nest is in that order.
  std::optional<std::size_t> first_out_of_order() const;
};

}  // namespace mmacheck
