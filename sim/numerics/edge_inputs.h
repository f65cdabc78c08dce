// Edge-heavy random gemm inputs: the corners of the fused models that the
// standard distributions (random_inputs.h) rarely reach, measured on the
// H200 and in MMA-Sim (docs/numerics.md):
//
//   threshold  one large product per row of A, the others 20..30 binades
//              below it: terms on both sides of the truncation at 2^(E - 25)
//   zeroterm   sparse tiny products around the zero-term exponents (-133
//              and -132 for f32 output, -21 and -20 for f16), C mostly zero
//   underflow  a few products around the output's least subnormal, random
//              signs, C = ±0: sums that round to zero (+0 on the H200)
//   ties       short fractions, products at half an ulp of C: exact
//              nearest-even ties for f16 output
//   overflow   products and C at the output's largest exponents, random signs
//   lowbits    tf32 patterns whose ignored low 13 bits are random, also under
//              zero, Inf and NaN exponents; least subnormals for other types
//
// Integer types get small values or extremes.  Like the standard kinds, a
// case is a pure function of (seed, case index), drawn the same way
// (sim/numerics/element_words.h: A, B and C elements from streams 0, 1, 2,
// a payload and two choices each; the case's own choices, such as
// threshold's large element per row, from stream 3).
//
//     GemmInputs in = edge_gemm_inputs(a_spec, b_spec, c_spec, Distribution::ties, seed, case_index);
#pragma once

#include "sim/numerics/philox_blocks.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

// `dist` must be one of edge_distributions(); `path` as random_gemm_inputs'.
GemmInputs edge_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                            std::uint64_t seed, std::uint64_t case_index, PhiloxPath path = best_philox_path());

}  // namespace mmacheck::sim
