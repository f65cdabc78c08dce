// The two ways to decide a check (see core/prove/prove.h).  Private to
// core/prove*.cc.
#pragma once

#include <chrono>
#include <memory>

#include "core/prove/setup.h"
#include "core/prove/witness.h"

namespace mmacheck::prove_detail {

class Z3Session;

// Enumerates the check's points in order; never unknown.
Outcome check_exhaustive(const ProofSetup& setup, const CheckSpec& check);

// One z3::context for a whole prove() run; each check is one or two small
// bit-vector queries, then a search for the first violating point
// (Z3Session, core/prove/z3_checker.h), all within `timeout_ms` of the
// checker's construction: the limit bounds the whole run, and checks left
// when it runs out are `unknown` without being encoded.
class Z3Checker {
 public:
  // `tile_symbolic`: the frame and accumulation checks over symbolic tile
  // indices where the nest is its views' unrolling (core/prove/tile_model.h).
  // The run's time limit counts from `start`.
  Z3Checker(const ProofSetup& setup, unsigned timeout_ms, bool tile_symbolic,
            std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now());
  ~Z3Checker();
  Z3Checker(const Z3Checker&) = delete;
  Z3Checker& operator=(const Z3Checker&) = delete;

  Outcome check(const CheckSpec& check);
  // For a setup with OriginRule::affine: proved when the anchors rule would
  // read the same origins, refuted when it might not (the caller starts
  // again with OriginRule::anchors), unknown when the run's time ran out
  // (every check will be unknown: the origins are never used).
  CheckResult anchors_agree();
  bool out_of_time() const;

 private:
  struct Impl;
  Outcome frames(GemmOperand op, Z3Session& session);
  Outcome accumulation(Z3Session& session);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mmacheck::prove_detail
