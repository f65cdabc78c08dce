#include "core/program/read/read_program.h"
#include "tests/test_prove_support.h"

#include <catch2/catch.hpp>

namespace mmacheck::test {

const std::string kSeedCorrected = R"(
D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8]); B_FRAG = B_FRAG_K8.tile_to([16, 8], [8, 8])
A = T.alloc_buffer((16, 16), "float16", scope="local", layout=A_FRAG)
B = T.alloc_buffer((16, 8), "float16", scope="local", layout=B_FRAG)
D = T.alloc_buffer((16, 8), "float32", scope="local", layout=D_FRAG)
stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // 4]
scope warp
Tx.warp.gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
store D[s] -> D_g[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2]
)";

Program program_from(const std::string& text) { return parse_program(text, "test.txt"); }

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

namespace {

void require_same(const Counterexample& a, const Counterexample& b) {
  INFO("z3: " << a.message << "\nexhaustive: " << b.message);
  CHECK(a.check == b.check);
  CHECK(a.operand == b.operand);
  CHECK(a.warp == b.warp);
  CHECK(a.lane == b.lane);
  CHECK(a.slot == b.slot);
  CHECK(a.stmt == b.stmt);
  CHECK(a.tile == b.tile);
  CHECK(a.element == b.element);
  CHECK(a.k == b.k);
  CHECK(a.expected == b.expected);
  CHECK(a.actual == b.actual);
  CHECK(a.message == b.message);
}

// The same verdict, result per check and counterexamples as `a` (z3).
void require_agree(const ProofReport& a, const ProofReport& b, ProofMethod method) {
  INFO("z3 against " << proof_method_name(method));
  CHECK(verdict_name(a.verdict) == verdict_name(b.verdict));
  REQUIRE(a.checks.size() == b.checks.size());
  for (std::size_t i = 0; i < a.checks.size(); ++i) {
    INFO("check " << a.checks[i].check.name());
    CHECK(a.checks[i].check.name() == b.checks[i].check.name());
    CHECK(check_result_name(a.checks[i].result) == check_result_name(b.checks[i].result));
    // The shared-memory checks enumerate under every method (core/prove/shared_checks.h).
    const bool enumerated = a.checks[i].note == kEnumerated;
    CHECK((a.checks[i].method == ProofMethod::z3 || enumerated));
    CHECK((b.checks[i].method == method || (enumerated && b.checks[i].method == ProofMethod::exhaustive)));
  }
  REQUIRE(a.counterexamples.size() == b.counterexamples.size());
  for (std::size_t i = 0; i < a.counterexamples.size(); ++i) require_same(a.counterexamples[i], b.counterexamples[i]);
}

}  // namespace

ProofReport prove_both(const Program& program, const Plan& plan) {
  const ProofReport a = prove(program, plan, {});
  for (ProofMethod method : {ProofMethod::z3_unrolled, ProofMethod::exhaustive}) {
    ProveOptions other;
    other.method = method;
    require_agree(a, prove(program, plan, other), method);
  }
  return a;
}

ProofReport prove_both(const Program& program, InstSet set) { return prove_both(program, dispatch(program, set)); }

const Counterexample* counterexample(const ProofReport& report, const std::string& check) {
  for (const Counterexample& c : report.counterexamples)
    if (c.check.name() == check) return &c;
  return nullptr;
}

CheckResult result_of(const ProofReport& report, const std::string& check) {
  for (const CheckReport& c : report.checks)
    if (c.check.name() == check) return c.result;
  FAIL("no check named '" << check << "'");
  return CheckResult::unknown;
}

}  // namespace mmacheck::test
