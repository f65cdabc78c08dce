#include "core/gemm/shared_staging.h"

#include <algorithm>
#include <tuple>

#include "core/base/error.h"
#include "core/gemm/copy_dispatch.h"

namespace mmacheck {

namespace {

std::string dims(std::int64_t r, std::int64_t c) { return std::to_string(r) + " x " + std::to_string(c); }

// The warps a statement's addresses are given for: lane_elements of 32·W
// entries (W > 1) are warp w's at 32·w + lane; otherwise one warp's.
int stmt_warps(const SharedCopyStmt& stmt) {
  return stmt.lane_elements.size() > 32 ? static_cast<int>(stmt.lane_elements.size() / 32) : 1;
}

SharedAccess make_access(const SharedCopyStmt& stmt, const SharedLayout& reader, int slot) {
  SharedAccess a;
  a.stmt = &stmt;
  a.slot = slot;
  a.label = stmt.label();
  if (stmt.matrix()) a.copy = &matrix_copy(stmt.store(), stmt.num, stmt.trans);
  const int lanes = a.copy ? a.copy->address_lanes() : 32, warps = stmt_warps(stmt);
  a.lane_row.assign(static_cast<std::size_t>(32) * warps, -1);
  a.lane_col.assign(a.lane_row.size(), -1);
  a.lane_offset.assign(a.lane_row.size(), -1);
  for (int w = 0; w < warps; ++w)
    for (int l = 0; l < lanes; ++l) {
      const int t = 32 * w + l;
      const IndexEnv env{l, w, t, slot};
      const bool listed = static_cast<std::size_t>(t) < stmt.lane_elements.size();
      const std::int64_t r = listed ? stmt.lane_elements[t].first : stmt.row.eval(env);
      const std::int64_t c = listed ? stmt.lane_elements[t].second : stmt.col.eval(env);
      a.lane_row[t] = r;
      a.lane_col[t] = c;
      if (reader.inside(r, c)) a.lane_offset[t] = reader.offset[reader.flat(r, c)];
    }
  return a;
}

}  // namespace

std::vector<std::int64_t> SharedStage::slot_offsets(int slots) const {
  // 32 threads per warp the accesses give addresses for.
  std::size_t threads = 32;
  for (const SharedAccess& a : accesses) threads = std::max(threads, a.lane_offset.size());
  std::vector<std::int64_t> out(threads * slots, -1);
  const int width = reader.width;
  for (const SharedAccess& a : accesses) {
    const int n = static_cast<int>(a.lane_offset.size());
    if (!a.copy) {
      for (int l = 0; l < n; ++l) out[static_cast<std::size_t>(l) * slots + a.slot] = a.lane_offset[l];
      continue;
    }
    const int per_reg = 4 / width;
    for (int t = 0; t < n; ++t)
      for (int i = 0; i < a.copy->num; ++i)
        for (int j = 0; j < per_reg; ++j) {
          const int l = t % 32;
          const RowByte rb = matrix_copy_byte(*a.copy, l, i, j * width);
          const std::int64_t row = a.lane_offset[t - l + rb.address_lane];
          std::int64_t o = -1;
          if (row >= 0) {
            const std::int64_t byte = row * width + rb.byte_in_row;
            if (byte % width == 0 && byte / width < reader.alloc) o = byte / width;
          }
          out[static_cast<std::size_t>(t) * slots + a.slot + i * per_reg + j] = o;
        }
  }
  return out;
}

std::optional<SharedStage> shared_stage(const Program& program, const BufferDecl& reg, int slots, bool store) {
  std::vector<SharedCopyStmt> dispatched;
  for (const TileCopyStmt& c : program.tile_copies)
    if (c.reg == reg.name && c.store == store)
      for (SharedCopyStmt& d : dispatch_copy(program, c, slots)) dispatched.push_back(std::move(d));
  auto owned = std::make_shared<const std::vector<SharedCopyStmt>>(std::move(dispatched));
  std::vector<const SharedCopyStmt*> copies;
  for (const SharedCopyStmt& c : program.copies)
    if (c.reg == reg.name && c.store() == store) copies.push_back(&c);
  for (const SharedCopyStmt& c : *owned) copies.push_back(&c);
  if (copies.empty()) return std::nullopt;
  const SharedCopyStmt& first = *copies.front();
  for (const StageStmt& s : program.stages)
    if (!store && s.buffer == reg.name)
      throw Error(s.loc, "'" + reg.name + "' is staged twice: by this stage and by " + first.label() + " (line " +
                             std::to_string(first.loc.line) + ")");
  for (const StoreStmt& s : program.stores)
    if (store && s.buffer == reg.name)
      throw Error(s.loc, "'" + reg.name + "' is stored twice: by this store and by " + first.label() + " (line " +
                             std::to_string(first.loc.line) + ")");
  // One whole warp, or a CTA of whole warps whose statements give each warp's addresses (the released TIRx).
  const bool whole_warp = program.scope.kind == ExecScope::Kind::warp && program.scope.full_warp();
  for (const SharedCopyStmt* c : copies)
    if (!(whole_warp ? stmt_warps(*c) == 1
                     : program.scope.kind == ExecScope::Kind::cta && stmt_warps(*c) > 1 &&
                           stmt_warps(*c) == program.scope.warps() && program.scope.threads % 32 == 0))
      throw Error(c->loc, c->label() + ": staging through shared memory needs `scope warp` with all 32 lanes" +
                              (whole_warp ? std::string() : " (or, in a CTA, each warp's addresses)"));
  if (reg.shape.size() != 2) throw Error(first.loc, first.label() + ": '" + reg.name + "' must be 2-D");
  for (const SharedCopyStmt* c : copies)
    if (c->shared != first.shared)
      throw Error(c->loc, "'" + reg.name + "' moves through two shared buffers ('" + first.shared + "' at line " +
                              std::to_string(first.loc.line) + " and '" + c->shared + "')");
  const BufferDecl& shared = program.buffer(first.shared, first.loc);
  const SharedFillStmt* fill = nullptr;
  for (const SharedFillStmt& f : program.fills)
    if (f.shared == shared.name && f.drain == store) fill = &f;
  if (!fill)
    throw Error(first.loc, store
                               ? first.label() + " writes '" + shared.name + "' but nothing reads it out (add `drain " +
                                     shared.name + " -> " + reg.name + "_g`)"
                               : first.label() + " reads '" + shared.name + "' but nothing fills it (add `fill " +
                                     shared.name + " = " + reg.name + "_g`)");
  std::int64_t rows = shared.shape[0], cols = shared.shape[1];
  if (fill->transposed) std::swap(rows, cols);
  // A fill by elements (fill->sources) names each element it moves; S need not have the operand's shape.
  if (fill->sources.empty() && (reg.shape[0] != rows || reg.shape[1] != cols))
    throw Error(fill->loc, std::string(store ? "drain " : "fill ") + shared.name + (store ? " -> " : " = ") +
                               fill->matrix + (fill->transposed ? ".T" : "") + " gives a " + dims(rows, cols) +
                               " matrix but '" + reg.name + "' is " + dims(reg.shape[0], reg.shape[1]));

  SharedStage st;
  st.dispatched = std::move(owned);
  st.store = store;
  st.reg = reg.name;
  st.shared = shared.name;
  st.reg_rows = reg.shape[0];
  st.reg_cols = reg.shape[1];
  st.fill = fill;
  st.reader = shared_layout(shared, std::nullopt);
  st.writer = shared_layout(shared, fill->swizzle);
  st.matrix_at.assign(st.writer.alloc, -1);
  for (std::int64_t f = 0; f < st.writer.rows * st.writer.cols; ++f) {
    const std::int64_t o = st.writer.offset[f];
    if (o < 0 || o >= st.writer.alloc || st.matrix_at[o] >= 0) continue;  // the prover's "swizzle" check
    std::int64_t r = f / st.writer.cols, c = f % st.writer.cols;
    if (fill->transposed) std::swap(r, c);
    if (!fill->sources.empty()) {
      // G's element, placed in the operand's coordinates (a load from another
      // operand's tensor reads it at the same [row, col]); none outside them.
      std::tie(r, c) = static_cast<std::size_t>(f) < fill->sources.size()
                           ? fill->sources[f]
                           : std::pair<std::int64_t, std::int64_t>{-1, -1};
      if (r < 0 || r >= st.reg_rows || c < 0 || c >= st.reg_cols) continue;
    }
    st.matrix_at[o] = static_cast<std::int32_t>(r * st.reg_cols + c);
  }
  const int width = st.reader.width;
  for (const SharedCopyStmt* c : copies) {
    if (c->matrix() && c->first_slot % (4 / width) != 0)
      throw Error(c->loc, c->label() + " starts inside a register: its first slot must be a multiple of " +
                              std::to_string(4 / width) + " (" + std::to_string(4 / width) + " " +
                              std::string(dtype_info(reg.dtype).tvm) + " per 32-bit register)");
    if (c->matrix()) {
      const int last = c->first_slot + c->num * (4 / width);
      if (last > slots)
        throw Error(c->loc, c->label() + " moves slots " + std::to_string(c->first_slot) + ".." +
                                std::to_string(last - 1) + " but '" + reg.name + "' has " + std::to_string(slots) +
                                " per lane");
      st.accesses.push_back(make_access(*c, st.reader, c->first_slot));
    } else {
      for (int s = 0; s < slots; ++s) st.accesses.push_back(make_access(*c, st.reader, s));
    }
  }
  return st;
}

SlotTable shared_slot_table(const SharedStage& stage, const BufferDecl& reg, int slots) {
  SlotTable t;
  t.buffer = reg.name;
  t.dtype = reg.dtype;
  t.rows = stage.reg_rows;
  t.cols = stage.reg_cols;
  t.slots = slots;
  const std::vector<std::int64_t> offsets = stage.slot_offsets(slots);
  t.threads = static_cast<int>(offsets.size() / std::max(1, slots));
  t.index.assign(offsets.size(), -1);
  for (std::size_t i = 0; i < offsets.size(); ++i)
    if (offsets[i] >= 0 && offsets[i] < static_cast<std::int64_t>(stage.matrix_at.size()))
      t.index[i] = stage.matrix_at[offsets[i]];
  return t;
}

void check_runnable(const SharedStage& stage) {
  const SharedLayout& s = stage.reader;
  for (const SharedAccess& a : stage.accesses) {
    const int lanes = a.copy ? a.copy->address_lanes() : 32;
    for (std::size_t t = 0; t < a.lane_offset.size(); ++t) {
      const int l = static_cast<int>(t % 32);
      if (l >= lanes) continue;
      const std::string where = a.stmt->label() + ": " +
                                (a.lane_offset.size() > 32 ? "warp " + std::to_string(t / 32) + ", " : std::string()) +
                                "lane " + std::to_string(l) + (a.copy ? "" : ", slot " + std::to_string(a.slot));
      if (a.lane_offset[t] < 0)
        throw Error(a.stmt->loc, where + " addresses " + s.buffer->name + "[" + std::to_string(a.lane_row[t]) + "][" +
                                     std::to_string(a.lane_col[t]) + "], outside its " + dims(s.rows, s.cols));
      if (!a.copy) continue;
      const std::int64_t byte = a.lane_offset[t] * s.width;
      if (byte % 16 != 0 || s.align < 16)
        throw Error(a.stmt->loc, where + "'s row address (byte " + std::to_string(byte) + " of " + s.buffer->name +
                                     ") is not 16-byte aligned");
      if (byte + 16 > s.bytes())
        throw Error(a.stmt->loc, where + "'s row (bytes " + std::to_string(byte) + ".." + std::to_string(byte + 15) +
                                     ") runs past " + s.buffer->name + "'s " + std::to_string(s.bytes()) + " bytes");
    }
  }
}

}  // namespace mmacheck
