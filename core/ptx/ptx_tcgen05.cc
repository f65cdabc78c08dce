#include "core/ptx/ptx_tcgen05.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/hex.h"
#include "core/ptx/machine_context.h"
#include "core/ptx/ptx_opcodes.h"
#include "core/tcgen05/tcgen05_descriptor.h"
#include "core/tcgen05/tcgen05_instr.h"
#include "core/tcgen05/tcgen05_tmem.h"
#include "core/wgmma/canonical_layout.h"

namespace mmacheck::ptx {

void TmemState::init(int threads, std::size_t shared_bytes) {
  used = true;
  const std::size_t cells = std::size_t{kLanes} * kColumns;
  bits.assign(cells, 0);
  tags.assign(cells * 4, make_tag(kUnwritten, 0));
  mma.assign(cells, -1);
  mbarrier.assign(cells, -2);
  phase.assign(cells, 0);
  uncommitted.assign(static_cast<std::size_t>(threads), {});
  uncommitted_reads.assign(static_cast<std::size_t>(threads), {});
  read_mbarrier.assign(shared_bytes, 0);
  read_phase.assign(shared_bytes, 0);
  read_inst.assign(shared_bytes, -1);
}

const TmemState::Allocation* TmemState::holding(int column) const {
  for (const Allocation& a : allocations)
    if (column >= a.column && column < a.column + a.columns) return &a;
  return nullptr;
}

namespace {

using Tcgen05OpKind = Operand::Kind;

// tcgen05.ld/st's shapes (PTX ISA §9.7.16.8.3 "Matrix fragments"; the
// positions as TVM TIRx's tcgen05_ld_st documentation states them, whose
// .16x256b is mma.sync's accumulator fragment): per .x1, the registers a
// thread gives and the TMEM lanes the warp reaches; cell_of gives the
// (lane, column) offset of lane l's register r over the whole .xN.
struct LdShape {
  std::string_view name;
  int regs;  // per thread, per .x1
  int lanes;
};
constexpr std::array<LdShape, 4> kLdShapes{{
    {"32x32b", 1, 32},
    {"16x64b", 1, 16},
    {"16x128b", 2, 16},
    {"16x256b", 4, 16},
}};

std::pair<int, int> cell_of(int shape, int l, int r) {
  switch (shape) {
    case 0: return {l, r};
    case 1: return {l / 4 + 8 * (l % 2), (l / 2) % 2 + 2 * r};
    case 2: return {l / 4 + 8 * (r % 2), l % 4 + 4 * (r / 2)};
    default: return {l / 4 + 8 * ((r / 2) % 2), r % 2 + 2 * (l % 4) + 8 * (r / 4)};
  }
}

std::vector<std::string_view> words_of(std::string_view op) {
  std::vector<std::string_view> words;
  for (std::size_t dot = op.find('.'); dot != std::string_view::npos; dot = op.find('.')) {
    words.push_back(op.substr(0, dot));
    op.remove_prefix(dot + 1);
  }
  words.push_back(op);
  return words;
}

std::string line_text(const PtxKernel& k, int inst) {
  return inst < 0 ? std::string("?") : std::to_string(k.code[static_cast<std::size_t>(inst)].loc.line);
}

std::string lanes_text(int lane, int column) {
  return "TMEM lane " + std::to_string(lane) + " column " + std::to_string(column);
}

// A TMEM address (lane in bits 31-16, column in 15-0) from a value the
// thread gives: not computed from tensor data.
std::pair<int, int> tmem_address(const Instruction& inst, ThreadContext& t, const Value& v, const char* what) {
  t.require_plain(inst, v, 4, what);
  const auto bits = static_cast<std::uint32_t>(v.bits);
  const int lane = static_cast<int>(bits >> 16), column = static_cast<int>(bits & 0xFFFF);
  if (lane >= TmemState::kLanes || column >= TmemState::kColumns)
    t.fault(inst, std::string(what) + " " + hex(bits) + " is outside TMEM's 128 lanes x 512 columns");
  return {lane, column};
}

// A TMEM column the instruction accesses must be in a live allocation.
void require_allocated(const Instruction& inst, ThreadContext& t, int lane, int column, const char* access) {
  const TmemState& s = t.tmem();
  if (column < TmemState::kColumns && s.holding(column) != nullptr) return;
  std::string why = "no tcgen05.alloc of this CTA holds it";
  if (s.freed_by >= 0)
    why += " (the last tcgen05.dealloc was at line " + line_text(t.machine().kernel, s.freed_by) + ")";
  else if (s.allocations.empty()) why += " (nothing is allocated: TMEM used before tcgen05.alloc)";
  t.fault(inst, std::string(access) + " " + lanes_text(lane, column) + ", outside every TMEM allocation: " + why);
}

// The first TMEM lane a warp's tcgen05.ld/st reaches: the warp's lane
// quarter 32 (w % 4) (PTX ISA: warp w of a warpgroup reaches lanes
// 32 (w % 4) .. + 31) plus the address's lane within a quarter.  The
// address's quarter bits (5-6 of the lane) are not read: DeepGEMM's sm_100
// kernels state that the hardware ignores them ("no need for `tmem_ptr |=
// (epilogue_warp_idx * 32) << 16`") and TileLang's give lane 0 to every warp.
// A shape that runs past the quarter is a refutation.
int quarter_lane(const Instruction& inst, ThreadContext& t, int lane, int lanes) {
  const int warp = t.thread() / 32, first = 32 * (warp % 4), within = lane % 32;
  if (within + lanes > 32)
    t.fault(inst, "warp " + std::to_string(warp) + " accesses TMEM lanes " + std::to_string(first + within) + ".." +
                      std::to_string(first + within + lanes - 1) + " (the address's lane " + std::to_string(lane) +
                      ", " + std::to_string(within) + " within a quarter), past its lane quarter " +
                      std::to_string(first) + ".." + std::to_string(first + 31) +
                      " (PTX ISA: warp w of a warpgroup reaches lanes 32 (w % 4) .. + 31)");
  return first + within;
}

// The value the whole warp gives for an operand (a TMEM address, a column
// count): lane 0's, every lane giving the same (else unfollowed).
std::uint32_t warp_uniform(const Instruction& inst, WarpContext& w, const Operand& op, const char* what) {
  std::uint32_t first = 0;
  for (int l = 0; l < w.lanes(); ++l) {
    ThreadContext t = w.lane(l);
    const Value v = t.get(op, 32);
    t.require_plain(inst, v, 4, what);
    const auto bits = static_cast<std::uint32_t>(v.bits);
    if (l == 0) first = bits;
    else if (bits != first)
      t.unfollowed(inst, std::string(what) + " is " + hex(bits) + " in lane " + std::to_string(l) + " and " +
                             hex(first) + " in lane 0: the PTX ISA wants one value for the warp");
  }
  return first;
}

// A [taddr] operand the whole warp gives (lane 0's; the same in every lane,
// else unfollowed).
Value warp_address(const Instruction& inst, WarpContext& w, const Operand& op) {
  Value v;
  for (int l = 0; l < w.lanes(); ++l) {
    const std::uint64_t a = w.lane(l).address(inst, op);
    if (l == 0) v.bits = a;
    else if (a != v.bits)
      w.lane(l).unfollowed(inst, "the TMEM address is " + hex(a) + " in lane " + std::to_string(l) + " and " +
                                     hex(v.bits) + " in lane 0: the PTX ISA wants one address for the warp");
  }
  return v;
}

void require_whole_warp(const Instruction& inst, WarpContext& w) {
  if (w.lanes() != 32) w.fault(inst, 0, "'" + inst.opcode + "' needs a whole warp of 32 threads");
}

Tcgen05SmemDescriptor smem_descriptor(const Instruction& inst, ThreadContext& t, const Operand& op, const char* what) {
  const Value v = t.get(op, 64);
  t.require_plain(inst, v, 8, what);
  Tcgen05SmemDescriptor d;
  try {
    d = Tcgen05SmemDescriptor::decode(v.bits);
  } catch (const Error& e) {
    t.fault(inst, std::string(what) + " " + hex(v.bits) + " is no tcgen05 shared-memory descriptor: " + e.message());
  }
  if (!tcgen05_swizzle(d.swizzle).canonical || d.base_offset != 0 || d.lbo_absolute)
    t.unfollowed(inst, std::string(what) + " " + d.str() +
                           " has a swizzle mode, base offset or LBO mode whose canonical layout is not modelled");
  return d;
}

struct OperandTile {
  std::vector<std::uint64_t> bits;
  std::vector<ElementRef> refs;
};

// Operand A (M x K) or B (N x K) read from shared memory through its
// descriptor and the canonical layout (wgmma's, core/wgmma/canonical_layout.h).
OperandTile read_operand(const Instruction& inst, ThreadContext& t, const WgmmaOperand& op,
                         const Tcgen05SmemDescriptor& d) {
  const MatrixDescriptor md = d.as_wgmma();
  const int bytes = op.type->bytes;
  OperandTile tile{
      std::vector<std::uint64_t>(static_cast<std::size_t>(op.rows * op.k), 0),
      std::vector<ElementRef>(static_cast<std::size_t>(op.rows * op.k), ElementRef{ElementRef::Kind::zero, 0})};
  for (int i = 0; i < op.rows; ++i)
    for (int k = 0; k < op.k; ++k) {
      const auto address = static_cast<std::uint64_t>(canonical_address(op, md, i, k));
      const Value v = t.async_shared_load(inst, address, bytes);
      TmemState& s = t.tmem();
      for (int b = 0; b < bytes; ++b) {
        const std::size_t byte = address + static_cast<std::size_t>(b);
        if (s.read_mbarrier[byte] != -1)
          s.uncommitted_reads[static_cast<std::size_t>(t.thread())].push_back(static_cast<std::uint32_t>(byte));
        s.read_mbarrier[byte] = -1;
        s.read_inst[byte] = t.pc();
      }
      const auto at = static_cast<std::size_t>(i * op.k + k);
      tile.bits[at] = v.bits;
      tile.refs[at] = element_ref(t.provenance(), v, 0, bytes);
      if (tile.refs[at].kind == ElementRef::Kind::unwritten)
        t.fault(inst, std::string("tcgen05.mma reads ") + op.operand + "'s element (" +
                          (op.operand == 'A' ? "m " : "n ") + std::to_string(i) + ", k " + std::to_string(k) +
                          ") at shared byte " + std::to_string(address) + ", which was never written (descriptor " +
                          d.str() + ")");
    }
  return tile;
}

// The diagnosis of an operand tile that is not one row (A) or column (B) of
// its tensor per tile row, each a different one, over one K range per tile
// column: the descriptor (its start, LBO, SBO or swizzle) or the layout the
// kernel wrote disagree.  The mma is to blame; the check of D cites this when
// one of the mma's sums is wrong.  "" when the tile is whole (or not of one
// input tensor: the check of D says which).
std::string tile_problem(ThreadContext& t, const OperandTile& tile, int rows, int k, char name,
                         const Tcgen05SmemDescriptor& d) {
  const Provenance& prov = t.provenance();
  const auto& regions = t.machine().global.regions();
  std::vector<std::optional<std::int64_t>> row_of(static_cast<std::size_t>(rows)), k_of(static_cast<std::size_t>(k));
  int tensor = -1;
  std::string tname;
  const auto elem = [&](std::int64_t r, std::int64_t c) {
    return tname + "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
  };
  for (int i = 0; i < rows; ++i)
    for (int kk = 0; kk < k; ++kk) {
      const ElementRef& e = tile.refs[static_cast<std::size_t>(i * k + kk)];
      if (e.kind != ElementRef::Kind::value) continue;
      const auto in = prov.input(e.id);
      if (!in) continue;
      if (tensor >= 0 && in->tensor != tensor) return "";
      tensor = in->tensor;
      const auto& arg = regions[static_cast<std::size_t>(in->tensor)].tensor;
      tname = arg.name;
      const auto rc = arg.matrix_index(in->element);
      if (!rc) continue;
      // A's (i, k) is A[row][k]; B's (n, k) is B[k][n].
      const std::int64_t r = name == 'A' ? rc->first : rc->second, c = name == 'A' ? rc->second : rc->first;
      const std::string where = std::string(1, name) + "'s tile element (" + (name == 'A' ? "m " : "n ") +
                                std::to_string(i) + ", k " + std::to_string(kk) + ") is " +
                                (name == 'A' ? elem(r, c) : elem(c, r));
      const std::string fix =
          " (descriptor " + d.str() + ": its start, LBO, SBO or swizzle, or the layout the kernel wrote, disagree)";
      auto& ro = row_of[static_cast<std::size_t>(i)];
      if (ro && *ro != r)
        return where + ", where its tile row holds " + (name == 'A' ? "row " : "column ") + std::to_string(*ro) + fix;
      auto& ko = k_of[static_cast<std::size_t>(kk)];
      if (ko && *ko != c) return where + ", where its tile column holds k = " + std::to_string(*ko) + fix;
      ro = r;
      ko = c;
    }
  for (int i = 1; i < rows; ++i)
    for (int q = 0; q < i; ++q)
      if (row_of[static_cast<std::size_t>(i)] &&
          row_of[static_cast<std::size_t>(i)] == row_of[static_cast<std::size_t>(q)])
        return std::string(1, name) + "'s tile rows " + std::to_string(q) + " and " + std::to_string(i) +
               " both read " + (name == 'A' ? "row " : "column ") +
               std::to_string(*row_of[static_cast<std::size_t>(i)]) + " of " + tname + " (descriptor " + d.str() +
               ": its start, LBO, SBO or swizzle, or the layout the kernel wrote, disagree)";
  return "";
}

Value cell_value(const TmemState& s, std::size_t cell) {
  Value v;
  v.bits = s.bits[cell];
  for (std::size_t b = 0; b < 4; ++b) v.tags[b] = s.tags[cell * 4 + b];
  return v;
}

// A tcgen05.ld's read of a cell an mma wrote: the reader must have seen the
// mbarrier phase of the commit that tracked that mma.
void require_committed(const Instruction& inst, ThreadContext& t, int lane, int column) {
  const TmemState& s = t.tmem();
  const std::size_t c = TmemState::cell(lane, column);
  if (s.mma[c] < 0 || s.mbarrier[c] == -2) return;
  const PtxKernel& k = t.machine().kernel;
  if (s.mbarrier[c] == -1)
    t.fault(inst, "reads " + lanes_text(lane, column) + ", which the tcgen05.mma at line " + line_text(k, s.mma[c]) +
                      " writes, and no tcgen05.commit has tracked that mma (its D is not complete until the commit's "
                      "mbarrier phase is seen)");
  if (t.mbarrier_seen(s.mbarrier[c]) >= s.phase[c]) return;
  t.fault(inst, "reads " + lanes_text(lane, column) + ", which the tcgen05.mma at line " + line_text(k, s.mma[c]) +
                    " writes, before this thread has seen phase " + std::to_string(s.phase[c] - 1) +
                    " of the mbarrier at shared byte " + std::to_string(t.mbarrier(s.mbarrier[c]).offset) +
                    " complete, the phase its tcgen05.commit arrives at (no mbarrier wait on it, nor a barrier of the "
                    "whole CTA after a thread's)");
}

}  // namespace

void decode_tcgen05(Instruction& inst, const SourceLoc& at) {
  const std::vector<std::string_view> words = words_of(inst.opcode);
  const std::string_view op = words.size() > 1 ? words[1] : std::string_view{};
  const auto has = [&](std::string_view w) { return std::find(words.begin(), words.end(), w) != words.end(); };
  const auto form_error = [&](const std::string& what) { not_modelled(at, "'" + inst.opcode + "' (" + what + ")"); };
  // Every word must be one the row reads.
  const auto only = [&](std::initializer_list<std::string_view> allowed) {
    for (std::size_t i = 2; i < words.size(); ++i)
      if (std::find(allowed.begin(), allowed.end(), words[i]) == allowed.end())
        not_modelled(at, "modifier '." + std::string(words[i]) + "' of '" + inst.opcode + "'");
  };
  if (has("cta_group::2")) form_error("cta_group::2: a CTA pair");
  if (op == "alloc") {
    only({"cta_group::1", "sync", "aligned", "shared::cta", "b32"});
  } else if (op == "dealloc" || op == "relinquish_alloc_permit") {
    only({"cta_group::1", "sync", "aligned", "b32"});
  } else if (op == "mma") {
    only({"cta_group::1", "kind::f16", "kind::tf32", "kind::f8f6f4", "kind::i8"});
    bool found = false;
    for (const std::string_view w : words)
      if (w.starts_with("kind::")) {
        Tcgen05Kind kind{};
        found = find_tcgen05_kind(w.substr(6), kind);
        inst.tcgen05.kind = static_cast<std::uint8_t>(kind);
      }
    if (!found) form_error("tcgen05.mma needs .kind::tf32, ::f16, ::f8f6f4 or ::i8");
  } else if (op == "commit") {
    only({"cta_group::1", "mbarrier::arrive::one", "shared::cluster", "b64"});
  } else if (op == "ld" || op == "st") {
    int shape = -1;
    for (std::size_t i = 2; i < words.size(); ++i) {
      const std::string_view w = words[i];
      if (w == "sync" || w == "aligned" || w == "b32") continue;
      bool matched = false;
      for (std::size_t s = 0; s < kLdShapes.size(); ++s)
        if (kLdShapes[s].name == w) {
          shape = static_cast<int>(s);
          matched = true;
        }
      if (matched) continue;
      if (w.size() >= 2 && w[0] == 'x' &&
          std::all_of(w.begin() + 1, w.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const int n = std::stoi(std::string(w.substr(1)));
        if (n < 1 || n > 128 || (n & (n - 1)) != 0) throw Error(at, "'" + inst.opcode + "': .num is x1, x2, .. x128");
        inst.tcgen05.num = n;
        continue;
      }
      if (w == "16x32bx2") form_error(".16x32bx2");
      if (w == "pack::16b" || w == "unpack::16b") form_error("the 16-bit pack and unpack forms");
      not_modelled(at, "modifier '." + std::string(w) + "' of '" + inst.opcode + "'");
    }
    if (shape < 0) form_error("a shape .32x32b, .16x64b, .16x128b or .16x256b is needed");
    inst.tcgen05.shape = static_cast<std::uint8_t>(shape);
    inst.tcgen05.regs = kLdShapes[static_cast<std::size_t>(shape)].regs * inst.tcgen05.num;
    if (inst.tcgen05.regs > 128) throw Error(at, "'" + inst.opcode + "' moves more than 128 registers a thread");
  } else if (op == "wait::ld" || op == "wait::st") {
    only({"sync", "aligned"});
  } else if (op == "fence::before_thread_sync" || op == "fence::after_thread_sync") {
    only({});
  } else {
    not_modelled(at, "'" + inst.opcode + "'");
  }
}

void check_tcgen05_operands(Instruction& inst, const PtxKernel& kernel) {
  const std::vector<std::string_view> words = words_of(inst.opcode);
  const std::string_view op = words[1];
  const auto reg_bits = [&](const Operand& o) {
    return o.kind == Tcgen05OpKind::reg && o.reg >= 0 ? kernel.reg_bits[static_cast<std::size_t>(o.reg)] : 0;
  };
  const auto value32 = [&](const Operand& o, const char* what) {
    if (!(o.kind == Tcgen05OpKind::imm || (o.kind == Tcgen05OpKind::reg && reg_bits(o) == 32)))
      throw Error(o.loc, std::string(what) + " is a 32-bit register or a constant");
  };
  if (op == "alloc") {
    if (inst.ops[0].kind != Tcgen05OpKind::address)
      throw Error(inst.ops[0].loc, "tcgen05.alloc writes to [shared address]");
    value32(inst.ops[1], "the column count");
  } else if (op == "dealloc") {
    value32(inst.ops[0], "the TMEM address");
    value32(inst.ops[1], "the column count");
  } else if (op == "mma") {
    const bool mask = inst.ops.size() == 6 && inst.ops[4].kind == Tcgen05OpKind::vec && inst.ops[4].regs.size() == 4;
    if (inst.ops.size() != 5 && !mask)
      not_modelled(inst.loc, "'" + inst.opcode +
                                 "' with scale-input-d (the forms [d], a_desc, b_desc, idesc, {disable-output-lane,} "
                                 "enable_input_d are)");
    if (mask)
      for (const int r : inst.ops[4].regs)
        if (r < 0 || kernel.reg_bits[static_cast<std::size_t>(r)] != 32)
          throw Error(inst.ops[4].loc, "the disable-output-lane mask is 4 32-bit registers");
    if (inst.ops[0].kind != Tcgen05OpKind::address) throw Error(inst.ops[0].loc, "tcgen05.mma's D is [a TMEM address]");
    if (inst.ops[1].kind == Tcgen05OpKind::address) not_modelled(inst.ops[1].loc, "tcgen05.mma with A in TMEM");
    for (const std::size_t i : {std::size_t{1}, std::size_t{2}})
      if (reg_bits(inst.ops[i]) != 64)
        throw Error(inst.ops[i].loc,
                    std::string(i == 1 ? "A" : "B") + "'s shared-memory descriptor is a 64-bit register");
    value32(inst.ops[3], "the instruction descriptor");
    const Operand& p = inst.ops.back();
    if (!(p.kind == Tcgen05OpKind::imm || (p.kind == Tcgen05OpKind::reg && reg_bits(p) == 1)))
      throw Error(p.loc, "enable-input-d is a predicate or a constant");
  } else if (op == "commit") {
    if (inst.ops[0].kind != Tcgen05OpKind::address) throw Error(inst.ops[0].loc, "tcgen05.commit takes [mbarrier]");
  } else if (op == "ld" || op == "st") {
    const std::size_t vec = op == "ld" ? 0 : 1, addr = op == "ld" ? 1 : 0;
    const Operand& v = inst.ops[vec];
    if (v.kind != Tcgen05OpKind::vec || static_cast<int>(v.regs.size()) != inst.tcgen05.regs)
      throw Error(v.loc, "'" + inst.opcode + "' moves a vector of " + std::to_string(inst.tcgen05.regs) + " registers");
    for (const int r : v.regs)
      if (r < 0 || kernel.reg_bits[static_cast<std::size_t>(r)] != 32)
        throw Error(v.loc, "tcgen05." + std::string(op) + "'s registers are 32 bits wide");
    if (inst.ops[addr].kind != Tcgen05OpKind::address) throw Error(inst.ops[addr].loc, "expected [a TMEM address]");
  }
}

void exec_tcgen05_alloc(const Instruction& inst, WarpContext& w) {
  require_whole_warp(inst, w);
  ThreadContext t = w.lane(0);
  TmemState& s = t.tmem();
  const std::uint32_t n = warp_uniform(inst, w, inst.ops[1], "the column count");
  if (n < 32 || n > 512 || (n & (n - 1)) != 0)
    t.fault(inst, "allocates " + std::to_string(n) + " TMEM columns (a power of 2 in 32..512)");
  if (s.relinquished)
    t.fault(inst, "tcgen05.alloc after the CTA's tcgen05.relinquish_alloc_permit (PTX ISA: no allocation after it)");
  // The lowest free columns, aligned to their count (which columns the
  // hardware gives, the ISA does not say; the kernel reads the address back).
  int column = -1;
  for (int c = 0; c + static_cast<int>(n) <= TmemState::kColumns && column < 0; c += static_cast<int>(n)) {
    bool free = true;
    for (const TmemState::Allocation& a : s.allocations)
      free = free && (a.column + a.columns <= c || a.column >= c + static_cast<int>(n));
    if (free) column = c;
  }
  if (column < 0)
    t.unfollowed(inst, "allocates " + std::to_string(n) +
                           " TMEM columns while too few are free: it waits for a tcgen05.dealloc, which the machine "
                           "does not follow");
  s.allocations.push_back({column, static_cast<int>(n), t.pc()});
  Value v;
  v.bits = static_cast<std::uint32_t>(column);  // lane 0 in bits 31-16
  std::uint64_t a = t.address(inst, inst.ops[0]);
  if (t.resolve(Space::shared, a) != Space::shared)
    t.fault(inst, "tcgen05.alloc writes its address outside shared memory");
  t.store(inst, Space::shared, a, 4, v);
}

void exec_tcgen05_dealloc(const Instruction& inst, WarpContext& w) {
  require_whole_warp(inst, w);
  ThreadContext t = w.lane(0);
  TmemState& s = t.tmem();
  const std::uint32_t taddr = warp_uniform(inst, w, inst.ops[0], "the TMEM address");
  const std::uint32_t n = warp_uniform(inst, w, inst.ops[1], "the column count");
  const int column = static_cast<int>(taddr & 0xFFFF);
  const auto it = std::find_if(s.allocations.begin(), s.allocations.end(),
                               [&](const TmemState::Allocation& a) { return a.column == column; });
  if ((taddr >> 16) != 0 || it == s.allocations.end())
    t.fault(inst, "deallocates TMEM address " + hex(taddr) + ", where no live tcgen05.alloc of this CTA begins");
  if (static_cast<int>(n) != it->columns)
    t.fault(inst, "deallocates " + std::to_string(n) + " columns of the " + std::to_string(it->columns) +
                      " the tcgen05.alloc at line " + line_text(t.machine().kernel, it->inst) + " allocated");
  s.allocations.erase(it);
  s.freed_by = t.pc();
}

void exec_tcgen05_relinquish(const Instruction&, WarpContext& w) { w.lane(0).tmem().relinquished = true; }

void exec_tcgen05_mma(const Instruction& inst, ThreadContext& t) {
  TmemState& s = t.tmem();
  const auto kind = static_cast<Tcgen05Kind>(inst.tcgen05.kind);
  const Value iv = t.get(inst.ops[3], 32);
  t.require_plain(inst, iv, 4, "the instruction descriptor");
  const auto idesc = static_cast<std::uint32_t>(iv.bits);
  const std::optional<Tcgen05Instr> found = instr_of_idesc(kind, 1, idesc);
  if (!found)
    t.fault(inst, "instruction descriptor " + hex(idesc) +
                      " describes no tcgen05.mma.cta_group::1.kind::" + std::string(tcgen05_kind_name(kind)) +
                      " (a format, M or N outside Table 39/42, or a field the dense form does not set)");
  const Tcgen05Instr& instr = *found;
  if (instr.negate_a || instr.negate_b) t.unfollowed(inst, "a negated operand (idesc bits 13-14) is not modelled");
  Value tv;
  tv.bits = t.address(inst, inst.ops[0]);
  const auto [lane0, col0] = tmem_address(inst, t, tv, "D's TMEM address");
  const DataPathLayout* path = find_data_path(1, instr.m);
  if (path == nullptr) t.fault(inst, "no data path for M = " + std::to_string(instr.m));
  if (const std::string p = tmem_address_problem(*path, instr.n, lane0, col0); !p.empty())
    t.fault(inst, "D at " + lanes_text(lane0, col0) + ": " + p);
  // A disable-output-lane mask (TIRx passes one): all zero, every lane
  // written, is the form without it.
  if (inst.ops.size() == 6)
    for (const int r : inst.ops[4].regs) {
      const Value m = t.reg(r);
      t.require_plain(inst, m, 4, "the disable-output-lane mask");
      if (static_cast<std::uint32_t>(m.bits) != 0)
        t.unfollowed(inst, "a nonzero disable-output-lane mask (" + hex(m.bits) + ") is not modelled");
    }
  const Value pv = t.get(inst.ops.back(), 1);
  t.require_plain(inst, pv, 1, "enable-input-d");
  const bool accumulate = (pv.bits & 1) != 0;
  const Tcgen05SmemDescriptor da = smem_descriptor(inst, t, inst.ops[1], "A's shared-memory descriptor");
  const Tcgen05SmemDescriptor db = smem_descriptor(inst, t, inst.ops[2], "B's shared-memory descriptor");
  const int M = instr.m, N = instr.n, K = instr.k();
  const int d_bytes = instr.d->name == "f16" ? 2 : 4;
  const std::uint64_t d_mask = d_bytes == 2 ? 0xFFFF : 0xFFFFFFFF;
  const std::size_t count = static_cast<std::size_t>(M) * static_cast<std::size_t>(N);
  std::vector<std::size_t> cells(count);
  std::vector<std::uint64_t> c(count);
  std::vector<std::uint64_t> d(count);
  std::vector<ElementRef> cref(count, ElementRef{ElementRef::Kind::zero, 0});
  Provenance& prov = t.provenance();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const TmemPosition p = tmem_position(*path, N, lane0, col0, i, j);
      const auto at = static_cast<std::size_t>(i * N + j);
      require_allocated(inst, t, static_cast<int>(p.lane), static_cast<int>(p.column), "tcgen05.mma writes D at");
      cells[at] = TmemState::cell(static_cast<int>(p.lane), static_cast<int>(p.column));
      if (!accumulate) continue;
      const Value v = cell_value(s, cells[at]);
      c[at] = v.bits & d_mask;
      cref[at] = element_ref(prov, v, 0, d_bytes);
      if (cref[at].kind == ElementRef::Kind::unwritten)
        t.fault(inst, "tcgen05.mma accumulates into D[" + std::to_string(i) + "][" + std::to_string(j) + "] at " +
                          lanes_text(static_cast<int>(p.lane), static_cast<int>(p.column)) +
                          ", which was never written (enable-input-d is true where D holds nothing yet)");
    }
  const OperandTile a = read_operand(inst, t, WgmmaOperand{'A', &instr.a->operand, M, K, instr.a_major}, da);
  const OperandTile b = read_operand(inst, t, WgmmaOperand{'B', &instr.b->operand, N, K, instr.b_major}, db);
  if (t.machine().options.tcgen05_arithmetic) {
    std::vector<std::uint64_t> bt(static_cast<std::size_t>(K * N));  // B as K x N
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) bt[static_cast<std::size_t>(k * N + n)] = b.bits[static_cast<std::size_t>(n * K + k)];
    t.machine().options.tcgen05_arithmetic(instr, a.bits, bt, c, d);
  }
  const std::uint64_t bad = prov.opaque(t.pc());
  const auto id_of = [&](const ElementRef& e) { return e.kind == ElementRef::Kind::value ? e.id : bad; };
  const bool with_sums = t.machine().options.sums;
  std::string blame;
  if (with_sums) blame = tile_problem(t, a, M, K, 'A', da);
  if (with_sums && blame.empty()) blame = tile_problem(t, b, N, K, 'B', db);
  const std::uint64_t first_sum = prov.next_id();
  std::vector<Product> products;
  std::vector<std::uint32_t>& pending = s.uncommitted[static_cast<std::size_t>(t.thread())];
  for (std::size_t at = 0; at < cells.size(); ++at) {
    const int i = static_cast<int>(at) / N, j = static_cast<int>(at) % N;
    std::uint64_t sum = bad;
    if (with_sums) {
      products.clear();
      for (int k = 0; k < K; ++k) {
        const ElementRef& ea = a.refs[static_cast<std::size_t>(i * K + k)];
        const ElementRef& eb = b.refs[static_cast<std::size_t>(j * K + k)];
        if (ea.kind == ElementRef::Kind::zero || eb.kind == ElementRef::Kind::zero) continue;
        products.push_back({id_of(ea), id_of(eb)});
      }
      const ElementRef& ec = cref[at];
      std::uint64_t parent = ec.kind == ElementRef::Kind::zero ? 0 : id_of(ec);
      if (ec.kind == ElementRef::Kind::constant) {
        const bool negative_zero = c[at] == (std::uint64_t{1} << (d_bytes * 8 - 1));
        parent = negative_zero ? 0 : prov.constant(c[at], d_bytes, t.origin());
      }
      sum = prov.add_sum(parent, products, d_bytes, t.origin(), true);
    }
    const std::size_t cell = cells[at];
    s.bits[cell] = static_cast<std::uint32_t>((s.bits[cell] & ~d_mask) | (d[at] & d_mask));
    for (int byte = 0; byte < d_bytes; ++byte) s.tags[cell * 4 + static_cast<std::size_t>(byte)] = make_tag(sum, byte);
    if (s.mbarrier[cell] != -1 || s.mma[cell] < 0) pending.push_back(static_cast<std::uint32_t>(cell));
    s.mma[cell] = t.pc();
    s.mbarrier[cell] = -1;
  }
  if (!blame.empty() && prov.next_id() > first_sum)
    prov.add_note({first_sum, prov.next_id() - 1, t.pc(), t.origin(), "tcgen05.mma: " + blame});
}

