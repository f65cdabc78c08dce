// read_sparse_file() — the input of `mmacheck sparse`: what a kernel assumes
// about the metadata of one mma.sp instruction.  One statement a line, `#` to
// the end of a line a comment, blank lines ignored:
//
//     instr mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32
//     selector 0
//     meta holders=0,1 row=g+8*j2 chunk=4*t+j0+2*j1
//     kept 0 01 23 02 13 01 01 03 12     # optional: row 0's chunks, idx0 idx1 each
//
//   instr     the instruction: its PTX name (mma.sp or
//             mma.sp::ordered_metadata) or a tag (sp.m16n8k32.f16; ordered);
//   selector  the sparsity selector f the kernel passes (0 .. selectors()-1);
//   meta      the kernel's metadata layout: holders= the t = lane % 4 values
//             of the lanes that write e; row= and chunk= which A row and
//             chunk nibble j (bits 4j+3:4j) of lane (g = lane / 4, t)
//             describes, each a sum of integer terms and multiples of g, t,
//             t0, t1 (the bits of t), j0, j1, j2 (the bits of j):
//             `4*t+j0+2*j1-8`, no blanks (8-bit rows: `row=g+8*t0
//             chunk=8*t1+j0+2*j1+4*j2`);
//   kept      ROW then chunks_per_row() tokens (k/4; tf32 k/2), each chunk's two kept indices (digits 0..3,
//             first the one stored in the lower compressed column); either no
//             kept line or one for every row of A.
//
// instr, selector and meta once each, instr first.  Anything else is an
// Error at FILE:LINE:COL: an unknown statement or key, a missing or repeated
// one, a bad number or term, a selector out of range, a row given twice or a
// token count that is not the instruction's.
#pragma once

#include <string>
#include <string_view>

#include "core/sparse/sparse_check.h"

namespace mmacheck {

SparseCase read_sparse_file(std::string_view text, const std::string& path);

}  // namespace mmacheck
