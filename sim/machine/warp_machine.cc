#include "sim/machine/warp_machine.h"

#include <string>

#include "core/base/error.h"
#include "sim/machine/fragment.h"

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
                "-bit elements, the " + std::string(frame.shape) + " " +
                std::string(operand_name(frame.operand)) + " frame " + std::to_string(frame.elem_bits) +
                "-bit");
}

void check_table(const SlotTable& table, const RegisterFile& file, int threads, const char* role) {
  if (table.threads != threads || table.slots != file.slots())
    throw Error(std::string("the ") + role + " staging table of '" + table.buffer + "' is " +
                std::to_string(table.threads) + " threads x " + std::to_string(table.slots) +
                " slots; the nest runs " + std::to_string(threads) + " threads x " +
                std::to_string(file.slots()) + " slots");
}

std::string stmt_name(std::size_t index) { return "nest statement " + std::to_string(index); }

void check_indices(const std::vector<int>& indices, int limit, std::size_t want, const std::string& where,
                   const char* what) {
  if (want != 0 && indices.size() != want)
    throw Error(where + " names " + std::to_string(indices.size()) + " " + what + ", expected " +
                std::to_string(want));
  for (int i : indices)
    if (i < 0 || i >= limit)
      throw Error(where + ": " + what + " index " + std::to_string(i) + " lies outside [0, " +
                  std::to_string(limit) + ")");
}

void check_matrix(const Matrix& m, const SlotTable& table, const char* role) {
  if (m.rows != table.rows || m.cols != table.cols || m.dtype != table.dtype ||
      m.bits.size() != static_cast<std::size_t>(m.rows * m.cols))
    throw Error(std::string("input ") + role + " is a " + std::to_string(m.rows) + " x " +
                std::to_string(m.cols) + " " + std::string(dtype_info(m.dtype).tvm) + " matrix; buffer '" +
                table.buffer + "' is " + std::to_string(table.rows) + " x " + std::to_string(table.cols) +
                " " + std::string(dtype_info(table.dtype).tvm));
}

}  // namespace

WarpMachine::WarpMachine(Nest nest, Staging staging, const ArchParams& arch)
    : nest_(std::move(nest)),
      staging_(std::move(staging)),
      arch_(&arch),
      a_(nest_.a.dtype, staging_.threads, nest_.a.slots),
      b_(nest_.b.dtype, staging_.threads, nest_.b.slots),
      c_(nest_.c.dtype, staging_.c_in_d ? 0 : staging_.threads, staging_.c_in_d ? 0 : nest_.c.slots),
      d_(nest_.d.dtype, staging_.threads, nest_.d.slots) {
  const MmaInst& inst = instruction(nest_);
  check_arch(inst, arch);
  const Frame& fa = inst.frame(Operand::A);
  const Frame& fb = inst.frame(Operand::B);
  const Frame& fc = inst.frame(Operand::C);
  check_frame(nest_.a, fa);
  check_frame(nest_.b, fb);
  check_frame(nest_.d, fc);
  if (!staging_.c_in_d) check_frame(nest_.c, fc);
  const int threads = staging_.threads;
  if (threads <= 0 || threads % 32 != 0)
    throw Error("the staging runs " + std::to_string(threads) + " threads, not whole warps");
  check_table(staging_.a, a_, threads, "load");
  check_table(staging_.b, b_, threads, "load");
  check_table(staging_.c, c(), threads, "load");
  check_table(staging_.d, d_, threads, "store");

  for (std::size_t i = 0; i < nest_.stmts.size(); ++i) {
    const std::string where = stmt_name(i);
    if (const auto* init = std::get_if<InitStmt>(&nest_.stmts[i])) {
      check_indices(init->d_slots, d_.slots(), 0, where, "D slot");
      if (!init->c_slots.empty())
        check_indices(init->c_slots, c().slots(), init->d_slots.size(), where, "C slot");
    } else {
      const auto& mma = std::get<MmaStmt>(nest_.stmts[i]);
      check_indices(mma.d, d_.regs(), fc.regs, where, "D register");
      check_indices(mma.a, a_.regs(), fa.regs, where, "A register");
      check_indices(mma.b, b_.regs(), fb.regs, where, "B register");
      check_indices(mma.c, d_.regs(), fc.regs, where, "C (accumulator) register");
    }
  }
}

WarpMachine::WarpMachine(const Program& program, Nest nest, const ArchParams& arch)
    : WarpMachine(nest, build_staging(program, nest), arch) {}

void WarpMachine::load(const GemmInputs& inputs) {
  check_matrix(inputs.a, staging_.a, "A");
  check_matrix(inputs.b, staging_.b, "B");
  check_matrix(inputs.c, staging_.c, "C");
  a_.load(load_slots(staging_.a, inputs.a.bits));
  b_.load(load_slots(staging_.b, inputs.b.bits));
  if (staging_.c_in_d) {
    d_.load(load_slots(staging_.c, inputs.c.bits));
  } else {
    c_.load(load_slots(staging_.c, inputs.c.bits));
    d_.clear();
  }
}

void WarpMachine::execute(const NestStmt& stmt) {
  if (const auto* init = std::get_if<InitStmt>(&stmt))
    execute_init(*init);
  else
    execute_mma(std::get<MmaStmt>(stmt));
}

void WarpMachine::execute_nest() {
  for (const NestStmt& stmt : nest_.stmts) execute(stmt);
}

std::vector<std::uint64_t> WarpMachine::store() const { return store_slots(staging_.d, d_.slot_values()); }

std::vector<std::uint64_t> WarpMachine::run(const GemmInputs& inputs) {
  load(inputs);
  execute_nest();
  return store();
}

void WarpMachine::execute_init(const InitStmt& init) {
  const RegisterFile& src = c();
  const bool copy = !init.c_slots.empty();
  for (int t = 0; t < staging_.threads; ++t)
    for (std::size_t i = 0; i < init.d_slots.size(); ++i)
      d_.set_slot(t, init.d_slots[i], copy ? src.slot(t, init.c_slots[i]) : 0);
}

void WarpMachine::execute_mma(const MmaStmt& mma) {
  const MmaInst& inst = *nest_.inst;
  const auto gather = [](const RegisterFile& file, const std::vector<int>& regs, const Frame& frame,
                         int base) {
    WarpRegs w(frame);
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (std::size_t r = 0; r < regs.size(); ++r)
        w.set_reg(lane, static_cast<int>(r), file.reg(base + lane, regs[r]));
    return w;
  };
  for (int warp = 0; warp < warps(); ++warp) {
    const int base = warp * kWarpLanes;
    const WarpRegs out = sim::execute_mma(inst, *arch_, gather(a_, mma.a, inst.frame(Operand::A), base),
                                          gather(b_, mma.b, inst.frame(Operand::B), base),
                                          gather(d_, mma.c, inst.frame(Operand::C), base));
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (std::size_t r = 0; r < mma.d.size(); ++r)
        d_.set_reg(base + lane, mma.d[r], out.reg(lane, static_cast<int>(r)));
  }
}

std::vector<std::uint64_t> simulate(const Program& program, const Nest& nest, const GemmInputs& inputs) {
  WarpMachine machine(program, nest, arch_params("sm_90"));
  return machine.run(inputs);
}

}  // namespace mmacheck::sim
