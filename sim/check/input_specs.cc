#include "sim/check/input_specs.h"

#include "core/gemm/geometry.h"

namespace mmacheck::sim {

InputSpecs input_specs(const Program& program) {
  const GemmGeometry g = gemm_geometry(program);  // validates the call and its operands
  const GemmCall& call = *program.gemm;
  const auto spec = [&](const OperandRef& ref, const OperandPlace& place, int k_dim) {
    const BufferDecl& b = program.buffer(ref.buffer, ref.loc);
    return MatrixSpec{b.shape[0], b.shape[1], place.dtype(), k_dim};
  };
  return {spec(call.a, g.a, call.transpose_a ? 0 : 1), spec(call.b, g.b, call.transpose_b ? 1 : 0),
          spec(call.c, g.c, -1)};
}

}  // namespace mmacheck::sim
