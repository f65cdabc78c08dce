// ScaleFrame — where sm_120's block-scaled mma.sync reads its scale factors
// (PTX ISA §9.7.14.3, "Block Scaling for mma.sync"; docs/block-scaled.md).
//
// Each lane passes one 32-bit word for A's scales (scale-a-data) and one for
// B's (scale-b-data); the selectors {byte-id, thread-id} are immediates.
// The instruction reads, for A's row r and K-block v (v < scale_vec), the byte
// byte-id + v of the lane
//
//     A:  lane = 4 * (r % 8) + 2 * thread-id + r / 8     thread-id 0..1
//     B:  lane = 4 * c + thread-id                        thread-id 0..3
//
// for B's column c: so with thread-id 0, lanes 0 and 1 of each quad hold
// rows g and g + 8 (g = lane / 4), lane 0 of each quad column g.  Every
// other lane's word, and every other byte, is not read.  byte-id is 0..3
// for scale_vec::1X, 0 or 2 for 2X (bytes byte-id and byte-id + 1), 0 for
// 4X (all four bytes).  Linear in the lane bits, so a row of the table is
// the coefficients of the index (row or column) and of the thread-id
// selector, as a Frame's lane_bit coefficients are:
//
//     scale_read(inst, Operand::A, {0, 0}, 5, 0) == ScaleRead{9, 0}   // lane 5: row 1 + 8, block 0
//     scale_place(inst, Operand::B, {1, 2}, 3, 0) == ScalePlace{14, 1}
#pragma once

#include <array>
#include <optional>
#include <span>

#include "core/gemm/mma_inst.h"

namespace mmacheck {

struct ScaleSelector {
  int byte_id = 0;
  int thread_id = 0;
  bool operator==(const ScaleSelector&) const = default;
};

// One operand's scale-factor frame (A or B).
struct ScaleFrame {
  Operand operand;
  int count;                     // rows of A (m), columns of B (n)
  int thread_ids;                // thread-id values: 2 for A, 4 for B
  std::array<int, 5> index_bit;  // row / column = sum index_bit[b] * lane bit b
  std::array<int, 5> tid_bit;    // the lane's thread-id = sum tid_bit[b] * lane bit b

  int index_of(int lane) const;
  int thread_id_of(int lane) const;
};

const ScaleFrame& scale_frame(Operand op);  // A or B; throws Error for C
// The byte-ids `scale_vec` admits (1X: 0..3, 2X: 0 and 2, 4X: 0).
std::span<const int> valid_byte_ids(int scale_vec);
// Throws Error naming the bad value unless `sel` is valid for op of inst.
void check_selector(const MmaInst& inst, Operand op, ScaleSelector sel);

struct ScaleRead {
  int index;  // row of A or column of B
  int block;  // K-block, 0 .. scale_vec - 1
  bool operator==(const ScaleRead&) const = default;
};
struct ScalePlace {
  int lane;
  int byte;
  bool operator==(const ScalePlace&) const = default;
};

// What the instruction reads in byte `byte` of lane `lane`'s scale word of
// `op`, nullopt when it reads nothing there.
std::optional<ScaleRead> scale_read(const MmaInst& inst, Operand op, ScaleSelector sel, int lane, int byte);
// Where it reads the scale of (index, block).
ScalePlace scale_place(const MmaInst& inst, Operand op, ScaleSelector sel, int index, int block);

}  // namespace mmacheck
