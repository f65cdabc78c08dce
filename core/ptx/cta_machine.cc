#include "core/ptx/cta_machine.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <string>
#include <string_view>

#include "core/base/hex.h"
#include "core/base/worker_pool.h"
#include "core/ptx/machine_context.h"

namespace mmacheck::ptx {

std::int64_t TensorArg::storage_elements() const {
  std::int64_t n = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return 0;
    n += (shape[i] - 1) * strides[i];
  }
  return n;
}

std::optional<std::pair<std::int64_t, std::int64_t>> TensorArg::matrix_index(std::int64_t storage) const {
  if (shape.size() != 2) return std::nullopt;
  // The larger stride first: row-major and column-major alike.
  const bool rows_outer = strides[0] >= strides[1];
  const std::int64_t outer = rows_outer ? strides[0] : strides[1], inner = rows_outer ? strides[1] : strides[0];
  const std::int64_t outer_n = rows_outer ? shape[0] : shape[1], inner_n = rows_outer ? shape[1] : shape[0];
  if (outer <= 0 || storage < 0) return std::nullopt;
  const std::int64_t o = std::min(storage / outer, outer_n - 1);
  const std::int64_t rest = storage - o * outer;
  std::int64_t in = 0;
  if (inner > 0) {
    if (rest % inner != 0) return std::nullopt;
    in = rest / inner;
  } else if (rest != 0) {
    return std::nullopt;
  }
  if (in >= inner_n) return std::nullopt;
  return rows_outer ? std::pair{o, in} : std::pair{in, o};
}

namespace {

// Regions sit 2^40 bytes apart from 2^40: far from 0, from each other and
// from the shared window, so a stray address lands in none of them.
constexpr std::uint64_t kGlobalBase = std::uint64_t{1} << 40;

std::string element_name(const TensorArg& t, std::int64_t storage) {
  // Strides in decreasing order give the multi-index of a storage offset.
  std::vector<std::size_t> order(t.shape.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t.strides[a] > t.strides[b]; });
  std::vector<std::int64_t> index(t.shape.size(), 0);
  std::int64_t rest = storage;
  for (const std::size_t d : order) {
    if (t.strides[d] <= 0) continue;
    index[d] = std::min(rest / t.strides[d], t.shape[d] - 1);
    rest -= index[d] * t.strides[d];
  }
  std::string out = t.name;
  if (rest != 0) return out + " at element offset " + std::to_string(storage) + " (padding)";
  for (const std::int64_t i : index) out += "[" + std::to_string(i) + "]";
  return out;
}

std::string byte_range_name(const GlobalMemory::Region& r, std::uint64_t address) {
  const std::int64_t offset = static_cast<std::int64_t>(address - r.base);
  return element_name(r.tensor, offset / r.tensor.element_bytes());
}

}  // namespace

std::uint64_t GlobalMemory::add(TensorArg tensor) {
  const std::uint64_t base = kGlobalBase * (regions_.size() + 1);
  const std::int64_t bytes = tensor.storage_elements() * tensor.element_bytes();
  Region r;
  r.tensor = std::move(tensor);
  r.base = base;
  r.bytes.assign(static_cast<std::size_t>(bytes), 0);
  r.tags.assign(static_cast<std::size_t>(bytes), make_tag(kUnwritten, 0));
  r.writer.assign(static_cast<std::size_t>(bytes), 0);
  r.where.assign(static_cast<std::size_t>(bytes), -1);
  regions_.push_back(std::move(r));
  return base;
}

const GlobalMemory::Region* GlobalMemory::find(std::uint64_t address, std::int64_t bytes) const {
  for (const Region& r : regions_)
    if (address >= r.base && address - r.base + static_cast<std::uint64_t>(bytes) <= r.bytes.size()) return &r;
  return nullptr;
}

// ---- ThreadContext ---------------------------------------------------------

std::uint64_t window_of(Space space) {
  return space == Space::shared     ? kSharedWindow
         : space == Space::local    ? kLocalWindow
         : space == Space::param    ? kParamWindow
         : space == Space::constant ? kConstWindow
                                    : 0;
}

void ThreadContext::fault(const Instruction& inst, const std::string& message) const {
  throw PtxFault{Finding{inst.loc, cta_.id, thread_, message, inst.source}};
}

void ThreadContext::unfollowed(const Instruction& inst, const std::string& message) const {
  throw PtxUnfollowed{Finding{inst.loc, cta_.id, thread_, message, inst.source}};
}

void ThreadContext::race(const Instruction& inst, const std::string& message) const {
  if (cta_.partial_barrier_line > 0)
    unfollowed(inst, message + " (the barrier at line " + std::to_string(cta_.partial_barrier_line) +
                         " among part of the CTA may order them; the run does not follow its order)");
  fault(inst, message);
}

Value ThreadContext::get(const Operand& op, int bits) const {
  Value v;
  switch (op.kind) {
    case Operand::Kind::reg:
      if (op.reg >= 0) {
        check_in_flight(op.reg, "reads");
        v = t_.regs[static_cast<std::size_t>(op.reg)];
      }
      break;
    case Operand::Kind::imm: v.bits = static_cast<std::uint64_t>(op.imm); break;
    case Operand::Kind::symbol: {
      const Symbol& s = m_.kernel.symbols[static_cast<std::size_t>(op.symbol)];
      if (s.space == Space::param) {  // its .param address (a CUtensorMap's, for cp.async.bulk.tensor)
        v.bits = static_cast<std::uint64_t>(s.offset) * kParamSlot;
        break;
      }
      v.bits = static_cast<std::uint64_t>(m_.symbol_offsets[static_cast<std::size_t>(op.symbol)]);
      break;
    }
    case Operand::Kind::special: {
      const auto& b = m_.shape.block;
      const auto& g = m_.shape.grid;
      const int x = thread_ % b[0], y = (thread_ / b[0]) % b[1], z = thread_ / (b[0] * b[1]);
      const int lane = thread_ % 32;
      std::uint64_t r = 0;
      switch (op.special) {
        case Special::tid_x: r = static_cast<std::uint64_t>(x); break;
        case Special::tid_y: r = static_cast<std::uint64_t>(y); break;
        case Special::tid_z: r = static_cast<std::uint64_t>(z); break;
        case Special::ntid_x: r = static_cast<std::uint64_t>(b[0]); break;
        case Special::ntid_y: r = static_cast<std::uint64_t>(b[1]); break;
        case Special::ntid_z: r = static_cast<std::uint64_t>(b[2]); break;
        case Special::ctaid_x: r = static_cast<std::uint64_t>(cta_.id[0]); break;
        case Special::ctaid_y: r = static_cast<std::uint64_t>(cta_.id[1]); break;
        case Special::ctaid_z: r = static_cast<std::uint64_t>(cta_.id[2]); break;
        case Special::nctaid_x: r = static_cast<std::uint64_t>(g[0]); break;
        case Special::nctaid_y: r = static_cast<std::uint64_t>(g[1]); break;
        case Special::nctaid_z: r = static_cast<std::uint64_t>(g[2]); break;
        case Special::laneid: r = static_cast<std::uint64_t>(lane); break;
        case Special::warpid: r = static_cast<std::uint64_t>(thread_ / 32); break;
        case Special::nwarpid: r = static_cast<std::uint64_t>((m_.threads_per_cta + 31) / 32); break;
        case Special::lanemask_lt: r = (std::uint64_t{1} << lane) - 1; break;
        case Special::lanemask_le: r = (std::uint64_t{2} << lane) - 1; break;
        case Special::lanemask_eq: r = std::uint64_t{1} << lane; break;
        case Special::lanemask_ge: r = ~((std::uint64_t{1} << lane) - 1) & 0xFFFFFFFF; break;
        case Special::lanemask_gt: r = ~((std::uint64_t{2} << lane) - 1) & 0xFFFFFFFF; break;
      }
      v.bits = r;
      break;
    }
    default: throw Error(op.loc, "internal: operand is not a value");
  }
  if (bits < 64) {
    v.bits &= (std::uint64_t{1} << bits) - 1;
    for (int i = (bits + 7) / 8; i < 8; ++i) v.tags[static_cast<std::size_t>(i)] = 0;
  }
  return v;
}

void ThreadContext::set_reg(int index, Value v) {
  if (index < 0) return;
  const int bits = reg_bits(index);
  if (bits < 64) {
    v.bits &= (std::uint64_t{1} << bits) - 1;
    for (int i = (bits + 7) / 8; i < 8; ++i) v.tags[static_cast<std::size_t>(i)] = 0;
  }
  check_in_flight(index, "writes");
  t_.regs[static_cast<std::size_t>(index)] = v;
  if (moved_loaded_ != 0) t_.tmem_loaded[static_cast<std::size_t>(index)] = moved_loaded_;
  t_.writer[static_cast<std::size_t>(index)] = t_.pc;
  if (!t_.unfenced.empty()) t_.unfenced[static_cast<std::size_t>(index)] = 1;
}

void ThreadContext::set(const Operand& op, const Value& v) {
  if (op.kind != Operand::Kind::reg) throw Error(op.loc, "internal: destination is not a register");
  set_reg(op.reg, v);
}

