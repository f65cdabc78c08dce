#include "sim/check/run_cases.h"

#include <algorithm>

#include "core/base/worker_pool.h"

namespace mmacheck::sim {

CaseRunReport run_cases(const SimCheck& check, const CaseOptions& o) {
  CaseRunReport report;
  report.cases = o.cases;
  // Cases run `threads` at a time, each thread on its own copy of the check
  // (the warp machine keeps registers); collected in case order, a round
  // of cases at a time so that memory stays bounded.
  WorkerPool pool(static_cast<int>(std::min<std::int64_t>(case_threads(o), o.cases)));
  std::vector<SimCheck> checks(static_cast<std::size_t>(pool.size()), check);
  const int round = 4 * pool.size();
  std::vector<std::vector<ElementCheck>> found(static_cast<std::size_t>(round));
  for (std::int64_t first = 0; first < o.cases; first += round) {
    const std::int64_t count = std::min<std::int64_t>(round, o.cases - first);
    pool.for_each(count, [&](int w, std::int64_t r) {
      SimCheck& c = checks[static_cast<std::size_t>(w)];
      const int i = static_cast<int>(first + r);
      found[static_cast<std::size_t>(r)] = c.failures(c.random_case(i, o.seed, o.inputs));
    });
    for (std::int64_t r = 0; r < count; ++r) {
      const std::int64_t i = first + r;
      const std::vector<ElementCheck>& f = found[static_cast<std::size_t>(r)];
      report.failed_cases += !f.empty();
      for (const ElementCheck& e : f) {
        ++report.wrong_elements;
        report.not_bit_exact += !e.bit_exact;
        report.outside_bound += !e.within_bound;
        if (report.failures.size() < static_cast<std::size_t>(o.show))
          report.failures.push_back({i, case_distribution(static_cast<int>(i), o.inputs), e});
      }
    }
    if (o.progress) o.progress(first + count);
  }
  return report;
}

}  // namespace mmacheck::sim
