// read_wgmma_file() — the input of `mmacheck wgmma`: operands of
// wgmma.mma_async, each with its matrix descriptor and the shared buffer it
// reads.  One statement a line, `#` to the end of a line a comment, blank
// lines ignored (core/wgmma/statement.h); each operand is three lines in
// this order, the operand, descriptor and smem lines whose grammar is
// core/wgmma/operand_lines.h's:
//
//     operand A dtype=f16 tile=64x16 major=K
//     descriptor start=0x400 lbo=16 sbo=1024 swizzle=128B    # base_offset=0 optional
//     smem base=0x400 layout=ComposeLayout(3, 3, 3, S[(64, 64) : (64, 1)]) shape=64x64 at=0,0
//
// Anything else is an Error at FILE:LINE:COL: an unknown statement, a
// descriptor or smem line out of its place, a file without an operand, or
// what the operand lines refuse (an unknown or repeated key, a bad number,
// an operand wgmma does not have, a layout whose size is not the shape's or
// that names a thread axis).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/wgmma/wgmma_check.h"

namespace mmacheck {

std::vector<WgmmaCase> read_wgmma_file(std::string_view text, const std::string& path);

}  // namespace mmacheck