void ThreadContext::derive(const Instruction& inst, Value& result, int bytes,
                           std::initializer_list<const Value*> inputs) const {
  bool tagged = false, unwritten = false;
  for (const Value* in : inputs)
    for (const Tag t : in->tags) {
      tagged = tagged || t != 0;
      unwritten = unwritten || (t != 0 && tag_id(t) == kUnwritten);
    }
  result.tags = {};
  if (!tagged) return;
  const std::uint64_t id = unwritten ? kUnwritten : m_.provenance.opaque(t_.pc);
  for (int i = 0; i < bytes && i < 8; ++i) result.tags[static_cast<std::size_t>(i)] = make_tag(id, unwritten ? 0 : i);
  (void)inst;
}

void ThreadContext::require_plain(const Instruction& inst, const Value& v, int bytes, const char* what) const {
  for (int i = 0; i < bytes && i < 8; ++i) {
    const Tag t = v.tags[static_cast<std::size_t>(i)];
    if (t == 0) continue;
    if (tag_id(t) == kUnwritten) fault(inst, std::string(what) + " reads a register never written");
    unfollowed(inst, std::string(what) + " depends on tensor data, which the run does not follow");
  }
}

std::uint64_t ThreadContext::address(const Instruction& inst, const Operand& op) const {
  std::uint64_t base = 0;
  if (op.reg >= 0) {
    check_in_flight(op.reg, "reads");
    const Value v = t_.regs[static_cast<std::size_t>(op.reg)];
    require_plain(inst, v, 8, "the address");
    base = v.bits;
  } else if (op.symbol >= 0) {
    const Symbol& s = m_.kernel.symbols[static_cast<std::size_t>(op.symbol)];
    if (s.space == Space::shared || s.space == Space::local || s.space == Space::constant)
      base = static_cast<std::uint64_t>(m_.symbol_offsets[static_cast<std::size_t>(op.symbol)]);
  }
  return base + static_cast<std::uint64_t>(op.imm);
}

std::uint8_t* ThreadContext::shared_at(const Instruction& inst, std::uint64_t offset, int bytes) {
  if (offset > cta_.shared.size() || cta_.shared.size() - offset < static_cast<std::uint64_t>(bytes))
    fault(inst, "accesses " + std::to_string(bytes) + " bytes of shared memory at offset " + std::to_string(offset) +
                    ", outside the CTA's " + std::to_string(cta_.shared.size()) + " bytes");
  return cta_.shared.data() + offset;
}

// Whether an access of thread `other` (1 + its index, 0: none) at the given
// epochs is unordered with this thread's now: another thread, since the last
// CTA barrier, and not in this warp before its last bar.warp.sync.
bool ThreadContext::unordered(std::uint32_t other, std::uint32_t epoch, std::uint32_t warp_epoch) const {
  const auto warp = static_cast<std::size_t>(thread_ / 32);
  return other != 0 && other != static_cast<std::uint32_t>(thread_) + 1 && epoch == cta_.epoch &&
         !(other != kManyReaders && (other - 1) / 32 == warp && warp_epoch != cta_.warp_epoch[warp]);
}

bool ThreadContext::write_ordered(std::uint64_t b) const {
  if (!cta_.clocks) return false;
  const std::uint32_t w = cta_.writer[b];
  return w != 0 && t_.clock.at(static_cast<int>(w) - 1) >= cta_.write_stamp[b];
}

bool ThreadContext::reads_ordered(std::uint64_t b) const {
  if (!cta_.clocks) return false;
  const std::uint32_t me = static_cast<std::uint32_t>(thread_) + 1;
  for (const ReadStamp& r : cta_.read_stamps[b]) {
    if (r.thread == kManyReaders) return false;  // more readers than kept
    if (r.thread != 0 && r.thread != me && t_.clock.at(static_cast<int>(r.thread) - 1) < r.stamp) return false;
  }
  return true;
}

std::string ThreadContext::readers_text(std::uint64_t b, std::uint32_t reader) const {
  if (reader != kManyReaders) return "thread " + std::to_string(reader - 1) + " reads";
  if (cta_.clocks)  // the first reader the clocks do not order, where one is kept
    for (const ReadStamp& s : cta_.read_stamps[b])
      if (s.thread != 0 && s.thread != kManyReaders && s.thread != static_cast<std::uint32_t>(thread_) + 1 &&
          t_.clock.at(static_cast<int>(s.thread) - 1) < s.stamp)
        return "thread " + std::to_string(s.thread - 1) + " (among others) reads";
  return "other threads read";
}

void ThreadContext::stamp_read(std::uint64_t b, bool fresh) {
  std::array<ReadStamp, kStampedReaders>& reads = cta_.read_stamps[b];
  if (fresh) reads = {};
  const std::uint32_t me = static_cast<std::uint32_t>(thread_) + 1;
  for (ReadStamp& r : reads) {
    if (r.thread == kManyReaders) return;
    if (r.thread == me || r.thread == 0) {
      r = {me, t_.clock.at(thread_)};
      return;
    }
  }
  reads[0].thread = kManyReaders;  // more readers than kept: only the epochs order them
}

void ThreadContext::not_pending(const Instruction& inst, std::uint64_t b, const char* access) const {
  if (cta_.pending[b] != 0)
    fault(inst, std::string(access) + " shared byte " + std::to_string(b) + ", which the cp.async at line " +
                    std::to_string(m_.kernel.code[static_cast<std::size_t>(cta_.pending_inst[b])].loc.line) +
                    " is still writing (no cp.async.wait_group has completed it)");
}

void ThreadContext::shared_read(const Instruction& inst, std::uint64_t offset, int bytes) {
  for (std::uint64_t b = offset; b < offset + static_cast<std::uint64_t>(bytes); ++b) {
    not_pending(inst, b, "reads");
    if (!cta_.tma_pending.empty()) tma_read_ready(inst, b);
    if (unordered(cta_.writer[b], cta_.write_epoch[b], cta_.write_warp_epoch[b]) && !write_ordered(b))
      race(inst, "reads shared byte " + std::to_string(b) + ", written by thread " +
                     std::to_string(cta_.writer[b] - 1) + " with no barrier between the write and this read");
    note_read(b);
  }
}

void ThreadContext::note_read(std::uint64_t b) {
  const std::uint32_t me = static_cast<std::uint32_t>(thread_) + 1;
  const bool fresh = cta_.reader[b] == 0 || cta_.read_epoch[b] != cta_.epoch;
  if (cta_.clocks) stamp_read(b, fresh);
  if (fresh) {
    cta_.reader[b] = me;
  } else if (cta_.reader[b] != me) {
    cta_.reader[b] = kManyReaders;
  }
  cta_.read_epoch[b] = cta_.epoch;
  cta_.read_warp_epoch[b] = cta_.warp_epoch[static_cast<std::size_t>(thread_ / 32)];
}

void ThreadContext::shared_write(const Instruction& inst, std::uint64_t offset, int bytes, const Value* value) {
  const std::uint32_t me = static_cast<std::uint32_t>(thread_) + 1;
  const auto warp = static_cast<std::size_t>(thread_ / 32);
  for (std::uint64_t b = offset; b < offset + static_cast<std::uint64_t>(bytes); ++b) {
    not_pending(inst, b, "writes");
    if (!cta_.tma_pending.empty()) {
      tma_not_pending(inst, b, "writes");
      cta_.tma_mbarrier[b] = 0;
    }
    if (!cta_.tmem.read_mbarrier.empty() && cta_.tmem.read_mbarrier[b] != 0) tcgen05_shared_write(*this, inst, b);
    if (!cta_.wgmma_reading.empty() && cta_.wgmma_reading[b] != 0)
      fault(inst, "writes shared byte " + std::to_string(b) + ", which the wgmma.mma_async at line " +
                      std::to_string(m_.kernel.code[static_cast<std::size_t>(cta_.wgmma_reading_inst[b])].loc.line) +
                      " reads while in flight (no wgmma.wait_group has completed it)");
    // Threads storing one constant to a byte (Triton's partition flags, every
    // thread of a warpgroup): whichever lands last, the byte holds it.
    const auto i = static_cast<std::size_t>(b - offset);
    const bool same_constant = value != nullptr && value->tags[i] == 0 && cta_.shared_tags[b] == 0 &&
                               cta_.shared[b] == static_cast<std::uint8_t>(value->bits >> (8 * i));
    if (unordered(cta_.writer[b], cta_.write_epoch[b], cta_.write_warp_epoch[b]) && !write_ordered(b) && !same_constant)
      race(inst, "writes shared byte " + std::to_string(b) + ", which thread " + std::to_string(cta_.writer[b] - 1) +
                     " also writes with no barrier between");
    const std::uint32_t r = cta_.reader[b];
    if (unordered(r, cta_.read_epoch[b], cta_.read_warp_epoch[b]) && !reads_ordered(b))
      race(inst, "overwrites shared byte " + std::to_string(b) + ", which " + readers_text(b, r) +
                     " with no barrier between the read and this write");
    cta_.writer[b] = me;
    if (cta_.clocks) {
      cta_.write_stamp[b] = t_.clock.at(thread_);
      cta_.read_stamps[b] = {};
    }
    if (!cta_.write_proxy_fences.empty()) cta_.write_proxy_fences[b] = t_.proxy_fences;
    cta_.write_epoch[b] = cta_.epoch;
    cta_.write_warp_epoch[b] = cta_.warp_epoch[warp];
    cta_.reader[b] = 0;
  }
}

