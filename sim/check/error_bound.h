// ErrorBound — what one output element of a floating-point gemm may be,
// derived from the steps of its instruction's arithmetic model
// (sim/numerics/mma_model.h) without running it: the classes the result can take
// (finite, ±Inf, NaN) and, for a finite result, a bound on its distance from
// the exact value of (A @ B + C)[i][j].  docs/numerics.md, "Reference error
// bounds", derives each step; in short, over the K tiles in order:
//
//   fused (f16, bf16, tf32)  per block of n products with accumulator x:
//       truncation  (n + 1) * 2^(E - kept_bits), E the largest alignment
//                   exponent among the terms (a zero term: zero_term_exp);
//       rounding    ulp(|T|) toward zero (f32 out), ulp(|T|)/2 nearest (f16 out);
//   fp8      two fused f32 blocks (k mod 4 in {0,1}, then {2,3}), then an
//            f32 add of the accumulator, nearest-even;
//   f64      one IEEE fma per product: ulp(|T|)/2.
//
// Each step adds its own error to the accumulator's; the magnitudes that
// fix E and the ulp are bounded by |exact partial sum| + error so far.  A
// step may overflow to ±Inf when that bound reaches the format's largest
// finite value; NaN, ±Inf and Inf * 0 among the inputs propagate by class
// as the models do (any NaN, Inf * 0 or +Inf meeting -Inf: NaN; else ±Inf).
//
//     const BoundModel m = bound_model(inst, arch_params("sm_90"));
//     const Outcomes o = element_outcomes(m, {a_row, b_col, a_row_exps, b_col_exps, c});
//     // finite result r is right when (o.classes & kFinite) && |r - exact| <= o.error
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

enum ValueClass : std::uint8_t { kFinite = 1, kPosInf = 2, kNegInf = 4, kNaN = 8 };

struct Outcomes {
  std::uint8_t classes = kFinite;  // a set of ValueClass bits
  long double exact = 0;           // A @ B + C, to long double accuracy (meaningful when finite is possible)
  long double error = 0;           // bound on |computed - exact A @ B + C|, long double slack included
};

// One rounding of the model: to `man_bits` fraction bits, subnormals from
// min_exp down, toward zero or to nearest-even.
struct RoundingSpec {
  int man_bits = 23;
  int min_exp = -126;
  long double max_finite = 0;
  bool nearest = false;
};

struct BoundModel {
  enum class Family : std::uint8_t { fused, fp8, f64 };
  Family family = Family::fused;
  int inst_k = 16;
  int block = 16;      // products per fused step
  int kept_bits = 25;  // ArchParams::kept_bits
  int zero_term_exp = -133;
  int input_min_exp = -14;  // alignment exponent of subnormal inputs (fp8: of the f16 they become)
  RoundingSpec out;         // the fused step's or fma's rounding
};

// Throws Error for integer instructions (they are exact; see reference.h).
BoundModel bound_model(const MmaInst& inst, const ArchParams& arch);

// The exponent an input value aligns at in a fused block: its binary
// exponent, subnormals clamped to the input format's least (x != 0).
int align_exp(const BoundModel& model, long double x);

// One output element's inputs: its row of A and column of B (K values each,
// K a multiple of the instruction's k, with their align_exp computed once
// per matrix, not per product) and its C value (+0 when beta = 0).
template <class T>
struct ElementRun {
  std::span<const T> a, b;
  std::span<const int> a_exp, b_exp;
  T c = 0;
};
using ElementInputs = ElementRun<long double>;

Outcomes element_outcomes(const BoundModel& model, const ElementInputs& in);
// The same steps computed in double, with double's rounding in the slack:
// several times faster, for every family but f64 (whose products double
// does not hold exactly; Error).  The bound differs from the long double
// one only in that slack (relative 2^-51 of the magnitudes instead of 2^-62).
Outcomes element_outcomes(const BoundModel& model, const ElementRun<double>& in);

// Row by row, for the fused family (f16, bf16, tf32, natively fused fp8):
// B prepared once per case (BoundColumns: B as K x N with non-finite
// values zeroed, and which K blocks of which column hold one), then each
// row of D at once (row_outcomes).  out[j] is exactly what
// element_outcomes in double gives for element (i, j), NaN and Inf
// included; the columns run in the inner loop, where the compiler
// vectorises the products, sums and exponent maxima.
//
//     const BoundColumns cols(model, bt, bt_exp, N, K);   // B transposed: N x K
//     row_outcomes(model, cols, a_row, a_row_exp, c_row, out_row);
class BoundColumns {
 public:
  // Throws Error for another family or sizes that are not N x K whole K tiles.
  BoundColumns(const BoundModel& model, std::span<const double> bt, std::span<const int> bt_exp, std::int64_t n,
               std::int64_t k);

  std::size_t n() const { return n_; }
  std::size_t k() const { return k_; }
  std::size_t blocks() const { return blocks_; }
  std::span<const double> bt() const { return bt_; }          // N x K, as given
  std::span<const double> b() const { return b_; }            // K x N, non-finite values 0
  std::span<const int> b_exp() const { return b_exp_; }       // K x N, -2^29 where b is 0
  std::span<const std::uint8_t> bad() const { return bad_; }  // blocks x N: a non-finite value there

 private:
  std::size_t n_, k_;
  std::span<const double> bt_;
  std::vector<double> b_;
  std::vector<int> b_exp_;
  std::size_t blocks_;
  std::vector<std::uint8_t> bad_;
};

// Throws Error when the row, C's row or out is not K, N, N long.
void row_outcomes(const BoundModel& model, const BoundColumns& cols, std::span<const double> a_row,
                  std::span<const int> a_exp_row, std::span<const double> c_row, std::span<Outcomes> out);

}  // namespace mmacheck::sim
