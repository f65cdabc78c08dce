#include "core/ptx/ptx_wgmma.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/hex.h"
#include "core/ptx/machine_context.h"
#include "core/ptx/ptx_opcodes.h"
#include "core/wgmma/canonical_layout.h"
#include "core/wgmma/descriptor.h"
#include "core/wgmma/wgmma_frame.h"

namespace mmacheck::ptx {

namespace {

using Kind = Operand::Kind;
constexpr int kWarpgroup = 128;

const WgmmaType& input_type(DType t) { return *find_wgmma_type(dtype_info(t).ptx); }

const WgmmaFrame& d_frame(const WgmmaForm& f) {
  const WgmmaFrame* frame = find_wgmma_frame("m64nNk" + std::to_string(f.k), WgmmaFragment::D, dtype_info(f.d).bits);
  if (frame == nullptr) throw Error("internal: no wgmma D frame for k" + std::to_string(f.k));
  return *frame;
}

WgmmaOperand operand_of(const WgmmaForm& f, char which) {
  const bool a = which == 'A';
  return WgmmaOperand{which, &input_type(a ? f.a : f.b), a ? 64 : f.n, f.k,
                      (a ? f.trans_a : f.trans_b) ? Major::mn : Major::k};
}

// A value every thread of the warpgroup gives alike, not computed from
// tensor data: a descriptor, scale-d.  Threads that give different values
// end the run unfollowed, not refuted: the ISA does not say which thread's
// value the instruction takes.
std::uint64_t uniform(const Instruction& inst, WarpContext& w, const Operand& op, int bits, const char* what) {
  std::uint64_t first = 0;
  for (int l = 0; l < kWarpgroup; ++l) {
    ThreadContext t = w.lane(l);
    const Value v = t.get(op, bits);
    t.require_plain(inst, v, (bits + 7) / 8, what);
    if (l == 0) first = v.bits;
    else if (v.bits != first)
      w.lane(l).unfollowed(inst, std::string(what) + " is " + hex(v.bits) + " in thread " + std::to_string(l) +
                                     " of the warpgroup and " + hex(first) +
                                     " in thread 0: which thread's value wgmma takes, the PTX ISA does not say");
  }
  return first;
}

MatrixDescriptor descriptor(const Instruction& inst, WarpContext& w, const Operand& op, const char* what) {
  const std::uint64_t bits = uniform(inst, w, op, 64, what);
  MatrixDescriptor d;
  try {
    d = MatrixDescriptor::decode(bits);
  } catch (const Error& e) {
    w.fault(inst, 0, std::string(what) + " " + hex(bits) + " is no matrix descriptor: " + e.message());
  }
  if (d.base_offset != 0)
    w.lane(0).unfollowed(inst, std::string(what) + " " + d.str() +
                                   " has a matrix base offset, which the canonical layouts do not model");
  return d;
}

// An operand tile read through its descriptor: element (i, k) of A (64 x K)
// or of B (N x K, i = n), its bits and provenance.
struct Tile {
  std::vector<std::uint64_t> bits;
  std::vector<ElementRef> refs;
};

Tile read_tile(const Instruction& inst, WarpContext& w, const WgmmaOperand& op, const MatrixDescriptor& d,
               PendingWgmma& pending) {
  ThreadContext t = w.lane(0);
  const int bytes = op.type->bytes;
  Tile tile{std::vector<std::uint64_t>(static_cast<std::size_t>(op.rows * op.k), 0),
            std::vector<ElementRef>(static_cast<std::size_t>(op.rows * op.k), ElementRef{ElementRef::Kind::zero, 0})};
  for (int i = 0; i < op.rows; ++i)
    for (int k = 0; k < op.k; ++k) {
      const auto address = static_cast<std::uint64_t>(canonical_address(op, d, i, k));
      const Value v = t.load(inst, Space::shared, address, bytes);
      t.require_proxy_fenced(inst, address, bytes);
      t.wgmma_reads(address, bytes);
      for (int b = 0; b < bytes; ++b)
        pending.shared.push_back(static_cast<std::uint32_t>(address) + static_cast<std::uint32_t>(b));
      const auto at = static_cast<std::size_t>(i * op.k + k);
      tile.bits[at] = v.bits;
      tile.refs[at] = element_ref(w.provenance(), v, 0, bytes);
      if (tile.refs[at].kind == ElementRef::Kind::unwritten)
        t.fault(inst, std::string("wgmma.mma_async reads ") + op.operand + "'s element (" +
                          (op.operand == 'A' ? "m " : "n ") + std::to_string(i) + ", k " + std::to_string(k) +
                          ") at shared byte " + std::to_string(address) + ", which was never written (descriptor " +
                          d.str() + ")");
    }
  return tile;
}

// A from registers: element (m, k) of the 64 x K tile from its thread's
// fragment register (core/wgmma/wgmma_frame.h).
Tile register_tile(const Instruction& inst, WarpContext& w, const WgmmaOperand& op) {
  const WgmmaFrame& frame = *find_wgmma_frame("m64nNk" + std::to_string(op.k), WgmmaFragment::A, op.type->bytes * 8);
  const int bits = frame.elem_bits, per = frame.per_reg();
  Tile tile{std::vector<std::uint64_t>(static_cast<std::size_t>(64 * op.k), 0),
            std::vector<ElementRef>(static_cast<std::size_t>(64 * op.k), ElementRef{ElementRef::Kind::zero, 0})};
  const PtxKernel& kernel = w.lane(0).machine().kernel;
  for (int l = 0; l < kWarpgroup; ++l) {
    ThreadContext t = w.lane(l);
    for (int e = 0; e < frame.elems(); ++e) {
      const int r = inst.ops[1].regs[static_cast<std::size_t>(e / per)];
      const Value v = t.wgmma_reg(r);
      const int bit = (e % per) * bits;
      const auto [i, k] = frame.at(l, e);
      const auto at = static_cast<std::size_t>(i * op.k + k);
      tile.bits[at] = (v.bits >> bit) & ((std::uint64_t{1} << bits) - 1);
      tile.refs[at] = element_ref(w.provenance(), v, bit / 8, bits / 8);
      if (tile.refs[at].kind == ElementRef::Kind::unwritten)
        w.fault(inst, l,
                "wgmma.mma_async reads A register " + kernel.reg_names[static_cast<std::size_t>(r)] + " of thread " +
                    std::to_string(l) + ", which was never written");
    }
  }
  return tile;
}

}  // namespace

void decode_wgmma(Instruction& inst, const SourceLoc& at) {
  // wgmma.mma_async.sync.aligned.m64nNkK.D.A.B
  std::vector<std::string_view> words;
  std::string_view rest = inst.opcode;
  for (std::size_t dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.')) {
    words.push_back(rest.substr(0, dot));
    rest.remove_prefix(dot + 1);
  }
  words.push_back(rest);
  const auto form_error = [&] {
    not_modelled(at,
                 "'" + inst.opcode + "' (wgmma.mma_async.sync.aligned.m64nNkK.D.A.B with A and B in shared memory is)");
  };
  if (words.size() != 8 || words[2] != "sync" || words[3] != "aligned") form_error();
  const std::string_view shape = words[4];
  const std::size_t kpos = shape.find('k');
  if (!shape.starts_with("m64n") || kpos == std::string_view::npos) form_error();
  WgmmaForm f;
  try {
    f.n = std::stoi(std::string(shape.substr(4, kpos - 4)));
    f.k = std::stoi(std::string(shape.substr(kpos + 1)));
  } catch (const std::exception&) {
    form_error();
  }
  const std::optional<DType> d = parse_dtype(words[5]), a = parse_dtype(words[6]), b = parse_dtype(words[7]);
  if (!d || !a || !b || find_wgmma_type(words[6]) == nullptr || find_wgmma_type(words[7]) == nullptr) form_error();
  f.d = *d;
  f.a = *a;
  f.b = *b;
  if (f.d != DType::f32 && f.d != DType::f16 && f.d != DType::s32) form_error();
  if (f.d == DType::s32) not_modelled(at, "'" + inst.opcode + "' (integer wgmma)");
  if (input_type(f.a).k != f.k || input_type(f.b).k != f.k)
    throw Error(at,
                "'" + inst.opcode + "': " + std::string(words[6]) + " takes K = " + std::to_string(input_type(f.a).k));
  if (f.n < 8 || f.n > 256 || f.n % 8 != 0) throw Error(at, "'" + inst.opcode + "': N is a multiple of 8 in 8..256");
  if (find_wgmma_frame("m64nNk" + std::to_string(f.k), WgmmaFragment::D, dtype_info(f.d).bits) == nullptr) form_error();
  inst.wgmma = f;
}

void check_wgmma_operands(Instruction& inst, const PtxKernel& kernel) {
  const std::string_view op = inst.opcode;
  if (op.starts_with("wgmma.wait_group")) {
    if (inst.ops[0].kind != Kind::imm || inst.ops[0].imm < 0)
      throw Error(inst.ops[0].loc, "wgmma.wait_group takes a constant N >= 0");
    inst.count = inst.ops[0].imm;
    return;
  }
  if (!op.starts_with("wgmma.mma_async")) return;
  WgmmaForm& f = inst.wgmma;
  const bool transposable = input_type(f.a).transposable;
  const std::size_t n = inst.ops.size();
  const bool a_regs = n > 1 && inst.ops[1].kind == Kind::vec;
  const std::size_t want = transposable ? (a_regs ? 7u : 8u) : 6u;
  if (n != want)
    throw Error(inst.loc, "'" + inst.opcode + "' takes " + std::to_string(want) + " operands (D, " +
                              (a_regs ? "A's registers" : "descriptor A") +
                              ", descriptor B, scale-d, imm-scale-a, imm-scale-b" +
                              (transposable ? (a_regs ? ", imm-trans-b)" : ", imm-trans-a, imm-trans-b)") : ")"));
  const WgmmaFrame& frame = d_frame(f);
  const Operand& d = inst.ops[0];
  if (d.kind != Kind::vec || static_cast<int>(d.regs.size()) != frame.regs(f.n))
    throw Error(d.loc, "D must be a vector of " + std::to_string(frame.regs(f.n)) + " registers");
  for (const int r : d.regs)
    if (r < 0 || kernel.reg_bits[static_cast<std::size_t>(r)] != 32)
      throw Error(d.loc, "D's registers are 32 bits wide");
  // A from registers: its fragment's registers, and no imm-trans-a.
  f.a_in_registers = a_regs;
  if (a_regs) {
    const WgmmaFrame* fa =
        find_wgmma_frame("m64nNk" + std::to_string(f.k), WgmmaFragment::A, input_type(f.a).bytes * 8);
    if (fa == nullptr) throw Error(inst.ops[1].loc, "no A fragment for '" + inst.opcode + "'");
    if (static_cast<int>(inst.ops[1].regs.size()) != fa->regs())
      throw Error(inst.ops[1].loc, "A must be a vector of " + std::to_string(fa->regs()) + " registers");
    for (const int r : inst.ops[1].regs)
      if (r < 0 || kernel.reg_bits[static_cast<std::size_t>(r)] != 32)
        throw Error(inst.ops[1].loc, "A's registers are 32 bits wide");
  }
  for (const std::size_t i : {std::size_t{1}, std::size_t{2}}) {
    if (i == 1 && a_regs) continue;
    const Operand& o = inst.ops[i];
    if (o.kind != Kind::reg || kernel.reg_bits[static_cast<std::size_t>(o.reg)] != 64)
      throw Error(o.loc, std::string(i == 1 ? "A" : "B") + "'s matrix descriptor must be a 64-bit register");
  }
  const Operand& scale_d = inst.ops[3];
  if (scale_d.kind == Kind::reg) {
    if (kernel.reg_bits[static_cast<std::size_t>(scale_d.reg)] != 1)
      throw Error(scale_d.loc, "scale-d is a predicate or a constant");
  } else if (scale_d.kind != Kind::imm) {
    throw Error(scale_d.loc, "scale-d is a predicate or a constant");
  }
  for (std::size_t i = 4; i < n; ++i) {
    const Operand& o = inst.ops[i];
    if (o.kind != Kind::imm) throw Error(o.loc, "'" + inst.opcode + "' takes a constant here");
    if (i < 6 && o.imm != 1 && o.imm != -1) throw Error(o.loc, "imm-scale-a and imm-scale-b are 1 or -1");
    if (i < 6 && o.imm == -1) not_modelled(o.loc, "a negated operand (imm-scale -1) of wgmma.mma_async");
    if (i >= 6 && o.imm != 0 && o.imm != 1) throw Error(o.loc, "imm-trans-a and imm-trans-b are 0 or 1");
  }
  if (transposable && a_regs) {
    f.trans_b = inst.ops[6].imm == 1;
  } else if (transposable) {
    f.trans_a = inst.ops[6].imm == 1;
    f.trans_b = inst.ops[7].imm == 1;
  }
}

void exec_wgmma_fence(const Instruction&, WarpContext& w) {
  for (int l = 0; l < kWarpgroup; ++l) w.lane(l).wgmma_fence();
}

void exec_wgmma_commit(const Instruction&, WarpContext& w) {
  WarpgroupState& wg = w.warpgroup();
  wg.groups.push_back(std::move(wg.open));
  wg.open.clear();
}

void exec_wgmma_wait(const Instruction& inst, WarpContext& w) { w.lane(0).wgmma_wait(inst.count); }

void exec_wgmma_mma(const Instruction& inst, WarpContext& w) {
  const WgmmaForm& f = inst.wgmma;
  const WgmmaFrame& frame = d_frame(f);
  const int elem_bits = frame.elem_bits, elem_bytes = elem_bits / 8, per_reg = frame.per_reg();
  const std::vector<int>& dregs = inst.ops[0].regs;
  Provenance& prov = w.provenance();
  const PtxKernel& kernel = w.lane(0).machine().kernel;
  // The accumulator registers (and A's): written since the last
  // wgmma.fence by another instruction is an ISA violation (the fence
  // orders them).
  std::vector<int> fenced = dregs;
  if (f.a_in_registers) fenced.insert(fenced.end(), inst.ops[1].regs.begin(), inst.ops[1].regs.end());
  for (int l = 0; l < kWarpgroup; ++l) {
    ThreadContext t = w.lane(l);
    for (const int r : fenced)
      if (t.unfenced(r)) {
        const int by = t.reg_writer(r);
        w.fault(inst, l,
                std::string(std::find(dregs.begin(), dregs.end(), r) != dregs.end() ? "accumulator" : "A") +
                    " register " + kernel.reg_names[static_cast<std::size_t>(r)] + " of thread " + std::to_string(l) +
                    " was written by " +
                    (by >= 0 ? "'" + kernel.code[static_cast<std::size_t>(by)].opcode + "' at line " +
                                   std::to_string(kernel.code[static_cast<std::size_t>(by)].loc.line)
                             : std::string("the kernel")) +
                    " with no wgmma.fence between that write and this wgmma.mma_async (PTX ISA: wgmma.fence orders "
                    "register accesses before wgmma.mma_async)");
      }
  }
  const bool scale_d = (uniform(inst, w, inst.ops[3], 1, "scale-d") & 1) != 0;
  const MatrixDescriptor db = descriptor(inst, w, inst.ops[2], "B's matrix descriptor");
  PendingWgmma pending;
  pending.inst = w.lane(0).pc();
  pending.regs = dregs;
  const WgmmaOperand opa = operand_of(f, 'A'), opb = operand_of(f, 'B');
  Tile a;
  if (f.a_in_registers) {
    pending.a_regs = inst.ops[1].regs;
    a = register_tile(inst, w, opa);
  } else {
    a = read_tile(inst, w, opa, descriptor(inst, w, inst.ops[1], "A's matrix descriptor"), pending);
  }
  const Tile b = read_tile(inst, w, opb, db, pending);  // (n, k)
  const int M = 64, N = f.n, K = f.k;
  // C: the accumulator as this wgmma reads it (the one before it in flight
  // in a chain), per element of the 64 x N tile.
  std::vector<std::uint64_t> c(static_cast<std::size_t>(M * N), 0), d(c.size(), 0);
  std::vector<ElementRef> cref(c.size(), ElementRef{ElementRef::Kind::zero, 0});
  std::vector<int> owner(c.size(), 0);
  for (int l = 0; l < kWarpgroup; ++l) {
    ThreadContext t = w.lane(l);
    for (int e = 0; e < frame.elems(N); ++e) {
      const auto [i, j] = frame.at(l, e);
      const auto at = static_cast<std::size_t>(i * N + j);
      owner[at] = l;
      if (!scale_d) continue;
      const int r = dregs[static_cast<std::size_t>(e / per_reg)];
      const Value v = t.wgmma_reg(r);
      const int bit = (e % per_reg) * elem_bits;
      c[at] = (v.bits >> bit) & ((std::uint64_t{1} << elem_bits) - 1);
      cref[at] = element_ref(prov, v, bit / 8, elem_bytes);
      if (cref[at].kind == ElementRef::Kind::unwritten)
        w.fault(inst, l,
                "wgmma.mma_async reads accumulator register " + kernel.reg_names[static_cast<std::size_t>(r)] +
                    " of thread " + std::to_string(l) + ", which was never written");
    }
  }
  const bool with_sums = w.options().sums;
  if (w.options().wgmma_arithmetic) {
    std::vector<std::uint64_t> bt(static_cast<std::size_t>(K * N));  // B as K x N
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) bt[static_cast<std::size_t>(k * N + n)] = b.bits[static_cast<std::size_t>(n * K + k)];
    w.options().wgmma_arithmetic(f, a.bits, bt, c, d);
  }
  const std::uint64_t bad = prov.opaque(pending.inst);
  const auto id_of = [&](const ElementRef& e) { return e.kind == ElementRef::Kind::value ? e.id : bad; };
  std::vector<std::uint64_t> sums(c.size(), bad);
  std::vector<Product> products;
  for (std::size_t at = 0; at < c.size() && with_sums; ++at) {
    const int i = static_cast<int>(at) / N, j = static_cast<int>(at) % N;
    products.clear();
    for (int k = 0; k < K; ++k) {
      const ElementRef& ea = a.refs[static_cast<std::size_t>(i * K + k)];
      const ElementRef& eb = b.refs[static_cast<std::size_t>(j * K + k)];
      if (ea.kind == ElementRef::Kind::zero || eb.kind == ElementRef::Kind::zero) continue;
      products.push_back({id_of(ea), id_of(eb)});
    }
    const ElementRef& ec = cref[at];
    std::uint64_t parent = ec.kind == ElementRef::Kind::zero ? 0 : id_of(ec);
    const Origin o = w.lane(owner[at]).origin();
    if (ec.kind == ElementRef::Kind::constant) {
      const bool negative_zero = dtype_info(f.d).is_float && c[at] == (std::uint64_t{1} << (elem_bits - 1));
      parent = negative_zero ? 0 : prov.constant(c[at], elem_bytes, o);
    }
    sums[at] = prov.add_sum(parent, products, elem_bytes, o, true);
  }
  // D per thread and register, written at the wait that completes it.
  pending.d.assign(kWarpgroup, std::vector<Value>(dregs.size()));
  for (int l = 0; l < kWarpgroup; ++l) {
    for (int e = 0; e < frame.elems(N); ++e) {
      const auto [i, j] = frame.at(l, e);
      const auto at = static_cast<std::size_t>(i * N + j);
      Value& v = pending.d[static_cast<std::size_t>(l)][static_cast<std::size_t>(e / per_reg)];
      const int bit = (e % per_reg) * elem_bits;
      v.bits |= (d[at] & ((std::uint64_t{1} << elem_bits) - 1)) << bit;
      for (int byte = 0; byte < elem_bytes; ++byte)
        v.tags[static_cast<std::size_t>(bit / 8 + byte)] = make_tag(sums[at], byte);
    }
  }
  for (int l = 0; l < kWarpgroup; ++l) w.lane(l).wgmma_issue(pending);
  w.warpgroup().open.push_back(std::move(pending));
}

}  // namespace mmacheck::ptx
