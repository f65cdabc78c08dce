// The shared-memory checks of a program that stages through shared memory
// (docs/shared-memory.md), decided by enumerating every point (method
// exhaustive, whatever the run's method: each is a few thousand points).
// Private to core/prove*.cc.
//
//   "swizzle S"   S's layout after its swizzle places every element at its
//                 own offset inside the allocation, and the allocation's
//                 alignment is a multiple of the swizzle's period (so the
//                 swizzle on offsets is the swizzle on addresses); with a
//                 writer of its own swizzle, "swizzle S (fill)" too;
//   "fill S"      the writer and the reader agree: every element sits where
//                 the reader's layout looks for it ("drain S" for stores);
//   "rows X"      (per ldmatrix/stmatrix statement X) every address lane's
//                 element lies in S, its row address is 16-byte aligned, and
//                 the 16 bytes from it are the elements (ROW, COL .. COL +
//                 16/width - 1), contiguous after the swizzle;
//   "ldmatrix R"  (also ld.shared, stmatrix, st.shared R) for every lane and
//                 slot of R, the element the shared-memory path delivers
//                 (stores: where the drain puts it) is the one R's layout
//                 places there — and so, with "R frame", what the mma frame
//                 needs.  On 8-bit data with .trans the counterexample names
//                 the element pair a 16-bit unit carries.
#pragma once

#include <optional>
#include <vector>

#include "core/prove/bank_conflicts.h"
#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

struct SharedCheck {
  CheckReport report;
  std::optional<Counterexample> counterexample;
};

struct SharedFindings {
  std::vector<SharedCheck> checks;
  std::vector<BankCount> banks;
};

// Throws Error where shared_stage (core/gemm/shared_staging.h) does.
SharedFindings shared_findings(const ProofSetup& setup);

}  // namespace mmacheck::prove_detail
