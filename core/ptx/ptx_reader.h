// read_ptx() — a PTX module's text as nvcc, NVRTC, Triton, TileLang and TVM
// write it (`.version` 7.0 to 9.x, `.target sm_80` to `sm_90a`), read strictly:
//
//   module    .version, .target, .address_size, module-level `.shared` and
//             `.extern .shared` arrays, `.visible .entry` kernels (with
//             `.maxntid`/`.reqntid`), `.file`, comments; a `.func` is read and
//             never run (a `call` of it is not modelled);
//   body      `.reg` declarations (`%r<89>`, one name, in nested `{ }` scopes,
//             as Triton's inline assembly opens them), `.shared` arrays,
//             labels, `.pragma`, `.loc`, and instructions: an optional guard
//             (`@%p` / `@!%p`), an opcode with its modifiers, operands
//             (registers, special registers, immediates — decimal, 0x, 0b,
//             octal, 0f/0d float bits —, {vectors}, [addresses], labels,
//             variable names).
//
// Each instruction is decoded through the opcode table (core/ptx/ptx_opcodes.h).
// What is not PTX, and PTX the machine does not model, is an Error at its
// line and column: `k.ptx:41:2: error: 'lop3.b32' is not modelled (...)`.
//
//     const PtxModule m = read_ptx(read_text_file("k.ptx"), "k.ptx");
#pragma once

#include <string>
#include <string_view>

#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

// Throws Error (FILE:LINE:COL) as above; bounded: at most 1,000,000
// instructions and 1,000,000 registers per kernel.
PtxModule read_ptx(std::string_view text, const std::string& file);

// Whether `text` looks like a PTX module: a `.version` directive and an
// `.entry` (the front door's test; read_ptx decides the rest).
bool looks_like_ptx(std::string_view text);

}  // namespace mmacheck::ptx
