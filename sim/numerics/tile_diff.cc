#include "sim/numerics/tile_diff.h"

namespace mmacheck::sim {

void TileDiff::add_case(int case_index, Distribution dist, int cols, std::span<const std::uint64_t> expected,
                        std::span<const std::uint64_t> got, int show, std::span<const std::uint8_t> missing) {
  ++cases;
  int wrong = 0;
  for (std::size_t e = 0; e < expected.size(); ++e) {
    ++outputs;
    const bool nowhere = !missing.empty() && missing[e] != 0;
    if (!nowhere && got[e] == expected[e]) continue;
    ++wrong;
    if (static_cast<int>(mismatches.size()) < show)
      mismatches.push_back({case_index, dist, static_cast<int>(e / static_cast<std::size_t>(cols)),
                            static_cast<int>(e % static_cast<std::size_t>(cols)), expected[e],
                            nowhere ? ~std::uint64_t{0} : got[e]});
  }
  wrong_elements += wrong;
  failed_cases += wrong ? 1 : 0;
}

}  // namespace mmacheck::sim
