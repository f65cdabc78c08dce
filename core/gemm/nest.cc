#include "core/gemm/nest.h"

#include <algorithm>

namespace mmacheck {

int Nest::mma_count() const {
  return static_cast<int>(std::count_if(stmts.begin(), stmts.end(), [](const NestStmt& s) {
    return std::holds_alternative<MmaStmt>(s);
  }));
}

}  // namespace mmacheck
