// MatrixCopy — ldmatrix / stmatrix (`.sync.aligned.m8n8.{x1,x2,x4}[.trans]
// .shared.b16`, PTX ISA "Warp-level matrix load/store"), one row per
// variant.  Each moves `num` 8 x 8 matrices of 16-bit units: matrix i is
// register i of every lane, and its eight 16-byte rows start at the
// addresses lanes 8i .. 8i+7 give (lanes 0..8·num-1 give addresses, the rest
// are ignored).  Without .trans lane l's register i holds bytes 4(l % 4) ..
// 4(l % 4) + 3 of row l / 4; with .trans it holds, as its low and high 16-bit
// unit, unit l / 4 of rows 2(l % 4) and 2(l % 4) + 1.  The hardware moves
// 16-bit units: on 8-bit data .trans keeps each unit's two elements together
// (Triton PR #5800), which is why it is refuted there, not forbidden.
// stmatrix is the same map in the other direction (sm_90).
//
//     const MatrixCopy& x4 = matrix_copy(false, 4, false);
//     matrix_copy_byte(x4, 5, 2, 0) == RowByte{17, 4};  // lane 5, reg 2: row 1 of matrix 2, byte 4
#pragma once

#include <span>
#include <string_view>

namespace mmacheck {

struct MatrixCopy {
  std::string_view ptx;  // "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"
  bool store;            // stmatrix
  int num;               // matrices = registers per lane
  bool trans;
  int address_lanes() const { return 8 * num; }
};

std::span<const MatrixCopy> matrix_copies();
// The row; throws Error when no variant matches (num not 1, 2 or 4).
const MatrixCopy& matrix_copy(bool store, int num, bool trans);

// Where byte `byte` (0..3) of register `reg` of `lane` comes from (ldmatrix)
// or goes to (stmatrix): byte `byte_in_row` of the 16-byte row whose address
// lane `address_lane` gives.
struct RowByte {
  int address_lane = 0;
  int byte_in_row = 0;
  bool operator==(const RowByte&) const = default;
};
RowByte matrix_copy_byte(const MatrixCopy& copy, int lane, int reg, int byte);

}  // namespace mmacheck
