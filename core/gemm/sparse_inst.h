// SparseMmaInst — one `mma.sp{::ordered_metadata}.sync` instruction (PTX ISA
// §9.7.14.6, "Warp-level matrix multiply-accumulate with sparse matrix A"):
// D = A * B + C where the logical A (m x k) is 2:4 structured sparse — in
// every chunk of 4 consecutive elements of a row at most 2 are nonzero —
// and is passed compressed: the m x k/2 kept elements plus a metadata
// register `e` per lane that says where each kept element sits in its chunk,
// and a sparsity selector `f` (an immediate) that says which lanes of every
// quad hold the metadata.
//
// A row of the table (sparse_inst.cc) gives the logical shape and the types;
// the frames follow from it and the dense table (core/gemm/ptx_frame.h):
//   compressed A   the dense 16-bit A frame of shape m16n8k(k/2): m16n8k16's
//                  compressed A (16 x 8) is m16n8k8's A, m16n8k32's (16 x 16)
//                  m16n8k16's (the ISA's "firstcol = threadID_in_group * 4"
//                  for k16: a lane's two kept elements of row g come from
//                  logical columns 4t..4t+3);
//   B, C, D        the dense frames of shape m16n8k (m16n8k32 16-bit B is a
//                  row of its own in the frame table);
//   metadata       core/gemm/sparse_metadata.h.
// Compressed column q of a row belongs to chunk q / 2 (two kept per chunk),
// so the logical column of compressed (r, q) is 4 (q / 2) + idx, idx the
// metadata's index of kept element q % 2 of that chunk.
//
// Covered: f16 and bf16 inputs, m16n8k16 and m16n8k32, f32 accumulators
// (and f16 accumulators for f16); tf32, m16n8k8 and m16n8k16, 1:2 sparse
// (the compressed A the dense tf32 A of half the K); s8/u8 inputs (either signedness each),
// m16n8k32 and m16n8k64, s32 accumulators, plain or `.satfinite`.  The 8-bit
// compressed A is likewise the dense 8-bit A of half the K (m16n8k64's 16 x
// 32 is m16n8k32's A), the metadata the same nibbles (a chunk is 4 bytes
// there), so m16n8k64 has 4 metadata lanes per quad and one selector.
// e4m3/e5m2 rows are not here yet (docs/mma-sp.md says what they need).
//
//     const SparseMmaInst& s = sparse_instructions()[0];
//     s.ptx() == "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
//     s.a_frame().cols == 8;  s.meta_threads() == 1;  s.selectors() == 4
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/gemm/mma_inst.h"
#include "core/gemm/ptx_frame.h"
#include "core/program/dtype.h"

namespace mmacheck {

struct SparseMmaInst {
  std::string_view tag;  // "sp.m16n8k32.f16"
  int m, n, k;           // logical shape: A is m x k before compression
  DType a, b, c, d;
  int min_sm;
  bool satfinite = false;  // integer `.satfinite`: D clamps to the s32 range instead of wrapping

  // Elements per sparsity chunk: 4 (2:4: two kept), tf32 2 (1:2: one kept).
  // A chunk's metadata is one nibble either way: two 2-bit indices over four
  // 16-bit positions, a tf32 element taking two (so 0b0100 keeps its first
  // element, 0b1110 its second).
  int chunk_elems() const { return dtype_bits(a) == 32 ? 2 : 4; }

  std::string shape() const;  // "m16n8k32"
  // "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"
  // (".row.col.satfinite.s32.s8.u8.s32" for an integer `.satfinite` row);
  // ordered = false: the plain `mma.sp` spelling (same operation; the
  // ordered form requires each chunk's two indices in increasing order).
  std::string ptx(bool ordered = true) const;
  int chunks_per_row() const { return k / chunk_elems(); }
  int a_cols() const { return k / 2; }  // compressed A's columns
  const Frame& a_frame() const;         // compressed A, m x k/2
  const Frame& b_frame() const;
  const Frame& c_frame() const;
  // Lanes of a quad that hold metadata: a lane holds 8 chunks (32 bits), a
  // quad's two rows have 2 chunks_per_row().
  int meta_threads() const { return chunks_per_row() / 4; }
  int selectors() const { return 4 / meta_threads(); }  // valid f: 0 .. selectors()-1
  // The dense instruction of the logical shape, for the arithmetic
  // (sim/numerics/sparse_model.h); not a row of the dense table (no dense
  // f16 m16n8k32 exists), so its frames are not to be asked for.
  MmaInst logical() const;
};

std::span<const SparseMmaInst> sparse_instructions();
// By PTX name (either spelling, with or without ::ordered_metadata) or tag;
// nullptr when unknown.
const SparseMmaInst* find_sparse_inst(std::string_view name);

}  // namespace mmacheck
