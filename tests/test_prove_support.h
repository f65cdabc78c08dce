// Helpers for the prover tests: programs from text, proving with both
// methods at once, and finding a check's counterexample.
#pragma once

#include <string>

#include "core/program/program.h"
#include "core/prove/prove.h"

namespace mmacheck::test {

// The seed program with the corrected A staging (examples/seed_corrected.txt,
// inlined so that planted mistakes can edit it): buffers A, B, D.
extern const std::string kSeedCorrected;

Program program_from(const std::string& text);
// `text` with the first occurrence of `from` replaced by `to` (which must occur).
std::string replace_once(std::string text, const std::string& from, const std::string& to);

// Proves with z3, z3-unrolled and exhaustive (CHECKs that all give the same
// verdict, the same result per check and identical counterexamples) and
// returns the z3 report.  `plan` defaults to dispatch(program, set).
ProofReport prove_both(const Program& program, InstSet set = InstSet::tvm);
ProofReport prove_both(const Program& program, const Plan& plan);

// The counterexample of `check`, or nullptr.
const Counterexample* counterexample(const ProofReport& report, const std::string& check);
// The result of `check` in the report (FAILs when absent).
CheckResult result_of(const ProofReport& report, const std::string& check);

}  // namespace mmacheck::test
