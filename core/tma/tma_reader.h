// read_tma_file() — the input of `mmacheck tma`: TMA copies (a tensor map,
// as cuTensorMapEncodeTiled takes it, and the copy's destination) and the
// wgmma operands that read what they wrote.  The line syntax is the wgmma
// input's (core/wgmma/statement.h):
//
//     tma A dtype=f16 dims=64x64 strides=128 box=64x64 swizzle=128B smem=0x400
//     operand A dtype=f16 tile=64x16 major=K
//     descriptor start=0x420 lbo=16 sbo=1024 swizzle=128B
//     smem tma=A at=0,16
//
//   tma NAME   dtype= a CUtensorMapDataType (uint8, uint16, uint32, int32,
//              uint64, int64, float16, float32, float64, bfloat16,
//              float32_ftz, tfloat32, tfloat32_ftz; or f16, bf16, tf32, u8,
//              ...); dims= globalDim and box= boxDim, innermost first, 1 to 5
//              values separated by x or ','; strides= globalStrides in bytes
//              (rank - 1 values; none for rank 1); swizzle= none|32B|64B|128B;
//              smem= the copy's dstMem; optional coords= (tensorCoords,
//              default 0), element_strides= (default 1), interleave=
//              none|16B|32B, oob=zero|nan, address= (globalAddress, default 0).
//   operand, descriptor   as in `mmacheck wgmma` (core/wgmma/operand_lines.h).
//   smem       tma=NAME, a `tma` line above; optional at=R,C (the tile's
//              first row and K column, default 0,0) and box=E,E,... (one
//              expression per box dim: i or k, optionally /N and %N, or a
//              constant; default K-major k,i and MN-major i,k, 0 for dims
//              past the second).
//
// Values are checked against what the reader can hold (counts, 64-bit
// ranges); the driver's rules (core/tma/tensor_map.h) are the check's, so a
// map the driver refuses is a refutation, not bad input.  Anything else is
// an Error at FILE:LINE:COL: an unknown statement or key, a missing or
// repeated key, a bad number, a repeated or unknown tma NAME, an operand
// wgmma does not have.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/tma/tma_check.h"

namespace mmacheck {

std::vector<TmaCase> read_tma_file(std::string_view text, const std::string& path);

}  // namespace mmacheck
