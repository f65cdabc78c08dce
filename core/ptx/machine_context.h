// ThreadContext, WarpContext — what the opcode table's semantics see of the
// CTA machine (core/ptx/cta_machine.h): one thread's registers, memory
// through the launch's spaces, and for warp-collective instructions the 32
// lanes at once.  The machine owns the state; a context is a view of it for
// one instruction.
//
// Reading an operand gives a Value (bits and one provenance tag per byte,
// core/ptx/provenance.h); writing one keeps the register's declared width.
// Arithmetic results take their tags from derived(): none when the inputs
// have none, `unwritten` when one was never written, else opaque, naming
// the instruction.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ptx/cta_machine.h"
#include "core/ptx/provenance.h"
#include "core/ptx/ptx_module.h"
#include "core/ptx/ptx_tcgen05.h"
#include "core/ptx/sync_clock.h"

namespace mmacheck::ptx {

// Thrown inside the run and caught by run_grid: a refutation, or what the
// run cannot follow (the verdict is then unchecked, with the reason).
struct PtxFault {
  Finding finding;
};
struct PtxUnfollowed {
  Finding finding;
};
// Thrown inside a CTA's run when a CTA before it in the grid has stopped
// the run (its outcome cannot be the first).
struct CtaStopped {};

// A CTA's global memory accesses while it runs apart from the others
// (run_grid runs CTAs at once): its writes, over the launch's memory for
// its own reads, and its reads; the grid's merge orders them by CTA and
// finds what two CTAs access unordered.
struct GlobalWrite {
  std::uint64_t address;  // the byte
  Tag tag;
  std::uint64_t step;  // the CTA's step count at the byte's first write
  std::int32_t inst;   // the last write's
  std::uint32_t thread;
  std::uint32_t epoch;
  std::uint8_t value;
};
struct GlobalRead {
  std::uint64_t address;
  std::uint64_t step;
  std::int32_t inst;
  std::uint32_t thread;
  std::uint32_t bytes;
};
struct CtaGlobal {
  std::unordered_map<std::uint64_t, std::uint32_t> written;  // byte address -> index in writes
  std::vector<GlobalWrite> writes;
  std::vector<GlobalRead> reads;
};

struct PendingCopy {
  std::uint64_t dst;  // shared offset
  std::vector<std::uint8_t> bytes;
  std::vector<Tag> tags;
  int inst;
};

// An mbarrier in shared memory (core/ptx/ptx_mbarrier.h): its arrival
// count per phase, the arrivals and transaction bytes its current phase still
// waits for, and the phases completed so far.
struct Mbarrier {
  std::uint64_t offset = 0;  // its shared byte
  bool valid = false;        // initialised and not invalidated
  int init_inst = -1;
  std::int64_t expected = 0;      // arrivals per phase (mbarrier.init's count)
  std::int64_t pending = 0;       // arrivals the current phase still waits for
  std::int64_t tx = 0;            // transaction bytes expected minus those arrived (may go below 0 for a while)
  std::uint32_t completions = 0;  // phases completed
  // Happens-before (core/ptx/sync_clock.h): the arrivals' clocks, and theirs
  // as of the last completed phase (what a thread that sees it complete acquires).
  SyncClock arrived, released;
};

// One cp.async.bulk.tensor in flight (core/ptx/ptx_tma.h): the bytes it
// read from global memory when issued, each with the shared byte it lands
// on, landing (and counting toward its mbarrier's transaction bytes) when
// the CTA can go no further without it.
struct TmaInFlight {
  std::vector<std::uint32_t> at;  // per byte: its shared offset
  std::vector<std::uint8_t> bytes;
  std::vector<Tag> tags;
  int mbarrier = -1;  // index into CtaState::mbarriers
  int inst = -1;
  int thread = 0;
};

// One wgmma.mma_async in flight (core/ptx/ptx_wgmma.h): computed when it
// was issued, its D written to the accumulator registers at the
// wgmma.wait_group that completes its group; the shared bytes it reads stay
// read until then.
struct PendingWgmma {
  int inst = -1;
  std::vector<int> regs;              // D's registers (the same in every thread)
  std::vector<int> a_regs;            // A's, when A comes from registers
  std::vector<std::vector<Value>> d;  // per thread of the warpgroup, per register of D
  std::vector<std::uint32_t> shared;  // the shared bytes it reads
};

// A warpgroup's wgmma.mma_asyncs in flight: issued since the last commit,
// then the committed groups, oldest first.
struct WarpgroupState {
  std::vector<PendingWgmma> open;
  std::vector<std::vector<PendingWgmma>> groups;
  int max_regs = 0;  // its per-thread register maximum as setmaxnreg knows it (0: unknown; core/ptx/ptx_setmaxnreg.h)
  bool empty() const { return open.empty() && groups.empty(); }
  // The newest wgmma in flight that writes register `reg`, and the index
  // of the register in its D; nullptr when none.
  const PendingWgmma* writer_of(int reg, std::size_t* index) const;
};

struct ThreadState {
  // at_mbarrier: blocked in mbarrier.try_wait until a phase completes (it
  // runs the instruction again then).
  enum class Status : std::uint8_t { running, at_collective, at_barrier, at_mbarrier, exited };
  std::vector<Value> regs;
  std::vector<std::int32_t> writer;  // per register: the instruction that last wrote it (-1: none)
  int pc = 0;
  Status status = Status::running;
  std::vector<std::vector<PendingCopy>> groups;  // committed cp.async groups, oldest first
  std::vector<PendingCopy> open_group;           // issued since the last commit
  // The thread's local memory (the kernel's .local arrays), tagged as
  // registers are: no other thread sees it, so no order is checked.
  std::vector<std::uint8_t> local;
  std::vector<Tag> local_tags;
  // Kernels with wgmma: per register, the wgmma.mma_asyncs in flight that
  // write it (an access by another instruction is a refutation), and
  // whether an instruction other than a wgmma wrote it since the thread's
  // last wgmma.fence.  Empty in kernels without wgmma.
  std::vector<std::uint16_t> in_flight;
  std::vector<std::uint8_t> unfenced;
  std::uint32_t proxy_fences = 0;  // fence.proxy.async executed
  // Per mbarrier (CtaState::mbarriers): the phases the thread knows complete
  // (its own successful waits, and others' before a barrier of the whole CTA).
  std::vector<std::uint32_t> mbarrier_seen;
  int waits_on = -1;  // at_mbarrier: the mbarrier
  // Kernels with tcgen05: per register, the tcgen05.ld that wrote it and
  // whose tcgen05.wait::ld the thread has not executed (1 + its
  // instruction; 0: none).  Empty in kernels without tcgen05.
  std::vector<std::int32_t> tmem_loaded;
  // Happens-before through barriers of part of the CTA and mbarriers
  // (core/ptx/sync_clock.h); empty unless CtaState::clocks.
  SyncClock clock;
};

struct CtaState {
  std::array<int, 3> id{};
  std::int64_t linear = 0;
  std::vector<std::uint8_t> shared;
  std::vector<Tag> shared_tags;
  // Per shared byte: the last writer and reader (1 + thread, 0: none) and
  // the barrier epochs of those accesses (the CTA's, and the warp's for
  // bar.warp.sync), and the cp.asyncs writing it.
  std::vector<std::uint32_t> writer, write_epoch, write_warp_epoch;
  std::vector<std::uint32_t> reader, read_epoch, read_warp_epoch;
  std::vector<std::uint16_t> pending;
  std::vector<std::int32_t> pending_inst;
  // Per shared byte: the wgmma.mma_asyncs in flight that read it, and the
  // last of them (kernels with wgmma; else empty).
  std::vector<std::uint16_t> wgmma_reading;
  std::vector<std::int32_t> wgmma_reading_inst;
  // Per shared byte: its writer's count of fence.proxy.async at the write
  // (a wgmma, the async proxy, sees the byte once the writer has fenced).
  std::vector<std::uint32_t> write_proxy_fences;
  std::vector<WarpgroupState> warpgroups;
  // TMA and mbarriers (kernels with cp.async.bulk.tensor or mbarrier; else
  // empty): the mbarriers, the copies in flight, and per shared byte the
  // copies in flight writing it (and the last's instruction), and for a byte
  // a copy landed on, 1 + its mbarrier, the phase count that makes it
  // visible and the copy's instruction.
  std::vector<Mbarrier> mbarriers;
  std::vector<TmaInFlight> tma;
  std::vector<std::uint16_t> tma_pending;
  std::vector<std::int32_t> tma_pending_inst;
  std::vector<std::int32_t> tma_mbarrier;
  std::vector<std::uint32_t> tma_phase;
  std::vector<std::int32_t> tma_inst;
  TmemState tmem;  // tcgen05's tensor memory (core/ptx/ptx_tcgen05.h)
  std::uint32_t epoch = 1;
  std::vector<std::uint32_t> warp_epoch;
  // The line of a barrier that completed in this epoch among part of the
  // CTA (a thread count, or a bar.arrive): it may order accesses the epochs
  // do not, so an access unordered by the epochs is unfollowed, not refuted
  // (0: none since the last barrier of the whole CTA).
  int partial_barrier_line = 0;
  // Kernels with mbarriers or barriers of part of the CTA (warp
  // specialisation): the threads' clocks order what the epochs cannot — per
  // shared byte, its writer's own clock entry at the write and its readers'
  // since (core/ptx/sync_clock.h).  Empty otherwise.
  bool clocks = false;
  std::vector<std::uint32_t> write_stamp;
  std::vector<std::array<ReadStamp, kStampedReaders>> read_stamps;
  std::vector<ThreadState> threads;
  CtaGlobal global;
};

// One CTA's view of the run: the launch (shared by every CTA, read only),
// the CTA's provenance arena, and its step count.
struct Machine {
  const PtxKernel& kernel;
  const GridShape& shape;
  std::span<const std::uint64_t> params;
  const GlobalMemory& global;
  Provenance& provenance;
  const RunOptions& options;
  const std::vector<std::int64_t>& symbol_offsets;  // shared symbols: their offset in the window
  int threads_per_cta = 0;
  std::atomic<std::uint64_t>& grid_steps;  // every CTA's, counted a batch at a time
  const std::atomic<std::int64_t>& stop;   // the first CTA (linear) whose run ended the grid's
  // Per global region, what the grid's CTAs did so far: kWritten, and
  // kReadUnlogged (a read left out of a CTA's log, as the region was not
  // written yet); reads are logged for regions written, or all of them.
  std::vector<std::atomic<std::uint8_t>>& regions;
  bool log_all_reads = false;
  std::uint64_t steps = 0;  // this CTA's
};
inline constexpr std::uint8_t kWritten = 1, kReadUnlogged = 2;
// CtaState::reader of a byte several threads read since the last barrier.
inline constexpr std::uint32_t kManyReaders = 0xFFFFFFFF;

// Generic addresses of the shared window: [kSharedWindow, + shared bytes),
// of the thread's local window: [kLocalWindow, + kLocalWindowBytes), and of
// the kernel's parameters: [kParamWindow, + kParamSlot per parameter), a
// parameter's .param address being kParamSlot times its index (`mov.b32
// %r1, k_param_0`: a CUtensorMap's address, for cp.async.bulk.tensor).
inline constexpr std::uint64_t kSharedWindow = std::uint64_t{1} << 48;
inline constexpr std::uint64_t kLocalWindow = std::uint64_t{1} << 49;
inline constexpr std::uint64_t kLocalWindowBytes = std::uint64_t{1} << 32;
inline constexpr std::uint64_t kParamWindow = std::uint64_t{1} << 50;
inline constexpr std::uint64_t kParamSlot = 256;
// The constant bank's window: [kConstWindow, + the kernel's .const bytes).
inline constexpr std::uint64_t kConstWindow = std::uint64_t{1} << 51;
// The generic address of `space`'s address 0 (cvta): shared, local, param
// and const have windows, global is the identity.
std::uint64_t window_of(Space space);

class ThreadContext {
 public:
  ThreadContext(Machine& m, CtaState& cta, int thread)
      : m_(m), cta_(cta), t_(cta.threads[static_cast<std::size_t>(thread)]), thread_(thread) {}

