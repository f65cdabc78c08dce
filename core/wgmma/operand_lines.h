// The operand, descriptor and smem lines every descriptor-file family shares
// (statement.h's line syntax): how one shared-memory operand of a matrix
// instruction is written, each reader taking the lines its files have.
// `mmacheck wgmma`'s files (core/wgmma/wgmma_reader.h) use all three, the
// TMA input (core/tma/tma_reader.h) the operand and descriptor lines, the
// tcgen05 input (core/tcgen05/tcgen05_reader.h) the smem line under its own
// operand and descriptor lines:
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
// Anything else is an Error at FILE:LINE:COL: an unknown key, a missing or
// repeated key, a bad number, an operand wgmma does not have, a layout whose
// size is not the shape's or that names a thread axis.
//
//     WgmmaCase c;
//     c.operand = read_wgmma_operand(lines[0], path);
//     c.descriptor = read_wgmma_descriptor(lines[1], path);
//     c.placed = read_smem_placement(lines[2], path, c.operand, c);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/wgmma/canonical_layout.h"
#include "core/wgmma/descriptor.h"
#include "core/wgmma/statement.h"
#include "core/wgmma/wgmma_check.h"

namespace mmacheck {

// One `operand` line: the operand, its type, tile and major-ness.
WgmmaOperand read_wgmma_operand(const descriptor_lines::Line& line, const std::string& path);
// One `descriptor` line: wgmma's 64-bit matrix descriptor, by its fields or
// its raw value.
MatrixDescriptor read_wgmma_descriptor(const descriptor_lines::Line& line, const std::string& path);
// The placed byte address of every element (i, k) of `op`'s tile, from one
// `smem` line (i * op.k + k, row-major); records the placement, the
// buffer's base and its swizzle in `c`.
std::vector<std::int64_t> read_smem_placement(const descriptor_lines::Line& line, const std::string& path,
                                              const WgmmaOperand& op, WgmmaCase& c);

}  // namespace mmacheck
