#include "core/ptx/ptx_mbarrier.h"

#include <string>
#include <string_view>

#include "core/ptx/machine_context.h"

namespace mmacheck::ptx {

namespace {

using Kind = Operand::Kind;

// inst.count: 1 for the .parity forms of try_wait and test_wait.
// The mbarrier's shared offset: `.shared`/`.shared::cta` forms give one,
// generic forms a generic address in the shared window.
int mbarrier_of(const Instruction& inst, ThreadContext& t, const Operand& op) {
  std::uint64_t a = t.address(inst, op);
  const Space space = t.resolve(inst.space == Space::shared ? Space::shared : Space::generic, a);
  if (space != Space::shared) t.fault(inst, "an mbarrier outside shared memory (address 0x" + std::to_string(a) + ")");
  if (a % 8 != 0) t.fault(inst, "an mbarrier at shared byte " + std::to_string(a) + ", not 8-byte aligned");
  return t.mbarrier_at(inst, a);
}

std::int64_t plain(const Instruction& inst, ThreadContext& t, const Operand& op, const char* what) {
  const Value v = t.get(op, 32);
  t.require_plain(inst, v, 4, what);
  return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v.bits)));
}

// The state an arrive returns: the phase it arrived in (try_wait without
// .parity waits for that phase to complete).
void set_state(ThreadContext& t, const Operand& op, std::uint32_t phase) {
  if (op.kind != Kind::reg || op.reg < 0) return;
  Value v;
  v.bits = phase;
  t.set(op, v);
}

}  // namespace

void check_mbarrier_operands(Instruction& inst, std::string_view name, const PtxKernel& kernel) {
  inst.space = inst.opcode.find(".shared") != std::string::npos ? Space::shared : Space::generic;
  const auto address = [&](std::size_t i) {
    if (inst.ops[i].kind != Kind::address) throw Error(inst.ops[i].loc, "expected the mbarrier's address [..]");
  };
  const auto value = [&](std::size_t i) {
    const Operand& o = inst.ops[i];
    if (o.kind != Kind::reg && o.kind != Kind::imm) throw Error(o.loc, "expected a register or a constant");
  };
  if (name == "mbarrier.init") {
    address(0);
    value(1);
  } else if (name == "mbarrier.inval") {
    address(0);
  } else if (name == "mbarrier.expect_tx") {
    address(0);
    value(1);
  } else if (name == "mbarrier.arrive" || name == "mbarrier.arrive.expect_tx") {
    if (inst.ops[0].kind != Kind::reg) throw Error(inst.ops[0].loc, "expected the state register (or _)");
    address(1);
    if (inst.ops.size() > 2) value(2);
    if (name == "mbarrier.arrive.expect_tx" && inst.ops.size() != 3)
      throw Error(inst.loc, "mbarrier.arrive.expect_tx takes state, [mbar], txCount");
  } else {  // try_wait, test_wait
    const Operand& d = inst.ops[0];
    if (d.kind != Kind::reg || d.reg < 0 || kernel.reg_bits[static_cast<std::size_t>(d.reg)] != 1)
      throw Error(d.loc, "'" + inst.opcode + "' writes a predicate register");
    address(1);
    value(2);
    if (inst.ops.size() > 3) {  // try_wait's suspend-time hint: how long to wait, no effect on the phases
      if (name != "mbarrier.try_wait") throw Error(inst.ops[3].loc, "'" + inst.opcode + "' takes three operands");
      value(3);
    }
    inst.count = inst.opcode.find(".parity") != std::string::npos ? 1 : 0;
  }
}

void exec_mbarrier_init(const Instruction& inst, ThreadContext& t) {
  std::uint64_t a = t.address(inst, inst.ops[0]);
  const Space space = t.resolve(inst.space == Space::shared ? Space::shared : Space::generic, a);
  if (space != Space::shared) t.fault(inst, "mbarrier.init outside shared memory");
  if (a % 8 != 0) t.fault(inst, "an mbarrier at shared byte " + std::to_string(a) + ", not 8-byte aligned");
  const std::int64_t count = plain(inst, t, inst.ops[1], "mbarrier.init's count");
  if (count < 1 || count > (std::int64_t{1} << 20) - 1)
    t.fault(inst, "mbarrier.init with count " + std::to_string(count) + " (1 .. 2^20 - 1)");
  t.mbarrier_init(inst, a, count);
}