Space ThreadContext::resolve(Space space, std::uint64_t& address) const {
  if (space != Space::generic) return space;
  if (address >= kSharedWindow && address - kSharedWindow <= cta_.shared.size()) {
    address -= kSharedWindow;
    return Space::shared;
  }
  if (address >= kLocalWindow && address - kLocalWindow < kLocalWindowBytes) {
    address -= kLocalWindow;
    return Space::local;
  }
  if (address >= kParamWindow && address - kParamWindow < kParamSlot * m_.kernel.params.size()) {
    address -= kParamWindow;
    return Space::param;
  }
  if (address >= kConstWindow && address - kConstWindow < m_.kernel.constant.size()) {
    address -= kConstWindow;
    return Space::constant;
  }
  return Space::global;
}

std::size_t ThreadContext::local_at(const Instruction& inst, std::uint64_t offset, int bytes) const {
  if (offset > t_.local.size() || t_.local.size() - offset < static_cast<std::uint64_t>(bytes))
    fault(inst, "accesses " + std::to_string(bytes) + " bytes of local memory at offset " +
                    std::to_string(static_cast<std::int64_t>(offset)) + ", outside the thread's " +
                    std::to_string(t_.local.size()) + " bytes (.local)");
  return static_cast<std::size_t>(offset);
}

Value ThreadContext::async_shared_load(const Instruction& inst, std::uint64_t offset, int bytes) {
  const std::uint8_t* p = shared_at(inst, offset, bytes);
  Value v;
  for (std::uint64_t b = offset; b < offset + static_cast<std::uint64_t>(bytes); ++b) {
    not_pending(inst, b, "reads");
    if (!cta_.tma_pending.empty()) tma_read_ready(inst, b);
    if (unordered(cta_.writer[b], cta_.write_epoch[b], cta_.write_warp_epoch[b]))
      race(inst, "reads shared byte " + std::to_string(b) + ", written by thread " +
                     std::to_string(cta_.writer[b] - 1) + " with no barrier between the write and this read");
  }
  for (int i = 0; i < bytes; ++i) {
    v.bits |= std::uint64_t{p[i]} << (8 * i);
    v.tags[static_cast<std::size_t>(i)] = cta_.shared_tags[offset + static_cast<std::uint64_t>(i)];
  }
  return v;
}

Value ThreadContext::load(const Instruction& inst, Space space, std::uint64_t address, int bytes) {
  space = resolve(space, address);
  Value v;
  if (space == Space::shared) {
    const std::uint8_t* p = shared_at(inst, address, bytes);
    shared_read(inst, address, bytes);
    for (int i = 0; i < bytes; ++i) {
      v.bits |= std::uint64_t{p[i]} << (8 * i);
      v.tags[static_cast<std::size_t>(i)] = cta_.shared_tags[address + static_cast<std::uint64_t>(i)];
    }
    return v;
  }
  if (space == Space::local) {
    const std::size_t at = local_at(inst, address, bytes);
    for (int i = 0; i < bytes; ++i) {
      v.bits |= std::uint64_t{t_.local[at + static_cast<std::size_t>(i)]} << (8 * i);
      v.tags[static_cast<std::size_t>(i)] = t_.local_tags[at + static_cast<std::size_t>(i)];
    }
    return v;
  }
  if (space == Space::constant) {  // the module's initialised bytes: constants, no provenance
    const std::vector<std::uint8_t>& bank = m_.kernel.constant;
    if (address > bank.size() || bank.size() - address < static_cast<std::uint64_t>(bytes))
      fault(inst, "reads " + std::to_string(bytes) + " bytes of .const memory at offset " +
                      std::to_string(static_cast<std::int64_t>(address)) + ", outside the module's " +
                      std::to_string(bank.size()) + " bytes of .const arrays");
    for (int i = 0; i < bytes; ++i) v.bits |= std::uint64_t{bank[address + static_cast<std::uint64_t>(i)]} << (8 * i);
    return v;
  }
  if (space != Space::global)
    fault(inst, "loads from ." + std::string(space_name(space)) + " space, which is not modelled");
  std::array<std::uint8_t, 8> raw{};
  read_global(inst, address, bytes, raw.data(), v.tags.data());
  for (int i = 0; i < bytes; ++i) v.bits |= std::uint64_t{raw[static_cast<std::size_t>(i)]} << (8 * i);
  return v;
}

void ThreadContext::read_global(const Instruction& inst, std::uint64_t address, int bytes, std::uint8_t* out,
                                Tag* tags) {
  const GlobalMemory::Region* r = m_.global.find(address, bytes);
  if (r == nullptr)
    fault(inst,
          "reads " + std::to_string(bytes) + " bytes at 0x" + hex(address) + ", outside every tensor of the launch");
  const std::uint64_t off = address - r->base;
  CtaGlobal& g = cta_.global;
  for (int i = 0; i < bytes; ++i) {
    const std::uint64_t b = off + static_cast<std::uint64_t>(i);
    if (!g.written.empty()) {
      if (const auto it = g.written.find(r->base + b); it != g.written.end()) {
        const GlobalWrite& w = g.writes[it->second];
        if (w.thread != static_cast<std::uint32_t>(thread_) && w.epoch == cta_.epoch)
          race(inst, "reads " + byte_range_name(*r, r->base + b) + ", which thread " + std::to_string(w.thread) +
                         " wrote at line " + std::to_string(m_.kernel.code[static_cast<std::size_t>(w.inst)].loc.line) +
                         " with no barrier between the write and this read");
        out[i] = w.value;
        tags[i] = w.tag;
        continue;
      }
    }
    out[i] = r->bytes[b];
    tags[i] = r->tags[b];
  }
  // The grid's merge looks for other CTAs' writes only in regions a CTA
  // writes: a read of any other is left out of the log, and said so (a
  // region written after all makes run_grid run the grid again, logging all).
  std::atomic<std::uint8_t>& flags = m_.regions[static_cast<std::size_t>(r - m_.global.regions().data())];
  if (!m_.log_all_reads && (flags.load(std::memory_order_relaxed) & kWritten) == 0) {
    flags.fetch_or(kReadUnlogged, std::memory_order_relaxed);
    return;
  }
  g.reads.push_back({address, m_.steps, t_.pc, static_cast<std::uint32_t>(thread_), static_cast<std::uint32_t>(bytes)});
}

void ThreadContext::store(const Instruction& inst, Space space, std::uint64_t address, int bytes, const Value& v) {
  space = resolve(space, address);
  if (space == Space::shared) {
    std::uint8_t* p = shared_at(inst, address, bytes);
    shared_write(inst, address, bytes, &v);
    for (int i = 0; i < bytes; ++i) {
      p[i] = static_cast<std::uint8_t>(v.bits >> (8 * i));
      cta_.shared_tags[address + static_cast<std::uint64_t>(i)] = v.tags[static_cast<std::size_t>(i)];
    }
    return;
  }
  if (space == Space::local) {
    const std::size_t at = local_at(inst, address, bytes);
    for (int i = 0; i < bytes; ++i) {
      t_.local[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v.bits >> (8 * i));
      t_.local_tags[at + static_cast<std::size_t>(i)] = v.tags[static_cast<std::size_t>(i)];
    }
    return;
  }
  if (space != Space::global)
    fault(inst, "stores to ." + std::string(space_name(space)) + " space, which is not modelled");
  const GlobalMemory::Region* r = m_.global.find(address, bytes);
  if (r == nullptr)
    fault(inst,
          "writes " + std::to_string(bytes) + " bytes at 0x" + hex(address) + ", outside every tensor of the launch");
  CtaGlobal& g = cta_.global;
  const auto me = static_cast<std::uint32_t>(thread_);
  m_.regions[static_cast<std::size_t>(r - m_.global.regions().data())].fetch_or(kWritten, std::memory_order_relaxed);
  for (int i = 0; i < bytes; ++i) {
    const std::uint64_t b = address + static_cast<std::uint64_t>(i);
    const auto [it, fresh] = g.written.try_emplace(b, static_cast<std::uint32_t>(g.writes.size()));
    if (fresh) {
      g.writes.push_back({b, 0, m_.steps, 0, me, 0, 0});
    } else if (g.writes[it->second].thread != me) {
      const GlobalWrite& w = g.writes[it->second];
      fault(inst, "writes " + byte_range_name(*r, b) + ", which thread " + std::to_string(w.thread) + " of CTA " +
                      std::to_string(cta_.linear) + " (linear) also writes at line " +
                      std::to_string(m_.kernel.code[static_cast<std::size_t>(w.inst)].loc.line));
    }
    GlobalWrite& w = g.writes[it->second];
    w.tag = v.tags[static_cast<std::size_t>(i)];
    w.inst = t_.pc;
    w.epoch = cta_.epoch;
    w.value = static_cast<std::uint8_t>(v.bits >> (8 * i));
  }
}

