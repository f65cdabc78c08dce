// GemmGeometry — the logical matrices of a program's gemm call inside its
// buffers: `D[M x N] = A[M x K] @ B[K x N] + C[M x N]` with every operand
// restricted to its region and A, B transposed as the call says.
//
// A logical element (i, j) of an operand is element at(i, j) (row-major) of
// the operand's whole buffer, buffer coordinate coord(i, j).  The simulator,
// the prover's pictures and the GPU runner all place operands this way.
//
//     // gemm(D, A[0:16, 16:32], B, D, transpose_A=False, ...), A buffer 16 x 32
//     g.a.at(2, 3) == 2 * 32 + 16 + 3
#pragma once

#include <cstdint>
#include <utility>

#include "core/program.h"

namespace mmacheck {

// One operand's logical matrix inside its buffer.
struct OperandPlace {
  std::int64_t rows = 0, cols = 0;  // logical (after transposing)
  std::int64_t row0 = 0, col0 = 0;  // region start in the buffer
  std::int64_t buffer_cols = 0;
  bool transposed = false;  // logical (i, j) is buffer (row0 + j, col0 + i)
  DType dtype = DType::f32;

  // Buffer coordinate {row, col} of logical (i, j).
  std::pair<std::int64_t, std::int64_t> coord(std::int64_t i, std::int64_t j) const {
    return transposed ? std::pair{row0 + j, col0 + i} : std::pair{row0 + i, col0 + j};
  }
  // Row-major index of logical (i, j) in the whole buffer.
  std::int64_t at(std::int64_t i, std::int64_t j) const {
    const auto [r, c] = coord(i, j);
    return r * buffer_cols + c;
  }
};

struct GemmGeometry {
  std::int64_t m = 0, n = 0, k = 0;
  OperandPlace a, b, c, d;
  bool use_c = false;  // beta == 1
};

// Throws Error (at the offending operand) when the program has no gemm call,
// an operand is not a 2-D buffer, a region leaves its buffer, or the
// extents disagree (A's K vs B's K, C and D vs M x N).
GemmGeometry gemm_geometry(const Program& program);

}  // namespace mmacheck
