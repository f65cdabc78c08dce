#include "core/ptx/ptx_tma.h"

#include <string>
#include <vector>

#include "core/base/hex.h"
#include "core/ptx/machine_context.h"
#include "core/tma/tma_copy.h"

namespace mmacheck::ptx {

namespace {

using Kind = Operand::Kind;

std::string line_of(const PtxKernel& k, int inst) {
  return std::to_string(k.code[static_cast<std::size_t>(inst)].loc.line);
}

}  // namespace

void check_tma_operands(Instruction& inst, const PtxKernel& kernel) {
  const std::string& op = inst.opcode;
  int rank = 0;
  for (int d = 1; d <= 5; ++d)
    if (op.find("." + std::to_string(d) + "d.") != std::string::npos) rank = d;
  if (rank == 0) throw Error(inst.loc, "'" + op + "' needs its dimension (.1d .. .5d)");
  if (op.find(".global.") == std::string::npos || op.find(".shared::") == std::string::npos ||
      op.find("mbarrier::complete_tx::bytes") == std::string::npos)
    throw Error(inst.loc, "'" + op +
                              "': the PTX machine models the copy from global to shared memory completing on an "
                              "mbarrier (.shared::cluster.global.mbarrier::complete_tx::bytes)");
  if (inst.ops[0].kind != Kind::address) throw Error(inst.ops[0].loc, "expected the shared destination [..]");
  const Operand& map = inst.ops[1];
  if (map.kind != Kind::address || map.regs.size() != static_cast<std::size_t>(rank))
    throw Error(map.loc, "expected [tensorMap, {" + std::to_string(rank) + " coordinates}]");
  for (const int r : map.regs)
    if (r < 0 || kernel.reg_bits[static_cast<std::size_t>(r)] != 32)
      throw Error(map.loc, "a tensor coordinate is a 32-bit register");
  if (inst.ops[2].kind != Kind::address) throw Error(inst.ops[2].loc, "expected the mbarrier's address [..]");
  // .L2::cache_hint takes a 64-bit cache policy: where the bytes stay in L2,
  // not which bytes are copied.
  const bool hint = op.find(".L2::cache_hint") != std::string::npos;
  if (hint != (inst.ops.size() == 4))
    throw Error(inst.loc, "'" + op + "': a cache policy operand goes with .L2::cache_hint, and only with it");
  if (hint && (inst.ops[3].kind != Kind::reg || inst.ops[3].reg < 0 ||
               kernel.reg_bits[static_cast<std::size_t>(inst.ops[3].reg)] != 64))
    throw Error(inst.ops[3].loc, "the cache policy is a 64-bit register");
  inst.count = rank;
}

void exec_tma_copy(const Instruction& inst, ThreadContext& t) {
  const Machine& m = t.machine();
  // The destination: a shared::cta address (shared::cluster: this CTA's own, the
  // launch has no clusters).
  const std::uint64_t dst = t.address(inst, inst.ops[0]);
  std::uint64_t map_address = t.address(inst, inst.ops[1]);
  const std::uint64_t generic = map_address;
  if (t.resolve(Space::generic, map_address) != Space::param || map_address % kParamSlot != 0)
    t.unfollowed(inst, "the tensor map at 0x" + hex(generic) +
                           " is not a CUtensorMap parameter's address (a map in global or const memory is not "
                           "modelled)");
  const auto param = static_cast<int>(map_address / kParamSlot);
  const TensorMapParam* tm = nullptr;
  for (const TensorMapParam& p : m.options.tensor_maps)
    if (p.param == param) tm = &p;
  const Symbol& ps = m.kernel.symbols[static_cast<std::size_t>(m.kernel.params[static_cast<std::size_t>(param)])];
  if (tm == nullptr)
    t.fault(inst, "the tensor map is parameter " + ps.name + ", which the launch gives no \"tensor_map\"");
  if (tm->map.rank() != inst.count)
    t.fault(inst, "a " + std::to_string(inst.count) + "-d copy through the tensor map of parameter " + ps.name +
                      ", which has rank " + std::to_string(tm->map.rank()));
  TmaCopy copy{"", inst.loc, tm->map, static_cast<std::int64_t>(dst), {}};
  for (const int r : inst.ops[1].regs) {
    const Value v = t.reg(r);
    t.require_plain(inst, v, 4, "a tensor coordinate");
    copy.coords.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(v.bits)));
  }
  if (const auto problems = copy.problems(); !problems.empty()) t.fault(inst, problems.front());
  std::uint64_t mb_address = t.address(inst, inst.ops[2]);
  if (t.resolve(Space::shared, mb_address) != Space::shared) t.fault(inst, "an mbarrier outside shared memory");
  TmaInFlight c;
  c.mbarrier = t.mbarrier_at(inst, mb_address);
  c.inst = t.pc();
  c.thread = t.thread();
  const TensorMap& map = tm->map;
  const int eb = map.dtype->bytes;
  std::vector<std::int64_t> at(static_cast<std::size_t>(map.rank()), 0);
  std::int64_t total = 1;
  for (int d = 0; d < map.rank(); ++d) total *= map.box_extent(d);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(eb));
  std::vector<Tag> tags(static_cast<std::size_t>(eb));
  for (std::int64_t flat = 0; flat < total; ++flat) {
    std::int64_t rest = flat;
    for (int d = 0; d < map.rank(); ++d) {
      at[static_cast<std::size_t>(d)] = rest % map.box_extent(d);
      rest /= map.box_extent(d);
    }
    const std::int64_t to = tma_write_address(copy, at);
    std::fill(bytes.begin(), bytes.end(), std::uint8_t{0});
    std::fill(tags.begin(), tags.end(), Tag{0});
    if (!tma_out_of_bounds(copy, at)) {
      const std::vector<std::int64_t> g = tma_global_coord(copy, at);
      std::int64_t offset = g[0] * eb;
      for (int d = 1; d < map.rank(); ++d)
        offset += g[static_cast<std::size_t>(d)] * map.strides[static_cast<std::size_t>(d - 1)];
      t.global_bytes(inst, static_cast<std::uint64_t>(map.address + offset), eb, bytes.data(), tags.data());
    }
    for (int b = 0; b < eb; ++b) {
      c.at.push_back(static_cast<std::uint32_t>(to + b));
      c.bytes.push_back(bytes[static_cast<std::size_t>(b)]);
      c.tags.push_back(tags[static_cast<std::size_t>(b)]);
    }
  }
  t.tma_issue(inst, std::move(c));
}

