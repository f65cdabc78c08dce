// Shared by the numerics tests: one output of one instruction from a few
// hand-picked elements.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::test {

// D[0][0] of one instruction whose A row 0, B column 0 and C[0][0] are given
// (missing elements and everything else +0), on architecture row `arch`.
inline std::uint64_t d00(const std::string& ptx, const std::vector<std::uint64_t>& a_row,
                         const std::vector<std::uint64_t>& b_col, std::uint64_t c, std::string_view arch = "sm_90") {
  const MmaInst* inst = find_mma_inst(ptx);
  REQUIRE(inst);
  // (m8n8k4 f16: product 0's, the first of the four stacked tiles)
  std::vector<std::uint64_t> a(inst->a_elems()), b(inst->b_elems()), cc(inst->c_elems()), d(inst->c_elems(), 0xDEAD);
  for (std::size_t k = 0; k < a_row.size(); ++k) a[k] = a_row[k];
  for (std::size_t k = 0; k < b_col.size(); ++k) b[k * inst->n] = b_col[k];
  cc[0] = c;
  sim::mma_tile(*inst, sim::arch_params(arch), a, b, cc, d);
  return d[0];
}

}  // namespace mmacheck::test
