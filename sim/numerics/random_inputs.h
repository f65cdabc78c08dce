// Random gemm inputs, drawn as the shared H200 vectors were (../shared/VECTORS.md):
//
//   normal    moderate exponents (|x| in [1/4, 8))
//   wide      the whole exponent range, subnormals included
//   cancel    the second half of K cancels the first (A negated, B repeated),
//             then one bit of one A element flipped
//   bits      uniform random bit patterns (NaN, Inf, subnormals)
//   spread    exponents spread over +-12 (8- and 16-bit types) or +-24
//   sparse    mostly zeros
//   specials  +-0, +-Inf, NaN payloads and extremes mixed into normal data
//   nearsum   large C, small products (rounding of the sum)
//
// and the edge kinds of sim/numerics/edge_inputs.h (threshold, zeroterm,
// underflow, ties, overflow, lowbits).  An InputSet says which kinds the
// cases of a run take turns over: `standard` (the eight above, the
// default: the shared vectors' mix), `edge` (the six edge kinds) or `all`
// (the fourteen).
//
// Integer types draw small values for normal/cancel/sparse, the whole range
// for wide/bits/spread, extremes for specials.  A case is a pure function of
// (seed, case index): its bits come from a counter-based generator,
// Philox4x32-10 keyed by the seed and counted by the case index
// (sim/numerics/philox_blocks.h), so the same seed gives the same inputs
// whatever the number of cases, the order they are drawn in, the thread or
// the machine.  The standard kinds give A, B and C a stream each (0, 1, 2)
// and every element a fixed slice of it: a payload of its storage width
// (rounded up to 16, 32 or 64 bits: sign, flags, fraction) and a 16- or
// 32-bit choice (docs/numerics.md, "The generator"; the edge kinds split
// the choice in two), the case's own few choices coming from stream 3
// through CaseStream (sim/numerics/case_stream.h).
//
//     GemmInputs in = random_gemm_inputs({16, 16, DType::f16, 1}, {16, 8, DType::f16, 0},
//                                        {16, 8, DType::f32}, Distribution::cancel, seed, 3);
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/philox_blocks.h"

namespace mmacheck::sim {

enum class Distribution : std::uint8_t {
  normal,
  wide,
  cancel,
  bits,
  spread,
  sparse,
  specials,
  nearsum,  // standard
  threshold,
  zeroterm,
  underflow,
  ties,
  overflow,
  lowbits,  // edge
};

enum class InputSet : std::uint8_t { standard, edge, all };

std::span<const Distribution> all_distributions();   // the standard eight
std::span<const Distribution> edge_distributions();  // the six edge kinds
std::span<const Distribution> distributions(InputSet set);
std::string_view distribution_name(Distribution d);  // "normal", ...
// "standard", "edge", "all"; input_set throws Error for another name.
std::string_view input_set_name(InputSet set);
InputSet input_set(std::string_view name);
// The distribution case `index` uses: the set's kinds take turns, in the order above.
Distribution case_distribution(int index, InputSet set = InputSet::standard);

// One operand's buffer: its shape, element type and which dimension runs
// along the gemm's K (A: 1, or 0 when transposed; B: 0, or 1 when
// transposed; C: -1).
struct MatrixSpec {
  std::int64_t rows = 0, cols = 0;
  DType dtype = DType::f32;
  int k_dim = -1;
};

GemmInputs random_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                              std::uint64_t seed, int case_index);
// The same inputs computed on one instruction set's path (which must be
// available, philox_path_available): every path gives the same bits.
GemmInputs random_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                              std::uint64_t seed, int case_index, PhiloxPath path);

}  // namespace mmacheck::sim