void ThreadContext::cp_async(const Instruction& inst, std::uint64_t dst, std::uint64_t src, int bytes, int src_bytes) {
  shared_at(inst, dst, bytes);
  PendingCopy c{dst, std::vector<std::uint8_t>(static_cast<std::size_t>(bytes), 0),
                std::vector<Tag>(static_cast<std::size_t>(bytes), 0), t_.pc};
  if (src_bytes > 0) {
    if (m_.global.find(src, src_bytes) == nullptr)
      fault(inst, "copies " + std::to_string(src_bytes) + " bytes from 0x" + hex(src) +
                      ", outside every tensor of the launch");
    read_global(inst, src, src_bytes, c.bytes.data(), c.tags.data());
  }
  for (int i = 0; i < bytes; ++i) {
    const std::uint64_t b = dst + static_cast<std::uint64_t>(i);
    not_pending(inst, b, "copies into");
    ++cta_.pending[b];
    cta_.pending_inst[b] = t_.pc;
  }
  t_.open_group.push_back(std::move(c));
}

void ThreadContext::cp_async_commit() {
  t_.groups.push_back(std::move(t_.open_group));
  t_.open_group.clear();
}

void ThreadContext::cp_async_wait(const Instruction& inst, std::int64_t newest_pending) {
  if (newest_pending < 0) {  // wait_all: commits what is open, then waits for everything
    cp_async_commit();
    newest_pending = 0;
  }
  while (static_cast<std::int64_t>(t_.groups.size()) > newest_pending) {
    for (const PendingCopy& c : t_.groups.front()) {
      const int n = static_cast<int>(c.bytes.size());
      for (int i = 0; i < n; ++i) --cta_.pending[c.dst + static_cast<std::uint64_t>(i)];
      const int saved = t_.pc;
      t_.pc = c.inst;
      shared_write(inst, c.dst, n);
      t_.pc = saved;
      for (int i = 0; i < n; ++i) {
        cta_.shared[c.dst + static_cast<std::uint64_t>(i)] = c.bytes[static_cast<std::size_t>(i)];
        cta_.shared_tags[c.dst + static_cast<std::uint64_t>(i)] = c.tags[static_cast<std::size_t>(i)];
      }
    }
    t_.groups.erase(t_.groups.begin());
  }
}

// ---- wgmma in flight ---------------------------------------------------------

const PendingWgmma* WarpgroupState::writer_of(int reg, std::size_t* index) const {
  const auto find = [&](const std::vector<PendingWgmma>& list) -> const PendingWgmma* {
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
      const auto at = std::find(it->regs.begin(), it->regs.end(), reg);
      if (at == it->regs.end()) continue;
      *index = static_cast<std::size_t>(at - it->regs.begin());
      return &*it;
    }
    return nullptr;
  };
  if (const PendingWgmma* p = find(open)) return p;
  for (auto g = groups.rbegin(); g != groups.rend(); ++g)
    if (const PendingWgmma* p = find(*g)) return p;
  return nullptr;
}

void ThreadContext::tmem_loaded_access(int index, const char* access) const {
  const int by = t_.tmem_loaded[static_cast<std::size_t>(index)] - 1;
  const Instruction& inst = m_.kernel.code[static_cast<std::size_t>(t_.pc)];
  if (std::string_view(access) == "reads" && inst.opcode.starts_with("mov")) {
    moved_loaded_ = by + 1;
    return;
  }
  fault(inst, std::string(access) + " register " + m_.kernel.reg_names[static_cast<std::size_t>(index)] +
                  ", which the tcgen05.ld at line " +
                  std::to_string(m_.kernel.code[static_cast<std::size_t>(by)].loc.line) +
                  " loads, before the thread's tcgen05.wait::ld (PTX ISA: the registers of a tcgen05.ld may be "
                  "accessed only after tcgen05.wait::ld)");
}

void ThreadContext::in_flight_fault(int index, const char* access) const {
  std::size_t at = 0;
  const WarpgroupState& wg = cta_.warpgroups[static_cast<std::size_t>(thread_ / 128)];
  const PendingWgmma* p = wg.writer_of(index, &at);
  const char* what = "an accumulator";
  if (p == nullptr) {  // an A register
    const auto reads = [&](const PendingWgmma& q) {
      if (p == nullptr && std::find(q.a_regs.begin(), q.a_regs.end(), index) != q.a_regs.end()) p = &q;
    };
    for (const PendingWgmma& q : wg.open) reads(q);
    for (const auto& g : wg.groups)
      for (const PendingWgmma& q : g) reads(q);
    what = "an A register";
  }
  const Instruction& inst = m_.kernel.code[static_cast<std::size_t>(t_.pc)];
  fault(inst, std::string(access) + " register " + m_.kernel.reg_names[static_cast<std::size_t>(index)] + ", " + what +
                  " of the wgmma.mma_async at line " +
                  (p ? std::to_string(m_.kernel.code[static_cast<std::size_t>(p->inst)].loc.line) : std::string("?")) +
                  " still in flight (no wgmma.wait_group has completed it)");
}

void ThreadContext::require_proxy_fenced(const Instruction& inst, std::uint64_t offset, int bytes) const {
  for (std::uint64_t b = offset; b < offset + static_cast<std::uint64_t>(bytes); ++b) {
    const std::uint32_t w = cta_.writer[b];
    if (w == 0 || cta_.threads[w - 1].proxy_fences != cta_.write_proxy_fences[b]) continue;
    fault(inst, "reads shared byte " + std::to_string(b) + ", which thread " + std::to_string(w - 1) +
                    " wrote with no fence.proxy.async after the write (wgmma reads shared memory through the async "
                    "proxy, which sees a generic-proxy write only after the writer's fence.proxy.async)");
  }
}

void ThreadContext::wgmma_reads(std::uint64_t offset, int bytes) {
  for (std::uint64_t b = offset; b < offset + static_cast<std::uint64_t>(bytes); ++b) {
    ++cta_.wgmma_reading[b];
    cta_.wgmma_reading_inst[b] = t_.pc;
  }
}

Value ThreadContext::wgmma_reg(int index) const {
  std::size_t at = 0;
  if (!t_.in_flight.empty() && t_.in_flight[static_cast<std::size_t>(index)] != 0)
    if (const PendingWgmma* p = cta_.warpgroups[static_cast<std::size_t>(thread_ / 128)].writer_of(index, &at))
      return p->d[static_cast<std::size_t>(thread_ % 128)][at];
  return t_.regs[static_cast<std::size_t>(index)];
}

void ThreadContext::wgmma_fence() { std::fill(t_.unfenced.begin(), t_.unfenced.end(), std::uint8_t{0}); }

void ThreadContext::wgmma_wait(std::int64_t newest_pending) {
  WarpgroupState& wg = warpgroup();
  const int first = thread_ / 128 * 128;
  while (static_cast<std::int64_t>(wg.groups.size()) > newest_pending) {
    for (const PendingWgmma& p : wg.groups.front()) {
      // Its reads of shared memory last until it completes: stamped again
      // now, so a release of the bytes before this wait orders nothing.
      for (const std::uint32_t b : p.shared) {
        --cta_.wgmma_reading[b];
        if (cta_.clocks) note_read(b);
      }
      for (std::size_t t = 0; t < p.d.size(); ++t) {
        ThreadState& ts = cta_.threads[static_cast<std::size_t>(first) + t];
        for (std::size_t r = 0; r < p.regs.size(); ++r) {
          const auto reg = static_cast<std::size_t>(p.regs[r]);
          ts.regs[reg] = p.d[t][r];
          ts.writer[reg] = p.inst;
          --ts.in_flight[reg];
        }
        for (const int r : p.a_regs) --ts.in_flight[static_cast<std::size_t>(r)];
      }
    }
    wg.groups.erase(wg.groups.begin());
  }
}

void ThreadContext::require_no_wgmma_in_flight(const Instruction& inst) {
  if (cta_.warpgroups.empty()) return;
  const WarpgroupState& wg = warpgroup();
  if (wg.empty()) return;
  const PendingWgmma& p = wg.groups.empty() ? wg.open.front() : wg.groups.front().front();
  fault(inst, "the thread ends with the wgmma.mma_async at line " +
                  std::to_string(m_.kernel.code[static_cast<std::size_t>(p.inst)].loc.line) + " in flight (" +
                  (wg.groups.empty() ? std::string("never committed: no wgmma.commit_group and wgmma.wait_group")
                                     : std::string("no wgmma.wait_group has completed it")) +
                  ")");
}

// ---- the scheduler ---------------------------------------------------------

namespace {

using Status = ThreadState::Status;

class CtaRun {
  // A named barrier (PTX's 16 per CTA) between its completions.
  struct Barrier {
    int expected = 0;  // threads; 0: the whole CTA
    int arrived = 0;
    bool arrive_only = false;  // some thread arrived without waiting
    int line = 0;              // the last arrival's line
    std::vector<int> waiting;
    SyncClock clock;                  // the arrivals' (core/ptx/sync_clock.h)
    std::vector<std::uint32_t> seen;  // the mbarrier phases the arrivals knew
  };