  int thread() const { return thread_; }
  int lane() const { return thread_ % 32; }
  int pc() const { return t_.pc; }
  Machine& machine() { return m_; }
  Provenance& provenance() { return m_.provenance; }
  Origin origin() const { return {t_.pc, cta_.linear, thread_}; }

  // The operand's value, `bits` wide (registers, immediates, special
  // registers, a symbol's address).
  Value get(const Operand& op, int bits) const;
  Value reg(int index) const {
    check_in_flight(index, "reads");
    return t_.regs[static_cast<std::size_t>(index)];
  }
  // The instruction that last wrote register `index`, or -1.
  int reg_writer(int index) const { return t_.writer[static_cast<std::size_t>(index)]; }
  void set_reg(int index, Value v);  // (a mov of a loaded register passes on its ld: tmem_loaded_access)
  void set(const Operand& op, const Value& v);
  int reg_bits(int index) const { return m_.kernel.reg_bits[static_cast<std::size_t>(index)]; }

  // An address operand's address; a base computed from data is a fault.
  std::uint64_t address(const Instruction& inst, const Operand& op) const;
  // The space a generic address falls in, and the address there (other
  // spaces as they are).
  Space resolve(Space space, std::uint64_t& address) const;
  Value load(const Instruction& inst, Space space, std::uint64_t address, int bytes);
  void store(const Instruction& inst, Space space, std::uint64_t address, int bytes, const Value& v);