// ---- the machine's side --------------------------------------------------------

void ThreadContext::tma_not_pending(const Instruction& inst, std::uint64_t b, const char* access) const {
  if (cta_.tma_pending[b] == 0) return;
  const int c = cta_.tma_pending_inst[b];
  fault(inst, std::string(access) + " shared byte " + std::to_string(b) + ", which the cp.async.bulk.tensor at line " +
                  line_of(m_.kernel, c) + " is still writing (its mbarrier phase has not completed)");
}

void ThreadContext::tma_read_ready(const Instruction& inst, std::uint64_t b) const {
  tma_not_pending(inst, b, "reads");
  const std::int32_t mb = cta_.tma_mbarrier[b];
  if (mb == 0 || mbarrier_seen(mb - 1) >= cta_.tma_phase[b]) return;
  const Mbarrier& bar = cta_.mbarriers[static_cast<std::size_t>(mb - 1)];
  fault(inst, "reads shared byte " + std::to_string(b) + ", which the cp.async.bulk.tensor at line " +
                  line_of(m_.kernel, cta_.tma_inst[b]) + " wrote, completing phase " +
                  std::to_string(cta_.tma_phase[b] - 1) + " of the mbarrier at shared byte " +
                  std::to_string(bar.offset) +
                  "; this thread has not seen that phase complete (no mbarrier.try_wait "
                  "on it, nor a barrier of the whole CTA after a thread's)");
}

void ThreadContext::tma_issue(const Instruction& inst, TmaInFlight copy) {
  for (const std::uint32_t b : copy.at) {
    shared_at(inst, b, 1);
    if (cta_.tma_pending[b] != 0)
      fault(inst, "copies into shared byte " + std::to_string(b) + ", which the cp.async.bulk.tensor at line " +
                      line_of(m_.kernel, cta_.tma_pending_inst[b]) +
                      " is still writing (its mbarrier phase has not completed)");
    not_pending(inst, b, "copies into");
    if (!cta_.wgmma_reading.empty() && cta_.wgmma_reading[b] != 0)
      fault(inst, "copies into shared byte " + std::to_string(b) + ", which the wgmma.mma_async at line " +
                      line_of(m_.kernel, cta_.wgmma_reading_inst[b]) +
                      " reads while in flight (no wgmma.wait_group has completed it)");
    const std::uint32_t r = cta_.reader[b];
    if (unordered(r, cta_.read_epoch[b], cta_.read_warp_epoch[b]) && !reads_ordered(b))
      race(inst, "copies into shared byte " + std::to_string(b) + ", which " + readers_text(b, r) +
                     " with no barrier between the read and this copy");
    if (unordered(cta_.writer[b], cta_.write_epoch[b], cta_.write_warp_epoch[b]) && !write_ordered(b))
      race(inst, "copies into shared byte " + std::to_string(b) + ", which thread " +
                     std::to_string(cta_.writer[b] - 1) + " writes with no barrier between");
  }
  for (const std::uint32_t b : copy.at) {
    ++cta_.tma_pending[b];
    cta_.tma_pending_inst[b] = t_.pc;
  }
  cta_.tma.push_back(std::move(copy));
}

bool land_tma(Machine& m, CtaState& cta) {
  if (cta.tma.empty()) return false;
  std::vector<TmaInFlight> copies = std::move(cta.tma);
  cta.tma.clear();
  for (const TmaInFlight& c : copies) {
    const Mbarrier& mb = cta.mbarriers[static_cast<std::size_t>(c.mbarrier)];
    for (std::size_t i = 0; i < c.at.size(); ++i) {
      const std::uint32_t b = c.at[i];
      --cta.tma_pending[b];
      cta.shared[b] = c.bytes[i];
      cta.shared_tags[b] = c.tags[i];
      cta.writer[b] = 0;  // the async proxy's write: ordered by the mbarrier, not by barriers
      cta.tma_mbarrier[b] = c.mbarrier + 1;
      cta.tma_phase[b] = mb.completions + 1;
      cta.tma_inst[b] = c.inst;
    }
  }
  // complete_tx: each copy's bytes (the box's elements) to its mbarrier.
  for (const TmaInFlight& c : copies) {
    ThreadContext t(m, cta, c.thread);
    t.mbarrier_update(c.mbarrier, 0, -static_cast<std::int64_t>(c.at.size()));
  }
  return true;
}

}  // namespace mmacheck::ptx