 public:
  CtaRun(Machine& m, CtaState& cta) : m_(m), cta_(cta), code_(m.kernel.code), has_wgmma_(!cta.warpgroups.empty()) {}

  void run() {
    const int n = m_.threads_per_cta;
    const int warps = (n + 31) / 32;
    for (;;) {
      bool progress = false;
      for (int w = 0; w < warps; ++w) {
        const int first = w * 32;
        const int lanes = std::min(32, n - first);
        for (int l = 0; l < lanes; ++l) progress = run_thread(first + l) || progress;
        progress = warp_collective(first, lanes) || progress;
      }
      for (int first = 0; first < n && has_wgmma_; first += 128) progress = warpgroup_collective(first) || progress;
      progress = barrier() || progress;
      released_ = false;
      bool all_exited = true;
      for (const ThreadState& t : cta_.threads) all_exited = all_exited && t.status == Status::exited;
      if (all_exited) {
        if (cta_.tmem.used) {
          ThreadContext t(m_, cta_, 0);
          tcgen05_at_exit(t);
        }
        return;
      }
      if (!progress && !land_tma(m_, cta_)) deadlock();
    }
  }

 private:
  bool run_thread(int thread) {
    ThreadState& t = cta_.threads[static_cast<std::size_t>(thread)];
    bool stepped = false;
    while (t.status == Status::running) {
      if (t.pc < 0 || static_cast<std::size_t>(t.pc) >= code_.size()) {
        if (has_wgmma_ && !code_.empty()) ThreadContext(m_, cta_, thread).require_no_wgmma_in_flight(code_.back());
        t.status = Status::exited;
        break;
      }
      const Instruction& inst = code_[static_cast<std::size_t>(t.pc)];
      if (++m_.steps > m_.options.max_steps) too_many_steps(inst);
      // The grid's count and a stop, a batch of steps at a time.
      if ((m_.steps & (kStepBatch - 1)) == 0) {
        if (m_.grid_steps.fetch_add(kStepBatch) + kStepBatch > m_.options.max_steps) too_many_steps(inst);
        if (m_.stop.load(std::memory_order_relaxed) < cta_.linear) throw CtaStopped{};
      }
      stepped = true;
      if (inst.guard >= 0) {
        const Value p = t.regs[static_cast<std::size_t>(inst.guard)];
        ThreadContext ctx(m_, cta_, thread);
        ctx.require_plain(inst, p, 1, "the guard predicate");
        if (((p.bits & 1) != 0) == inst.guard_negated) {
          ++t.pc;
          continue;
        }
      }
      if (inst.collective == Collective::warp || inst.collective == Collective::warpgroup) {
        t.status = Status::at_collective;
        break;
      }
      if (inst.collective == Collective::cta) {
        t.status = Status::at_barrier;  // until the barrier completes (at once for its last arrival)
        if (arrive(thread, inst)) {     // bar.arrive: on without waiting
          t.status = Status::running;
          ++t.pc;
        }
        continue;
      }
      ThreadContext ctx(m_, cta_, thread);
      ctx.next_pc = t.pc + 1;
      inst.thread(inst, ctx);
      if (ctx.blocked) {  // mbarrier.try_wait: again when a phase completes
        t.status = Status::at_mbarrier;
        break;
      }
      if (ctx.exited) {
        if (has_wgmma_) ctx.require_no_wgmma_in_flight(inst);
        t.status = Status::exited;
      } else {
        t.pc = ctx.next_pc;
      }
    }
    return stepped;
  }

  static constexpr std::uint64_t kStepBatch = 4096;
  [[noreturn]] void too_many_steps(const Instruction& inst) const {
    throw Error(inst.loc, "the run executed more than " + std::to_string(m_.options.max_steps) +
                              " thread-instructions (--max-steps): a loop that does not end, or a launch too large");
  }

  bool warp_collective(int first, int lanes) {
    int waiting = -1;
    for (int l = 0; l < lanes; ++l) {
      const ThreadState& t = cta_.threads[static_cast<std::size_t>(first + l)];
      if (t.status == Status::at_collective && code_[static_cast<std::size_t>(t.pc)].collective == Collective::warp)
        waiting = first + l;
    }
    if (waiting < 0) return false;
    const int pc = cta_.threads[static_cast<std::size_t>(waiting)].pc;
    const Instruction& inst = code_[static_cast<std::size_t>(pc)];
    for (int l = 0; l < lanes; ++l) {
      const ThreadState& t = cta_.threads[static_cast<std::size_t>(first + l)];
      if (t.status == Status::running || t.status == Status::at_mbarrier)
        return false;  // not yet: it has to arrive first
      if (t.status == Status::exited)
        ThreadContext(m_, cta_, waiting)
            .fault(inst, "'" + inst.opcode + "' is executed by a warp whose thread " + std::to_string(first + l) +
                             " has exited (the instruction needs every lane)");
      if (t.status == Status::at_barrier)
        ThreadContext(m_, cta_, waiting)
            .fault(inst, "lanes of warp " + std::to_string(first / 32) + " diverge: thread " + std::to_string(waiting) +
                             " waits at '" + inst.opcode + "', thread " + std::to_string(first + l) +
                             " at the barrier at line " +
                             std::to_string(code_[static_cast<std::size_t>(t.pc)].loc.line));
      if (t.pc != pc)
        ThreadContext(m_, cta_, waiting)
            .fault(inst, "lanes of warp " + std::to_string(first / 32) + " diverge at an aligned instruction: thread " +
                             std::to_string(waiting) + " waits here, thread " + std::to_string(first + l) +
                             " at line " + std::to_string(code_[static_cast<std::size_t>(t.pc)].loc.line));
    }
    if (lanes < 32)
      ThreadContext(m_, cta_, waiting)
          .fault(inst, "'" + inst.opcode + "' in a warp of " + std::to_string(lanes) +
                           " threads (the block is not whole warps)");
    for (int l = 0; l < lanes; ++l) cta_.threads[static_cast<std::size_t>(first + l)].pc = pc;
    WarpContext w(m_, cta_, first, lanes);
    inst.warp(inst, w);
    for (int l = 0; l < lanes; ++l) {
      ThreadState& t = cta_.threads[static_cast<std::size_t>(first + l)];
      t.pc = pc + 1;
      t.status = Status::running;
    }
    return true;
  }

  // A warpgroup's collective (wgmma): when its 128 threads wait at one
  // instruction.  A thread of it still at a warp's collective comes first;
  // threads at another instruction, at a barrier or exited are refutations.
  bool warpgroup_collective(int first) {
    const int n = std::min(128, m_.threads_per_cta - first);
    int waiting = -1;
    for (int l = 0; l < n && waiting < 0; ++l) {
      const ThreadState& t = cta_.threads[static_cast<std::size_t>(first + l)];
      if (t.status == Status::at_collective &&
          code_[static_cast<std::size_t>(t.pc)].collective == Collective::warpgroup)
        waiting = first + l;
    }
    if (waiting < 0) return false;
    const int pc = cta_.threads[static_cast<std::size_t>(waiting)].pc;
    const Instruction& inst = code_[static_cast<std::size_t>(pc)];
    const auto fault = [&](const std::string& message) { ThreadContext(m_, cta_, waiting).fault(inst, message); };
    for (int l = 0; l < n; ++l) {
      const ThreadState& t = cta_.threads[static_cast<std::size_t>(first + l)];
      if (t.status == Status::running || t.status == Status::at_mbarrier) return false;
      if (t.status == Status::at_collective && t.pc != pc &&
          code_[static_cast<std::size_t>(t.pc)].collective == Collective::warp)
        return false;  // its warp's collective runs first
      if (t.status == Status::exited)
        fault("'" + inst.opcode + "' is executed by a warpgroup whose thread " + std::to_string(first + l) +
              " has exited (the instruction needs all 128 threads of the warpgroup)");
      if (t.status == Status::at_barrier)
        fault("threads of warpgroup " + std::to_string(first / 128) + " diverge: thread " + std::to_string(waiting) +
              " waits at '" + inst.opcode + "', thread " + std::to_string(first + l) + " at the barrier at line " +
              std::to_string(code_[static_cast<std::size_t>(t.pc)].loc.line));
      if (t.pc != pc)
        fault("threads of warpgroup " + std::to_string(first / 128) + " diverge at an aligned instruction: thread " +
              std::to_string(waiting) + " waits here, thread " + std::to_string(first + l) + " at line " +
              std::to_string(code_[static_cast<std::size_t>(t.pc)].loc.line));
    }
    if (n < 128)
      fault("'" + inst.opcode + "' in a warpgroup of " + std::to_string(n) +
            " threads (a warpgroup is 4 whole warps: the block is not whole warpgroups)");
    WarpContext w(m_, cta_, first, 128);
    inst.warp(inst, w);
    for (int l = 0; l < n; ++l) {
      ThreadState& t = cta_.threads[static_cast<std::size_t>(first + l)];
      t.pc = pc + 1;
      t.status = Status::running;
    }
    return true;
  }

