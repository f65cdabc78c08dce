#include "sim/machine/warp_machine.h"

#include <algorithm>
#include <string>

#include "core/base/error.h"
#include "sim/machine/fragment.h"
#include "sim/machine/shared_memory.h"

namespace mmacheck::sim {

namespace {

const MmaInst& instruction(const Nest& nest) {
  if (!nest.inst) throw Error("the nest has no instruction");
  return *nest.inst;
}

void check_arch(const MmaInst& inst, const ArchParams& arch) { check_has_model(inst, arch); }

void check_frame(const NestOperand& operand, const Frame& frame) {
  if (dtype_bits(operand.dtype) != frame.elem_bits)
    throw Error("buffer '" + operand.buffer + "' has " + std::to_string(dtype_bits(operand.dtype)) +
                "-bit elements, the " + std::string(frame.shape) + " " + std::string(operand_name(frame.operand)) +
                " frame " + std::to_string(frame.elem_bits) + "-bit");
}

void check_table(const SlotTable& table, const RegisterFile& file, int threads, const char* role) {
  if (table.threads != threads || table.slots != file.slots())
    throw Error(std::string("the ") + role + " staging table of '" + table.buffer + "' is " +
                std::to_string(table.threads) + " threads x " + std::to_string(table.slots) + " slots; the nest runs " +
                std::to_string(threads) + " threads x " + std::to_string(file.slots()) + " slots");
}

std::string stmt_name(std::size_t index) { return "nest statement " + std::to_string(index); }

void check_indices(const std::vector<int>& indices, int limit, std::size_t want, const std::string& where,
                   const char* what) {
  if (want != 0 && indices.size() != want)
    throw Error(where + " names " + std::to_string(indices.size()) + " " + what + ", expected " + std::to_string(want));
  for (int i : indices)
    if (i < 0 || i >= limit)
      throw Error(where + ": " + what + " index " + std::to_string(i) + " lies outside [0, " + std::to_string(limit) +
                  ")");
}

void check_matrix(const Matrix& m, const SlotTable& table, const char* role) {
  if (m.rows != table.rows || m.cols != table.cols || m.dtype != table.dtype ||
      m.bits.size() != static_cast<std::size_t>(m.rows * m.cols))
    throw Error(std::string("input ") + role + " is a " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                " " + std::string(dtype_info(m.dtype).tvm) + " matrix; buffer '" + table.buffer + "' is " +
                std::to_string(table.rows) + " x " + std::to_string(table.cols) + " " +
                std::string(dtype_info(table.dtype).tvm));
}

// The tile an mma reads from `file`: element i from lane place.lane of the
// warp at `base`, the file register regs[place.reg], at place.shift.
void gather(const RegisterFile& file, const std::vector<int>& regs, const TileRoute& route, int base,
            std::vector<std::uint64_t>& tile) {
  const std::span<const ElementPlace> places = route.places();
  for (std::size_t i = 0; i < places.size(); ++i) {
    const ElementPlace& p = places[i];
    tile[i] = file.element(base + p.lane, regs[p.reg], p.shift);
  }
}

// gather() of a register file that load(table, matrix) would fill, read
// from the matrix itself: A and B are never written by the nest, so their
// registers are the load table's elements (0 where it gives none).
void gather_loaded(const SlotTable& table, int per_reg, std::span<const std::uint64_t> matrix,
                   const std::vector<int>& regs, const TileRoute& route, int base, std::vector<std::uint64_t>& tile) {
  const std::span<const ElementPlace> places = route.places();
  for (std::size_t i = 0; i < places.size(); ++i) {
    const ElementPlace& p = places[i];
    const int slot = regs[p.reg] * per_reg + p.sub;
    const std::int32_t at = slot < table.slots ? table.index[(base + p.lane) * table.slots + slot] : -1;
    tile[i] = at >= 0 ? matrix[static_cast<std::size_t>(at)] : 0;
  }
}

void scatter(RegisterFile& file, const std::vector<int>& regs, const TileRoute& route, int base,
             const std::vector<std::uint64_t>& tile) {
  const std::span<const ElementPlace> places = route.places();
  for (std::size_t i = 0; i < places.size(); ++i) {
    const ElementPlace& p = places[i];
    file.set_element(base + p.lane, regs[p.reg], p.shift, tile[i]);
  }
}

}  // namespace

WarpMachine::WarpMachine(Nest nest, Staging staging, const ArchParams& arch, std::size_t max_route_bytes)
    : nest_(std::make_shared<const Nest>(std::move(nest))),
      staging_(std::make_shared<const Staging>(std::move(staging))),
      arch_(&arch),
      a_(nest_->a.dtype, staging_->threads, nest_->a.slots),
      b_(nest_->b.dtype, staging_->threads, nest_->b.slots),
      c_(nest_->c.dtype, staging_->c_in_d ? 0 : staging_->threads, staging_->c_in_d ? 0 : nest_->c.slots),
      d_(nest_->d.dtype, staging_->threads, nest_->d.slots),
      route_a_(instruction(*nest_).frame(Operand::A)),
      route_b_(instruction(*nest_).frame(Operand::B)),
      route_c_(instruction(*nest_).frame(Operand::C)),
      tile_a_(route_a_.size()),
      tile_b_(route_b_.size()),
      tile_c_(route_c_.size()),
      tile_d_(route_c_.size()) {
  const MmaInst& inst = instruction(*nest_);
  check_arch(inst, arch);
  const Frame& fa = inst.frame(Operand::A);
  const Frame& fb = inst.frame(Operand::B);
  const Frame& fc = inst.frame(Operand::C);
  check_frame(nest_->a, fa);
  check_frame(nest_->b, fb);
  check_frame(nest_->d, fc);
  if (!staging_->c_in_d) check_frame(nest_->c, fc);
  const int threads = staging_->threads;
  if (threads <= 0 || threads % 32 != 0)
    throw Error("the staging runs " + std::to_string(threads) + " threads, not whole warps");
  check_table(staging_->a, a_, threads, "load");
  check_table(staging_->b, b_, threads, "load");
  check_table(staging_->c, c(), threads, "load");
  check_table(staging_->d, d_, threads, "store");
  for (const StagingStep& step : staging_->steps) {
    using Registers = StagingStep::Registers;
    if (step.kind == StagingStep::Kind::load)
      check_table(step.table,
                  step.into == Registers::a   ? a_
                  : step.into == Registers::b ? b_
                  : step.into == Registers::c ? c()
                                              : d_,
                  threads, "load");
    if (step.kind == StagingStep::Kind::store) check_table(step.table, d_, threads, "store");
    if (step.kind == StagingStep::Kind::mma && (step.begin > step.end || step.end > nest_->stmts.size()))
      throw Error(step.loc, "an mma statement's part of the nest lies outside its " +
                                std::to_string(nest_->stmts.size()) + " statements");
  }

  for (std::size_t i = 0; i < nest_->stmts.size(); ++i) {
    const std::string where = stmt_name(i);
    if (const auto* init = std::get_if<InitStmt>(&nest_->stmts[i])) {
      check_indices(init->d_slots, d_.slots(), 0, where, "D slot");
      if (!init->c_slots.empty()) check_indices(init->c_slots, c().slots(), init->d_slots.size(), where, "C slot");
    } else {
      const auto& mma = std::get<MmaStmt>(nest_->stmts[i]);
      check_indices(mma.d, d_.regs(), fc.regs, where, "D register");
      check_indices(mma.a, a_.regs(), fa.regs, where, "A register");
      check_indices(mma.b, b_.regs(), fb.regs, where, "B register");
      check_indices(mma.c, d_.regs(), fc.regs, where, "C (accumulator) register");
    }
  }
  compile_routes(max_route_bytes);
  find_c_reads();
}

void WarpMachine::find_c_reads() {
  // Per D slot (the same in every thread): written by the nest yet.
  std::vector<bool> written(static_cast<std::size_t>(d_.slots()), false);
  bool read_unwritten = false, copies_c = false;
  const auto reg_slots = [&](int reg, const auto& visit) {
    for (int s = reg * d_.per_reg(); s < (reg + 1) * d_.per_reg() && s < d_.slots(); ++s) visit(s);
  };
  for (const NestStmt& stmt : nest_->stmts) {
    if (const auto* init = std::get_if<InitStmt>(&stmt)) {
      copies_c |= !init->c_slots.empty();
      if (staging_->c_in_d)
        for (int s : init->c_slots) read_unwritten |= !written[s];
      for (int s : init->d_slots) written[s] = true;
    } else {
      const auto& mma = std::get<MmaStmt>(stmt);
      for (int r : mma.c) reg_slots(r, [&](int s) { read_unwritten |= !written[s]; });
      for (int r : mma.d) reg_slots(r, [&](int s) { written[s] = true; });
    }
  }
  for (const bool w : written) read_unwritten |= !w;  // the store reads every slot
  needs_c_load_ = staging_->c_in_d ? read_unwritten : copies_c || read_unwritten;
}

WarpMachine::WarpMachine(const Program& program, Nest nest, const ArchParams& arch)
    : WarpMachine(nest, build_staging(program, nest), arch) {}

namespace {

// An operand staged through shared memory: the fill, then its ldmatrix /
// ld.shared instructions, byte by byte (sim/machine/shared_memory.h).
void load_shared(const SharedStage& stage, std::span<const std::uint64_t> matrix, RegisterFile& regs) {
  SharedMemory memory(stage);
  memory.fill(stage, matrix);
  regs.clear();
  for (const SharedAccess& access : stage.accesses) memory.load(stage, access, regs);
}

}  // namespace

void WarpMachine::load(const GemmInputs& inputs) {
  check_matrix(inputs.a, staging_->a, "A");
  check_matrix(inputs.b, staging_->b, "B");
  check_matrix(inputs.c, staging_->c, "C");
  if (staging_->shared_a) load_shared(*staging_->shared_a, inputs.a.bits, a_);
  else a_.load(staging_->a, inputs.a.bits);
  if (staging_->shared_b) load_shared(*staging_->shared_b, inputs.b.bits, b_);
  else b_.load(staging_->b, inputs.b.bits);
  RegisterFile& c = staging_->c_in_d ? d_ : c_;
  if (staging_->shared_c) load_shared(*staging_->shared_c, inputs.c.bits, c);
  else c.load(staging_->c, inputs.c.bits);
  if (!staging_->c_in_d) d_.clear();
}

void WarpMachine::execute(const NestStmt& stmt) {
  if (const auto* init = std::get_if<InitStmt>(&stmt)) execute_init(*init);
  else execute_mma(std::get<MmaStmt>(stmt));
}

void WarpMachine::execute_nest() {
  for (const NestStmt& stmt : nest_->stmts) execute(stmt);
}

std::vector<std::uint64_t> WarpMachine::store() const {
  if (!staging_->shared_d) return d_.store(staging_->d);
  SharedMemory memory(*staging_->shared_d);
  for (const SharedAccess& access : staging_->shared_d->accesses) memory.store(*staging_->shared_d, access, d_);
  return memory.drain(*staging_->shared_d);
}

std::vector<std::uint64_t> WarpMachine::run(const GemmInputs& inputs) {
  check_matrix(inputs.a, staging_->a, "A");
  check_matrix(inputs.b, staging_->b, "B");
  check_matrix(inputs.c, staging_->c, "C");
  if (!staging_->steps.empty()) return run_in_order(inputs);
  if (!needs_c_load_) {
    // Every register is written before it is read: C's values would be overwritten.
  } else if (staging_->c_in_d) {
    d_.load(staging_->c, inputs.c.bits);
  } else {
    c_.load(staging_->c, inputs.c.bits);
    d_.clear();
  }
  std::size_t next = 0;
  for (const NestStmt& stmt : nest_->stmts) {
    if (const auto* init = std::get_if<InitStmt>(&stmt)) {
      execute_init(*init);
    } else if (!compiled_) {
      run_mma_resolving(std::get<MmaStmt>(stmt), inputs);
    } else {
      for (int warp = 0; warp < warps(); ++warp) run_mma_compiled((*compiled_)[next++], inputs);
    }
  }
  return store();
}

namespace {

// A load statement's registers, from `source` (rows x cols, row-major) read
// at the table's [row, col] (another operand's tensor may have another
// shape: what lies outside it reads as 0); -1 leaves a register as it is.
void load_at(RegisterFile& file, const SlotTable& table, std::span<const std::uint64_t> source, std::int64_t rows,
             std::int64_t cols) {
  for (int t = 0; t < file.threads(); ++t)
    for (int s = 0; s < file.slots(); ++s) {
      const std::int32_t at = table.at(t, s);
      if (at < 0) continue;
      const std::int64_t r = at / table.cols, c = at % table.cols;
      file.set_slot(t, s, r < rows && c < cols ? source[static_cast<std::size_t>(r * cols + c)] : 0);
    }
}

}  // namespace

std::vector<std::uint64_t> WarpMachine::run_in_order(const GemmInputs& inputs) {
  using Registers = StagingStep::Registers;
  for (RegisterFile* file : {&a_, &b_, &c_, &d_}) file->poison();
  std::vector<std::uint64_t> output(static_cast<std::size_t>(staging_->d.elements()), 0);
  for (const StagingStep& step : staging_->steps) {
    switch (step.kind) {
      case StagingStep::Kind::load: {
        RegisterFile& into = step.into == Registers::a                       ? a_
                             : step.into == Registers::b                     ? b_
                             : step.into == Registers::d || staging_->c_in_d ? d_
                                                                             : c_;
        const Matrix* own = step.into == Registers::a   ? &inputs.a
                            : step.into == Registers::b ? &inputs.b
                            : step.into == Registers::c ? &inputs.c
                                                        : nullptr;
        const Matrix* read = step.from == LoadSource::a     ? &inputs.a
                             : step.from == LoadSource::b   ? &inputs.b
                             : step.from == LoadSource::c   ? &inputs.c
                             : step.from == LoadSource::own ? own
                                                            : nullptr;
        if (step.from == LoadSource::constant)
          load_at(into, step.table, std::vector<std::uint64_t>(1, step.constant), 1, 1);
        else if (read) load_at(into, step.table, read->bits, read->rows, read->cols);
        else load_at(into, step.table, output, staging_->d.rows, staging_->d.cols);
        break;
      }
      case StagingStep::Kind::mma:
        for (std::size_t i = step.begin; i < step.end; ++i) execute(nest_->stmts[i]);
        break;
      case StagingStep::Kind::store:
        for (int t = 0; t < d_.threads(); ++t)
          for (int s = 0; s < d_.slots(); ++s)
            if (const std::int32_t at = step.table.at(t, s); at >= 0)
              output[static_cast<std::size_t>(at)] = d_.slot(t, s);
        break;
    }
  }
  return output;
}

void WarpMachine::run_mma_resolving(const MmaStmt& mma, const GemmInputs& inputs) {
  for (int warp = 0; warp < warps(); ++warp) {
    const int base = warp * kWarpLanes;
    gather_loaded(staging_->a, a_.per_reg(), inputs.a.bits, mma.a, route_a_, base, tile_a_);
    gather_loaded(staging_->b, b_.per_reg(), inputs.b.bits, mma.b, route_b_, base, tile_b_);
    gather(d_, mma.c, route_c_, base, tile_c_);
    mma_tile(*nest_->inst, *arch_, tile_a_, tile_b_, tile_c_, tile_d_);
    scatter(d_, mma.d, route_c_, base, tile_d_);
  }
}

void WarpMachine::run_mma_compiled(const CompiledMma& mma, const GemmInputs& inputs) {
  const std::uint64_t* a = inputs.a.bits.data();
  const std::uint64_t* b = inputs.b.bits.data();
  const auto gather_input = [](const std::vector<std::int32_t>& index, bool loaded, const std::uint64_t* matrix,
                               std::vector<std::uint64_t>& tile) {
    if (loaded)
      for (std::size_t i = 0; i < index.size(); ++i) tile[i] = matrix[index[i]];
    else
      for (std::size_t i = 0; i < index.size(); ++i) tile[i] = index[i] >= 0 ? matrix[index[i]] : 0;
  };
  const auto operand = [&](const std::vector<std::int32_t>& index, bool loaded, std::int32_t run,
                           const std::uint64_t* matrix, std::vector<std::uint64_t>& tile) {
    if (run >= 0) return std::span<const std::uint64_t>(matrix + run, index.size());
    gather_input(index, loaded, matrix, tile);
    return std::span<const std::uint64_t>(tile);
  };
  const std::span<const std::uint64_t> ta = operand(mma.a, mma.a_loaded, mma.a_run, a, tile_a_);
  const std::span<const std::uint64_t> tb = operand(mma.b, mma.b_loaded, mma.b_run, b, tile_b_);
  if (d_.per_reg() == 1) {  // f32/s32/f64 accumulators: one element per register, no shifts
    for (std::size_t i = 0; i < mma.c_word.size(); ++i) tile_c_[i] = d_.word(mma.c_word[i]);
    mma_tile(*nest_->inst, *arch_, ta, tb, tile_c_, tile_d_);
    for (std::size_t i = 0; i < mma.d_word.size(); ++i) d_.set_word(mma.d_word[i], tile_d_[i]);
    return;
  }
  for (std::size_t i = 0; i < mma.c_word.size(); ++i) tile_c_[i] = d_.word_element(mma.c_word[i], mma.c_shift[i]);
  mma_tile(*nest_->inst, *arch_, ta, tb, tile_c_, tile_d_);
  for (std::size_t i = 0; i < mma.d_word.size(); ++i) d_.set_word_element(mma.d_word[i], mma.d_shift[i], tile_d_[i]);
}

void WarpMachine::compile_routes(std::size_t max_bytes) {
  const std::size_t per_mma = (route_a_.size() + route_b_.size()) * 4 + route_c_.size() * 10;
  std::size_t mmas = 0;
  for (const NestStmt& stmt : nest_->stmts) mmas += std::holds_alternative<MmaStmt>(stmt);
  if (mmas * static_cast<std::size_t>(warps()) * per_mma > max_bytes) return;
  std::vector<CompiledMma> compiled;
  compiled.reserve(mmas * static_cast<std::size_t>(warps()));
  const auto loaded = [](const SlotTable& table, int per_reg, const std::vector<int>& regs, const TileRoute& route,
                         int base) {
    std::vector<std::int32_t> out;
    for (const ElementPlace& p : route.places()) {
      const int slot = regs[p.reg] * per_reg + p.sub;
      out.push_back(slot < table.slots ? table.index[(base + p.lane) * table.slots + slot] : -1);
    }
    return out;
  };
  const auto words = [this](const std::vector<int>& regs, int base, std::vector<std::int32_t>& word,
                            std::vector<std::uint8_t>& shift) {
    for (const ElementPlace& p : route_c_.places()) {
      word.push_back((base + p.lane) * d_.regs() + regs[p.reg]);
      shift.push_back(p.shift);
    }
  };
  for (const NestStmt& stmt : nest_->stmts) {
    const auto* mma = std::get_if<MmaStmt>(&stmt);
    if (!mma) continue;
    for (int warp = 0; warp < warps(); ++warp) {
      const int base = warp * kWarpLanes;
      CompiledMma c;
      c.a = loaded(staging_->a, a_.per_reg(), mma->a, route_a_, base);
      c.b = loaded(staging_->b, b_.per_reg(), mma->b, route_b_, base);
      words(mma->c, base, c.c_word, c.c_shift);
      words(mma->d, base, c.d_word, c.d_shift);
      const auto all_loaded = [](const std::vector<std::int32_t>& index) {
        return std::all_of(index.begin(), index.end(), [](std::int32_t i) { return i >= 0; });
      };
      c.a_loaded = all_loaded(c.a);
      c.b_loaded = all_loaded(c.b);
      const auto run_start = [](const std::vector<std::int32_t>& index) {
        for (std::size_t i = 0; i < index.size(); ++i)
          if (index[i] != index[0] + static_cast<std::int32_t>(i)) return -1;
        return index.empty() || index[0] < 0 ? -1 : index[0];
      };
      c.a_run = run_start(c.a);
      c.b_run = run_start(c.b);
      compiled.push_back(std::move(c));
    }
  }
  compiled_ = std::make_shared<const std::vector<CompiledMma>>(std::move(compiled));
}

void WarpMachine::execute_init(const InitStmt& init) {
  const RegisterFile& src = c();
  const bool copy = !init.c_slots.empty();
  // C loaded into D's own registers and copied slot for slot onto itself: nothing moves.
  if (copy && staging_->c_in_d && init.c_slots == init.d_slots) return;
  if (d_.per_reg() == 1 && src.per_reg() == 1) {  // slot s is word s of the thread: no shifts
    for (int t = 0; t < staging_->threads; ++t)
      for (std::size_t i = 0; i < init.d_slots.size(); ++i)
        d_.set_word(t * d_.regs() + init.d_slots[i], copy ? src.word(t * src.regs() + init.c_slots[i]) : init.bits);
    return;
  }
  for (int t = 0; t < staging_->threads; ++t)
    for (std::size_t i = 0; i < init.d_slots.size(); ++i)
      d_.set_slot(t, init.d_slots[i], copy ? src.slot(t, init.c_slots[i]) : init.bits);
}

void WarpMachine::execute_mma(const MmaStmt& mma) {
  const MmaInst& inst = *nest_->inst;
  for (int warp = 0; warp < warps(); ++warp) {
    const int base = warp * kWarpLanes;
    gather(a_, mma.a, route_a_, base, tile_a_);
    gather(b_, mma.b, route_b_, base, tile_b_);
    gather(d_, mma.c, route_c_, base, tile_c_);
    mma_tile(inst, *arch_, tile_a_, tile_b_, tile_c_, tile_d_);
    scatter(d_, mma.d, route_c_, base, tile_d_);
  }
}

std::vector<std::uint64_t> simulate(const Program& program, const Nest& nest, const GemmInputs& inputs) {
  WarpMachine machine(program, nest, arch_params("sm_90"));
  return machine.run(inputs);
}

}  // namespace mmacheck::sim
