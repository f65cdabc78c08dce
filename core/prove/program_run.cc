// run_program(): the statements in the order they run, over provenance values,
// then the output against D = A·B (+ C).
#include "core/prove/program_run.h"

#include <algorithm>
#include <bit>
#include <map>

#include "core/gemm/geometry.h"
#include "core/gemm/shared_staging.h"
#include "core/gemm/slot_table.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

using TensorId = std::int32_t;

// n products X[a0 + t·da]·Y[b0 + t·db], t < n (flat indices into the tensors).
struct Run {
  TensorId ta = -1, tb = -1;
  std::int64_t a0 = 0, b0 = 0, da = 0, db = 0, n = 0;
  bool operator==(const Run&) const = default;
};

enum class ValueKind : std::uint8_t { nothing, constant, input, sum };

struct Value {
  ValueKind kind = ValueKind::nothing;
  TensorId tensor = -1;       // input: the element's tensor; sum: the base's (-1: a constant)
  std::int64_t flat = 0;      // input: the element; sum: the base element
  std::uint64_t bits = 0;     // constant: its element bits (0: zero); sum: the constant base's
  bool base_nothing = false;  // sum: accumulated onto a register nothing wrote
  std::vector<Run> runs;      // sum
  std::int32_t flaw = -1;     // sum: its first product of a factor that is no input element

  bool same(const Value& o) const {
    return kind == o.kind && tensor == o.tensor && flat == o.flat && bits == o.bits && base_nothing == o.base_nothing &&
           runs == o.runs && (flaw < 0) == (o.flaw < 0);
  }
};

struct Writer {
  std::int32_t step = -1;  // -1: never written
  std::int32_t thread = 0;
  std::int32_t slot = 0;
};

struct Tensor {
  std::string name;
  Shape shape;  // 2-D
  std::vector<Value> cells;
  std::vector<Writer> writers;
  int first_read = -1;   // step
  int first_write = -1;  // step
  std::int64_t size() const {
    std::int64_t n = 1;
    for (std::int64_t d : shape) n *= d;
    return n;
  }
  // "D_g[3][5]": the element's coordinates, row-major over the shape.
  std::string at(std::int64_t flat) const {
    std::string idx;
    for (std::size_t d = shape.size(); d-- > 0;) {
      idx.insert(0, "[" + std::to_string(flat % shape[d]) + "]");
      flat /= shape[d];
    }
    return name + idx;
  }
};

struct Regs {
  int slots = 0;
  std::vector<Value> cells;  // [thread * slots + slot]
};

void append(std::vector<Run>& runs, TensorId ta, std::int64_t a, TensorId tb, std::int64_t b) {
  if (!runs.empty()) {
    Run& r = runs.back();
    if (r.ta == ta && r.tb == tb) {
      if (r.n == 1) {
        r.da = a - r.a0;
        r.db = b - r.b0;
        r.n = 2;
        return;
      }
      if (a == r.a0 + r.n * r.da && b == r.b0 + r.n * r.db) {
        ++r.n;
        return;
      }
    }
  }
  runs.push_back(Run{ta, tb, a, b, 0, 0, 1});
}

// The buffer as rows of its last dimension: a layout places elements by
// their row-major index, so its slot table (2-D) is the N-D buffer's.
BufferDecl as_2d(BufferDecl buf) {
  if (buf.shape.size() != 2 && !buf.shape.empty()) {
    std::int64_t rows = 1;
    for (std::size_t d = 0; d + 1 < buf.shape.size(); ++d) rows *= buf.shape[d];
    buf.shape = {rows, buf.shape.back()};
  }
  return buf;
}

// Logical (i, j) of every element of an operand's buffer (row-major index),
// -1 outside the gemm's region: the inverse of OperandPlace::at.
struct LogicalOf {
  std::vector<std::int32_t> i, j;
  explicit LogicalOf(const OperandPlace& p) {
    std::int64_t n = 1;
    for (std::int64_t d : p.buffer_shape()) n *= d;
    i.assign(static_cast<std::size_t>(n), -1);
    j.assign(static_cast<std::size_t>(n), -1);
    for (std::int64_t r = 0; r < p.rows(); ++r)
      for (std::int64_t c = 0; c < p.cols(); ++c) {
        const auto f = static_cast<std::size_t>(p.at(r, c));
        i[f] = static_cast<std::int32_t>(r);
        j[f] = static_cast<std::int32_t>(c);
      }
  }
};

// n products X[a0 + t·da]·Y[b0 + t·db] at once (n >= 2), continuing the last
// run where they extend it: a K loop over tiles stays one run.
void append_run(std::vector<Run>& runs, const Run& add) {
  if (!runs.empty()) {
    Run& r = runs.back();
    if (r.ta == add.ta && r.tb == add.tb && r.n >= 2 && r.da == add.da && r.db == add.db &&
        add.a0 == r.a0 + r.n * r.da && add.b0 == r.b0 + r.n * r.db) {
      r.n += add.n;
      return;
    }
  }
  runs.push_back(add);
}

// The factors an mma reads along K for one row of A (column of B): one
// tensor's elements in arithmetic progression, or not (`ok` false).
struct Progression {
  bool ok = false;
  TensorId t = -1;
  std::int64_t f0 = 0, df = 0;
};

template <class At>
Progression progression(int n, At at) {
  Progression p;
  if (n < 2) return p;
  const Value& first = at(0);
  const Value& second = at(1);
  if (first.kind != ValueKind::input || second.kind != ValueKind::input || first.tensor != second.tensor) return p;
  p.t = first.tensor;
  p.f0 = first.flat;
  p.df = second.flat - first.flat;
  for (int k = 2; k < n; ++k) {
    const Value& v = at(k);
    if (v.kind != ValueKind::input || v.tensor != p.t || v.flat != p.f0 + k * p.df) return p;
  }
  p.ok = true;
  return p;
}

