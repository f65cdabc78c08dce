// Layer sim/check: the references (direct evaluation; Eigen within error bounds) and
// the `sim` check. Uses core, sim/numerics, sim/machine.
//
// SimCheck — the two checks `mmacheck sim` makes of a program on one set of
// inputs: the warp machine (the program's staging, nest and stores, lane by
// lane) must be
//   1. bit-identical to the direct evaluation (sim/check/direct_eval.h), and
//   2. accepted by the Eigen reference (sim/check/reference.h: within the
//      instruction's error bound, or the right NaN/Inf class),
// on every element of D's region.  Built once per program; `failures` runs
// one case.
//
//     SimCheck check(program, plan.nest, arch_params("sm_90"));
//     for (const ElementCheck& f : check.failures(check.random_case(i, seed))) ...
#pragma once

#include <cstdint>
#include <vector>

#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "core/gemm/geometry.h"
#include "sim/check/input_specs.h"
#include "sim/check/reference.h"
#include "sim/machine/warp_machine.h"

namespace mmacheck::sim {

struct ElementCheck {
  std::int64_t row = 0, col = 0;  // in D's buffer
  std::uint64_t got = 0;          // the warp machine's bits
  std::uint64_t direct = 0;       // the direct evaluation's bits
  Expectation reference;
  bool bit_exact = true;     // got == direct
  bool within_bound = true;  // accepts(reference, got)
};

class SimCheck {
 public:
  // Throws Error when the program cannot be simulated (see WarpMachine,
  // gemm_geometry, build_staging).
  SimCheck(const Program& program, const Nest& nest, const ArchParams& arch);

  // Case `index` of the random inputs (random_gemm_inputs, distribution
  // case_distribution(index, inputs)).
  GemmInputs random_case(int index, std::uint64_t seed, InputSet inputs = InputSet::standard) const;
  // The elements of D's region that fail a check, row-major.
  std::vector<ElementCheck> failures(const GemmInputs& inputs);

  const GemmGeometry& geometry() const { return geometry_; }
  const WarpMachine& machine() const { return machine_; }

 private:
  WarpMachine machine_;
  GemmGeometry geometry_;
  InputSpecs specs_;
};

}  // namespace mmacheck::sim