void exec_tcgen05_commit(const Instruction& inst, ThreadContext& t) {
  std::uint64_t a = t.address(inst, inst.ops[0]);
  if (t.resolve(Space::shared, a) != Space::shared) t.fault(inst, "tcgen05.commit's mbarrier is outside shared memory");
  const int mb = t.mbarrier_at(inst, a);
  TmemState& s = t.tmem();
  // The mmas complete at once here: the arrival is now, and a reader of
  // their cells must see the phase it belongs to complete.
  const std::uint32_t phase = t.mbarrier(mb).completions + 1;
  std::vector<std::uint32_t>& pending = s.uncommitted[static_cast<std::size_t>(t.thread())];
  for (const std::uint32_t cell : pending) {
    if (s.mbarrier[cell] != -1) continue;
    s.mbarrier[cell] = mb;
    s.phase[cell] = phase;
  }
  pending.clear();
  std::vector<std::uint32_t>& reads = s.uncommitted_reads[static_cast<std::size_t>(t.thread())];
  for (const std::uint32_t byte : reads) {
    if (s.read_mbarrier[byte] != -1) continue;
    s.read_mbarrier[byte] = mb + 1;
    s.read_phase[byte] = phase;
  }
  reads.clear();
  if (t.mbarrier(mb).pending < 1)
    t.fault(inst, "tcgen05.commit arrives at the mbarrier at shared byte " + std::to_string(t.mbarrier(mb).offset) +
                      ", whose phase waits for no more arrivals");
  t.mbarrier_update(mb, -1, 0);
}

