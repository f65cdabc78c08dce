// Reference — D = A @ B (+ C) computed independently of every arithmetic
// model, with Eigen, and what each element of the simulated D may be.
//
// The reference value is Eigen's product in double (long double for f64
// inputs, whose products overflow double) on the logical matrices
// (core/gemm/geometry.h).  A simulated element is accepted when:
//   integers (s8, u8 -> s32)   it equals the exact int64 result wrapped to 32
//                              bits (the instructions wrap);
//   floats, finite inputs      it is finite and within `bound` of the
//                              reference, or it is ±Inf where the model may
//                              overflow (sim/check/error_bound.h);
//   floats, NaN/Inf inputs     its class is one the model gives (NaN for
//                              NaN, Inf * 0 or Inf - Inf; else the Inf's sign).
// bound = the model's error bound (sim/check/error_bound.h) + the reference's own
// error, (K + 2) u (|A| @ |B| + |C|) + (K + 2) * the least subnormal, u the
// unit roundoff of Eigen's type (any summation order, products rounded).
// docs/numerics.md, "Reference error bounds", derives both.
//
//     const Reference ref = eigen_reference(gemm_geometry(program), *plan.inst, arch, inputs);
//     accepts(ref.at(i, j), DType::f32, d_bits)
#pragma once

#include <cstdint>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "core/gemm/geometry.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

struct Expectation {
  long double value = 0;     // the reference (exact for integers)
  long double bound = 0;     // accepted |result - value| for a finite result
  std::uint8_t classes = 1;  // ValueClass bits (sim/check/error_bound.h) a float result may have
};

struct Reference {
  std::int64_t rows = 0, cols = 0;  // M x N
  std::vector<Expectation> elems;   // row-major

  const Expectation& at(std::int64_t i, std::int64_t j) const { return elems[i * cols + j]; }
};

// Throws Error when an input does not hold its operand or the extents do
// not tile into the instruction.
Reference eigen_reference(const GemmGeometry& gemm, const MmaInst& inst, const ArchParams& arch,
                          const GemmInputs& inputs);

// Whether `bits` (an element of type `type`, D's) is an accepted result.
bool accepts(const Expectation& e, DType type, std::uint64_t bits);

}  // namespace mmacheck::sim
