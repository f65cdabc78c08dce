// MmaInst — one concrete `mma.sync` instruction mmacheck can dispatch to,
// simulate and emit.  The table in mma_inst.cc lists them in dispatch
// preference order: first TVM's own four (so `--inst-set tvm` picks what TVM
// picks), then the extended set.  Adding an instruction is adding a row.
//
// Register views (as TVM's gemm dispatch derives them, per lane):
//   A element index  i = kp + k_pack * (rM + m_regs() * kHi)
//   B element index  i = kp + k_pack * kHi
//   C/D element index i = rN + n_regs() * rM
// with rM < m_regs(), rN < n_regs(), kHi < k_hi(), kp < k_pack; within a
// tile M = g + 8 rM, N = 2 t + rN (C/D), K = kp + k_pack t + 4 k_pack kHi.
//
//     const MmaInst& i = mma_instructions()[1];
//     i.ptx() == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/program/dtype.h"
#include "core/gemm/ptx_frame.h"

namespace mmacheck {

enum class InstSet { tvm, extended };

// The single-bit (b1) instructions' per-element operation before the
// population count: D = C + popc(A_row OP B_col).
enum class BitOp : std::uint8_t { none, and_popc, xor_popc };

struct MmaInst {
  std::string_view tag;  // TVM-style name, e.g. "m16n8k16.f16"
  int m, n, k;
  DType a, b, c, d;
  int k_pack;               // A/B elements along K packed into one register
  bool in_tvm;              // one of TVM's MMA_INSTRUCTIONS (else: --inst-set extended)
  int min_sm;               // oldest architecture that has it (75 for m16n8k8 f16, 89 for fp8, else 80)
  bool satfinite = false;   // integer .satfinite: D clamps to [INT32_MIN, INT32_MAX] instead of wrapping
  BitOp bop = BitOp::none;  // b1 only: .and.popc or .xor.popc
  std::string_view kind;    // "f8f6f4" for sm_120's .kind::f8f6f4, else empty

  std::string shape() const;  // "m16n8k16"
  // "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"; the qualifiers in
  // PTX's order: ".row.col.satfinite.s32.s8.u8.s32", ".s32.b1.b1.s32.xor.popc",
  // ".row.col.kind::f8f6f4.f32.e3m2.e2m1.f32".
  std::string ptx() const;
  const Frame& frame(Operand op) const;

  int m_regs() const { return m / 8; }           // rM extent
  int n_regs() const { return n / 4; }           // rN extent
  int k_hi() const { return k / (4 * k_pack); }  // kHi extent
  bool available(InstSet set) const { return in_tvm || set == InstSet::extended; }
  // The register-view coordinates of fragment element `elem` of operand `op`
  // within its tile (the view's dims after the two tile indices), per the
  // element numbering above: A {rM, kHi, kp}, B {kHi, kp}, C/D {rM, rN}.
  // The dispatch builds the nest from them; the prover restates them.
  std::vector<std::int64_t> view_coord(Operand op, int elem) const;
};

// Every instruction, in dispatch preference order.
std::span<const MmaInst> mma_instructions();
// By full PTX name (as in a vector file's `instr` line); nullptr when unknown.
const MmaInst* find_mma_inst(std::string_view ptx);

}  // namespace mmacheck
