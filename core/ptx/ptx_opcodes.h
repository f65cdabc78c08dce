// The opcode table: one row per PTX opcode the CTA machine models, each with
// the modifiers it takes, its operand count and its semantics (per thread,
// or per warp for mma.sync, ldmatrix, shfl.sync and bar.warp.sync; bar.sync
// is the CTA's).  decode_instruction() finds an instruction's row (the
// longest row name its opcode starts with: "cp.async.wait_group" before
// "cp.async"), reads its modifiers into the Instruction's fields and checks
// its operands, once, when the module is read.
//
//     add.s32 %r1, %r2, 4;          row "add":  type s32
//     setp.lt.and.s32 %p1, ...;     row "setp": cmp lt, boolop and, type s32
//     mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ...;
//                                   row "mma.sync": the MmaInst of that name
//
// Adding an opcode is adding a row (and its semantics function); an opcode
// or modifier without one is an Error at the instruction: `'lop3.b32' is not
// modelled by the PTX machine (docs/ptx.md lists what is)`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

// Decodes `inst` (its opcode text and operands already read) for `kernel`.
void decode_instruction(Instruction& inst, const PtxKernel& kernel, const SourceLoc& opcode_loc);
// The located error for what the machine does not model: "WHAT is not
// modelled by the PTX machine (docs/ptx.md lists what is)".
[[noreturn]] void not_modelled(const SourceLoc& at, const std::string& what);

// The opcodes the table models, for docs and messages ("add", "ld", ...).
std::vector<std::string_view> modelled_opcodes();

}  // namespace mmacheck::ptx
