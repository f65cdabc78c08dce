// The outcome of one check and, when refuted, the first point where it fails
// (the witness).  Both methods search their checks' points in the same order
// and stop at the first violation, so equal witnesses mean equal
// counterexamples; describe() turns a witness into a Counterexample by
// evaluating the layouts concretely.  Private to core/prove*.cc.
//
// Points and their order (lexicographic, first field slowest):
//   frame         (mma, warp, lane, elem)       mma: index into ProofSetup::mmas
//   fragment      outside: x; then doubled: (y, x) with x < y
//                 (x, y: row-major index over the operand's region)
//   accumulation  products: (warp, i, j, k, lane); then init: (warp, i, j, lane)
//   staging       (warp, lane, slot)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "core/prove/report.h"
#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

struct FrameWitness {
  int mma = 0;
  int warp = 0, lane = 0, elem = 0;
};

struct FragmentWitness {
  bool doubled = false;
  std::int64_t x = 0;  // the element placed outside, or the first of two sharing a place
  std::int64_t y = 0;  // doubled: the second
};

struct AccumulationWitness {
  bool init = false;  // false: some product is not formed exactly once
  int warp = 0, lane = 0;
  std::int64_t i = 0, j = 0, k = 0;  // D[i][j]; k only for products
};

struct StagingWitness {
  int warp = 0, lane = 0;
  std::int64_t slot = 0;
};

using Witness = std::variant<FrameWitness, FragmentWitness, AccumulationWitness, StagingWitness>;

struct Outcome {
  CheckResult result = CheckResult::unknown;
  std::optional<Witness> witness;  // when refuted
  std::string note;                // when unknown
  bool solved = true;              // false: the answer of an identical earlier query
};

Counterexample describe(const ProofSetup& setup, const CheckSpec& check, const Witness& witness);

}  // namespace mmacheck::prove_detail