void exec_mbarrier_inval(const Instruction& inst, ThreadContext& t) {
  t.mbarrier_inval(inst, mbarrier_of(inst, t, inst.ops[0]));
}

void exec_mbarrier_arrive(const Instruction& inst, ThreadContext& t) {
  const int mb = mbarrier_of(inst, t, inst.ops[1]);
  std::int64_t count = 1;
  if (inst.ops.size() > 2) count = plain(inst, t, inst.ops[2], "mbarrier.arrive's count");
  if (count < 1) t.fault(inst, "mbarrier.arrive with count " + std::to_string(count));
  set_state(t, inst.ops[0], t.mbarrier(mb).completions);
  if (count > t.mbarrier(mb).pending)
    t.fault(inst, "arrives " + std::to_string(count) + " times at the mbarrier at shared byte " +
                      std::to_string(t.mbarrier(mb).offset) + ", whose phase waits for " +
                      std::to_string(t.mbarrier(mb).pending) + " more arrivals");
  t.mbarrier_release(mb);  // .release: what the thread did before is ordered before the phase's completion
  t.mbarrier_update(mb, -count, 0);
}

void exec_mbarrier_arrive_expect_tx(const Instruction& inst, ThreadContext& t) {
  const int mb = mbarrier_of(inst, t, inst.ops[1]);
  const std::int64_t tx = plain(inst, t, inst.ops[2], "the transaction count");
  if (tx < 0 || tx > (std::int64_t{1} << 20) - 1)
    t.fault(inst, "a transaction count of " + std::to_string(tx) + " (0 .. 2^20 - 1)");
  set_state(t, inst.ops[0], t.mbarrier(mb).completions);
  if (t.mbarrier(mb).pending < 1)
    t.fault(inst, "arrives at the mbarrier at shared byte " + std::to_string(t.mbarrier(mb).offset) +
                      ", whose phase waits for no more arrivals");
  t.mbarrier_update(mb, 0, tx);  // expect-tx first, then the arrival (the ISA's order)
  t.mbarrier_release(mb);
  t.mbarrier_update(mb, -1, 0);
}

void exec_mbarrier_expect_tx(const Instruction& inst, ThreadContext& t) {
  const int mb = mbarrier_of(inst, t, inst.ops[0]);
  const std::int64_t tx = plain(inst, t, inst.ops[1], "the transaction count");
  if (tx < 0 || tx > (std::int64_t{1} << 20) - 1)
    t.fault(inst, "a transaction count of " + std::to_string(tx) + " (0 .. 2^20 - 1)");
  t.mbarrier_update(mb, 0, tx);
}

namespace {

bool wait_done(const Instruction& inst, ThreadContext& t, int mb) {
  const Value s = t.get(inst.ops[2], 64);
  t.require_plain(inst, s, 8, inst.count != 0 ? "the phase parity" : "the mbarrier state");
  if (inst.count != 0) return t.mbarrier_phase_done(mb, static_cast<std::uint32_t>(s.bits & 1));
  // A state from mbarrier.arrive: the phase it arrived in.
  if (s.bits > t.mbarrier(mb).completions)
    t.fault(inst, "waits with a state (phase " + std::to_string(s.bits) + ") no arrive at this mbarrier returned");
  const auto phase = static_cast<std::uint32_t>(s.bits);
  return t.mbarrier_phase_done(mb, phase & 1) && t.mbarrier(mb).completions > phase;
}

}  // namespace

void exec_mbarrier_try_wait(const Instruction& inst, ThreadContext& t) {
  const int mb = mbarrier_of(inst, t, inst.ops[1]);
  if (!wait_done(inst, t, mb)) {
    t.block_on(mb);
    return;
  }
  Value p;
  p.bits = 1;
  t.set(inst.ops[0], p);
}

void exec_mbarrier_test_wait(const Instruction& inst, ThreadContext& t) {
  const int mb = mbarrier_of(inst, t, inst.ops[1]);
  if (!wait_done(inst, t, mb))
    t.unfollowed(inst,
                 "mbarrier.test_wait finds its phase incomplete: the run does not follow the path of a failed "
                 "test (mbarrier.try_wait, which waits, is modelled)");
  Value p;
  p.bits = 1;
  t.set(inst.ops[0], p);
}

