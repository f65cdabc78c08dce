// InputSpecs — the buffers random_gemm_inputs draws for a program's gemm
// call: whole buffers, with the K dimension given by the transposes.
#pragma once

#include "core/program/program.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

struct InputSpecs {
  MatrixSpec a, b, c;
};
// Throws Error (at the operand) when the program has no gemm call or an
// operand is not a 2-D buffer.
InputSpecs input_specs(const Program& program);

}  // namespace mmacheck::sim