  // A thread reaches bar.sync / barrier.sync (it waits: false) or
  // bar.arrive / barrier.arrive (it goes on: true) of barrier `a`, with `b`
  // threads expected (none: every thread of the CTA).  A barrier of a count
  // completes at its count's arrival.
  bool arrive(int thread, const Instruction& inst) {
    ThreadContext ctx(m_, cta_, thread);
    const Value a = ctx.get(inst.ops[0], 32);
    ctx.require_plain(inst, a, 4, "the barrier's number");
    if (a.bits > 15) ctx.fault(inst, "barrier " + std::to_string(a.bits) + " (barriers are numbered 0..15)");
    int expected = 0;
    if (inst.ops.size() > 1) {
      const Value b = ctx.get(inst.ops[1], 32);
      ctx.require_plain(inst, b, 4, "the barrier's thread count");
      if (b.bits == 0 || b.bits % 32 != 0 || b.bits > static_cast<std::uint64_t>(m_.threads_per_cta))
        ctx.fault(inst, "a thread count of " + std::to_string(b.bits) + " at barrier " + std::to_string(a.bits) +
                            " (a multiple of 32, at most the CTA's " + std::to_string(m_.threads_per_cta) +
                            " threads)");
      expected = static_cast<int>(b.bits);
    }
    Barrier& bar = bars_[static_cast<std::size_t>(a.bits)];
    if (bar.arrived > 0 && bar.expected != expected)
      ctx.fault(inst, "arrives at barrier " + std::to_string(a.bits) + " expecting " +
                          (expected == 0 ? std::string("the whole CTA") : std::to_string(expected) + " threads") +
                          ", where the threads before expect " +
                          (bar.expected == 0 ? std::string("the whole CTA") : std::to_string(bar.expected)));
    const bool goes_on = inst.count != 0;
    bar.expected = expected;
    ++bar.arrived;
    bar.arrive_only = bar.arrive_only || goes_on;
    bar.line = inst.loc.line;
    if (cta_.clocks) {  // an arrival releases what the thread did before it
      ctx.release(bar.clock);
      const std::vector<std::uint32_t>& seen = cta_.threads[static_cast<std::size_t>(thread)].mbarrier_seen;
      if (bar.seen.size() < seen.size()) bar.seen.resize(seen.size(), 0);
      for (std::size_t i = 0; i < seen.size(); ++i) bar.seen[i] = std::max(bar.seen[i], seen[i]);
    }
    if (!goes_on) bar.waiting.push_back(thread);
    if (expected != 0 && bar.arrived == expected) complete(bar);
    return goes_on;
  }

  // The barriers of the whole CTA (no count: every live thread, exited
  // threads count as arrived) complete when every live thread has arrived.
  bool barrier() {
    int live = 0;
    for (const ThreadState& t : cta_.threads) live += t.status == Status::exited ? 0 : 1;
    bool progress = false;
    for (Barrier& bar : bars_)
      if (bar.arrived > 0 && bar.expected == 0 && bar.arrived >= live) {
        complete(bar);
        progress = true;
      }
    return progress || released_;
  }

  // Releases the barrier's waiting threads.  When every live thread of the
  // CTA waited there, a new epoch orders every access before it before every
  // access after; a barrier of part of the CTA (or one some threads only
  // arrived at) orders what the epochs cannot say, so races after it are
  // unfollowed (ThreadContext::race).
  void complete(Barrier& bar) {
    int live = 0;
    for (const ThreadState& t : cta_.threads) live += t.status == Status::exited ? 0 : 1;
    if (!bar.arrive_only && static_cast<int>(bar.waiting.size()) == live) {
      ++cta_.epoch;
      cta_.partial_barrier_line = 0;
      share_mbarrier_phases();
    } else if (!cta_.clocks) {
      cta_.partial_barrier_line = bar.line;
    }
    // The clocks follow a barrier of part of the CTA: each waiter acquires
    // what the arrivals did, and knows the mbarrier phases they knew.
    for (const int w : bar.waiting) {
      ThreadState& t = cta_.threads[static_cast<std::size_t>(w)];
      ++t.pc;
      t.status = Status::running;
      if (!cta_.clocks) continue;
      t.clock.join(bar.clock);
      if (t.mbarrier_seen.size() < bar.seen.size()) t.mbarrier_seen.resize(bar.seen.size(), 0);
      for (std::size_t i = 0; i < bar.seen.size(); ++i) t.mbarrier_seen[i] = std::max(t.mbarrier_seen[i], bar.seen[i]);
    }
    bar = Barrier{};
    released_ = true;
  }

  // A barrier every live thread waited at: what each knew of the mbarriers'
  // phases before it, every thread knows after it.
  void share_mbarrier_phases() {
    std::vector<std::uint32_t> seen;
    for (const ThreadState& t : cta_.threads) {
      if (seen.size() < t.mbarrier_seen.size()) seen.resize(t.mbarrier_seen.size(), 0);
      for (std::size_t i = 0; i < t.mbarrier_seen.size(); ++i) seen[i] = std::max(seen[i], t.mbarrier_seen[i]);
    }
    if (seen.empty()) return;
    for (ThreadState& t : cta_.threads) t.mbarrier_seen = seen;
  }

  [[noreturn]] void deadlock() {
    // A collective some threads of its warp or warpgroup wait at while the
    // others wait elsewhere forever (setmaxnreg in some warps of a warpgroup):
    // the collective is the finding.
    for (std::size_t i = 0; i < cta_.threads.size(); ++i) {
      const ThreadState& t = cta_.threads[i];
      if (t.status != Status::at_collective) continue;
      const Instruction& inst = code_[static_cast<std::size_t>(t.pc)];
      const int group = inst.collective == Collective::warpgroup ? 128 : 32;
      const std::size_t first = i / static_cast<std::size_t>(group) * static_cast<std::size_t>(group);
      for (std::size_t j = first; j < first + static_cast<std::size_t>(group) && j < cta_.threads.size(); ++j) {
        const ThreadState& u = cta_.threads[j];
        if (u.status == Status::at_collective && u.pc == t.pc) continue;
        ThreadContext(m_, cta_, static_cast<int>(i))
            .fault(
                inst,
                "deadlock: thread " + std::to_string(i) + " waits at '" + inst.opcode + "' for its " +
                    (group == 128 ? "warpgroup" : "warp") + ", whose thread " + std::to_string(j) +
                    (u.status == Status::exited
                         ? std::string(" has exited")
                         : " waits forever at line " + std::to_string(code_[static_cast<std::size_t>(u.pc)].loc.line)) +
                    " (the instruction needs every thread of the " + (group == 128 ? "warpgroup" : "warp") + ")");
      }
    }
    // A barrier with a thread count that fewer threads reach: its first waiter.
    for (std::size_t b = 0; b < bars_.size(); ++b) {
      const Barrier& bar = bars_[b];
      if (bar.expected == 0 || bar.waiting.empty()) continue;
      const int w = bar.waiting.front();
      ThreadContext(m_, cta_, w)
          .fault(code_[static_cast<std::size_t>(cta_.threads[static_cast<std::size_t>(w)].pc)],
                 "deadlock: the thread waits forever at barrier " + std::to_string(b) + ", which expects " +
                     std::to_string(bar.expected) + " threads; " + std::to_string(bar.arrived) +
                     " arrived and no other thread can arrive (the thread count is not the number of threads "
                     "that use the barrier)");
    }
    for (std::size_t i = 0; i < cta_.threads.size(); ++i) {
      const ThreadState& t = cta_.threads[i];
      if (t.status != Status::at_mbarrier) continue;
      const Mbarrier& mb = cta_.mbarriers[static_cast<std::size_t>(t.waits_on)];
      int waiting = 0;
      for (const ThreadState& u : cta_.threads) waiting += u.status == Status::at_mbarrier ? 1 : 0;
      ThreadContext(m_, cta_, static_cast<int>(i))
          .fault(code_[static_cast<std::size_t>(t.pc)],
                 "deadlock: the thread waits forever on the mbarrier at shared byte " + std::to_string(mb.offset) +
                     " (initialised at line " + std::to_string(code_[static_cast<std::size_t>(mb.init_inst)].loc.line) +
                     "), whose phase " + std::to_string(mb.completions) +
                     " never completes: " + std::to_string(mb.pending) + " of its " + std::to_string(mb.expected) +
                     " arrivals and " + std::to_string(std::max<std::int64_t>(mb.tx, 0)) +
                     " expected transaction bytes never come, no copy is in flight, and " + std::to_string(waiting) +
                     " threads wait on mbarriers");
    }
    std::string where;
    int first = -1;
    for (std::size_t i = 0; i < cta_.threads.size(); ++i) {
      const ThreadState& t = cta_.threads[i];
      if (t.status == Status::exited) continue;
      if (first < 0) first = static_cast<int>(i);
      if (where.size() < 200)
        where += (where.empty() ? "" : ", ") + std::string("thread ") + std::to_string(i) + " at line " +
                 std::to_string(code_[static_cast<std::size_t>(t.pc)].loc.line);
    }
    const Instruction& inst = code_[static_cast<std::size_t>(cta_.threads[static_cast<std::size_t>(first)].pc)];
    ThreadContext(m_, cta_, first)
        .fault(inst, "the CTA's threads wait forever (" + where + "): a barrier some threads never reach");
  }

