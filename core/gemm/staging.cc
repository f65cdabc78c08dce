#include "core/gemm/staging.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "core/base/error.h"

namespace mmacheck {

namespace {

// The program's statements that move `buffer`, as they run: the stages
// before the (first) gemm, in order, each overwriting the slots it names
// (a later stage cannot feed the gemm), and the stores after the (last)
// gemm, in order, each overwriting the elements it writes (an earlier store
// writes registers the gemm has not written yet).  `staged`/`stored` say
// whether any statement moves the buffer on either side: with none on the
// right side its registers (the output) are never loaded (stored).
struct Moved {
  std::vector<const StageStmt*> stages;
  std::vector<const StoreStmt*> stores;
  bool staged = false, stored = false;
  const StageStmt* restage = nullptr;  // a stage after the gemm
};

// The program's steps as they run, and where its gemm statements begin and
// end among them (first == steps.size() when there is none).
struct Order {
  std::vector<ProgramStep> steps;
  std::size_t first = 0, last = 0;

  explicit Order(const Program& program) : steps(program_order(program)), first(steps.size()) {
    for (std::size_t i = 0; i < steps.size(); ++i)
      if (steps[i].kind == ProgramStep::Kind::gemm) first = std::min(first, i), last = i;
  }
};

Moved moved(const Program& program, const Order& order, const std::string& buffer) {
  Moved m;
  const std::vector<ProgramStep>& steps = order.steps;
  const std::size_t first = order.first, last = order.last;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const ProgramStep& step = steps[i];
    if (step.kind == ProgramStep::Kind::stage && program.stages[step.index].buffer == buffer) {
      m.staged = true;
      if (program.stages[step.index].constant) continue;  // set to a constant: the steps run it (runs_in_order)
      if (i < first) m.stages.push_back(&program.stages[step.index]);
      else if (!m.restage) m.restage = &program.stages[step.index];
    }
    if (step.kind == ProgramStep::Kind::store && program.stores[step.index].buffer == buffer) {
      m.stored = true;
      if (i > last && first < steps.size()) m.stores.push_back(&program.stores[step.index]);
    }
  }
  return m;
}

template <class Statement>
std::vector<SlotStatement> slot_statements(const std::vector<const Statement*>& statements) {
  std::vector<SlotStatement> out;
  for (const Statement* s : statements) out.push_back(SlotStatement{s->row, s->col, s->loc, s->slots});
  return out;
}

SlotTable unmoved(const BufferDecl& buffer, int slots, int threads) {
  SlotTable t;
  t.buffer = buffer.name;
  t.dtype = buffer.dtype;
  t.rows = buffer.shape.empty() ? 0 : buffer.shape[0];
  t.cols = buffer.shape.size() < 2 ? 1 : buffer.shape[1];
  t.threads = threads;
  t.slots = slots;
  t.index.assign(static_cast<std::size_t>(threads) * slots, -1);
  return t;
}

// Whether a shared-memory path delivers before the gemm: its fill runs
// before its first copy into the registers, which runs before the (first)
// gemm.  A written-order program may say otherwise (an ldmatrix before the
// copy that fills its shared tensor, or before the barrier that shows it).
bool delivers_in_time(const Program& program, const Order& order, const SharedStage& stage) {
  std::size_t fill = order.steps.size(), copy = order.steps.size();
  for (std::size_t i = 0; i < order.steps.size(); ++i) {
    const ProgramStep& s = order.steps[i];
    if (s.kind == ProgramStep::Kind::fill && &program.fills[s.index] == stage.fill) fill = std::min(fill, i);
    if ((s.kind == ProgramStep::Kind::copy && program.copies[s.index].reg == stage.reg &&
         !program.copies[s.index].store()) ||
        (s.kind == ProgramStep::Kind::tile_copy && program.tile_copies[s.index].reg == stage.reg &&
         !program.tile_copies[s.index].store))
      copy = std::min(copy, i);
  }
  return fill < copy && copy < order.first;
}

SlotTable load_table(const Program& program, const Order& order, const OperandRef& ref, int slots, int threads,
                     std::optional<SharedStage>& shared) {
  const BufferDecl& buffer = program.buffer(ref.buffer, ref.loc);
  if ((shared = shared_stage(program, buffer, slots, false))) {
    check_runnable(*shared);
    if (!delivers_in_time(program, order, *shared)) return unmoved(buffer, slots, threads);
    SlotTable table = shared_slot_table(*shared, buffer, slots);
    // Several warps' addresses: the warp machine loads what the table says each
    // thread receives (the same ldmatrix table), not one warp's byte by byte.
    if (table.threads > 32) shared.reset();
    return table;
  }
  const Moved m = moved(program, order, buffer.name);
  if (!m.stages.empty()) return slots_from_statements(buffer, slot_statements(m.stages), slots, threads, SlotUse::load);
  if (m.staged) return unmoved(buffer, slots, threads);
  return slots_from_layout(buffer, slots, threads, SlotUse::load);
}

// A statement between two mma statements: the tables feed one gemm, so the
// program runs statement by statement instead (Staging::steps).
bool runs_in_order(const Program& program, const Order& order) {
  for (std::size_t i = order.first + 1; i < order.last; ++i)
    if (order.steps[i].kind != ProgramStep::Kind::gemm) return true;
  // Registers set to a constant: only the statements one by one say when.
  return std::any_of(program.stages.begin(), program.stages.end(), [](const StageStmt& s) { return s.constant; });
}

std::vector<StagingStep> in_order_steps(const Program& program, const Nest& nest, const Order& order, int threads) {
  using Registers = StagingStep::Registers;
  const GemmCall& call = *program.gemm;
  const bool c_in_d = call.c.buffer == call.d.buffer;
  // The tensor each operand is first staged from is its own; the output is
  // every tensor D is stored to.
  std::map<Registers, std::string> own;
  std::set<std::string> output;
  const auto registers = [&](const std::string& buffer) -> std::optional<Registers> {
    if (buffer == call.a.buffer) return Registers::a;
    if (buffer == call.b.buffer) return Registers::b;
    if (buffer == call.c.buffer) return Registers::c;  // D's own when C is D
    if (buffer == call.d.buffer) return Registers::d;
    return std::nullopt;
  };
  for (const ProgramStep& step : order.steps) {
    if (step.kind == ProgramStep::Kind::stage) {
      const StageStmt& s = program.stages[step.index];
      if (const auto r = registers(s.buffer); r && !s.constant) own.emplace(*r, s.source);
    }
    if (step.kind == ProgramStep::Kind::store) output.insert(program.stores[step.index].target);
  }
  const auto slots = [&](Registers r) {
    return r == Registers::a             ? nest.a.slots
           : r == Registers::b           ? nest.b.slots
           : c_in_d || r == Registers::d ? nest.d.slots
                                         : nest.c.slots;
  };
  std::vector<StagingStep> out;
  for (const ProgramStep& step : order.steps) {
    StagingStep st;
    st.loc = step.loc;
    switch (step.kind) {
      case ProgramStep::Kind::gemm: {
        st.kind = StagingStep::Kind::mma;
        st.begin = nest.parts.empty() ? 0 : nest.parts.at(step.index);
        st.end =
            nest.parts.empty() || step.index + 1 >= nest.parts.size() ? nest.stmts.size() : nest.parts[step.index + 1];
        break;
      }
      case ProgramStep::Kind::stage: {
        const StageStmt& s = program.stages[step.index];
        const std::optional<Registers> into = registers(s.buffer);
        if (!into) continue;  // registers the gemm never reads
        st.kind = StagingStep::Kind::load;
        st.into = *into;
        const BufferDecl& buffer = program.buffer(s.buffer, s.loc);
        if (s.constant) {
          st.from = LoadSource::constant;
          st.constant = scalar_bits(*s.constant, buffer.dtype);
          StageStmt first = s;  // every slot it moves reads element 0 of a 1 x 1 matrix holding the constant
          first.row = first.col = IndexExpr::literal(0);
          st.table = slots_from_statements(buffer, slot_statements(std::vector<const StageStmt*>{&first}), slots(*into),
                                           threads, SlotUse::load);
          break;
        }
        std::optional<Registers> read;  // the operand whose tensor it reads
        if (output.contains(s.source)) st.from = LoadSource::output;
        else
          for (const Registers other : {Registers::a, Registers::b, Registers::c})
            if (other != *into && own.contains(other) && own.at(other) == s.source) {
              st.from = other == Registers::a ? LoadSource::a : other == Registers::b ? LoadSource::b : LoadSource::c;
              read = other;
            }
        if (st.from == LoadSource::own && (*into == Registers::d || own.at(*into) != s.source))
          throw Error(s.loc,
                      "'" + s.buffer + "' is staged from '" + s.source + "', " +
                          (*into == Registers::d ? std::string("which is no operand's tensor")
                                                 : "not the tensor it is first staged from ('" + own.at(*into) + "')") +
                          ": sim loads an operand from one (`mmacheck prove` runs it as written)");
        const DType read_type = st.from == LoadSource::output ? program.buffer(call.d.buffer, call.d.loc).dtype
                                : read == Registers::a        ? program.buffer(call.a.buffer, call.a.loc).dtype
                                : read == Registers::b        ? program.buffer(call.b.buffer, call.b.loc).dtype
                                : read == Registers::c        ? program.buffer(call.c.buffer, call.c.loc).dtype
                                                              : buffer.dtype;
        if (read_type != buffer.dtype)
          throw Error(s.loc, "'" + s.buffer + "' (" + std::string(dtype_info(buffer.dtype).ptx) + ") is staged from '" +
                                 s.source + "', a tensor of " + std::string(dtype_info(read_type).ptx) +
                                 ": sim does not convert it (`mmacheck prove` runs it as written)");
        st.table = slots_from_statements(buffer, slot_statements(std::vector<const StageStmt*>{&s}), slots(*into),
                                         threads, SlotUse::load);
        break;
      }
      case ProgramStep::Kind::store: {
        const StoreStmt& s = program.stores[step.index];
        st.kind = StagingStep::Kind::store;
        st.table =
            slots_from_statements(program.buffer(s.buffer, s.loc), slot_statements(std::vector<const StoreStmt*>{&s}),
                                  nest.d.slots, threads, SlotUse::store);
        break;
      }
      default:
        throw Error(step.loc,
                    step_label(program, step) +
                        ": sim runs a program with statements between its mma statements one statement "
                        "at a time, and shared memory is not among them; `mmacheck prove` runs it as written");
    }
    out.push_back(std::move(st));
  }
  return out;
}

}  // namespace

