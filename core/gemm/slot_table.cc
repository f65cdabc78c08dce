#include "core/gemm/slot_table.h"

#include <algorithm>
#include <limits>

#include "core/base/error.h"

namespace mmacheck {

namespace {

SlotTable empty_table(const BufferDecl& buffer, int slots, int threads) {
  if (buffer.shape.size() != 2)
    throw Error(buffer.loc, "staging (the simulator and the GPU backend) needs 2-D buffers; '" + buffer.name +
                                "' has " + std::to_string(buffer.shape.size()) + " dimensions");
  SlotTable t;
  t.buffer = buffer.name;
  t.dtype = buffer.dtype;
  t.rows = buffer.shape[0];
  t.cols = buffer.shape[1];
  if (t.elements() > std::numeric_limits<std::int32_t>::max())
    throw Error(buffer.loc, "buffer '" + buffer.name + "' is too large to stage");
  t.threads = threads;
  t.slots = slots;
  t.index.assign(static_cast<std::size_t>(threads) * slots, -1);
  return t;
}

// Threads per unit of a thread axis's subscope, within one CTA; 0 for axes
// above the CTA (bx..., cbx...), which a one-CTA kernel cannot honour.
std::int64_t threads_per_unit(const Axis& axis) {
  switch (*axis.subscope()) {
    case ExecLevel::thread: return 1;
    case ExecLevel::warp: return 32;
    case ExecLevel::warpgroup: return 128;
    default: return 0;
  }
}

// A layout whose thread axes stop below the CTA is held alike by every unit
// above them (B on laneid only: every warp of the CTA holds all of B).
// Returns (threads per unit, units): laneid-only layouts repeat every 32
// threads, warpgroup layouts every 128, layouts without thread axes in
// every thread.
std::pair<std::int64_t, std::int64_t> replication(const TileLayout& layout, int threads) {
  const auto scope = layout.scope();
  std::int64_t unit = threads;
  if (!scope) unit = 1;
  else if (scope->second == ExecLevel::warp) unit = 32;
  else if (scope->second == ExecLevel::warpgroup) unit = 128;
  return {unit, std::max<std::int64_t>(1, threads / unit)};
}

std::string coord_text(std::int64_t r, std::int64_t c) {
  return "[" + std::to_string(r) + ", " + std::to_string(c) + "]";
}

// (linear thread, register slot) of one owner of element [r, c].
std::pair<std::int64_t, std::int64_t> place(const BufferDecl& buffer, const Owner& owner, std::int64_t r,
                                            std::int64_t c) {
  std::int64_t thread = 0, slot = 0;
  for (const auto& [axis, value] : owner) {
    if (axis.is_thread()) {
      const std::int64_t per = threads_per_unit(axis);
      if (per == 0 && value != 0)
        throw Error(buffer.loc, "'" + buffer.name + "' element " + coord_text(r, c) + " is on " + axis.name() + " " +
                                    std::to_string(value) + "; a program runs in one CTA");
      thread += per * value;
    } else if (axis == Axis::m()) {
      slot = value;
    } else if (value != 0) {
      throw Error(buffer.loc, "'" + buffer.name + "' element " + coord_text(r, c) + " is on memory axis " +
                                  axis.name() + ", not in registers");
    }
  }
  return {thread, slot};
}

}  // namespace

SlotTable slots_from_layout(const BufferDecl& buffer, int slots, int threads, SlotUse use) {
  SlotTable table = empty_table(buffer, slots, threads);
  const std::int64_t shape[2] = {table.rows, table.cols};
  std::pair<std::int64_t, std::int64_t> repeat;
  try {
    repeat = replication(buffer.layout, threads);
  } catch (const Error& e) {
    throw e.located(buffer.loc);
  }
  const auto [unit, units] = repeat;
  for (std::int64_t r = 0; r < table.rows; ++r)
    for (std::int64_t c = 0; c < table.cols; ++c) {
      const std::int64_t coord[2] = {r, c};
      std::vector<Owner> owners;
      try {
        owners = buffer.layout.apply(coord, shape);
      } catch (const Error& e) {
        throw e.located(buffer.loc);
      }
      if (use == SlotUse::store) owners.resize(std::min<std::size_t>(owners.size(), 1));
      const auto flat = static_cast<std::int32_t>(r * table.cols + c);
      for (const Owner& owner : owners) {
        const auto [thread, slot] = place(buffer, owner, r, c);
        if (thread < 0 || thread >= std::min<std::int64_t>(unit, threads) || slot < 0 || slot >= slots)
          throw Error(buffer.loc, "'" + buffer.name + "' element " + coord_text(r, c) + " lies in thread " +
                                      std::to_string(thread) + " slot " + std::to_string(slot) +
                                      ", outside the scope's " + std::to_string(threads) + " threads x " +
                                      std::to_string(slots) + " slots");
        for (std::int64_t copy = 0; copy < (use == SlotUse::load ? units : 1); ++copy) {
          const std::int64_t t = thread + copy * unit;
          std::int32_t& entry = table.index[t * slots + slot];
          if (use == SlotUse::load && entry >= 0 && entry != flat)
            throw Error(buffer.loc, "'" + buffer.name + "' elements " +
                                        coord_text(entry / table.cols, entry % table.cols) + " and " +
                                        coord_text(r, c) + " share thread " + std::to_string(t) + " slot " +
                                        std::to_string(slot));
          if (entry < 0) entry = flat;
        }
      }
    }
  return table;
}

SlotTable slots_from_statements(const BufferDecl& buffer, const std::vector<SlotStatement>& statements, int slots,
                                int threads, SlotUse use) {
  SlotTable table = empty_table(buffer, slots, threads);
  // Stores: each element's last writer, as (statement, thread * slots + slot).
  std::vector<std::pair<int, std::int64_t>> owner(use == SlotUse::store ? table.elements() : 0, {-1, -1});
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const SlotStatement& st = statements[i];
    const auto pairs = moved_slots(st.loop, slots);
    for (int t = 0; t < threads; ++t)
      for (const auto& [s, slot] : pairs) {
        if (slot < 0 || slot >= slots)
          throw Error(st.loc, "iteration " + std::to_string(s) + " moves register " + std::to_string(slot) +
                                  ", outside the " + std::to_string(slots) + " registers of '" + buffer.name + "'");
        const IndexEnv env{.lane = t % 32, .warp = t / 32, .tid = t, .slot = s};
        const std::int64_t r = st.row.eval(env), c = st.col.eval(env);
        if (r < 0 || r >= table.rows || c < 0 || c >= table.cols)
          throw Error(st.loc, "thread " + std::to_string(t) + " slot " + std::to_string(slot) + " addresses " +
                                  coord_text(r, c) + ", outside the " + std::to_string(table.rows) + " x " +
                                  std::to_string(table.cols) + " buffer '" + buffer.name + "'");
        const auto flat = static_cast<std::int32_t>(r * table.cols + c);
        const std::int64_t cell = std::int64_t{t} * slots + slot;
        if (use == SlotUse::load) {
          table.index[cell] = flat;
        } else if (owner[flat].first != static_cast<int>(i)) {
          owner[flat] = {static_cast<int>(i), cell};
        }
      }
  }
  if (use == SlotUse::store)
    for (std::size_t flat = 0; flat < owner.size(); ++flat) {
      const auto [stmt, cell] = owner[flat];
      if (stmt < 0) continue;
      if (table.index[cell] >= 0)
        throw Error(statements[stmt].loc,
                    "thread " + std::to_string(cell / slots) + " slot " + std::to_string(cell % slots) +
                        " is stored to two elements by the stores that write them last; sim and gpu keep one "
                        "element per register (`mmacheck prove` runs the stores as written)");
      table.index[cell] = static_cast<std::int32_t>(flat);
    }
  return table;
}