// ---- the machine's side --------------------------------------------------------

int ThreadContext::mbarrier_at(const Instruction& inst, std::uint64_t offset) const {
  for (std::size_t i = 0; i < cta_.mbarriers.size(); ++i)
    if (cta_.mbarriers[i].offset == offset) {
      if (!cta_.mbarriers[i].valid)
        fault(inst, "uses the mbarrier at shared byte " + std::to_string(offset) + " after its mbarrier.inval");
      return static_cast<int>(i);
    }
  fault(inst, "uses an mbarrier at shared byte " + std::to_string(offset) + ", where no mbarrier.init made one");
}

void ThreadContext::mbarrier_init(const Instruction& inst, std::uint64_t offset, std::int64_t count) {
  shared_at(inst, offset, 8);
  Mbarrier* mb = nullptr;
  for (Mbarrier& m : cta_.mbarriers)
    if (m.offset == offset) mb = &m;
  if (mb != nullptr && mb->valid)
    fault(inst, "initialises the mbarrier at shared byte " + std::to_string(offset) + " again (initialised at line " +
                    std::to_string(m_.kernel.code[static_cast<std::size_t>(mb->init_inst)].loc.line) +
                    ", no mbarrier.inval between)");
  for (const TmaInFlight& c : cta_.tma)
    if (mb != nullptr && &cta_.mbarriers[static_cast<std::size_t>(c.mbarrier)] == mb)
      fault(inst, "initialises the mbarrier at shared byte " + std::to_string(offset) +
                      " while the cp.async.bulk.tensor at line " +
                      std::to_string(m_.kernel.code[static_cast<std::size_t>(c.inst)].loc.line) + " completes on it");
  if (mb == nullptr) {
    cta_.mbarriers.push_back({});
    mb = &cta_.mbarriers.back();
  }
  *mb = Mbarrier{offset, true, t_.pc, count, count, 0, 0, {}, {}};
  // A fresh mbarrier: what threads knew of the old one's phases is void.
  const auto index = static_cast<std::size_t>(mb - cta_.mbarriers.data());
  for (ThreadState& th : cta_.threads)
    if (index < th.mbarrier_seen.size()) th.mbarrier_seen[index] = 0;
}

void ThreadContext::mbarrier_inval(const Instruction& inst, int index) {
  Mbarrier& mb = mbarrier(index);
  for (const TmaInFlight& c : cta_.tma)
    if (c.mbarrier == index)
      fault(inst, "invalidates the mbarrier at shared byte " + std::to_string(mb.offset) +
                      " while the cp.async.bulk.tensor at line " +
                      std::to_string(m_.kernel.code[static_cast<std::size_t>(c.inst)].loc.line) + " completes on it");
  mb.valid = false;
}

void ThreadContext::mbarrier_update(int index, std::int64_t arrivals, std::int64_t tx_bytes) {
  Mbarrier& mb = mbarrier(index);
  mb.pending += arrivals;
  mb.tx += tx_bytes;
  if (mb.pending > 0 || mb.tx != 0) return;
  // The phase completes: the next begins, and the threads waiting run again.
  ++mb.completions;
  mb.released.join(mb.arrived);
  mb.pending = mb.expected;
  mb.tx = 0;
  for (ThreadState& th : cta_.threads)
    if (th.status == ThreadState::Status::at_mbarrier) th.status = ThreadState::Status::running;
}

bool ThreadContext::mbarrier_phase_done(int index, std::uint32_t parity) {
  const Mbarrier& mb = mbarrier(index);
  // The current phase (number `completions`) has parity completions & 1; the
  // one of the other parity before it has completed (or is the ISA's phase -1).
  if ((mb.completions & 1) == parity) return false;
  auto& seen = t_.mbarrier_seen;
  if (seen.size() <= static_cast<std::size_t>(index)) seen.resize(static_cast<std::size_t>(index) + 1, 0);
  seen[static_cast<std::size_t>(index)] = std::max(seen[static_cast<std::size_t>(index)], mb.completions);
  acquire(mb.released);  // try_wait's .acquire: the completed phases' arrivals happen before what follows
  return true;
}

}  // namespace mmacheck::ptx