  // Tags for an arithmetic result of `bytes` bytes from `inputs`.
  void derive(const Instruction& inst, Value& result, int bytes, std::initializer_list<const Value*> inputs) const;
  // The value must not depend on data (a branch condition, a shift count).
  void require_plain(const Instruction& inst, const Value& v, int bytes, const char* what) const;

  void jump(int target) { next_pc = target; }
  void exit() { exited = true; }

  // cp.async: read now, written at the wait that completes its group.
  void cp_async(const Instruction& inst, std::uint64_t dst, std::uint64_t src, int bytes, int src_bytes);
  void cp_async_commit();
  void cp_async_wait(const Instruction& inst, std::int64_t newest_pending);

  // wgmma.mma_async: the shared bytes it reads while in flight (a write of
  // one is a refutation until the wgmma completes).
  void wgmma_reads(std::uint64_t offset, int bytes);
  WarpgroupState& warpgroup() { return cta_.warpgroups[static_cast<std::size_t>(thread_ / 128)]; }
  // wgmma.wait_group: the warpgroup's committed groups completed until at
  // most `newest_pending` remain (D to its registers, shared bytes released).
  void wgmma_wait(std::int64_t newest_pending);
  // fence.proxy.async: the thread's shared writes so far are seen by the
  // async proxy (wgmma).
  void proxy_fence() { ++t_.proxy_fences; }
  // wgmma's read (the async proxy) of shared bytes: each written by a thread
  // that has executed fence.proxy.async since, or a refutation.
  void require_proxy_fenced(const Instruction& inst, std::uint64_t offset, int bytes) const;
  // wgmma.mma_async issued: its registers in flight until its wait.
  void wgmma_issue(const PendingWgmma& p) {
    for (const int r : p.regs) ++t_.in_flight[static_cast<std::size_t>(r)];
    for (const int r : p.a_regs) ++t_.in_flight[static_cast<std::size_t>(r)];
  }
  // wgmma.fence: the thread's registers count as fenced.
  void wgmma_fence();
  // The register as a wgmma reads it (its accumulator: the value of the
  // newest wgmma in flight that writes it, else the register).
  Value wgmma_reg(int index) const;
  bool unfenced(int index) const { return !t_.unfenced.empty() && t_.unfenced[static_cast<std::size_t>(index)] != 0; }
  // A thread that ends with wgmmas of its warpgroup in flight: a refutation.
  void require_no_wgmma_in_flight(const Instruction& inst);

