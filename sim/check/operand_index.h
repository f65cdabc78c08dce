// OperandIndex — OperandPlace::at (core/gemm/geometry.h) as the affine map it
// is: a region of a row-major buffer puts logical (i, j) at
// base + i * row + j * col.  Built from three at() calls; then an index is
// two multiplies, where at() builds a coordinate vector per element (which
// dominated the references' gathers at 256^3).
//
//     const OperandIndex a(geometry.a);
//     a(i, k) == geometry.a.at(i, k)
#pragma once

#include <cstdint>

#include "core/gemm/geometry.h"

namespace mmacheck::sim {

struct OperandIndex {
  std::int64_t base = 0, row = 0, col = 0;

  explicit OperandIndex(const OperandPlace& p)
      : base(p.at(0, 0)), row(p.rows() > 1 ? p.at(1, 0) - base : 0), col(p.cols() > 1 ? p.at(0, 1) - base : 0) {}
  std::int64_t operator()(std::int64_t i, std::int64_t j) const { return base + i * row + j * col; }
};

}  // namespace mmacheck::sim
