// SharedStage — one register buffer staged through shared memory, as the
// program writes it (docs/shared-memory.md):
//
//   loads   `fill S = G` puts G's elements into S's allocation (S's layout,
//           the writer's swizzle), then ldmatrix / ld.shared statements read
//           registers from the addresses their lanes give (S's own layout
//           and swizzle: the reader's);
//   stores  stmatrix / st.shared write registers to S's addresses, then
//           `drain S -> G` copies S out to G (S's layout, the drain's swizzle).
//
// The stage is the facts, not a verdict: a lane address outside S, a row
// that runs past the allocation, a writer that disagrees with the reader all
// show up as -1 or as wrong elements, for the prover (core/prove) to refute
// and the bank-conflict count to measure; check_runnable() turns them into
// Errors where a simulator or a kernel must execute the stage.  The warp
// machine and the GPU kernel stage through the same tables
// (shared_slot_table), so they start from the same registers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/gemm/ldmatrix.h"
#include "core/gemm/shared_layout.h"
#include "core/gemm/slot_table.h"
#include "core/program/program.h"

namespace mmacheck {

// One shared-memory instruction: an ldmatrix/stmatrix (all its registers),
// or one slot of an ld.shared/st.shared statement.
struct SharedAccess {
  const SharedCopyStmt* stmt = nullptr;
  const MatrixCopy* copy = nullptr;  // nullptr: ld.shared / st.shared
  int slot = 0;                      // plain: the slot; matrix: the first slot
  // Per lane (32, or 32·W: warp w's at 32·w + lane): the element (ROW, COL) its
  // address names, its offset under the reader's layout; -1 where the lane gives
  // no address (beyond 8·num for matrix copies) or names an element outside S.
  std::vector<std::int64_t> lane_row, lane_col, lane_offset;
  std::string label;  // stmt->label(), kept for consumers that outlive the program
};

struct SharedStage {
  bool store = false;
  std::string reg;     // the register buffer
  std::string shared;  // the shared buffer
  std::int64_t reg_rows = 0, reg_cols = 0;
  const SharedFillStmt* fill = nullptr;  // the fill (loads) or drain (stores)
  SharedLayout reader;                   // S's own layout and swizzle: what the lanes' addresses use
  SharedLayout writer;                   // the fill's (drain's) placement
  // Per offset of the allocation: the register buffer's element (row-major)
  // the fill puts there (the drain takes from there), or -1.
  std::vector<std::int32_t> matrix_at;
  std::vector<SharedAccess> accesses;
  // The ldmatrix/stmatrix statements `copy` statements dispatched into
  // (copy_dispatch.h); accesses point into them, so they are shared, not copied.
  std::shared_ptr<const std::vector<SharedCopyStmt>> dispatched;

  // Where (lane, slot) is read from (loads) or written to (stores): the
  // element offset, or -1 (no access covers it, or its address is outside).
  std::vector<std::int64_t> slot_offsets(int slots) const;
};

// nullopt when no ldmatrix/stmatrix/ld.shared/st.shared or `copy` statement
// moves `reg` in that direction (copies are dispatched first, copy_dispatch.h).  Throws Error at the statement when the
// program cannot mean it: a register buffer also staged by `stage`/`store`, copies of one buffer from two shared
// buffers, no fill (drain) for the shared buffer, a register buffer whose shape is not the shared one's (or its
// transpose, with .T), slots beyond `slots`, a scope other than one whole
// warp (or a CTA whose statements give each of its warps' addresses).
std::optional<SharedStage> shared_stage(const Program& program, const BufferDecl& reg, int slots, bool store);

// (thread, slot) -> the register buffer's element each lane ends up with
// (loads) or writes (stores, through the drain); 32 threads per warp.
SlotTable shared_slot_table(const SharedStage& stage, const BufferDecl& reg, int slots);

// Throws Error at the offending statement when the stage cannot be executed
// as written: an address lane outside S, an ldmatrix row that is not
// 16-byte aligned or runs past the allocation.
void check_runnable(const SharedStage& stage);

}  // namespace mmacheck
