#include "cuda/case_batches.h"

#include <algorithm>
#include <string>

#include "core/base/error.h"

namespace mmacheck::cuda {

std::vector<CaseBatch> plan_case_batches(std::int64_t cases, std::int64_t batch_cases, int devices, int slots) {
  if (cases < 0 || batch_cases < 1 || devices < 1 || slots < 1)
    throw Error("case batches: " + std::to_string(cases) + " cases in batches of " + std::to_string(batch_cases) +
                " over " + std::to_string(devices) + " devices x " + std::to_string(slots) + " slots");
  std::vector<CaseBatch> out;
  out.reserve(static_cast<std::size_t>((cases + batch_cases - 1) / batch_cases));
  for (std::int64_t first = 0, b = 0; first < cases; first += batch_cases, ++b)
    out.push_back({first, std::min(batch_cases, cases - first), static_cast<int>(b % devices),
                   static_cast<int>(b / devices % slots)});
  return out;
}

std::int64_t default_batch_cases(std::int64_t cases, std::int64_t bytes_per_case, int devices, int slots,
                                 std::int64_t budget_bytes) {
  const std::int64_t fit = std::max<std::int64_t>(1, budget_bytes / std::max<std::int64_t>(1, bytes_per_case));
  // Two batches per slot at least, so that preparing one overlaps the other.
  const std::int64_t lanes = 2 * static_cast<std::int64_t>(std::max(1, devices)) * std::max(1, slots);
  const std::int64_t share = std::max<std::int64_t>(1, (cases + lanes - 1) / lanes);
  return std::max<std::int64_t>(1, std::min({fit, share, std::max<std::int64_t>(1, cases)}));
}

}  // namespace mmacheck::cuda
