// bench's measurement (sim/numerics/throughput.h): phases run interleaved,
// a slice each in turn, and ratios are taken round by round.  Structure and
// arithmetic only: no assertion here depends on how fast anything runs.
#include <catch2/catch.hpp>

#include <mutex>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/throughput.h"

namespace test_bench_interleaved {

using namespace mmacheck;
using namespace mmacheck::sim;

TEST_CASE("quartiles interpolate; the paired ratio is per round", "[bench]") {
  const Ratio q = quartiles({5, 1, 3, 2, 4});
  CHECK(q.median == 3);
  CHECK(q.q1 == 2);
  CHECK(q.q3 == 4);
  CHECK(quartiles({1, 2}).median == 1.5);
  CHECK(quartiles({}).median == 0);

  // Rates that halve in rounds 2 and 3 (a load arriving) for both phases:
  // every round's ratio is 0.25, whatever the medians of each phase are.
  PhaseResult a, b;
  a.slice_cpu_rates = {100, 100, 50, 50, 100};
  b.slice_cpu_rates = {400, 400, 200, 200, 400};
  const Ratio r = paired_ratio(a, b);
  CHECK(r.median == 0.25);
  CHECK(r.spread() == 0);
  // Only the rounds both phases ran count; a zero rate is left out.
  b.slice_cpu_rates = {400, 0, 200};
  CHECK(paired_ratio(a, b).median == 0.25);
  a.slice_rates = {1, 9, 3};
  CHECK(a.per_second() == 3);  // the median slice
  CHECK(a.spread() == Approx((6.0 - 2.0) / 3));
}

TEST_CASE("interleaved runs the phases in turn, one slice each per round", "[bench]") {
  std::mutex mutex;
  std::vector<int> order;  // the phase of each slice's first round, in time order
  int last = -1;
  const auto phase = [&](int id) {
    return Phase{"p" + std::to_string(id), [&, id](int) {
                   const std::lock_guard lock(mutex);
                   if (last != id) order.push_back(id);
                   last = id;
                   return std::uint64_t{1};
                 }};
  };
  const std::vector<Phase> phases = {phase(0), phase(1), phase(2)};
  const std::vector<PhaseResult> r = interleaved(phases, 1, 0.05, 0.01);
  REQUIRE(r.size() == 3);
  for (const PhaseResult& p : r) {
    CHECK(p.slice_rates.size() == 5);
    CHECK(p.slice_cpu_rates.size() == 5);
    CHECK(p.mma > 0);
  }
  const std::vector<int> want = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};
  CHECK(order == want);
  // A slice longer than the whole time is cut to it: one round.
  CHECK(interleaved(phases, 1, 0.01, 0.1)[0].slice_rates.size() == 1);
  CHECK_THROWS_AS(interleaved(phases, 0, 0.01), Error);
  CHECK_THROWS_AS(interleaved(phases, 1, 0), Error);
}

}  // namespace test_bench_interleaved
