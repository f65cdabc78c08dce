// How prove() (core/prove/prove.h) works: the method, Z3's time, the
// instruction set, the resource limits, and whether to explain failures.
//
//     ProveOptions o;
//     o.method = ProofMethod::exhaustive;  // no Z3
//     o.explain = false;                   // the verdict only
#pragma once

#include "core/base/limits.h"
#include "core/gemm/mma_inst.h"
#include "core/prove/report.h"

namespace mmacheck {

struct ProveOptions {
  ProofMethod method = ProofMethod::z3;
  // Z3's time for the whole run (every check); a check that runs out, and
  // every check after it, is `unknown`.
  unsigned timeout_ms = 10000;
  InstSet inst_set = InstSet::tvm;
  Limits limits;  // checked before any work (core/gemm/resources.h)
  // Explain what fails: a diagnosis after a decline (with its fix search),
  // every mismatch of a refuted check and its summary.  Off where prove()
  // only needs the verdict (the fix search verifying a candidate).
  bool explain = true;
};

}  // namespace mmacheck
