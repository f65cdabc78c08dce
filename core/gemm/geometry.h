// GemmGeometry — the logical matrices of a program's gemm call inside their
// buffers: `D[M x N] = A[M x K] @ B[K x N] + C[M x N]`, every operand
// restricted to its region and A, B transposed as the call says.
//
// An OperandPlace maps logical (i, j) of one operand to a coordinate of its
// buffer.  The region may have any rank as long as exactly two of its
// dimensions are longer than 1 (TVM's rule: `A[0, 0:16, 0:16]` of a 3-D
// buffer is a 16 x 16 operand); rows run along the first of them, columns
// along the second, swapped when transposed.  The prover, the simulator, the
// GPU runner and the pictures all place operands this way.
//
//     // gemm(D, A[0:16, 16:32], B, D), A a 16 x 32 buffer
//     g.a.to_buffer(2, 3) == Shape{2, 19};   g.a.at(2, 3) == 2 * 32 + 19
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/program/program.h"

namespace mmacheck {

class OperandPlace {
 public:
  // Throws Error at ref.loc when the region leaves the buffer, is empty or
  // does not have exactly two dimensions longer than 1.
  OperandPlace(const Program& program, const OperandRef& ref, bool transposed);
  // A whole rows x cols buffer, untransposed (single tiles, tests).
  static OperandPlace whole(std::int64_t rows, std::int64_t cols, DType dtype);

  const std::string& buffer() const { return buffer_; }
  DType dtype() const { return dtype_; }
  std::int64_t rows() const { return rows_; }  // logical, after transposing
  std::int64_t cols() const { return cols_; }
  const Shape& buffer_shape() const { return buffer_shape_; }
  // The region's first coordinate, and the buffer dims carrying rows and cols.
  const Shape& origin() const { return origin_; }
  int row_dim() const { return row_dim_; }
  int col_dim() const { return col_dim_; }
  bool transposed() const { return row_dim_ > col_dim_; }

  // The buffer coordinate of logical (i, j).
  Shape to_buffer(std::int64_t i, std::int64_t j) const;
  // Its row-major index in the whole buffer.
  std::int64_t at(std::int64_t i, std::int64_t j) const;
  // Logical {i, j} of a buffer coordinate; nullopt outside the region.
  std::optional<Shape> from_buffer(std::span<const std::int64_t> coord) const;

 private:
  OperandPlace() = default;
  std::string buffer_;
  DType dtype_ = DType::f32;
  Shape buffer_shape_, origin_, extent_;
  int row_dim_ = 0, col_dim_ = 1;
  std::int64_t rows_ = 0, cols_ = 0;
};

struct GemmGeometry {
  std::int64_t m = 0, n = 0, k = 0;
  OperandPlace a, b, c, d;
  bool use_c = false;  // beta == 1
  // Without C: the element bits every accumulator starts from (GemmCall::c_scalar
  // in D's type, scalar_bits; 0: +0).
  std::uint64_t c_bits = 0;
};

// Throws Error (at the offending operand) when the program has no gemm call,
// an operand's region is malformed, or the extents disagree (A's K vs B's K,
// C and D vs M x N).
GemmGeometry gemm_geometry(const Program& program);

}  // namespace mmacheck
