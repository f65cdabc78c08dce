#include "core/gemm/ldmatrix.h"

#include <array>
#include <string>

#include "core/base/error.h"

namespace mmacheck {

namespace {

constexpr std::array<MatrixCopy, 12> kCopies{{
    {"ldmatrix.sync.aligned.m8n8.x1.shared.b16", false, 1, false},
    {"ldmatrix.sync.aligned.m8n8.x2.shared.b16", false, 2, false},
    {"ldmatrix.sync.aligned.m8n8.x4.shared.b16", false, 4, false},
    {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", false, 1, true},
    {"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", false, 2, true},
    {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", false, 4, true},
    {"stmatrix.sync.aligned.m8n8.x1.shared.b16", true, 1, false},
    {"stmatrix.sync.aligned.m8n8.x2.shared.b16", true, 2, false},
    {"stmatrix.sync.aligned.m8n8.x4.shared.b16", true, 4, false},
    {"stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", true, 1, true},
    {"stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", true, 2, true},
    {"stmatrix.sync.aligned.m8n8.x4.trans.shared.b16", true, 4, true},
}};

}  // namespace

std::span<const MatrixCopy> matrix_copies() { return kCopies; }

const MatrixCopy& matrix_copy(bool store, int num, bool trans) {
  for (const MatrixCopy& c : kCopies)
    if (c.store == store && c.num == num && c.trans == trans) return c;
  throw Error(std::string(store ? "stmatrix" : "ldmatrix") + " has no .x" + std::to_string(num) + " variant");
}

RowByte matrix_copy_byte(const MatrixCopy& copy, int lane, int reg, int byte) {
  if (!copy.trans) return {8 * reg + lane / 4, 4 * (lane % 4) + byte};
  const int unit = byte / 2;  // low or high 16-bit unit of the register
  return {8 * reg + 2 * (lane % 4) + unit, 2 * (lane / 4) + byte % 2};
}

}  // namespace mmacheck