// For every (row, col) of a frame's tile, the first (lane, element) holding it.
std::vector<std::pair<int, int>> inverse(const Frame& f) {
  std::vector<std::pair<int, int>> at(static_cast<std::size_t>(f.rows) * f.cols, {-1, -1});
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < f.elems(); ++e) {
      const TileCoord c = f.at(lane, e);
      if (c.row < 0 || c.row >= f.rows || c.col < 0 || c.col >= f.cols) continue;
      auto& slot = at[static_cast<std::size_t>(c.row) * f.cols + c.col];
      if (slot.first < 0) slot = {lane, e};
    }
  return at;
}

struct OutOfTime {};

class Executor {
 public:
  Executor(const Program& program, const Plan& plan, std::chrono::steady_clock::time_point deadline)
      : program_(program),
        plan_(plan),
        deadline_(deadline),
        steps_(program_order(program)),
        threads_(program.scope.threads) {
    for (const ProgramStep& s : steps_) labels_.push_back(step_label(program, s));
  }

  ProgramRun run() {
    for (std::size_t i = 0; i < steps_.size() && !refuted_; ++i) {
      on_time();
      execute(static_cast<int>(i));
    }
    if (!refuted_) judge();
    ProgramRun r;
    if (refuted_) {
      r.result = CheckResult::refuted;
      r.counterexample = std::move(refuted_);
    } else {
      r.result = CheckResult::proved;
      r.note = covered_;
    }
    return r;
  }

 private:
  const Program& program_;
  const Plan& plan_;
  std::chrono::steady_clock::time_point deadline_;
  std::vector<ProgramStep> steps_;
  std::vector<std::string> labels_;
  int threads_;
  std::vector<Tensor> tensors_;
  std::map<std::string, Regs, std::less<>> regs_;
  std::vector<std::string> flaws_;
  std::optional<Counterexample> refuted_;
  TensorId output_ = -1;
  std::string covered_;
  std::int64_t mmas_ = 0;
  bool stored_d_ = false;
  // Per register buffer whose shared-memory path ran before its fill: why it holds nothing.
  std::map<std::string, std::string, std::less<>> late_fill_;

  void on_time() const {
    if (std::chrono::steady_clock::now() >= deadline_) throw OutOfTime{};
  }

  // ---- memories

  TensorId tensor(const std::string& name, const Shape& shape) {
    for (std::size_t i = 0; i < tensors_.size(); ++i)
      if (tensors_[i].name == name) return static_cast<TensorId>(i);
    Tensor t;
    t.name = name;
    t.shape = shape.empty() ? Shape{1} : shape;
    const auto id = static_cast<TensorId>(tensors_.size());
    t.cells.resize(static_cast<std::size_t>(t.size()));
    for (std::int64_t f = 0; f < t.size(); ++f) {
      t.cells[f].kind = ValueKind::input;
      t.cells[f].tensor = id;
      t.cells[f].flat = f;
    }
    t.writers.resize(t.cells.size());
    tensors_.push_back(std::move(t));
    return id;
  }

  // A tensor's shape as the program declares it; `fallback` (the moving
  // buffer's) for a tensor only its statements name (layout files).
  Shape declared_shape(const std::string& tensor, const Shape& fallback) const {
    const BufferDecl* t = program_.find_buffer(tensor);
    return t ? t->shape : fallback;
  }

  int slots_of(const std::string& buffer) const {
    const Nest& n = plan_.nest;
    int slots = 0;
    for (const NestOperand* o : {&n.a, &n.b, &n.c, &n.d})
      if (o->buffer == buffer) slots = std::max(slots, o->slots);
    if (slots == 0) slots = static_cast<int>(program_.buffer(buffer, {}).layout.span(Axis::m()));
    return slots;
  }

  Regs& regs(const std::string& buffer) {
    auto it = regs_.find(buffer);
    if (it == regs_.end()) {
      Regs r;
      r.slots = slots_of(buffer);
      r.cells.resize(static_cast<std::size_t>(threads_) * r.slots);
      it = regs_.emplace(buffer, std::move(r)).first;
    }
    return it->second;
  }

  Value read(TensorId id, std::int64_t flat, int step) {
    Tensor& t = tensors_[id];
    if (t.first_read < 0) t.first_read = step;
    return t.cells[flat];
  }

  // ---- refutations

  std::string where(int thread) const {
    return program_.scope.warps() > 1 ? "warp " + std::to_string(thread / 32) + ", lane " + std::to_string(thread % 32)
                                      : "lane " + std::to_string(thread % 32);
  }

  void refute(std::string message, const std::string& operand = "D", const std::string& source = "", int thread = 0,
              std::int64_t slot = 0, std::optional<Element> expected = {}, std::optional<Element> actual = {}) {
    if (refuted_) return;
    Counterexample cx;
    cx.check = CheckId{CheckKind::program, ""};
    cx.operand = operand;
    cx.source = source;
    if (program_.scope.warps() > 1) cx.warp = thread / 32;
    cx.lane = thread % 32;
    cx.slot = slot;
    cx.expected = std::move(expected);
    cx.actual = std::move(actual);
    cx.message = std::move(message);
    refuted_ = std::move(cx);
  }

