#include "core/gemm/nest.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iomanip>
#include <sstream>

namespace mmacheck {

std::string Nest::c_term() const {
  if (use_c) return "beta=1";
  for (const NestStmt& s : stmts)
    if (const auto* init = std::get_if<InitStmt>(&s); init != nullptr && init->c_slots.empty() && init->bits != 0) {
      std::ostringstream os;
      os << std::setprecision(9) << "C=" << std::bit_cast<float>(static_cast<std::uint32_t>(init->bits));
      return os.str();
    }
  return "beta=0";
}

int Nest::mma_count() const {
  return static_cast<int>(
      std::count_if(stmts.begin(), stmts.end(), [](const NestStmt& s) { return std::holds_alternative<MmaStmt>(s); }));
}

std::optional<std::size_t> Nest::first_out_of_order() const {
  const std::int64_t block = std::int64_t{tiles_k} + 1;
  if (tiles_m < 1 || tiles_n < 1 || tiles_k < 1 ||
      static_cast<std::int64_t>(stmts.size()) != std::int64_t{tiles_m} * tiles_n * block)
    return stmts.size();
  for (std::size_t p = 0; p < stmts.size(); ++p) {
    const std::int64_t t = static_cast<std::int64_t>(p) / block, r = static_cast<std::int64_t>(p) % block;
    const std::int64_t m = t / tiles_n, n = t % tiles_n;
    const auto* init = std::get_if<InitStmt>(&stmts[p]);
    const auto* mma = std::get_if<MmaStmt>(&stmts[p]);
    if (r == 0 ? !(init && init->tile_m == m && init->tile_n == n)
               : !(mma && mma->tile_m == m && mma->tile_n == n && mma->tile_k == r - 1))
      return p;
  }
  return std::nullopt;
}

}  // namespace mmacheck
