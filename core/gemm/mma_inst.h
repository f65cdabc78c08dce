// MmaInst — one concrete `mma.sync` instruction mmacheck can dispatch to,
// simulate and emit.  The table in mma_inst.cc lists them in dispatch
// preference order: first TVM's own four (so `--inst-set tvm` picks what TVM
// picks), then the extended set.  Adding an instruction is adding a row.
//
// A second table holds sm_70's m8n8k4 with f16 inputs, whose warp computes
// four independent 8x8x4 products, one per quad pair (`products` = 4; its
// tiles stack them along the rows, core/gemm/ptx_frame.h): simulated, in
// vector files and modelled per architecture, but never dispatched (a gemm
// tile of the dispatch is one product per warp), so mma_instructions() does
// not list it; quad_pair_instructions() does, and find_mma_inst finds both.
//
// A third table holds sm_120's block-scaled forms (`.kind::mxf8f6f4`,
// `.kind::mxf4`, `.kind::mxf4nvf4` with `.block_scale`; docs/block-scaled.md):
// D = (A * scale_A) (B * scale_B) + C with per-block scale factors read from
// two more operands (core/gemm/scale_frame.h).  Simulated and in vector
// files, never dispatched: block_scale_instructions() lists them and
// find_mma_inst finds them.
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

// The scale-factor type of a block-scaled instruction (`.stype`): ue8m0 is
// 2^(bits - 127) with 0xFF NaN; ue4m3 is e4m3 without its sign (bit 7
// ignored), 0x7F NaN.  none: not block-scaled.
enum class ScaleType : std::uint8_t { none, ue8m0, ue4m3 };
std::string_view scale_type_name(ScaleType t);  // "ue8m0", "ue4m3", ""

struct MmaInst {
  std::string_view tag;  // TVM-style name, e.g. "m16n8k16.f16"
  int m, n, k;
  DType a, b, c, d;
  int k_pack;   // A/B elements along K packed into one register
  bool in_tvm;  // one of TVM's MMA_INSTRUCTIONS (else: --inst-set extended)
  int min_sm;   // oldest architecture that has it (70 for m8n8k4 f16, 75 for m16n8k8 f16, 89 for fp8, else 80)
  bool satfinite = false;      // integer .satfinite: D clamps to [INT32_MIN, INT32_MAX] instead of wrapping
  BitOp bop = BitOp::none;     // b1 only: .and.popc or .xor.popc
  std::string_view kind;       // "f8f6f4" for sm_120's .kind::f8f6f4, else empty
  std::string_view alayout{};  // m8n8k4 f16: "row" or "col" (A's and B's frames); empty: .row.col
  std::string_view blayout{};
  int products = 1;                   // independent m x n x k products per warp (m8n8k4 f16: 4, stacked along rows)
  int scale_vec = 0;                  // block-scaled: scale factors per row of A / column of B (1, 2, 4); else 0
  ScaleType stype = ScaleType::none;  // block-scaled: the scale factors' type

  std::string shape() const;  // "m16n8k16"
  bool block_scaled() const { return scale_vec > 0; }
  int scale_block_k() const { return k / scale_vec; }  // K elements one scale factor covers (block-scaled only)
  // Bits of one A or B element in its register: 4 for the packed e2m1 of
  // .kind::mxf4 / mxf4nvf4, else the type's container (dtype_bits).
  int elem_bits(Operand op) const;
  // Elements of the A, B and C/D tiles: products * m * k, products * k * n,
  // products * m * n (row-major, product p's rows after product p-1's).
  int a_elems() const { return products * m * k; }
  int b_elems() const { return products * k * n; }
  int c_elems() const { return products * m * n; }
  // "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"; the qualifiers in
  // PTX's order: ".row.col.satfinite.s32.s8.u8.s32", ".s32.b1.b1.s32.xor.popc",
  // ".row.col.kind::f8f6f4.f32.e3m2.e2m1.f32",
  // ".row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3".
  std::string ptx() const;
  const Frame& frame(Operand op) const;
  // D's frame: C's, but for an f32 D from an f16 C (m8n8k4 .f32.f16.f16.f16),
  // whose C and D frames differ in element width.
  const Frame& d_frame() const;

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

// Every instruction the dispatch may choose, in dispatch preference order.
std::span<const MmaInst> mma_instructions();
// m8n8k4 f16 (sm_70): four products per warp, never dispatched.
std::span<const MmaInst> quad_pair_instructions();
// sm_120's block-scaled forms, never dispatched.
std::span<const MmaInst> block_scale_instructions();
// By full PTX name (as in a vector file's `instr` line), in any table;
// nullptr when unknown.
const MmaInst* find_mma_inst(std::string_view ptx);

}  // namespace mmacheck