Staging build_staging(const Program& program, const Nest& nest) {
  (void)program.gemm_call();
  // The tables below feed one gemm: a kernel writing the mma more than once
  // runs its parts back to back there, which is its order only when nothing
  // stands between them; otherwise the statements run one by one (steps).
  const Order order(program);
  const bool in_order = runs_in_order(program, order);
  const GemmCall& call = *program.gemm;
  const auto distinct = [&](const OperandRef& x, const OperandRef& y, const char* xs, const char* ys) {
    if (x.buffer == y.buffer)
      throw Error(x.loc, std::string("staging needs ") + xs + " and " + ys + " in different buffers; both are '" +
                             x.buffer + "'");
  };
  distinct(call.a, call.b, "A", "B");
  distinct(call.a, call.c, "A", "C");
  distinct(call.a, call.d, "A", "D");
  distinct(call.b, call.c, "B", "C");
  distinct(call.b, call.d, "B", "D");
  // The tables write the output from D's registers alone: a store of any
  // other buffer (C's registers, a view declared over them) is not run here.
  for (const StoreStmt& s : program.stores)
    if (s.buffer != call.d.buffer)
      throw Error(s.loc, "store " + s.buffer + " -> " + s.target + ": sim and gpu store D's registers ('" +
                             call.d.buffer + "') alone, this stores '" + s.buffer +
                             "'; `mmacheck prove` runs it as written");

  Staging st;
  st.threads = program.scope.threads;
  st.c_in_d = call.c.buffer == call.d.buffer;
  if (in_order) st.steps = in_order_steps(program, nest, order, st.threads);
  if (!in_order) {
    const Moved ma = moved(program, order, call.a.buffer), mb = moved(program, order, call.b.buffer),
                mc = moved(program, order, call.c.buffer), md = moved(program, order, call.d.buffer);
    // The tensor an operand's stages read: one per operand in these tables.
    const auto source = [](const Moved& m) -> const std::string* {
      if (m.stages.empty()) return nullptr;
      for (const StageStmt* s : m.stages)
        if (s->source != m.stages.front()->source)
          throw Error(s->loc, "'" + s->buffer + "' is staged from two tensors ('" + m.stages.front()->source +
                                  "' at line " + std::to_string(m.stages.front()->loc.line) + ", '" + s->source +
                                  "'): sim and gpu load an operand from one (`mmacheck prove` runs it as written)");
      return &m.stages.front()->source;
    };
    const auto from = [&](const Moved& m, const Moved* own) {
      const std::string* src = source(m);
      if (!src) return LoadSource::own;
      for (const StoreStmt* store : md.stores)
        if (*src == store->target) return LoadSource::output;
      for (const auto& [other, which] : {std::pair{&ma, LoadSource::a}, {&mb, LoadSource::b}, {&mc, LoadSource::c}})
        if (other != own && source(*other) && *source(*other) == *src) return which;
      return LoadSource::own;
    };
    // What a store after the gemm writes is D as the mma left it.
    if (md.restage && !md.stores.empty())
      throw Error(md.restage->loc, "'" + md.restage->buffer +
                                       "' is staged again after the mma, before it is stored: "
                                       "sim and gpu store D as the mma left it (`mmacheck prove` runs it as written)");
    st.a_from = from(ma, &ma);
    st.b_from = from(mb, &mb);
    if (program.gemm->beta != 0.0) st.c_from = from(mc, &mc);
  }
  st.a = load_table(program, order, call.a, nest.a.slots, st.threads, st.shared_a);
  st.b = load_table(program, order, call.b, nest.b.slots, st.threads, st.shared_b);
  st.c = load_table(program, order, call.c, st.c_in_d ? nest.d.slots : nest.c.slots, st.threads, st.shared_c);
  // B filled into shared memory from the tensor A is staged from (or filled from) reads A's inputs.
  if (st.shared_b && !in_order) {
    const auto source = [](const SharedStage& s) { return s.fill->matrix + (s.fill->transposed ? ".T" : ""); };
    const Moved ma = moved(program, order, call.a.buffer);
    const std::string a_source = st.shared_a          ? source(*st.shared_a)
                                 : !ma.stages.empty() ? ma.stages.front()->source
                                                      : std::string();
    if (source(*st.shared_b) == a_source) st.b_from = LoadSource::a;
  }
  const BufferDecl& d = program.buffer(call.d.buffer, call.d.loc);
  if ((st.shared_d = shared_stage(program, d, nest.d.slots, true))) {
    check_runnable(*st.shared_d);
    st.d = shared_slot_table(*st.shared_d, d, nest.d.slots);
  } else if (const Moved m = moved(program, order, d.name); !m.stores.empty()) {
    st.d = slots_from_statements(d, slot_statements(m.stores), nest.d.slots, st.threads, SlotUse::store);
  } else if (m.stored) {
    st.d = unmoved(d, nest.d.slots, st.threads);
  } else {
    st.d = slots_from_layout(d, nest.d.slots, st.threads, SlotUse::store);
  }
  return st;
}

