// check_resources — the program's sizes against the Limits, before any work.
//
// Every command dispatches first, and dispatch() calls this before it looks
// at the gemm: each buffer's elements (times its replicas), its replicas and
// its register span must be within the limits, so that the prover's storage
// tables, the warp machine's register tables and the SVG's cells are bounded
// whatever the file says.  The nest's mma count is checked by dispatch()
// itself once the instruction is known, before the nest is built.
//
//     A = buffer((1 << 20, 16), "float16", "local", ...)
//     // -> "gemm.txt:7:1: error: buffer 'A' needs 16777216 elements (replicas
//     //     counted), over the limit of 1048576 (raise it with --max-elements)"
#pragma once

#include "core/base/limits.h"
#include "core/program/program.h"

namespace mmacheck {

// Throws a located Error (core/base/limits.h) at the first buffer over a limit.
void check_resources(const Program& program, const Limits& limits);

}  // namespace mmacheck