  // "nothing wrote it (stage a = A (line 30) runs after the mma)"
  std::string nothing_note(const std::string& buffer, int step) const {
    for (std::size_t i = static_cast<std::size_t>(step) + 1; i < steps_.size(); ++i) {
      const ProgramStep& s = steps_[i];
      if ((s.kind == ProgramStep::Kind::stage && program_.stages[s.index].buffer == buffer) ||
          (s.kind == ProgramStep::Kind::copy && program_.copies[s.index].reg == buffer) ||
          (s.kind == ProgramStep::Kind::tile_copy && program_.tile_copies[s.index].reg == buffer))
        return "nothing wrote it (" + labels_[i] + " runs after " + labels_[step] + ")";
    }
    if (const auto late = late_fill_.find(buffer); late != late_fill_.end())
      return "nothing wrote it (" + late->second + ")";
    return "nothing wrote it";
  }

  // "zero", "the constant 1.5": an accumulator's constant (D's type).
  std::string constant_text(std::uint64_t bits) const {
    if (bits == 0) return "zero";
    const BufferDecl* d = program_.find_buffer(plan_.nest.d.buffer);
    if (d && d->dtype == DType::f32)
      return "the constant " + scalar_text(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    return "the constant of bits " + std::to_string(bits);
  }

  std::string describe(const Value& v) const {
    switch (v.kind) {
      case ValueKind::nothing: return "nothing";
      case ValueKind::constant: return constant_text(v.bits);
      case ValueKind::input: return tensors_[v.tensor].at(v.flat);
      case ValueKind::sum: return "a sum of " + std::to_string(products(v)) + " products";
    }
    return "?";
  }

  static std::int64_t products(const Value& v) {
    std::int64_t n = 0;
    for (const Run& r : v.runs) n += r.n;
    return n;
  }

  // ---- statements

  void execute(int step) {
    const ProgramStep& s = steps_[step];
    switch (s.kind) {
      case ProgramStep::Kind::stage: stage(step, program_.stages[s.index]); break;
      case ProgramStep::Kind::store: store(step, program_.stores[s.index]); break;
      case ProgramStep::Kind::gemm: gemm(step); break;
      case ProgramStep::Kind::fill:
      case ProgramStep::Kind::copy:
      case ProgramStep::Kind::tile_copy: shared(step); break;
    }
  }

  // The element [ROW, COL] a stage or store statement moves for thread t,
  // slot s: its row-major index in the 2-D `shape`, or nullopt once the
  // access outside the tensor is refuted.
  std::optional<std::int64_t> element(int step, const IndexExpr& row_e, const IndexExpr& col_e, int t, int s,
                                      const Shape& shape, const char* verb, const std::string& tensor,
                                      const std::string& buffer) {
    const IndexEnv env{t % 32, t / 32, t, s};
    const std::int64_t row = row_e.eval(env), col = col_e.eval(env);
    if (shape.size() == 2 && row >= 0 && row < shape[0] && col >= 0 && col < shape[1]) return row * shape[1] + col;
    refute(labels_[step] + ": " + where(t) + ", slot " + std::to_string(s) + " " + verb + " " + tensor + "[" +
               std::to_string(row) + "][" + std::to_string(col) + "], outside its " + tuple_text(shape),
           buffer, tensor, t, s, std::nullopt, Element{row, col});
    return std::nullopt;
  }

  // The (iteration, slot) pairs of a statement, or nullopt once a slot
  // outside the buffer is refuted.
  std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> slots_of(int step,
                                                                             const std::optional<SlotLoop>& loop,
                                                                             const Regs& r, const std::string& buffer) {
    auto pairs = moved_slots(loop, r.slots);
    for (const auto& [s, slot] : pairs)
      if (slot < 0 || slot >= r.slots) {
        refute(labels_[step] + ": at s = " + std::to_string(s) + " it moves register " + std::to_string(slot) +
                   ", outside " + buffer + "'s " + std::to_string(r.slots) + " registers",
               buffer, "", 0, slot);
        return std::nullopt;
      }
    return pairs;
  }

  void stage(int step, const StageStmt& st) {
    const BufferDecl& buf = program_.buffer(st.buffer, st.loc);
    Regs& r = regs(st.buffer);
    if (st.constant) {
      const auto pairs = slots_of(step, st.slots, r, st.buffer);
      if (!pairs) return;
      Value set;
      set.kind = ValueKind::constant;
      set.bits = scalar_bits(*st.constant, buf.dtype);
      for (int t = 0; t < threads_; ++t)
        for (const auto& [s, slot] : *pairs) r.cells[static_cast<std::size_t>(t) * r.slots + slot] = set;
      return;
    }
    const TensorId g = tensor(st.source, declared_shape(st.source, buf.shape));
    const Shape shape = tensors_[g].shape;
    const auto pairs = slots_of(step, st.slots, r, st.buffer);
    if (!pairs) return;
    for (int t = 0; t < threads_; ++t)
      for (const auto& [s, slot] : *pairs) {
        const std::optional<std::int64_t> at =
            element(step, st.row, st.col, t, static_cast<int>(s), shape, "reads", st.source, st.buffer);
        if (!at) return;
        Value v = read(g, *at, step);
        r.cells[static_cast<std::size_t>(t) * r.slots + slot] = std::move(v);
      }
  }

  void write(int step, TensorId g, std::int64_t flat, Value v, int thread, int slot, const std::string& buffer) {
    Tensor& t = tensors_[g];
    if (t.first_write < 0) t.first_write = step;
    Writer& w = t.writers[flat];
    if (w.step == step && !t.cells[flat].same(v))
      return refute(labels_[step] + ": " + where(w.thread) + " slot " + std::to_string(w.slot) + " and " +
                        where(thread) + " slot " + std::to_string(slot) + " both store " + t.at(flat) +
                        ", different values (" + describe(t.cells[flat]) + ", " + describe(v) + ")",
                    "D", buffer, thread, slot);
    t.cells[flat] = std::move(v);
    w = Writer{step, thread, slot};
  }

  void store(int step, const StoreStmt& st) {
    const BufferDecl& buf = program_.buffer(st.buffer, st.loc);
    Regs& r = regs(st.buffer);
    const TensorId g = tensor(st.target, declared_shape(st.target, buf.shape));
    const Shape shape = tensors_[g].shape;
    if (st.buffer == plan_.nest.d.buffer) stored_d_ = true;
    const auto pairs = slots_of(step, st.slots, r, st.buffer);
    if (!pairs) return;
    for (int t = 0; t < threads_ && !refuted_; ++t)
      for (const auto& [s, slot] : *pairs) {
        if (refuted_) return;
        const std::optional<std::int64_t> at =
            element(step, st.row, st.col, t, static_cast<int>(s), shape, "writes", st.target, st.buffer);
        if (!at) return;
        write(step, g, *at, r.cells[static_cast<std::size_t>(t) * r.slots + slot], t, static_cast<int>(slot),
              st.buffer);
      }
  }

  // Loads through a slot table (an operand's layout, or what a shared-memory
  // path delivers) from tensor `g`; -1 entries deliver nothing.
  void load_table(int step, const SlotTable& table, TensorId g) {
    Regs& r = regs(table.buffer);
    for (int t = 0; t < std::min(threads_, table.threads); ++t)
      for (int s = 0; s < std::min(r.slots, table.slots); ++s) {
        const std::int32_t e = table.at(t, s);
        Value v;
        if (e >= 0) v = read(g, e, step);
        r.cells[static_cast<std::size_t>(t) * r.slots + s] = std::move(v);
      }
  }

  void store_table(int step, const SlotTable& table, TensorId g) {
    Regs& r = regs(table.buffer);
    stored_d_ = true;
    for (int t = 0; t < std::min(threads_, table.threads) && !refuted_; ++t)
      for (int s = 0; s < std::min(r.slots, table.slots) && !refuted_; ++s)
        if (const std::int32_t e = table.at(t, s); e >= 0)
          write(step, g, e, r.cells[static_cast<std::size_t>(t) * r.slots + s], t, s, table.buffer);
  }

  // Whether any statement moves `buffer` into (out of) registers.
  bool moved(const std::string& buffer, bool out) const {
    for (const ProgramStep& s : steps_) {
      if (!out && s.kind == ProgramStep::Kind::stage && program_.stages[s.index].buffer == buffer) return true;
      if (out && s.kind == ProgramStep::Kind::store && program_.stores[s.index].buffer == buffer) return true;
      if (s.kind == ProgramStep::Kind::copy && program_.copies[s.index].reg == buffer &&
          program_.copies[s.index].store() == out)
        return true;
      if (s.kind == ProgramStep::Kind::tile_copy && program_.tile_copies[s.index].reg == buffer &&
          program_.tile_copies[s.index].store == out)
        return true;
    }
    return false;
  }

  // The operands whose registers a shared-memory path moves: loads at the
  // path's first copy into the registers, stores at its drain.
  void shared(int step) {
    const ProgramStep& s = steps_[step];
    const Nest& n = plan_.nest;
    std::vector<const NestOperand*> loads = {&n.a, &n.b};
    if (n.use_c) loads.push_back(&n.c);
    for (const NestOperand* o : loads) {
      const std::string* reg = s.kind == ProgramStep::Kind::copy && !program_.copies[s.index].store()
                                   ? &program_.copies[s.index].reg
                               : s.kind == ProgramStep::Kind::tile_copy && !program_.tile_copies[s.index].store
                                   ? &program_.tile_copies[s.index].reg
                                   : nullptr;
      if (!reg || *reg != o->buffer || first_copy(o->buffer) != step) continue;
      const BufferDecl& buf = program_.buffer(o->buffer, s.loc);
      const std::optional<SharedStage> path = shared_stage(program_, buf, o->slots, false);
      if (!path || !path->fill) continue;
      const std::string src = path->fill->matrix + (path->fill->transposed ? ".T" : "");
      SlotTable table = shared_slot_table(*path, buf, o->slots);
      // The table indexes the operand's shape; a declared tensor of another
      // shape (B filled from A's tensor) is read at the same [row, col].
      const TensorId g = tensor(src, declared_shape(src, buf.shape));
      if (const Shape& ts = tensors_[g].shape; ts != buf.shape)
        for (std::int32_t& e : table.index)
          if (e >= 0) e = static_cast<std::int32_t>((e / table.cols) * ts.back() + e % table.cols);
      // The shared buffer holds nothing yet: its fill runs later (or no barrier makes it visible).
      if (const int filled = step_of(ProgramStep::Kind::fill, path->fill); filled > step) {
        std::fill(table.index.begin(), table.index.end(), -1);
        late_fill_[o->buffer] = labels_[filled] + " runs after " + labels_[step];
      }
      load_table(step, table, g);
    }
    if (s.kind == ProgramStep::Kind::fill && program_.fills[s.index].drain) {
      const BufferDecl& d = program_.buffer(n.d.buffer, s.loc);
      const std::optional<SharedStage> path = shared_stage(program_, d, n.d.slots, true);
      // The drain copies out what the storing copies put there: before them, nothing.
      if (path && path->fill == &program_.fills[s.index]) {
        const std::string dst = path->fill->matrix + (path->fill->transposed ? ".T" : "");
        const SlotTable table = shared_slot_table(*path, d, n.d.slots);
        const TensorId g = tensor(dst, d.shape);
        const int copied = first_copy(n.d.buffer, true);
        if (copied >= 0 && copied < step) {
          store_table(step, table, g);
        } else {
          stored_d_ = true;
          for (int t = 0; t < std::min(threads_, table.threads) && !refuted_; ++t)
            for (int slot = 0; slot < table.slots && !refuted_; ++slot)
              if (const std::int32_t e = table.at(t, slot); e >= 0) write(step, g, e, Value{}, t, slot, n.d.buffer);
        }
      }
    }
  }

  // The first copy (ldmatrix, ld.shared, tile copy) moving `reg` in that direction, as a step index; -1: none.
  int first_copy(const std::string& reg, bool out = false) const {
    for (std::size_t i = 0; i < steps_.size(); ++i) {
      const ProgramStep& s = steps_[i];
      if ((s.kind == ProgramStep::Kind::copy && program_.copies[s.index].reg == reg &&
           program_.copies[s.index].store() == out) ||
          (s.kind == ProgramStep::Kind::tile_copy && program_.tile_copies[s.index].reg == reg &&
           program_.tile_copies[s.index].store == out))
        return static_cast<int>(i);
    }
    return -1;
  }

  int step_of(ProgramStep::Kind kind, const SharedFillStmt* fill) const {
    for (std::size_t i = 0; i < steps_.size(); ++i)
      if (steps_[i].kind == kind && &program_.fills[steps_[i].index] == fill) return static_cast<int>(i);
    return -1;
  }

  // The gemm, or one of its parts (Nest::parts: a kernel writing the mma twice).
  void gemm(int step) {
    const Nest& nest = plan_.nest;
    const MmaInst& inst = *plan_.inst;
    const std::size_t part = steps_[static_cast<std::size_t>(step)].index;
    if (!nest.parts.empty() && part >= nest.parts.size())
      throw Error("the program's mma statement " + std::to_string(part + 1) + " has no part in the nest");
    const bool first = part == 0, last = nest.parts.empty() || part + 1 == nest.parts.size();
    const std::size_t begin = nest.parts.empty() ? 0 : nest.parts[part];
    const std::size_t end = last ? nest.stmts.size() : nest.parts[part + 1];
    // Operands no statement moves: their layouts stage them (tensors named after the role), once.
    const auto implied = [&](const NestOperand& o, const char* role) {
      if (!first || moved(o.buffer, false)) return;
      const BufferDecl& buf = program_.buffer(o.buffer, {});
      load_table(step, slots_from_layout(as_2d(buf), o.slots, threads_, SlotUse::load),
                 tensor(std::string(role) + "@layout", buf.shape));
    };
    implied(nest.a, "A");
    implied(nest.b, "B");
    if (nest.use_c) implied(nest.c, "C");

    const Frame& fa = inst.frame(Operand::A);
    const Frame& fb = inst.frame(Operand::B);
    const Frame& fc = inst.frame(Operand::C);
    const Frame& fd = inst.d_frame();
    const auto ia = inverse(fa), ib = inverse(fb), ic = inverse(fc), id = inverse(fd);
    Regs& ra = regs(nest.a.buffer);
    Regs& rb = regs(nest.b.buffer);
    Regs& rc = regs(nest.c.buffer);
    Regs& rd = regs(nest.d.buffer);
    const int rows_per = fc.rows / std::max(1, fc.products);
    const int b_rows_per = fb.rows / std::max(1, fb.products);
    const int kper = fa.cols;
    const auto slot = [](const std::vector<int>& regs, int e, const Frame& f) {
      const int per = f.per_reg();
      if (static_cast<std::size_t>(e / per) >= regs.size())
        throw Error("an mma passes " + std::to_string(regs.size()) + " registers where its frame needs more");
      return regs[static_cast<std::size_t>(e / per)] * per + e % per;
    };
    std::vector<Value> out(static_cast<std::size_t>(fc.rows) * fc.cols);
    std::vector<std::pair<const Value*, int>> a_at(static_cast<std::size_t>(fa.rows) * fa.cols),
        b_at(static_cast<std::size_t>(fb.rows) * fb.cols);
    std::vector<Progression> a_seq(static_cast<std::size_t>(fa.rows)),
        b_seq(static_cast<std::size_t>(std::max(1, fb.products)) * fb.cols);
    for (int w = 0; w < program_.scope.warps() && !refuted_; ++w) {
      // A nest is the dispatch's or the dump's, validated there; a register
      // outside its buffer (a hand-edited nest) is no run, not a crash.
      const auto cell = [&](Regs& r, int lane, int s) -> Value& {
        if (lane < 0 || lane >= 32 || s < 0 || s >= r.slots || (w * 32 + lane) >= threads_)
          throw Error("the nest names slot " + std::to_string(s) + " of lane " + std::to_string(lane) +
                      ", outside its buffer's " + std::to_string(r.slots) + " slots");
        return r.cells[static_cast<std::size_t>(w * 32 + lane) * r.slots + s];
      };
      for (std::size_t at = begin; at < end; ++at) {
        const NestStmt& ns = nest.stmts[at];
        if (const auto* init = std::get_if<InitStmt>(&ns)) {
          if (!init->c_slots.empty() && init->c_slots.size() != init->d_slots.size())
            throw Error("an initialisation copies " + std::to_string(init->c_slots.size()) + " C slots into " +
                        std::to_string(init->d_slots.size()) + " D slots");
          for (int lane = 0; lane < 32; ++lane)
            for (std::size_t i = 0; i < init->d_slots.size(); ++i) {
              Value v;
              if (init->c_slots.empty()) {
                v.kind = ValueKind::constant;
                v.bits = init->bits;
              } else {
                v = cell(rc, lane, init->c_slots[i]);
              }
              cell(rd, lane, init->d_slots[i]) = std::move(v);
            }
          continue;
        }
        const MmaStmt& mma = std::get<MmaStmt>(ns);
        if ((++mmas_ & 1023) == 0) on_time();
        const auto what = [&] {
          return mma.origin.empty() ? labels_[step] + ", mma (" + std::to_string(mma.tile_m) + ", " +
                                          std::to_string(mma.tile_n) + ", " + std::to_string(mma.tile_k) + ")"
                                    : mma.origin;
        };
        // The registers this mma reads, per tile position: A's (row, k), B's (k, col).
        for (int row = 0; row < fa.rows; ++row)
          for (int kk = 0; kk < fa.cols; ++kk) {
            const auto [la, ea] = ia[static_cast<std::size_t>(row) * fa.cols + kk];
            a_at[static_cast<std::size_t>(row) * fa.cols + kk] = {&cell(ra, la, slot(mma.a, ea, fa)), la};
          }
        for (int kk = 0; kk < fb.rows; ++kk)
          for (int col = 0; col < fb.cols; ++col) {
            const auto [lb, eb] = ib[static_cast<std::size_t>(kk) * fb.cols + col];
            b_at[static_cast<std::size_t>(kk) * fb.cols + col] = {&cell(rb, lb, slot(mma.b, eb, fb)), lb};
          }
        for (int row = 0; row < fa.rows; ++row)
          a_seq[static_cast<std::size_t>(row)] = progression(
              kper, [&](int k) -> const Value& { return *a_at[static_cast<std::size_t>(row) * fa.cols + k].first; });
        for (int pb = 0; pb < fb.rows; pb += b_rows_per)
          for (int col = 0; col < fb.cols; ++col)
            b_seq[static_cast<std::size_t>(pb / b_rows_per) * fb.cols + col] =
                progression(kper, [&](int k) -> const Value& {
                  return *b_at[static_cast<std::size_t>(pb + k) * fb.cols + col].first;
                });
        for (int row = 0; row < fc.rows; ++row)
          for (int col = 0; col < fc.cols; ++col) {
            const auto [lc, ec] = ic[static_cast<std::size_t>(row) * fc.cols + col];
            const auto [ld0, ed0] = id[static_cast<std::size_t>(row) * fd.cols + col];
            Value& c = cell(rd, lc, slot(mma.c, ec, fc));
            // Accumulating in place (C's register is D's): the sum moves on, no copy.
            const bool in_place = ld0 == lc && slot(mma.d, ed0, fd) == slot(mma.c, ec, fc);
            const ValueKind c_kind = c.kind;
            Value v;
            if (c.kind == ValueKind::sum) v = in_place ? std::move(c) : c;
            else if (c.kind == ValueKind::input) v.tensor = c.tensor, v.flat = c.flat;
            else if (c.kind == ValueKind::constant) v.bits = c.bits;
            else if (c.kind == ValueKind::nothing) v.base_nothing = true;
            v.kind = ValueKind::sum;
            const std::pair<const Value*, int>* arow = &a_at[static_cast<std::size_t>(row) * fa.cols];
            const std::pair<const Value*, int>* bcol =
                &b_at[static_cast<std::size_t>(row / rows_per * b_rows_per) * fb.cols + col];
            if (v.base_nothing && v.flaw < 0 && c_kind == ValueKind::nothing) {
              v.flaw = static_cast<std::int32_t>(flaws_.size());
              flaws_.push_back(what() + " accumulates onto " + nest.d.buffer + " slot " +
                               std::to_string(slot(mma.c, ec, fc)) + " of " + where(w * 32 + lc) + ", which holds " +
                               nothing_note(nest.c.buffer, step));
            }
            const Progression& xs = a_seq[static_cast<std::size_t>(row)];
            const Progression& ys = b_seq[static_cast<std::size_t>(row / rows_per) * fb.cols + col];
            if (xs.ok && ys.ok) {  // the common case: the whole K step as one run
              append_run(v.runs, Run{xs.t, ys.t, xs.f0, ys.f0, xs.df, ys.df, kper});
              out[static_cast<std::size_t>(row) * fc.cols + col] = std::move(v);
              continue;
            }
            for (int kk = 0; kk < kper; ++kk) {
              const Value& x = *arow[kk].first;
              const Value& y = *bcol[static_cast<std::size_t>(kk) * fb.cols].first;
              if (x.kind == ValueKind::input && y.kind == ValueKind::input) {
                append(v.runs, x.tensor, x.flat, y.tensor, y.flat);
              } else if (v.flaw < 0) {
                const bool bad_a = x.kind != ValueKind::input;
                const std::string& buf = bad_a ? nest.a.buffer : nest.b.buffer;
                const Value& bad = bad_a ? x : y;
                const Value* const first = bad_a ? &cell(ra, 0, 0) : &cell(rb, 0, 0);
                const auto at = static_cast<std::int64_t>(&bad - first);
                const int lane = bad_a ? arow[kk].second : bcol[static_cast<std::size_t>(kk) * fb.cols].second;
                const int slots = bad_a ? ra.slots : rb.slots;
                v.flaw = static_cast<std::int32_t>(flaws_.size());
                flaws_.push_back(what() + " multiplies " + (bad_a ? "A" : "B") + "'s register " + buf + " slot " +
                                 std::to_string(at % slots) + " of " + where(w * 32 + lane) + ", which holds " +
                                 (bad.kind == ValueKind::nothing ? nothing_note(buf, step) : describe(bad)));
              }
            }
            out[static_cast<std::size_t>(row) * fc.cols + col] = std::move(v);
          }
        for (int row = 0; row < fd.rows; ++row)
          for (int col = 0; col < fd.cols; ++col) {
            const auto [ld, ed] = id[static_cast<std::size_t>(row) * fd.cols + col];
            if (ld < 0) continue;
            cell(rd, ld, slot(mma.d, ed, fd)) = std::move(out[static_cast<std::size_t>(row) * fc.cols + col]);
          }
      }
    }
    // D's layout writes it back when no statement does.
    if (last && !moved(nest.d.buffer, true)) {
      const BufferDecl& d = program_.buffer(nest.d.buffer, {});
      store_table(step, slots_from_layout(as_2d(d), nest.d.slots, threads_, SlotUse::store),
                  tensor("D@layout", d.shape));
    }
  }

  // ---- the property

  // A run that is A[i][k]·B[k][j] for k = k0, k0 ± 1, ... (checked at its
  // ends; in between the buffers' steps per k, since `at` is affine in k),
  // counted in `seen` at once: true.  false leaves `seen` as it was, for the
  // product by product check to find what is wrong.
  static bool whole_run(const Run& r, std::int64_t i, std::int64_t j, const LogicalOf& la, const LogicalOf& lb,
                        std::int64_t step_a, std::int64_t step_b, std::vector<std::int64_t>& seen, std::int64_t stamp) {
    if (r.n < 2) return false;
    const std::int64_t a1 = r.a0 + (r.n - 1) * r.da, b1 = r.b0 + (r.n - 1) * r.db;
    const auto in = [](const std::vector<std::int32_t>& t, std::int64_t f) {
      return f >= 0 && f < static_cast<std::int64_t>(t.size());
    };
    if (!in(la.i, r.a0) || !in(la.i, a1) || !in(lb.i, r.b0) || !in(lb.i, b1)) return false;
    const std::int64_t k0 = la.j[r.a0], k1 = la.j[a1];
    if (la.i[r.a0] != i || la.i[a1] != i || lb.j[r.b0] != j || lb.j[b1] != j || k0 < 0 || k1 < 0 || lb.i[r.b0] != k0 ||
        lb.i[b1] != k1)
      return false;
    const std::int64_t dk = k1 > k0 ? 1 : -1;
    if (k1 - k0 != dk * (r.n - 1) || r.da != dk * step_a || r.db != dk * step_b) return false;
    const std::int64_t lo = std::min(k0, k1), hi = std::max(k0, k1);
    for (std::int64_t k = lo; k <= hi; ++k)
      if (seen[k] == stamp) return false;
    for (std::int64_t k = lo; k <= hi; ++k) seen[k] = stamp;
    return true;
  }

  std::string writer_text(const Tensor& t, std::int64_t flat) const {
    const Writer& w = t.writers[flat];
    if (w.step < 0) return "";
    return " (written by " + labels_[w.step] + ", " + where(w.thread) + ", slot " + std::to_string(w.slot) + ")";
  }

  void judge() {
    std::vector<TensorId> written;
    for (std::size_t i = 0; i < tensors_.size(); ++i)
      if (tensors_[i].first_write >= 0) written.push_back(static_cast<TensorId>(i));
    if (written.empty())
      return refute(stored_d_ ? "the program stores nothing"
                              : "the program never stores " + plan_.nest.d.buffer +
                                    "'s registers: no tensor holds the result");
    if (written.size() > 1)
      return refute("the program writes " + tensors_[written[0]].name + " and " + tensors_[written[1]].name +
                    "; a gemm writes one output tensor");
    output_ = written[0];
    const Tensor& out = tensors_[output_];
    const GemmGeometry g = gemm_geometry(program_);
    const bool beta = program_.gemm->beta != 0.0;
    // A tensor in a role has its operand's buffer shape (the staging moves
    // buffer coordinates); another shape means the statement names another tensor.
    const auto shaped = [&](TensorId t, const OperandPlace& place, const char* role) {
      if (tensors_[t].shape == place.buffer_shape()) return true;
      refute("the " + std::string(role) + " of the gemm comes from " + tensors_[t].name + ", a " +
                 tuple_text(tensors_[t].shape) + " tensor, but its buffer " + place.buffer() + " is " +
                 tuple_text(place.buffer_shape()),
             "D", tensors_[t].name);
      return false;
    };
    if (!shaped(output_, g.d, "output")) return;

    // A declared tensor the program never touches, declared after the output
    // and shaped like it, is the output the result should have gone to.
    const BufferDecl* out_decl = program_.find_buffer(out.name);
    for (const BufferDecl& b : program_.buffers) {
      if (b.scope != MemScope::global || b.name == out.name || b.shape != out.shape) continue;
      bool touched = false;
      for (const Tensor& t : tensors_) touched = touched || t.name == b.name;
      if (!touched && out_decl && out_decl->loc.known() &&
          std::pair{out_decl->loc.line, out_decl->loc.col} < std::pair{b.loc.line, b.loc.col})
        return refute("the result is stored into " + out.name + ", and " + b.name +
                          ", declared after it with its shape, is never written",
                      "D", out.name);
    }

    TensorId ta = -1, tb = -1, tc = -1;
    const LogicalOf la(g.a), lb(g.b);
    // One step of k in A's and B's buffers (OperandPlace::at is affine in each coordinate).
    const std::int64_t step_a = g.k > 1 ? g.a.at(0, 1) - g.a.at(0, 0) : 0;
    const std::int64_t step_b = g.k > 1 ? g.b.at(1, 0) - g.b.at(0, 0) : 0;
    // seen[k] == the element's number: product k counted for this element.
    std::vector<std::int64_t> seen(static_cast<std::size_t>(g.k), -1);
    std::int64_t checked = 0;
    for (std::int64_t i = 0; i < g.m; ++i)
      for (std::int64_t j = 0; j < g.n; ++j) {
        const std::int64_t flat = g.d.at(i, j);
        const Value& v = out.cells[flat];
        const auto fail = [&](const std::string& why) {
          const Writer& w = out.writers[flat];
          refute(out.at(flat) + writer_text(out, flat) + ": " + why, "D", out.name,
                 std::max(0, static_cast<int>(w.thread)), w.slot);
        };
        if (v.kind == ValueKind::input && v.tensor == output_)
          return fail("never written: the program leaves the output's element as it was");
        if (v.kind == ValueKind::nothing) {
          const Writer& w = out.writers[flat];
          std::string after;
          for (std::size_t s = static_cast<std::size_t>(std::max(0, static_cast<int>(w.step))); s < steps_.size(); ++s)
            if (steps_[s].kind == ProgramStep::Kind::gemm) after = " (" + labels_[s] + " runs after it)";
          return fail("holds nothing: the store writes a register nothing wrote" + after);
        }
        if (v.kind == ValueKind::constant) return fail("holds " + constant_text(v.bits) + ", not a sum of products");
        if (v.kind == ValueKind::input)
          return fail("holds " + describe(v) + ", an input element, not a sum of products");
        if (v.flaw >= 0) return fail(flaws_[v.flaw]);
        if (v.base_nothing) return fail("its sum starts from a register nothing wrote");
        // the base
        if (beta) {
          if (v.tensor < 0)
            return fail("starts from " + constant_text(v.bits) + ", but beta = 1 (C[" + std::to_string(i) + "][" +
                        std::to_string(j) + "] is missing)");
          if (tc < 0) {
            tc = v.tensor;
            if (!shaped(tc, g.c, "C operand")) return;
          }
          const Tensor& c = tensors_[v.tensor];
          if (v.tensor != tc || v.flat != g.c.at(i, j))
            return fail("starts from " + c.at(v.flat) + ", not the C element of (" + std::to_string(i) + ", " +
                        std::to_string(j) + ")" + (tc >= 0 ? " of " + tensors_[tc].name : ""));
        } else if (v.tensor >= 0) {
          return fail("starts from " + tensors_[v.tensor].at(v.flat) +
                      (g.c_bits ? ", but C is " + constant_text(g.c_bits) : std::string(", but beta = 0")));
        } else if (v.bits != g.c_bits) {  // the scalar C (GemmCall::c_scalar), bit for bit
          return fail("starts from " + constant_text(v.bits) + ", but C is " + constant_text(g.c_bits));
        }
        // the products
        const std::int64_t stamp = i * g.n + j;
        for (const Run& r : v.runs) {
          if (ta < 0) {
            ta = r.ta, tb = r.tb;
            if (ta != tb && (!shaped(ta, g.a, "A operand") || !shaped(tb, g.b, "B operand"))) return;
          }
          if (ta == tb)
            return fail("its products pair " + tensors_[ta].name + " with itself: B's registers come from " +
                        tensors_[tb].name + ", the tensor A's come from");
          if (tc >= 0 && (tc == ta || tc == tb))
            return fail("the C input comes from " + tensors_[tc].name + ", which is also a factor of the products");
          if (r.ta == ta && r.tb == tb && whole_run(r, i, j, la, lb, step_a, step_b, seen, stamp)) continue;
          for (std::int64_t t = 0; t < r.n; ++t) {
            const std::int64_t af = r.a0 + t * r.da, bf = r.b0 + t * r.db;
            const auto prod_text = [&] { return tensors_[r.ta].at(af) + "·" + tensors_[r.tb].at(bf); };
            if (r.ta != ta || r.tb != tb)
              return fail("holds the product " + prod_text() + "; its other products are " + tensors_[ta].name + "·" +
                          tensors_[tb].name);
            const std::int64_t ai = la.i[af], ak = la.j[af], bk = lb.i[bf], bj = lb.j[bf];
            if (ai != i || bj != j || ak < 0 || ak != bk)
              return fail("holds the product " + prod_text() + ", which is no A[" + std::to_string(i) + "][k]·B[k][" +
                          std::to_string(j) + "]");
            const std::int64_t k = ak;
            if (seen[k] == stamp)
              return fail("holds the product " + prod_text() + " (k = " + std::to_string(k) + ") twice");
            seen[k] = stamp;
          }
        }
        for (std::int64_t k = 0; k < g.k; ++k)
          if (seen[k] != stamp)
            return fail("misses the product of k = " + std::to_string(k) + " (A[" + std::to_string(i) + "][" +
                        std::to_string(k) + "]·B[" + std::to_string(k) + "][" + std::to_string(j) + "])");
        ++checked;
      }
    for (const TensorId t : {ta, tb, tc})
      if (t >= 0 && t == output_)
        return refute("the output " + out.name + " is also read as an input: the program reads " + out.name +
                          " before writing its result over it",
                      "D", out.name);
    if (tc >= 0 && tensors_[output_].first_read >= 0 && tensors_[output_].first_read < tensors_[output_].first_write)
      return refute("the program reads the output " + out.name + " before writing it", "D", out.name);
    covered_ = std::to_string(steps_.size()) + (steps_.size() == 1 ? " statement in " : " statements in ") +
               (program_.written_order ? "written" : "declared") + " order; " + out.name + "'s " +
               std::to_string(checked) + " elements each hold Σ of " + std::to_string(g.k) + " products " +
               (ta >= 0 ? tensors_[ta].name + "·" + tensors_[tb].name : std::string("A·B")) +
               (tc >= 0 ? " + " + tensors_[tc].name : "") + (g.c_bits ? " + " + constant_text(g.c_bits) : "");
  }
};

}  // namespace

ProgramRun run_program(const Program& program, const Plan& plan, std::chrono::steady_clock::time_point deadline) {
  ProgramRun r;
  if (!plan.ok || !plan.inst || !program.gemm) {
    r.note = "the gemm was not dispatched";
    return r;
  }
  try {
    return Executor(program, plan, deadline).run();
  } catch (const OutOfTime&) {
    r.note = "the run's time limit ran out before the program was executed";
  } catch (const Error& e) {
    r.note = std::string("the program cannot be executed: ") + e.what();
  }
  return r;
}

}  // namespace mmacheck
