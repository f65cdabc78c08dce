// Writing tensor-core test vectors in format mmav-1 (../shared/VECTORS.md);
// sim/vectors/vector_file.h reads them back.
//
//     # recorded on NVIDIA H200 (sm_90), driver 580.159.04, CUDA 13.0, NVRTC 13.0
//     instr mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//     case 0 normal
//     A 3c00 ...
//     B ...
//     C ...
//     D ...
#pragma once

#include <span>
#include <string>

#include "sim/vectors/vector_file.h"

namespace mmacheck::cuda {

// `comments` become `# ` lines at the top; an `instr` line precedes the
// cases whenever the instruction changes.  Words are zero-padded hex of the
// element width (2 digits for 8-bit types, 4 for 16-bit, 8 for 32-bit and
// tf32, 16 for f64).  Throws Error when a case has no instruction or a tile
// of the wrong size.
std::string format_mmav(std::span<const std::string> comments, std::span<const sim::VectorCase> cases);

}  // namespace mmacheck::cuda