Staging frame_staging(const MmaInst& inst) {
  Staging st;
  st.a = slots_from_frame(inst.frame(Operand::A), inst.a);
  st.b = slots_from_frame(inst.frame(Operand::B), inst.b);
  st.c = slots_from_frame(inst.frame(Operand::C), inst.c);
  st.d = slots_from_frame(inst.frame(Operand::C), inst.d);
  return st;
}

Nest frame_nest(const MmaInst& inst) {
  const auto count = [](int n) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), 0);
    return v;
  };
  const Frame& fa = inst.frame(Operand::A);
  const Frame& fb = inst.frame(Operand::B);
  const Frame& fc = inst.frame(Operand::C);
  Nest nest;
  nest.inst = &inst;
  nest.d = {"D", inst.d, fc.elems()};
  nest.a = {"A", inst.a, fa.elems()};
  nest.b = {"B", inst.b, fb.elems()};
  nest.c = {"C", inst.c, fc.elems()};
  nest.tiles_m = nest.tiles_n = nest.tiles_k = 1;
  nest.use_c = true;
  nest.stmts.emplace_back(InitStmt{0, 0, count(fc.elems()), count(fc.elems())});
  nest.stmts.emplace_back(MmaStmt{0, 0, 0, count(fc.regs), count(fa.regs), count(fb.regs), count(fc.regs)});
  return nest;
}

}  // namespace mmacheck
