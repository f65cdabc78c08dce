// read_wgmma_file() — the input of `mmacheck wgmma`: operands of
// wgmma.mma_async, each with its matrix descriptor and the shared buffer it
// reads.  One statement a line, `#` to the end of a line a comment, blank
// lines ignored; each operand is three lines in this order:
//
//     operand A dtype=f16 tile=64x16 major=K
//     descriptor start=0x400 lbo=16 sbo=1024 swizzle=128B    # base_offset=0 optional
//     smem base=0x400 layout=ComposeLayout(3, 3, 3, S[(64, 64) : (64, 1)]) shape=64x64 at=0,0
//
//   operand A|B    dtype= f16 bf16 tf32 e4m3 e5m2 s8 u8; tile=ROWSxK (A: 64 x
//                  K, B: N x K, K the type's: 16, 8, 32); major=K|MN (MN only
//                  for f16 and bf16).
//   descriptor     start= lbo= sbo= (bytes, decimal or 0x hex) swizzle=
//                  none|interleave|32B|64B|128B [base_offset=0..7], or the raw
//                  64-bit value: `descriptor 0x4000004000010040`.
//   smem           base= the buffer's byte address; layout= a layout
//                  expression (core/program/layout_parser.h: a TileLayout or a
//                  ComposeLayout, offsets in elements on m) over the buffer's
//                  logical shape rows x K (i, k), row-major flat index;
//                  optional shape=RxC (the buffer's, default the tile's) and
//                  at=R,C (where the tile starts in it, default 0,0), both
//                  before layout=, which takes the rest of the line.
//
// Element (i, k) of the tile sits at base + width * layout(flat(R + i, C + k)).
// Anything else is an Error at FILE:LINE:COL: an unknown statement or key, a
// missing or repeated key, a bad number, an operand wgmma does not have, a
// layout whose size is not the shape's or that names a thread axis.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/wgmma/statement.h"
#include "core/wgmma/wgmma_check.h"

namespace mmacheck {

std::vector<WgmmaCase> read_wgmma_file(std::string_view text, const std::string& path);

// The placed byte address of every element (i, k) of `op`'s tile, from one
// `smem` line (the grammar above); records the placement, the buffer's base
// and its swizzle in `c`.  tcgen05's reader (core/tcgen05/tcgen05_reader.h)
// reads its smem lines with it too.
std::vector<std::int64_t> read_smem_placement(const descriptor_lines::Line& line, const std::string& path,
                                              const WgmmaOperand& op, WgmmaCase& c);
// One `operand` line and one `descriptor` line, as above (the TMA input,
// core/tma/tma_reader.h, reads them too).
WgmmaOperand read_wgmma_operand(const descriptor_lines::Line& line, const std::string& path);
MatrixDescriptor read_wgmma_descriptor(const descriptor_lines::Line& line, const std::string& path);

}  // namespace mmacheck