void exec_tcgen05_ld(const Instruction& inst, WarpContext& w) {
  require_whole_warp(inst, w);
  const Tcgen05Form& f = inst.tcgen05;
  const LdShape& shape = kLdShapes[f.shape];
  ThreadContext t0 = w.lane(0);
  const Value av = warp_address(inst, w, inst.ops[1]);
  const auto [lane_given, col0] = tmem_address(inst, t0, av, "the TMEM address");
  const int lane0 = quarter_lane(inst, t0, lane_given, shape.lanes);
  const std::vector<int>& regs = inst.ops[0].regs;
  for (int l = 0; l < 32; ++l) {
    ThreadContext t = w.lane(l);
    const TmemState& s = t.tmem();
    for (int r = 0; r < f.regs; ++r) {
      const auto [dl, dc] = cell_of(f.shape, l, r);
      const int lane = lane0 + dl, column = col0 + dc;
      require_allocated(inst, t, lane, column, "tcgen05.ld reads");
      require_committed(inst, t, lane, column);
      Value v = cell_value(s, TmemState::cell(lane, column));
      if (tag_id(v.tags[0]) == kUnwritten)
        t.fault(inst, "tcgen05.ld reads " + lanes_text(lane, column) +
                          ", which no tcgen05.mma or tcgen05.st has written (lane " + std::to_string(l) +
                          "'s register " + std::to_string(r) +
                          "): the M or N of the mmas' instruction descriptor, or D's TMEM address, does not cover it");
      for (std::size_t b = 0; b < 4; ++b) v.tags[b] = loaded_by(v.tags[b], t.pc());
      t.set_reg(regs[static_cast<std::size_t>(r)], v);
    }
    for (const int r : regs) t.tmem_loaded(r, t.pc());
  }
}