  // mbarriers (core/ptx/ptx_mbarrier.h): the one at shared offset `offset`
  // (its index in CtaState::mbarriers), a fault when none is initialised there.
  int mbarrier_at(const Instruction& inst, std::uint64_t offset) const;
  Mbarrier& mbarrier(int index) { return cta_.mbarriers[static_cast<std::size_t>(index)]; }
  void mbarrier_init(const Instruction& inst, std::uint64_t offset, std::int64_t count);
  void mbarrier_inval(const Instruction& inst, int index);
  // Arrivals and transaction bytes (complete_tx: negative); completes the
  // phase when both reach zero.
  void mbarrier_update(int index, std::int64_t arrivals, std::int64_t tx_bytes);
  // Whether the phase of parity `parity` has completed (try_wait.parity); a
  // thread that sees it knows the phase's bytes landed.
  bool mbarrier_phase_done(int index, std::uint32_t parity);
  std::uint32_t mbarrier_seen(int index) const {
    return static_cast<std::size_t>(index) < t_.mbarrier_seen.size() ? t_.mbarrier_seen[static_cast<std::size_t>(index)]
                                                                     : 0;
  }
  // The thread blocks (mbarrier.try_wait whose phase is not complete): the
  // scheduler runs the instruction again once a phase of `index` completes.
  void block_on(int index) {
    blocked = true;
    t_.waits_on = index;
  }
  // tcgen05 (core/ptx/ptx_tcgen05.h): the CTA's TMEM, and the registers a
  // tcgen05.ld wrote, pending until the thread's tcgen05.wait::ld.
  TmemState& tmem() { return cta_.tmem; }
  void tmem_loaded(int reg, int inst) { t_.tmem_loaded[static_cast<std::size_t>(reg)] = inst + 1; }
  void tmem_wait_ld() { std::fill(t_.tmem_loaded.begin(), t_.tmem_loaded.end(), 0); }
  // A shared read by the async proxy on this thread's behalf (tcgen05.mma's
  // operands): the checks of a read (the writes it sees ordered before it,
  // cp.async and TMA landed) without counting the thread as the bytes'
  // reader; the bytes stay read until the commit's mbarrier phase
  // (core/ptx/ptx_tcgen05.h).
  Value async_shared_load(const Instruction& inst, std::uint64_t offset, int bytes);
  // cp.async.bulk.tensor issued: its bytes are the destination's, in flight
  // (a read, a write or another copy of them is a refutation) until it lands.
  void tma_issue(const Instruction& inst, TmaInFlight copy);
  // The global bytes at `address` (this CTA's own writes first), logged for
  // the grid's merge; a fault outside every tensor.
  void global_bytes(const Instruction& inst, std::uint64_t address, int bytes, std::uint8_t* out, Tag* tags) {
    read_global(inst, address, bytes, out, tags);
  }