  Machine& m_;
  CtaState& cta_;
  const std::vector<Instruction>& code_;
  std::array<Barrier, 16> bars_{};
  bool released_ = false;  // a barrier completed since the last round's check
  bool has_wgmma_ = false;
};

}  // namespace

namespace {

// One CTA's run, as the grid's merge needs it.
struct CtaOutcome {
  bool ran = false;                // run to its end or to its finding
  std::optional<Finding> finding;  // the CTA's own refutation or unfollowed
  bool unfollowed = false;
  std::uint64_t finding_step = 0;  // the CTA's step count at it
  std::uint64_t steps = 0;
  std::optional<Provenance> arena;
  CtaGlobal global;
};

CtaState fresh_cta(const PtxKernel& kernel, std::array<int, 3> id, std::int64_t linear, std::int64_t shared_bytes,
                   int threads) {
  CtaState cta;
  cta.id = id;
  cta.linear = linear;
  const auto bytes = static_cast<std::size_t>(shared_bytes);
  cta.shared.assign(bytes, 0);
  cta.shared_tags.assign(bytes, make_tag(kUnwritten, 0));
  for (auto* v :
       {&cta.writer, &cta.write_epoch, &cta.write_warp_epoch, &cta.reader, &cta.read_epoch, &cta.read_warp_epoch})
    v->assign(bytes, 0);
  cta.pending.assign(bytes, 0);
  cta.pending_inst.assign(bytes, -1);
  cta.warp_epoch.assign(static_cast<std::size_t>((threads + 31) / 32), 1);
  const bool wgmma = std::any_of(kernel.code.begin(), kernel.code.end(),
                                 [](const Instruction& i) { return i.collective == Collective::warpgroup; });
  if (wgmma) {
    cta.wgmma_reading.assign(bytes, 0);
    cta.wgmma_reading_inst.assign(bytes, -1);
    cta.write_proxy_fences.assign(bytes, 0);
    cta.warpgroups.resize(static_cast<std::size_t>((threads + 127) / 128));
    for (WarpgroupState& wg : cta.warpgroups) wg.max_regs = kernel.maxnreg;
  }
  const bool tma = std::any_of(kernel.code.begin(), kernel.code.end(), [](const Instruction& i) {
    return i.opcode.starts_with("mbarrier.") || i.opcode.starts_with("cp.async.bulk");
  });
  if (tma) {
    cta.tma_pending.assign(bytes, 0);
    cta.tma_pending_inst.assign(bytes, -1);
    cta.tma_mbarrier.assign(bytes, 0);
    cta.tma_phase.assign(bytes, 0);
    cta.tma_inst.assign(bytes, -1);
  }
  const bool tcgen05 = std::any_of(kernel.code.begin(), kernel.code.end(),
                                   [](const Instruction& i) { return i.opcode.starts_with("tcgen05."); });
  if (tcgen05) cta.tmem.init(threads, bytes);
  // Happens-before by clocks where barriers of part of the CTA or mbarriers
  // may order accesses (core/ptx/sync_clock.h).
  cta.clocks = tma || std::any_of(kernel.code.begin(), kernel.code.end(), [](const Instruction& i) {
                 return i.collective == Collective::cta && (i.ops.size() > 1 || i.count != 0);
               });
  if (cta.clocks) {
    cta.write_stamp.assign(bytes, 0);
    cta.read_stamps.assign(bytes, {});
  }
  ThreadState fresh;
  if (tcgen05) fresh.tmem_loaded.assign(kernel.reg_bits.size(), 0);
  fresh.regs.resize(kernel.reg_bits.size());
  fresh.writer.assign(kernel.reg_bits.size(), -1);
  for (std::size_t r = 0; r < kernel.reg_bits.size(); ++r)
    for (int b = 0; b < (kernel.reg_bits[r] + 7) / 8; ++b)
      fresh.regs[r].tags[static_cast<std::size_t>(b)] = make_tag(kUnwritten, 0);
  fresh.local.assign(static_cast<std::size_t>(kernel.local_bytes), 0);
  fresh.local_tags.assign(static_cast<std::size_t>(kernel.local_bytes), make_tag(kUnwritten, 0));
  if (wgmma) {
    fresh.in_flight.assign(kernel.reg_bits.size(), 0);
    fresh.unfenced.assign(kernel.reg_bits.size(), 1);  // written at the start, as far as wgmma.fence knows
  }
  cta.threads.assign(static_cast<std::size_t>(threads), fresh);
  if (cta.clocks)
    for (int t = 0; t < threads; ++t) cta.threads[static_cast<std::size_t>(t)].clock = SyncClock(threads, t);
  return cta;
}

// The grid's global memory after its CTAs, in their order (linear): their
// writes applied, and the first access one CTA makes of a byte an earlier
// CTA accessed, where either writes (nothing orders CTAs), as a finding at
// that CTA's step.  As if the CTAs had run one after another.
class GridMerge {
 public:
  GridMerge(const PtxKernel& kernel, GlobalMemory& memory, int threads_per_cta, const std::vector<CtaOutcome>& ctas)
      : kernel_(kernel), memory_(memory), threads_(threads_per_cta) {
    // Readers are kept only of the regions some CTA writes.
    std::vector<bool> written(memory.regions().size(), false);
    for (const CtaOutcome& c : ctas)
      for (const GlobalWrite& w : c.global.writes) written[region_of(w.address)] = true;
    reader_.resize(written.size());
    for (std::size_t r = 0; r < written.size(); ++r)
      if (written[r]) reader_[r].assign(memory.regions()[r].bytes.size(), Reader{});
  }

  // CTA `linear`'s first conflict with the CTAs before it (by its step), or
  // nullopt; then its accesses join theirs.  `delta`: its arena's ids here.
  std::optional<std::pair<std::uint64_t, Finding>> add(std::int64_t linear, const CtaOutcome& c,
                                                       const Provenance& provenance, std::uint64_t delta) {
    std::optional<std::pair<std::uint64_t, Finding>> first;
    const auto keep = [&](std::uint64_t step, int thread, int inst, std::string message) {
      if (first && first->first <= step) return;
      Finding f{kernel_.code[static_cast<std::size_t>(inst)].loc,
                {},
                thread,
                std::move(message),
                kernel_.code[static_cast<std::size_t>(inst)].source};
      first = std::pair{step, std::move(f)};
    };
    for (const GlobalRead& rd : c.global.reads) {
      if (first && first->first <= rd.step) break;
      const std::size_t ri = region_of(rd.address);
      const GlobalMemory::Region& r = memory_.regions()[ri];
      if (reader_[ri].empty()) continue;
      for (std::uint32_t i = 0; i < rd.bytes; ++i) {
        const std::uint64_t b = rd.address - r.base + i;
        if (r.writer[b] == 0) continue;
        const std::uint32_t other = r.writer[b] - 1;
        keep(rd.step, static_cast<int>(rd.thread), rd.inst,
             "reads " + byte_name(r, b) + ", which thread " + std::to_string(other % threads_) + " of CTA " +
                 std::to_string(other / threads_) + " (linear) wrote at line " + line(r.where[b]) +
                 ": nothing orders one CTA's writes before another's reads");
        break;
      }
    }
    for (const GlobalWrite& w : c.global.writes) {
      const std::size_t ri = region_of(w.address);
      GlobalMemory::Region& r = memory_.regions()[ri];
      const std::uint64_t b = w.address - r.base;
      if (r.writer[b] != 0) {
        const std::uint32_t other = r.writer[b] - 1;
        keep(w.step, static_cast<int>(w.thread), w.inst,
             "writes " + byte_name(r, b) + ", which thread " + std::to_string(other % threads_) + " of CTA " +
                 std::to_string(other / threads_) + " (linear) also writes at line " + line(r.where[b]));
      } else if (const Reader& rd = reader_[ri][b]; rd.thread != 0) {
        keep(w.step, static_cast<int>(w.thread), w.inst,
             "writes " + byte_name(r, b) + ", which thread " + std::to_string((rd.thread - 1) % threads_) + " of CTA " +
                 std::to_string((rd.thread - 1) / threads_) + " (linear) reads at line " + line(rd.inst) +
                 ": nothing orders one CTA's reads before another's writes");
      }
      r.writer[b] = static_cast<std::uint32_t>(linear * threads_ + w.thread) + 1;
      r.where[b] = w.inst;
      r.bytes[b] = w.value;
      const Tag t = w.tag;
      r.tags[b] = t == 0 ? 0 : make_tag(provenance.moved(tag_id(t), delta), tag_byte(t)) | (t & (0xFFFFFull << 8));
    }
    for (const GlobalRead& rd : c.global.reads) {
      const std::size_t ri = region_of(rd.address);
      if (reader_[ri].empty()) continue;
      const std::uint64_t at = rd.address - memory_.regions()[ri].base;
      for (std::uint32_t i = 0; i < rd.bytes; ++i)
        reader_[ri][at + i] = {static_cast<std::uint32_t>(linear * threads_ + rd.thread) + 1, rd.inst};
    }
    return first;
  }

