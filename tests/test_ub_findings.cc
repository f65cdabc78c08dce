// Defect 9 of the hardening issue: the runs where UndefinedBehaviorSanitizer
// found signed overflow (error bound of a ±Inf product: ilogb(Inf) is
// INT_MAX) and a shift by 64 or more (fused dot of a zero term).  In the
// normal build they pass; in the sanitizer build (scripts/sanitize.sh) the
// old code stopped here with a runtime error.
#include <catch2/catch.hpp>

#include "tests/support.h"

namespace mmacheck::test_ub_findings {

TEST_CASE("sim of the corrected seed with specials (cases 0..6) is free of undefined behaviour", "[hardening][ub]") {
  const test::RunResult r =
      test::run_mmacheck({"sim", test::source_path("examples/seed_corrected.txt"), "--cases", "7"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("runtime error") == std::string::npos);
}

TEST_CASE("sim of beta1 on sm_80 (cases 0..7) is free of undefined behaviour", "[hardening][ub]") {
  const test::RunResult r =
      test::run_mmacheck({"sim", test::source_path("examples/beta1.txt"), "--arch", "sm_80", "--cases", "8"});
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.err.find("runtime error") == std::string::npos);
}

}  // namespace mmacheck::test_ub_findings