  [[noreturn]] void fault(const Instruction& inst, const std::string& message) const;
  [[noreturn]] void unfollowed(const Instruction& inst, const std::string& message) const;
  // Happens-before (core/ptx/sync_clock.h): a release into `into` (an
  // arrival), an acquire of `from` (a barrier completing for a waiter, a
  // phase seen complete).
  void release(SyncClock& into) {
    if (!cta_.clocks) return;
    into.join(t_.clock);
    t_.clock.tick(thread_);
  }
  void acquire(const SyncClock& from) {
    if (cta_.clocks) t_.clock.join(from);
  }
  // mbarrier.arrive's release into the mbarrier's current phase.
  void mbarrier_release(int index) { release(mbarrier(index).arrived); }

  // Two accesses the barrier epochs do not order: a refutation, or
  // unfollowed after a barrier among part of the CTA (which may order them).
  [[noreturn]] void race(const Instruction& inst, const std::string& message) const;

  int next_pc = 0;
  bool exited = false;
  bool blocked = false;

 private:
  // Reads `bytes` global bytes at `address` into out/tags (this CTA's own
  // writes first) and logs the read for the grid's merge.
  void read_global(const Instruction& inst, std::uint64_t address, int bytes, std::uint8_t* out, Tag* tags);
  std::uint8_t* shared_at(const Instruction& inst, std::uint64_t offset, int bytes);
  std::size_t local_at(const Instruction& inst, std::uint64_t offset, int bytes) const;
  void shared_read(const Instruction& inst, std::uint64_t offset, int bytes);
  bool unordered(std::uint32_t other, std::uint32_t epoch, std::uint32_t warp_epoch) const;
  // What the epochs leave unordered, ordered by the clocks: byte b's last
  // write, and its reads since.
  bool write_ordered(std::uint64_t b) const;
  bool reads_ordered(std::uint64_t b) const;
  // Keeps this thread's read of byte b (`fresh`: the byte's reads so far are
  // of an earlier epoch, ordered already).
  void stamp_read(std::uint64_t b, bool fresh);
  // Who read byte b unordered with this thread (`reader`: CtaState::reader's),
  // for messages: "thread 5 reads", "other threads read".
  std::string readers_text(std::uint64_t b, std::uint32_t reader) const;
  // The read of shared byte b by this thread, for the checks of later writes.
  void note_read(std::uint64_t b);
  void not_pending(const Instruction& inst, std::uint64_t byte, const char* access) const;
  // A shared byte a cp.async.bulk.tensor is still writing: a refutation.
  void tma_not_pending(const Instruction& inst, std::uint64_t byte, const char* access) const;
  // A read of a shared byte a copy landed on: the thread must know the
  // mbarrier phase the copy completed (core/ptx/ptx_tma.cc).
  void tma_read_ready(const Instruction& inst, std::uint64_t byte) const;
  // `value`: a store's (a constant some other thread stored to the byte
  // unordered is no race), nullptr for a copy landing.
  void shared_write(const Instruction& inst, std::uint64_t offset, int bytes, const Value* value = nullptr);
  // A register a wgmma in flight writes, accessed by another instruction.
  void check_in_flight(int index, const char* access) const {
    if (!t_.in_flight.empty() && index >= 0 && t_.in_flight[static_cast<std::size_t>(index)] != 0)
      in_flight_fault(index, access);
    if (!t_.tmem_loaded.empty() && index >= 0 && t_.tmem_loaded[static_cast<std::size_t>(index)] != 0)
      tmem_loaded_access(index, access);
  }
  // A register a tcgen05.ld wrote, accessed before the thread's
  // tcgen05.wait::ld: a refutation, except a mov's read (nvcc moves the
  // ld's registers into pairs before the wait; ptxas keeps a move waiting),
  // whose destination then counts as loaded by the same ld.
  void tmem_loaded_access(int index, const char* access) const;
  mutable std::int32_t moved_loaded_ = 0;
  [[noreturn]] void in_flight_fault(int index, const char* access) const;

