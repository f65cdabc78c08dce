// The data of one gemm case (simulator and GPU alike): the contents of the
// gemm's A, B and C buffers, as raw element bit patterns.
//
// Matrices are whole buffers (not the gemm's regions), row-major in the
// buffer's own shape (a transposed A is stored K x M, as declared), one
// element per uint64_t in the low bits: 16 for f16/bf16, 8 for s8/u8/fp8, a
// full f32 pattern for tf32.
#pragma once

#include <cstdint>
#include <vector>

#include "core/program/dtype.h"
#include "core/gemm/geometry.h"

namespace mmacheck::sim {

struct Matrix {
  std::int64_t rows = 0, cols = 0;
  DType dtype = DType::f32;
  std::vector<std::uint64_t> bits;  // rows * cols

  std::uint64_t at(std::int64_t r, std::int64_t c) const { return bits[r * cols + c]; }
};

struct GemmInputs {
  Matrix a, b, c;
};

// Throws Error unless `m` is the whole 2-D buffer the operand `p` lives in
// (`name` says which operand).
void check_holds(const Matrix& m, const OperandPlace& p, const char* name);

}  // namespace mmacheck::sim
