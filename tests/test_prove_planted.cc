// The audit of issue 21, as a held-out checker would run it: each class of
// mistake planted in a correct layout file and in its TVMScript twin, and a
// refutation (or the dispatch's refusal, never "proved") required — a
// staging that misses an element, two lanes storing one D element, a
// register order swapped, a replica where a shard is needed, a K tile
// accumulated twice (docs/soundness.md lists what each check covers).
#include <catch2/catch.hpp>

#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_prove_planted {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

struct Plant {
  const char* what;
  const char* file;
  const char* from;
  const char* to;
  const char* refuted;  // the check that must refute; "" where the dispatch must decline
};

const Plant kPlants[] = {
    {"a staging that misses rows 8..15 of A", "seed_corrected.txt", "A_g[lane // 4 + 8 * ((s // 2) % 2)",
     "A_g[lane // 4 + 0 * ((s // 2) % 2)", "stage A"},
    {"a staging that misses rows 8..15 of A", "seed_corrected.py", "A_g[lane // 4 + 8 * rM", "A_g[lane // 4 + 0 * rM",
     "stage A_f"},
    {"two lanes storing one D element", "seed_corrected.txt", "D_g[lane // 4 + 8 * (s // 2)",
     "D_g[lane // 8 + 8 * (s // 2)", "store D"},
    {"two lanes storing one D element", "seed_corrected.py", "D_g[lane // 4 + 8 * rM", "D_g[lane // 8 + 8 * rM",
     "store D_f"},
    {"A's register order swapped (k pair and k half)", "seed_corrected.txt", "2 * (lane % 4) + s % 2 + 8 * (s // 4)]",
     "2 * (lane % 4) + s // 4 + 8 * (s % 2)]", "stage A"},
    {"A's register order swapped (k pair and k half)", "seed_corrected.py", "2 * (lane % 4) + kp + 8 * kHi]",
     "2 * (lane % 4) + kHi + 8 * kp]", "stage A_f"},
    {"B's register order swapped", "seed_corrected.py", "B_g[2 * (lane % 4) + kp + 8 * kHi",
     "B_g[2 * (lane % 4) + kHi + 8 * kp", "stage B_f"},
    {"A's layout with its pair stride swapped", "seed_corrected.txt",
     "A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])",
     "A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (1, 4 @ laneid, 1 @ laneid, 2)])", ""},
    {"D replicated over the warps where they must split N", "cta_threads64_n.txt",
     "S[(2, 8, 2, 4, 2) : (2, 4 @ laneid, 1 @ warpid, 1 @ laneid, 1)]",
     "S[(2, 8, 2, 4, 2) : (2, 4 @ laneid, 4, 1 @ laneid, 1)] + R[2 : 1 @ warpid]", ""},
    {"B replicated over the warps where they must split N", "cta_threads64_n.txt",
     "S[(2, 4, 2, 2, 8) : (2, 1 @ laneid, 1, 1 @ warpid, 4 @ laneid)]",
     "S[(2, 4, 2, 2, 8) : (2, 1 @ laneid, 1, 4, 4 @ laneid)] + R[2 : 1 @ warpid]", ""},
    {"B's first K tile staged into both K tiles (accumulated twice)", "tiled_2x2x2.txt",
     "+ 16 * (s // 8), lane // 4 + 8", "+ 0 * (s // 8), lane // 4 + 8", "stage B"},
};

}  // namespace

TEST_CASE("every planted mistake in a layout file or its TVMScript twin is refuted or declined, never proved",
          "[prove][planted]") {
  for (const Plant& p : kPlants) {
    INFO(p.what << " in " << p.file);
    const std::string good = read_file(source_path(std::string("examples/") + p.file));
    REQUIRE(prove_both(program_from(good)).verdict == Verdict::proved);
    const ProofReport r = prove_both(program_from(replace_once(good, p.from, p.to)));
    if (*p.refuted) {
      CHECK(r.verdict == Verdict::refuted);
      CHECK(result_of(r, p.refuted) == CheckResult::refuted);
    } else {
      CHECK(r.verdict == Verdict::dispatch_failed);
    }
  }
}

}  // namespace test_prove_planted