 private:
  struct Reader {
    std::uint32_t thread = 0;  // 1 + the global thread of the last read, 0: none
    std::int32_t inst = 0;
  };
  std::size_t region_of(std::uint64_t address) const {
    const auto& rs = memory_.regions();
    for (std::size_t i = 0; i < rs.size(); ++i)
      if (address >= rs[i].base && address - rs[i].base < rs[i].bytes.size()) return i;
    throw Error("internal: a global access outside every region");
  }
  std::string byte_name(const GlobalMemory::Region& r, std::uint64_t b) const { return byte_range_name(r, r.base + b); }
  std::string line(std::int32_t inst) const {
    return std::to_string(kernel_.code[static_cast<std::size_t>(inst)].loc.line);
  }

  const PtxKernel& kernel_;
  GlobalMemory& memory_;
  std::uint32_t threads_;
  std::vector<std::vector<Reader>> reader_;
};

}  // namespace

RunResult run_grid(const PtxKernel& kernel, const GridShape& shape, std::span<const std::uint64_t> params,
                   GlobalMemory& memory, Provenance& provenance, const RunOptions& options) {
  const int threads_per_cta = shape.block[0] * shape.block[1] * shape.block[2];
  std::int64_t shared_bytes = kernel.static_shared;
  std::vector<std::int64_t> symbol_offsets(kernel.symbols.size(), 0);
  for (std::size_t i = 0; i < kernel.symbols.size(); ++i) {
    const Symbol& s = kernel.symbols[i];
    if (s.space == Space::local || s.space == Space::constant) symbol_offsets[i] = s.offset;
    if (s.space != Space::shared) continue;
    if (s.external) {
      const std::int64_t align = -s.offset;
      symbol_offsets[i] = (kernel.static_shared + align - 1) / align * align;
      shared_bytes = std::max(shared_bytes, symbol_offsets[i] + shape.dynamic_shared);
    } else {
      symbol_offsets[i] = s.offset;
    }
  }
  const std::int64_t ctas = std::int64_t{shape.grid[0]} * shape.grid[1] * shape.grid[2];
  // Every CTA's outcome is kept until the grid is merged: bound their count.
  constexpr std::int64_t kMaxCtas = std::int64_t{1} << 20;
  if (ctas > kMaxCtas)
    throw Error(kernel.loc, "a grid of " + std::to_string(ctas) + " CTAs: more than the run holds (" +
                                std::to_string(kMaxCtas) + ")");
  const int workers = static_cast<int>(std::clamp<std::int64_t>(options.threads, 1, ctas));
  // Every running CTA's threads have their registers at once: bound them (256 MiB).
  const auto reg_bytes = static_cast<std::uint64_t>(kernel.reg_bits.size()) *
                         static_cast<std::uint64_t>(threads_per_cta) * sizeof(Value) *
                         static_cast<std::uint64_t>(workers);
  if (reg_bytes > (std::uint64_t{1} << 28))
    throw Error(kernel.loc, "kernel " + kernel.name + " has " + std::to_string(kernel.reg_bits.size()) +
                                " registers per thread and " + std::to_string(threads_per_cta) +
                                " threads: more register state than the run holds (256 MiB)" +
                                (workers > 1 ? " with " + std::to_string(workers) + " CTAs at once" : ""));
  // So is every thread's local memory (bytes and tags; 256 MiB).
  const auto local_state = static_cast<std::uint64_t>(kernel.local_bytes) *
                           static_cast<std::uint64_t>(threads_per_cta) * (1 + sizeof(Tag)) *
                           static_cast<std::uint64_t>(workers);
  if (local_state > (std::uint64_t{1} << 28))
    throw Error(kernel.loc, "kernel " + kernel.name + " has " + std::to_string(kernel.local_bytes) +
                                " bytes of local memory per thread and " + std::to_string(threads_per_cta) +
                                " threads: more local state than the run holds (256 MiB)" +
                                (workers > 1 ? " with " + std::to_string(workers) + " CTAs at once" : ""));
  if (shared_bytes > 232448) throw Error(kernel.loc, "more shared memory than a CTA has (232448 bytes on sm_90)");

  std::vector<CtaOutcome> outcomes;
  std::atomic<std::uint64_t> grid_steps{0};
  std::atomic<std::uint64_t> budget{0};
  std::atomic<std::int64_t> stop{std::numeric_limits<std::int64_t>::max()};
  std::vector<std::atomic<std::uint8_t>> regions(memory.regions().size());
  bool log_all_reads = false;
  const auto run_cta = [&](std::int64_t linear) {
    if (stop.load() < linear) return;  // a CTA before it ended the run
    CtaOutcome& o = outcomes[static_cast<std::size_t>(linear)];
    o.arena.emplace(provenance.arena(budget));
    Machine m{kernel,         shape,           params,     memory, *o.arena, options,
              symbol_offsets, threads_per_cta, grid_steps, stop,   regions,  log_all_reads};
    const std::array<int, 3> id{static_cast<int>(linear % shape.grid[0]),
                                static_cast<int>((linear / shape.grid[0]) % shape.grid[1]),
                                static_cast<int>(linear / (std::int64_t{shape.grid[0]} * shape.grid[1]))};
    CtaState cta = fresh_cta(kernel, id, linear, shared_bytes, threads_per_cta);
    const auto ended = [&](const Finding& f, bool unfollowed) {
      o.finding = f;
      o.unfollowed = unfollowed;
      o.finding_step = m.steps;
      for (std::int64_t s = stop.load(); linear < s && !stop.compare_exchange_weak(s, linear);) {
      }
    };
    try {
      CtaRun(m, cta).run();
      o.ran = true;
    } catch (const PtxFault& f) {
      ended(f.finding, false);
      o.ran = true;
    } catch (const PtxUnfollowed& f) {
      ended(f.finding, true);
      o.ran = true;
    } catch (const CtaStopped&) {
      // Its outcome comes after the one that stopped the run.
    }
    o.steps = m.steps;
    o.global = std::move(cta.global);
    o.global.written = {};      // the index of the writes: the run's alone
    if (o.ran && !o.finding) {  // what the CTA wrote is all of its arena that the grid needs
      std::vector<Tag> roots;
      roots.reserve(o.global.writes.size());
      for (const GlobalWrite& w : o.global.writes) roots.push_back(w.tag);
      o.arena->compact(roots);
      for (std::size_t i = 0; i < roots.size(); ++i) o.global.writes[i].tag = roots[i];
    }
  };
  const auto run_all = [&] {
    outcomes = std::vector<CtaOutcome>(static_cast<std::size_t>(ctas));
    if (workers == 1) {
      for (std::int64_t linear = 0; linear < ctas; ++linear) run_cta(linear);
    } else {
      WorkerPool pool(workers);
      pool.for_each(ctas, [&](int, std::int64_t linear) { run_cta(linear); });
    }
  };
  run_all();
  // A region some CTA wrote and another read before it was written (so the
  // read is not in its log): the grid again, every read logged.
  if (std::any_of(regions.begin(), regions.end(),
                  [](const std::atomic<std::uint8_t>& f) { return f.load() == (kWritten | kReadUnlogged); })) {
    log_all_reads = true;
    grid_steps = 0;
    budget = 0;
    stop = std::numeric_limits<std::int64_t>::max();
    run_all();
  }

  // In the grid's order: the first CTA with a finding of its own or a
  // conflict with the CTAs before it ends the run there.
  RunResult result;
  GridMerge merge(kernel, memory, threads_per_cta, outcomes);
  for (std::int64_t linear = 0; linear < ctas; ++linear) {
    CtaOutcome& o = outcomes[static_cast<std::size_t>(linear)];
    if (!o.ran) throw Error("internal: CTA " + std::to_string(linear) + " of the grid did not run");
    const std::uint64_t delta = provenance.absorb(std::move(*o.arena));
    o.arena.reset();
    std::optional<std::pair<std::uint64_t, Finding>> conflict = merge.add(linear, o, provenance, delta);
    o.global = {};  // merged
    const bool own_first = o.finding && (!conflict || o.finding_step < conflict->first);
    if (!own_first && !conflict) {
      result.steps += o.steps;
      continue;
    }
    if (own_first) {
      result.steps += o.finding_step;
      (o.unfollowed ? result.unfollowed : result.refutation) = o.finding;
    } else {
      result.steps += conflict->first;
      conflict->second.cta = {static_cast<int>(linear % shape.grid[0]),
                              static_cast<int>((linear / shape.grid[0]) % shape.grid[1]),
                              static_cast<int>(linear / (std::int64_t{shape.grid[0]} * shape.grid[1]))};
      result.refutation = std::move(conflict->second);
    }
    return result;
  }
  return result;
}

}  // namespace mmacheck::ptx
