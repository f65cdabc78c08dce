#include "sim/wgmma/instr_vectors.h"

namespace mmacheck::sim {

void InstrVectorReport::add_case(int case_id, const std::string& instr, int cols,
                                 std::span<const std::uint64_t> expected, std::span<const std::uint64_t> got,
                                 int show) {
  int wrong = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    ++outputs;
    if (got[e] == expected[e]) continue;
    ++wrong;
    if (static_cast<int>(mismatches.size()) < show)
      mismatches.push_back({case_id, instr, static_cast<int>(e / static_cast<std::size_t>(cols)),
                            static_cast<int>(e % static_cast<std::size_t>(cols)), expected[e], got[e]});
  }
  mismatched_outputs += wrong;
  (wrong ? failed : passed) += 1;
}

}  // namespace mmacheck::sim