SlotTable slots_from_frame(const Frame& frame, DType dtype) {
  SlotTable t;
  t.dtype = dtype;
  t.rows = frame.rows;
  t.cols = frame.cols;
  t.threads = 32;
  t.slots = frame.elems();
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < frame.elems(); ++e) {
      const TileCoord at = frame.at(lane, e);
      t.index.push_back(at.row * frame.cols + at.col);
    }
  return t;
}

std::vector<std::uint64_t> load_slots(const SlotTable& table, std::span<const std::uint64_t> matrix) {
  if (static_cast<std::int64_t>(matrix.size()) != table.elements())
    throw Error("loading '" + table.buffer + "': " + std::to_string(matrix.size()) +
                " elements given, the buffer has " + std::to_string(table.elements()));
  std::vector<std::uint64_t> slots(table.index.size(), 0);
  for (std::size_t i = 0; i < slots.size(); ++i)
    if (table.index[i] >= 0) slots[i] = matrix[table.index[i]];
  return slots;
}

std::vector<std::uint64_t> store_slots(const SlotTable& table, std::span<const std::uint64_t> slot_values) {
  if (slot_values.size() != table.index.size())
    throw Error("storing '" + table.buffer + "': " + std::to_string(slot_values.size()) +
                " slot values given, the table has " + std::to_string(table.index.size()));
  std::vector<std::uint64_t> matrix(table.elements(), 0);
  for (std::size_t i = 0; i < slot_values.size(); ++i)
    if (table.index[i] >= 0) matrix[table.index[i]] = slot_values[i];
  return matrix;
}

}  // namespace mmacheck