  Machine& m_;
  CtaState& cta_;
  ThreadState& t_;
  int thread_;
};

// Lands every cp.async.bulk.tensor in flight (the CTA can go no further
// without them): its bytes to shared memory, its transaction bytes to its
// mbarrier (core/ptx/ptx_tma.cc).  False when none was in flight.
bool land_tma(Machine& m, CtaState& cta);

class WarpContext {
 public:
  WarpContext(Machine& m, CtaState& cta, int first_thread, int lanes)
      : m_(m), cta_(cta), first_(first_thread), lanes_(lanes) {}
  int lanes() const { return lanes_; }
  ThreadContext lane(int l) { return {m_, cta_, first_ + l}; }
  Provenance& provenance() { return m_.provenance; }
  const RunOptions& options() const { return m_.options; }
  [[noreturn]] void fault(const Instruction& inst, int lane, const std::string& message) {
    this->lane(lane).fault(inst, message);
  }
  // bar.warp.sync: a new epoch of the warp's shared-memory accesses.
  void sync() { ++cta_.warp_epoch[static_cast<std::size_t>(first_ / 32)]; }
  // A warpgroup's instruction (wgmma): its state.
  WarpgroupState& warpgroup() { return cta_.warpgroups[static_cast<std::size_t>(first_ / 128)]; }

 private:
  Machine& m_;
  CtaState& cta_;
  int first_;
  int lanes_;
};

}  // namespace mmacheck::ptx