void exec_tcgen05_st(const Instruction& inst, WarpContext& w) {
  require_whole_warp(inst, w);
  const Tcgen05Form& f = inst.tcgen05;
  const LdShape& shape = kLdShapes[f.shape];
  ThreadContext t0 = w.lane(0);
  const Value av = warp_address(inst, w, inst.ops[0]);
  const auto [lane_given, col0] = tmem_address(inst, t0, av, "the TMEM address");
  const int lane0 = quarter_lane(inst, t0, lane_given, shape.lanes);
  const std::vector<int>& regs = inst.ops[1].regs;
  for (int l = 0; l < 32; ++l) {
    ThreadContext t = w.lane(l);
    TmemState& s = t.tmem();
    for (int r = 0; r < f.regs; ++r) {
      const auto [dl, dc] = cell_of(f.shape, l, r);
      const int lane = lane0 + dl, column = col0 + dc;
      require_allocated(inst, t, lane, column, "tcgen05.st writes");
      const Value v = t.reg(regs[static_cast<std::size_t>(r)]);
      const std::size_t cell = TmemState::cell(lane, column);
      s.bits[cell] = static_cast<std::uint32_t>(v.bits);
      for (std::size_t b = 0; b < 4; ++b) s.tags[cell * 4 + b] = v.tags[b];
      s.mma[cell] = -1;
      s.mbarrier[cell] = -2;
    }
  }
}

