// Copy dispatch — TIRx's copy tile primitive between a register fragment and
// shared memory, lowered to ldmatrix / stmatrix the way TVM main's
// `ldstmatrix` copy variant does (python/tvm/backend/cuda/tile_primitive/
// copy/ld_stmatrix.py), so that a `copy R = S` statement becomes the very
// SharedCopyStmts a hand-written file would give (docs/shared-memory.md).
//
// The rule, on the fragment's (lane, slot) table and S's unswizzled offsets:
// the 32 lanes and M slots per lane regroup as [T/32, 8, 4, M/(2·num), num, 2]
// (lane = 4a + b, slot = 2·num·mm + 2i + j), num = 4, 2, 1 tried in that
// order.  Matrix (mm, i) fits when element (a, b, j) sits at
//   plain   base + a·p + 2b + j     (8 contiguous units per row, rows p apart)
//   .trans  base + a + (2b + j)·p   (rows 2b + j are p apart)
// with one p > 0, p % 8 == 0 and one choice for the whole copy, and every
// base a multiple of 8 elements (16-byte rows).  The S side's swizzle must
// keep 8-element chunks together (per_element >= 3).  Then each mm is one
// `ldmatrix.x{num}[.trans] R[2·num·mm] = S[ROW, COL]`, lane l giving row l % 8
// of matrix l / 8.  No fit: an Error at the copy with TVM's reason.
//
//     // copy A = A_s (16 x 16 f16, A_FRAG of m16n8k16) -> one ldmatrix.x4
//     std::vector<SharedCopyStmt> c = dispatch_copy(program, program.tile_copies[0], 8);
//     c[0].label() == "ldmatrix.x4 A[0]";   c[0].row.str() == "lane % 16";
#pragma once

#include <vector>

#include "core/program/program.h"

namespace mmacheck {

// `slots` is the register buffer's slots per lane (M).  Throws Error at the
// copy when TVM's variant refuses it: scope other than one whole warp,
// elements not 16-bit, replicated or partial fragments, a swizzle with
// per_element < 3, no num in {4, 2, 1} whose regrouping fits.
std::vector<SharedCopyStmt> dispatch_copy(const Program& program, const TileCopyStmt& copy, int slots);

}  // namespace mmacheck
