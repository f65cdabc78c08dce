// read_scale_file() — the input of `mmacheck scales`: how a program places
// sm_120 block-scaled mma.sync's scale factors (core/scales/scale_check.h).
// One statement a line, `#` to the end of a line a comment, blank lines
// ignored:
//
//     instr mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3
//     select a byte=0 thread=0          # {byte-id-a, thread-id-a}; default 0, 0
//     select b byte=0 thread=0
//     place a row=lane // 4 + 8 * (lane % 2), block=byte
//     place b col=lane // 4, block=byte
//
//   instr   a block-scaled instruction's full PTX name; starts a check (a
//           file may hold several)
//   select  a|b byte=N thread=N: the selectors the program passes (at most
//           once per operand, before its place line)
//   place   a row=EXPR, block=EXPR | b col=EXPR, block=EXPR: byte `byte` of
//           lane `lane`'s scale word holds scale_A[row][block] /
//           scale_B[block][col]; EXPR an index expression
//           (core/program/index_expr.h: + - * // % >> << &, parentheses) in
//           `lane` (0..31) and `byte` (0..3); at most once per operand
//
// An operand without a place line is left unchecked.  Anything else is an
// Error at FILE:LINE:COL: an unknown statement, key or instruction, a
// repeated statement, a selector the instruction does not take, a bad
// expression.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scales/scale_check.h"

namespace mmacheck {

struct ScaleCase {
  const MmaInst* inst;
  SourceLoc at;  // its instr line
  std::optional<ScalePlacement> a, b;
};

std::vector<ScaleCase> read_scale_file(std::string_view text, const std::string& path);

}  // namespace mmacheck