void exec_tcgen05_wait_ld(const Instruction&, ThreadContext& t) { t.tmem_wait_ld(); }
void exec_tcgen05_wait_st(const Instruction&, ThreadContext&) {}

void tcgen05_shared_write(ThreadContext& t, const Instruction& inst, std::uint64_t byte) {
  TmemState& s = t.tmem();
  const std::int32_t mb = s.read_mbarrier[byte];
  const std::string line = line_text(t.machine().kernel, s.read_inst[byte]);
  if (mb == -1)
    t.fault(inst, "writes shared byte " + std::to_string(byte) + ", which the tcgen05.mma at line " + line +
                      " reads, and no tcgen05.commit has tracked that mma (it may still be reading)");
  if (t.mbarrier_seen(mb - 1) < s.read_phase[byte])
    t.fault(inst, "writes shared byte " + std::to_string(byte) + ", which the tcgen05.mma at line " + line +
                      " reads, before this thread has seen phase " + std::to_string(s.read_phase[byte] - 1) +
                      " of the mbarrier at shared byte " + std::to_string(t.mbarrier(mb - 1).offset) +
                      " complete, the phase its tcgen05.commit arrives at");
  s.read_mbarrier[byte] = 0;
}

void tcgen05_at_exit(ThreadContext& t) {
  const TmemState& s = t.tmem();
  if (s.allocations.empty()) return;
  const TmemState::Allocation& a = s.allocations.front();
  const Instruction& inst = t.machine().kernel.code[static_cast<std::size_t>(a.inst)];
  t.fault(inst, "TMEM columns " + std::to_string(a.column) + ".." + std::to_string(a.column + a.columns - 1) +
                    " this tcgen05.alloc allocated are still allocated when the CTA exits (PTX ISA: every allocation "
                    "must be freed with tcgen05.dealloc before the kernel exits)");
}

}  // namespace mmacheck::ptx
