// SlotTable — which element of a 2-D buffer every (thread, register slot)
// loads, or stores.  Computed once per program; the GPU kernel reads it with
// `#pragma unroll` over slots (so register indices stay compile-time
// constants however irregular the mapping is), the warp machine indexes it.
//
// Entry [thread * slots + slot] is the element's row-major index in the
// buffer (row * cols + col), or -1: the slot is not loaded (it stays 0) or
// not stored.  Threads are numbered linearly in the CTA: a layout's thread
// axes contribute value x (threads per unit of the axis's subscope), so
// laneid and tx count 1, warpid and wid_in_wg 32, wgid 128.  A layout whose
// thread axes stop below the CTA is held alike by every unit above them: a
// layout on laneid only is loaded by every warp (stored by warp 0), one
// without thread axes by every thread.  A stage/store statement sees
// lane = t % 32, warp = t / 32, tid = t.
//
//     // the seed's D_FRAG S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)] on a 16 x 8 buffer
//     SlotTable t = slots_from_layout(D, 4, 32, SlotUse::store);
//     t.at(5, 3) == 9 * 8 + 3;   // lane 5, slot 3 holds D[9][3]
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/program/dtype.h"
#include "core/program/program.h"
#include "core/gemm/ptx_frame.h"

namespace mmacheck {

struct SlotTable {
  std::string buffer;  // the program's buffer name ("" for an instruction frame)
  DType dtype = DType::f32;
  std::int64_t rows = 0, cols = 0;
  int threads = 0;
  int slots = 0;
  std::vector<std::int32_t> index;  // threads * slots entries

  std::int32_t at(int thread, int slot) const { return index[thread * slots + slot]; }
  std::int64_t elements() const { return rows * cols; }
};

// Loads give an element to every owner (replicas too) and fail when two
// elements claim one (thread, slot); a store writes each element once, from
// its first owner (first thread, then first slot, for statements).
enum class SlotUse { load, store };

// From the buffer's layout: every logical element's owners.  Throws Error at
// the buffer's declaration when the buffer is not 2-D, when an owner lies
// outside [0, threads) x [0, slots), uses a memory axis other than m, or
// (loads) collides with another element.
SlotTable slots_from_layout(const BufferDecl& buffer, int slots, int threads, SlotUse use);
// One stage or store statement as a table sees it: ROW and COL over the
// thread and the iteration s, and the slots it moves (absent: every slot, s).
struct SlotStatement {
  IndexExpr row, col;
  SourceLoc loc;
  std::optional<SlotLoop> loop{};
};

// From `stage BUF[s] = G[ROW, COL]` statements (SlotUse::load) or `store
// BUF[s] -> G[ROW, COL]` statements (SlotUse::store), as they run in order,
// each evaluated for every thread and its iterations; G has the buffer's
// shape.  Loads: a later statement's slot replaces an earlier one's; a slot
// no statement loads stays -1.  Stores: an element takes the last statement
// that writes it (within a statement its first owner); a (thread, slot)
// left owning two elements cannot be one table entry.  Throws Error at the
// statement when (ROW, COL) falls outside the buffer, a slot outside the
// registers, or a register would store two elements.
SlotTable slots_from_statements(const BufferDecl& buffer, const std::vector<SlotStatement>& statements, int slots,
                                int threads, SlotUse use);
// From a PTX fragment frame: 32 threads, slot = element index; the buffer is
// the frame's logical tile.
SlotTable slots_from_frame(const Frame& frame, DType dtype);

// What every (thread, slot) holds after loading `matrix` (row-major element
// bits) through a load table: [thread * slots + slot], 0 where nothing is loaded.
std::vector<std::uint64_t> load_slots(const SlotTable& table, std::span<const std::uint64_t> matrix);
// The matrix a store table writes from `slot_values` ([thread * slots + slot]);
// elements nobody stores are 0.
std::vector<std::uint64_t> store_slots(const SlotTable& table, std::span<const std::uint64_t> slot_values);

}  // namespace mmacheck
