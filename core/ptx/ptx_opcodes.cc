#include "core/ptx/ptx_opcodes.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <functional>
#include <cmath>
#include <optional>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/ldmatrix.h"
#include "core/gemm/mma_inst.h"
#include "core/program/dtype.h"
#include "core/ptx/machine_context.h"
#include "core/ptx/ptx_float.h"
#include "core/ptx/ptx_mbarrier.h"
#include "core/ptx/ptx_setmaxnreg.h"
#include "core/ptx/ptx_tma.h"
#include "core/ptx/ptx_tcgen05.h"
#include "core/ptx/ptx_wgmma.h"

namespace mmacheck::ptx {

void not_modelled(const SourceLoc& at, const std::string& what) {
  throw Error(at, what + " is not modelled by the PTX machine (docs/ptx.md lists what is)");
}

namespace {

using Kind = Operand::Kind;

constexpr std::uint64_t mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }
constexpr std::int64_t sext(std::uint64_t v, int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t m = std::uint64_t{1} << (bits - 1);
  return static_cast<std::int64_t>(((v & mask(bits)) ^ m) - m);
}
constexpr int bytes_of(int bits) { return (bits + 7) / 8; }

// ---- semantics: moves and memory -------------------------------------------

// mov: a copy, or packing / unpacking a vector of registers into one.
void exec_mov(const Instruction& inst, ThreadContext& t) {
  const Operand& d = inst.ops[0];
  const Operand& a = inst.ops[1];
  const int bits = inst.type.bits;
  if (d.kind == Kind::vec) {  // mov.b32 {%rs1, %rs2}, %r1
    const Value v = t.get(a, bits);
    const int part = bits / static_cast<int>(d.regs.size());
    for (std::size_t i = 0; i < d.regs.size(); ++i) {
      Value p;
      const int shift = part * static_cast<int>(i);
      p.bits = (v.bits >> shift) & mask(part);
      for (int b = 0; b < part / 8; ++b)
        p.tags[static_cast<std::size_t>(b)] = v.tags[static_cast<std::size_t>(shift / 8 + b)];
      t.set_reg(d.regs[i], p);
    }
    return;
  }
  if (a.kind == Kind::vec) {  // mov.b32 %r1, {%rs1, %rs2}
    const int part = bits / static_cast<int>(a.regs.size());
    Value v;
    for (std::size_t i = 0; i < a.regs.size(); ++i) {
      const Value p = a.regs[i] < 0 ? Value{} : t.reg(a.regs[i]);
      const int shift = part * static_cast<int>(i);
      v.bits |= (p.bits & mask(part)) << shift;
      for (int b = 0; b < part / 8; ++b)
        v.tags[static_cast<std::size_t>(shift / 8 + b)] = p.tags[static_cast<std::size_t>(b)];
    }
    t.set(d, v);
    return;
  }
  t.set(d, t.get(a, bits));
}

// The value of a param-space load: the parameter's bytes from the launch.
Value param_value(const Instruction& inst, ThreadContext& t, const Operand& addr, int bytes) {
  if (addr.symbol < 0) throw Error(addr.loc, "ld.param needs a parameter's name");
  const PtxKernel& k = t.machine().kernel;
  const Symbol& s = k.symbols[static_cast<std::size_t>(addr.symbol)];
  if (s.space != Space::param) throw Error(addr.loc, "'" + s.name + "' is not a parameter");
  if (addr.imm < 0 || addr.imm + bytes > s.bytes || bytes > 8)
    throw Error(addr.loc, "ld.param reads outside parameter '" + s.name + "'");
  Value v;
  const std::uint64_t p = t.machine().params[static_cast<std::size_t>(s.offset)];
  v.bits = (p >> (8 * addr.imm)) & mask(8 * bytes);
  (void)inst;
  return v;
}

void exec_ld(const Instruction& inst, ThreadContext& t) {
  const Operand& d = inst.ops[0];
  const int bytes = bytes_of(inst.type.bits);
  const std::vector<int> single{d.reg};
  const std::vector<int>& dst = d.kind == Kind::vec ? d.regs : single;
  if (inst.space == Space::param) {
    t.set_reg(d.reg, param_value(inst, t, inst.ops[1], bytes));
    return;
  }
  const std::uint64_t base = t.address(inst, inst.ops[1]);
  for (std::size_t i = 0; i < dst.size(); ++i) {
    std::uint64_t address = base + i * static_cast<std::uint64_t>(bytes);
    const Space space = t.resolve(inst.space, address);
    Value v = t.load(inst, space, address, bytes);
    // A byte reloaded from local memory (a spill) keeps the load that first
    // brought it into a register.
    for (int b = 0; b < bytes; ++b)
      if (Tag& tag = v.tags[static_cast<std::size_t>(b)]; space != Space::local || tag_loaded_by(tag) < 0)
        tag = loaded_by(tag, t.pc());
    if (inst.type.kind == TypeKind::s && dst[i] >= 0 && t.reg_bits(dst[i]) > inst.type.bits) {
      // Sign extension: the upper bytes follow the data's sign.
      const int reg_bits = t.reg_bits(dst[i]);
      Value wide;
      wide.bits = static_cast<std::uint64_t>(sext(v.bits, inst.type.bits)) & mask(reg_bits);
      t.derive(inst, wide, bytes_of(reg_bits), {&v});  // the copied sign bits: opaque when v is data
      for (int b = 0; b < bytes && v.tagged(bytes); ++b)
        wide.tags[static_cast<std::size_t>(b)] = v.tags[static_cast<std::size_t>(b)];
      v = wide;
    }
    t.set_reg(dst[i], v);
  }
}

void exec_st(const Instruction& inst, ThreadContext& t) {
  const Operand& a = inst.ops[1];
  const int bytes = bytes_of(inst.type.bits);
  const std::uint64_t base = t.address(inst, inst.ops[0]);
  if (a.kind == Kind::vec) {
    for (std::size_t i = 0; i < a.regs.size(); ++i) {
      Value v;  // the sink `_`: zero bits, untagged
      if (a.regs[i] == kVecConstant) v.bits = static_cast<std::uint64_t>(a.imms[i]) & mask(inst.type.bits);
      else if (a.regs[i] >= 0) v = t.reg(a.regs[i]);
      t.store(inst, inst.space, base + i * static_cast<std::uint64_t>(bytes), bytes, v);
    }
    return;
  }
  t.store(inst, inst.space, base, bytes, t.get(a, inst.type.bits));
}

void exec_cvta(const Instruction& inst, ThreadContext& t) {
  Value v = t.get(inst.ops[1], inst.type.bits);
  const std::uint64_t window = window_of(inst.space);  // cvta.to.SPACE: generic to SPACE
  v.bits = inst.count != 0 ? v.bits - window : v.bits + window;
  v.bits &= mask(inst.type.bits);
  t.set(inst.ops[0], v);
}

void exec_cp_async(const Instruction& inst, ThreadContext& t) {
  const std::uint64_t dst = t.address(inst, inst.ops[0]);
  const std::uint64_t src = t.address(inst, inst.ops[1]);
  const int bytes = static_cast<int>(inst.ops[2].imm);
  int src_bytes = bytes;
  if (inst.ops.size() > 3) {
    const Value s = t.get(inst.ops[3], 32);
    t.require_plain(inst, s, 4, "cp.async's source size");
    src_bytes = static_cast<int>(std::min<std::uint64_t>(s.bits, static_cast<std::uint64_t>(bytes)));
  }
  t.cp_async(inst, dst, src, bytes, src_bytes);
}

void exec_cp_commit(const Instruction&, ThreadContext& t) { t.cp_async_commit(); }
void exec_cp_wait(const Instruction& inst, ThreadContext& t) { t.cp_async_wait(inst, inst.count); }
void exec_nop(const Instruction&, ThreadContext&) {}
void exec_proxy_fence(const Instruction&, ThreadContext& t) { t.proxy_fence(); }

// ---- semantics: control ------------------------------------------------------

void exec_bra(const Instruction& inst, ThreadContext& t) { t.jump(inst.ops[0].target); }
void exec_exit(const Instruction&, ThreadContext& t) { t.exit(); }

// ---- semantics: integer and float arithmetic ---------------------------------

float ftz32(float x, bool ftz) { return ftz && std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }

// A float operand as a double (f32 and f64; f16 and bf16 through f32).
double float_in(const Instruction& inst, std::uint64_t bits, PtxType type) {
  switch (type.bits) {
    case 16:
      return static_cast<double>(
          ftz32(bits_f32(type.kind == TypeKind::bf ? bf16_to_f32(static_cast<std::uint16_t>(bits))
                                                   : f16_to_f32(static_cast<std::uint16_t>(bits))),
                inst.ftz));
    case 32: return static_cast<double>(ftz32(bits_f32(static_cast<std::uint32_t>(bits)), inst.ftz));
    default: return bits_f64(bits);
  }
}

std::uint64_t f32_out(const Instruction& inst, float x) { return f32_bits(ftz32(x, inst.ftz)); }

enum class Arith : std::uint8_t {
  add,
  sub,
  mul,
  mad,
  fma,
  min,
  max,
  div,
  rem,
  neg,
  abs,
  and_op,
  or_op,
  xor_op,
  not_op,
  shl,
  shr
};

// One float operation in F's arithmetic (IEEE, round to nearest even; min
// and max return the other operand of a NaN, as PTX's do).
template <class F>
F float_op(Arith op, F x, F y, F z) {
  switch (op) {
    case Arith::add: return x + y;
    case Arith::sub: return x - y;
    case Arith::mul: return x * y;
    case Arith::mad:
    case Arith::fma: return std::fma(x, y, z);
    case Arith::min: return std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y);
    case Arith::max: return std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y);
    case Arith::div: return x / y;
    case Arith::neg: return -x;
    case Arith::abs: return std::fabs(x);
    default: return F{0};
  }
}

template <Arith Op>
void exec_arith(const Instruction& inst, ThreadContext& t) {
  const PtxType ty = inst.type;
  const int in_bits = ty.bits;
  const int out_bits = inst.mode == IntMode::wide ? 2 * in_bits : in_bits;
  const bool shift = Op == Arith::shl || Op == Arith::shr;
  const Value a = t.get(inst.ops[1], in_bits);
  const Value b = inst.ops.size() > 2 ? t.get(inst.ops[2], shift ? 32 : in_bits) : Value{};
  const Value c = inst.ops.size() > 3 ? t.get(inst.ops[3], out_bits) : Value{};
  Value r;
  if (ty.kind == TypeKind::f) {
    const double x = float_in(inst, a.bits, ty), y = float_in(inst, b.bits, ty), z = float_in(inst, c.bits, ty);
    if (ty.bits == 32) {
      float res = float_op<float>(Op, static_cast<float>(x), static_cast<float>(y), static_cast<float>(z));
      if (inst.sat) res = std::isnan(res) ? 0.0f : std::clamp(res, 0.0f, 1.0f);
      r.bits = f32_out(inst, res);
    } else {
      r.bits = f64_bits(float_op<double>(Op, x, y, z));
    }
    t.derive(inst, r, bytes_of(out_bits), {&a, &b, &c});
    t.set(inst.ops[0], r);
    return;
  }
  const bool sign = ty.kind == TypeKind::s;
  const std::uint64_t ua = a.bits & mask(in_bits), ub = b.bits & mask(shift ? 32 : in_bits);
  const std::int64_t sa = sext(ua, in_bits), sb = sext(ub, in_bits);
  std::uint64_t res = 0;
  switch (Op) {
    case Arith::add: res = ua + ub; break;
    case Arith::sub: res = ua - ub; break;
    case Arith::mul:
    case Arith::mad: {
      if (inst.mode == IntMode::hi) {
        if (sign) {
          const __int128 p = static_cast<__int128>(sa) * sb;
          res = static_cast<std::uint64_t>(p >> in_bits);
        } else {
          const unsigned __int128 p = static_cast<unsigned __int128>(ua) * ub;
          res = static_cast<std::uint64_t>(p >> in_bits);
        }
      } else if (inst.mode == IntMode::wide) {
        res = sign ? static_cast<std::uint64_t>(sa * sb) : ua * ub;
      } else {
        res = ua * ub;
      }
      if (Op == Arith::mad) res += c.bits;
      break;
    }
    case Arith::min: res = sign ? static_cast<std::uint64_t>(std::min(sa, sb)) : std::min(ua, ub); break;
    case Arith::max: res = sign ? static_cast<std::uint64_t>(std::max(sa, sb)) : std::max(ua, ub); break;
    case Arith::div:
      res = ub == 0 ? mask(in_bits)
            : sign  ? (sb == -1 ? static_cast<std::uint64_t>(-static_cast<std::uint64_t>(sa))
                                : static_cast<std::uint64_t>(sa / sb))
                    : ua / ub;
      break;
    case Arith::rem: res = ub == 0 ? ua : sign ? (sb == -1 ? 0 : static_cast<std::uint64_t>(sa % sb)) : ua % ub; break;
    case Arith::neg: res = 0 - ua; break;
    case Arith::abs:
      res = static_cast<std::uint64_t>(sa < 0 ? -static_cast<std::uint64_t>(sa) : static_cast<std::uint64_t>(sa));
      break;
    case Arith::and_op: res = ua & ub; break;
    case Arith::or_op: res = ua | ub; break;
    case Arith::xor_op: res = ua ^ ub; break;
    case Arith::not_op: res = ~ua; break;
    case Arith::shl: res = ub >= static_cast<std::uint64_t>(in_bits) ? 0 : ua << ub; break;
    case Arith::shr:
      res = sign
                ? static_cast<std::uint64_t>(sa >> std::min<std::uint64_t>(ub, static_cast<std::uint64_t>(in_bits - 1)))
                : (ub >= static_cast<std::uint64_t>(in_bits) ? 0 : ua >> ub);
      break;
    default: break;
  }
  if (inst.sat && sign && in_bits == 32 && (Op == Arith::add || Op == Arith::sub)) {
    const std::int64_t exact = Op == Arith::add ? sa + sb : sa - sb;
    res = static_cast<std::uint64_t>(std::clamp<std::int64_t>(exact, INT32_MIN, INT32_MAX));
  }
  r.bits = res & mask(out_bits);
  const int n = bytes_of(out_bits);
  // Whole bytes moved by a plain shift or picked by a plain byte mask keep
  // their tags (packing halves into a word is data movement, not arithmetic).
  const bool a_tagged = a.tagged(n), b_tagged = b.tagged(n);
  if (shift && a_tagged && !b.tagged(4) && ub % 8 == 0 && ub < static_cast<std::uint64_t>(in_bits) && !sign) {
    const int s = static_cast<int>(ub / 8);
    for (int i = 0; i < n; ++i) {
      const int from = Op == Arith::shl ? i - s : i + s;
      r.tags[static_cast<std::size_t>(i)] = from >= 0 && from < n ? a.tags[static_cast<std::size_t>(from)] : 0;
    }
  } else if ((Op == Arith::and_op || Op == Arith::or_op) &&
             (a_tagged != b_tagged || (Op == Arith::or_op && a_tagged))) {
    bool bytewise = true;
    for (int i = 0; i < n && bytewise; ++i) {
      const auto ab = static_cast<std::uint8_t>(ua >> (8 * i)), bb = static_cast<std::uint8_t>(ub >> (8 * i));
      const Tag at = a.tags[static_cast<std::size_t>(i)], bt = b.tags[static_cast<std::size_t>(i)];
      if (Op == Arith::and_op) {
        const std::uint8_t m = at != 0 ? bb : ab;  // the plain side's byte is the mask
        const Tag data = at != 0 ? at : bt;
        if (m == 0xFF) r.tags[static_cast<std::size_t>(i)] = data;
        else if (m == 0) r.tags[static_cast<std::size_t>(i)] = 0;
        else bytewise = false;
      } else {
        // or: one side's byte must be a plain zero.
        if (at == 0 && ab == 0) r.tags[static_cast<std::size_t>(i)] = bt;
        else if (bt == 0 && bb == 0) r.tags[static_cast<std::size_t>(i)] = at;
        else bytewise = false;
      }
    }
    if (!bytewise) t.derive(inst, r, n, {&a, &b});
  } else {
    t.derive(inst, r, n, {&a, &b, &c});
  }
  t.set(inst.ops[0], r);
}

// prmt.b32 d, a, b, c: byte i of d is byte c[4i..4i+3] of {b, a}; a set
// bit 3 of the selector replicates that byte's sign.
void exec_prmt(const Instruction& inst, ThreadContext& t) {
  const Value a = t.get(inst.ops[1], 32), b = t.get(inst.ops[2], 32), c = t.get(inst.ops[3], 32);
  t.require_plain(inst, c, 4, "prmt's selector");
  Value r;
  for (int i = 0; i < 4; ++i) {
    const auto sel = static_cast<int>((c.bits >> (4 * i)) & 0xF);
    const int from = sel & 7;
    const Value& src = from < 4 ? a : b;
    const auto byte = static_cast<std::uint8_t>(src.bits >> (8 * (from & 3)));
    const Tag tag = src.tags[static_cast<std::size_t>(from & 3)];
    if ((sel & 8) == 0) {
      r.bits |= std::uint64_t{byte} << (8 * i);
      r.tags[static_cast<std::size_t>(i)] = tag;
    } else {
      r.bits |= ((byte & 0x80) != 0 ? std::uint64_t{0xFF} : 0) << (8 * i);
      if (tag != 0)
        r.tags[static_cast<std::size_t>(i)] =
            make_tag(tag_id(tag) == kUnwritten ? kUnwritten : t.provenance().opaque(t.pc()), i);
    }
  }
  t.set(inst.ops[0], r);
}

// bfe.type d, a, pos, len: bits [pos, pos + len) of a, zero- or
// sign-extended (.s: from the field's top bit, or a's when the field runs
// past it).
void exec_bfe(const Instruction& inst, ThreadContext& t) {
  const int bits = inst.type.bits;
  const Value a = t.get(inst.ops[1], bits), b = t.get(inst.ops[2], 32), c = t.get(inst.ops[3], 32);
  const auto pos = static_cast<int>(b.bits & 0xFF), len = static_cast<int>(c.bits & 0xFF);
  std::uint64_t r = 0;
  if (len > 0 && pos < bits) {
    const int n = std::min(len, bits - pos);
    r = (a.bits >> pos) & mask(n);
    if (inst.type.kind == TypeKind::s) {
      const bool top = len > bits - pos ? ((a.bits >> (bits - 1)) & 1) != 0 : ((r >> (n - 1)) & 1) != 0;
      if (top) r |= ~mask(n);
    }
  } else if (inst.type.kind == TypeKind::s && len > 0) {
    r = ((a.bits >> (bits - 1)) & 1) != 0 ? ~std::uint64_t{0} : 0;
  }
  Value v;
  v.bits = r & mask(bits);
  t.derive(inst, v, bytes_of(bits), {&a, &b, &c});
  t.set(inst.ops[0], v);
}

// bfi.type d, f, b, pos, len: b with bits [pos, pos + len) replaced by f's low bits.
void exec_bfi(const Instruction& inst, ThreadContext& t) {
  const int bits = inst.type.bits;
  const Value f = t.get(inst.ops[1], bits), b = t.get(inst.ops[2], bits);
  const Value p = t.get(inst.ops[3], 32), l = t.get(inst.ops[4], 32);
  const auto pos = static_cast<int>(p.bits & 0xFF), len = static_cast<int>(l.bits & 0xFF);
  std::uint64_t r = b.bits;
  if (len > 0 && pos < bits) {
    const std::uint64_t m = mask(std::min(len, bits - pos)) << pos;
    r = (b.bits & ~m) | ((f.bits << pos) & m);
  }
  Value v;
  v.bits = r & mask(bits);
  t.derive(inst, v, bytes_of(bits), {&f, &b, &p, &l});
  t.set(inst.ops[0], v);
}

// lop3.b32 d, a, b, c, lut: each bit of d is lut's bit (a << 2 | b << 1 | c).
void exec_lop3(const Instruction& inst, ThreadContext& t) {
  const Value a = t.get(inst.ops[1], 32), b = t.get(inst.ops[2], 32), c = t.get(inst.ops[3], 32);
  const Value lut = t.get(inst.ops[4], 32);
  t.require_plain(inst, lut, 4, "lop3's truth table");
  std::uint64_t r = 0;
  for (int i = 0; i < 32; ++i) {
    const auto sel = static_cast<int>(((a.bits >> i) & 1) << 2 | ((b.bits >> i) & 1) << 1 | ((c.bits >> i) & 1));
    r |= ((lut.bits >> sel) & 1) << i;
  }
  Value v;
  v.bits = r;
  t.derive(inst, v, 4, {&a, &b, &c});
  t.set(inst.ops[0], v);
}

bool compare(const Instruction& inst, const Value& a, const Value& b) {
  const PtxType ty = inst.type;
  if (ty.kind == TypeKind::f || ty.kind == TypeKind::bf) {
    const double x = float_in(inst, a.bits & mask(ty.bits), ty), y = float_in(inst, b.bits & mask(ty.bits), ty);
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (inst.cmp) {
      case Cmp::eq: return !unordered && x == y;
      case Cmp::ne: return !unordered && x != y;
      case Cmp::lt: return !unordered && x < y;
      case Cmp::le: return !unordered && x <= y;
      case Cmp::gt: return !unordered && x > y;
      case Cmp::ge: return !unordered && x >= y;
      case Cmp::equ: return unordered || x == y;
      case Cmp::neu: return unordered || x != y;
      case Cmp::ltu: return unordered || x < y;
      case Cmp::leu: return unordered || x <= y;
      case Cmp::gtu: return unordered || x > y;
      case Cmp::geu: return unordered || x >= y;
      case Cmp::num: return !unordered;
      case Cmp::nan: return unordered;
      default: return false;
    }
  }
  const std::uint64_t ua = a.bits & mask(ty.bits), ub = b.bits & mask(ty.bits);
  const std::int64_t sa = sext(ua, ty.bits), sb = sext(ub, ty.bits);
  const bool sign = ty.kind == TypeKind::s;
  switch (inst.cmp) {
    case Cmp::eq: return ua == ub;
    case Cmp::ne: return ua != ub;
    case Cmp::lt: return sign ? sa < sb : ua < ub;
    case Cmp::le: return sign ? sa <= sb : ua <= ub;
    case Cmp::gt: return sign ? sa > sb : ua > ub;
    case Cmp::ge: return sign ? sa >= sb : ua >= ub;
    case Cmp::lo: return ua < ub;
    case Cmp::ls: return ua <= ub;
    case Cmp::hi: return ua > ub;
    case Cmp::hs: return ua >= ub;
    default: return false;
  }
}

void exec_setp(const Instruction& inst, ThreadContext& t) {
  const Value a = t.get(inst.ops[1], inst.type.bits), b = t.get(inst.ops[2], inst.type.bits);
  const Value c = inst.ops.size() > 3 ? t.get(inst.ops[3], 1) : Value{};
  bool p = compare(inst, a, b);
  bool q = !p;
  if (inst.boolop != BoolOp::none) {
    const bool cv = (c.bits & 1) != 0;
    const auto combine = [&](bool x) {
      return inst.boolop == BoolOp::and_op ? (x && cv) : inst.boolop == BoolOp::or_op ? (x || cv) : (x != cv);
    };
    p = combine(p);
    q = combine(q);
  }
  Value r, s;
  r.bits = p ? 1 : 0;
  s.bits = q ? 1 : 0;
  t.derive(inst, r, 1, {&a, &b, &c});
  s.tags = r.tags;
  t.set(inst.ops[0], r);
  if (!inst.ops[0].regs.empty()) t.set_reg(inst.ops[0].regs[0], s);
}

void exec_selp(const Instruction& inst, ThreadContext& t) {
  const Value a = t.get(inst.ops[1], inst.type.bits), b = t.get(inst.ops[2], inst.type.bits);
  const Value c = t.get(inst.ops[3], 1);
  Value r = (c.bits & 1) != 0 ? a : b;
  if (c.tagged(1)) t.derive(inst, r, bytes_of(inst.type.bits), {&a, &b, &c});
  t.set(inst.ops[0], r);
}

// cvt: integer widths (bytes move; sign extension of data is opaque), float
// formats (a whole value converted stays that value, rounded), and between
// integers and floats.
Value convert_one(const Instruction& inst, ThreadContext& t, const Value& a, PtxType to, PtxType from) {
  Value r;
  const int out_bytes = bytes_of(to.bits);
  const int in_bytes = bytes_of(from.bits);
  if (to.is_int() && from.is_int()) {
    const std::uint64_t ua = a.bits & mask(from.bits);
    const bool widen = to.bits > from.bits;
    r.bits = (widen && from.kind == TypeKind::s ? static_cast<std::uint64_t>(sext(ua, from.bits)) : ua) & mask(to.bits);
    if (inst.sat) {
      // Saturation to the destination's range.
      const bool ts = to.kind == TypeKind::s;
      const std::int64_t sv = from.kind == TypeKind::s ? sext(ua, from.bits) : static_cast<std::int64_t>(ua);
      const std::int64_t lo = ts ? -(std::int64_t{1} << (to.bits - 1)) : 0;
      const std::int64_t hi =
          ts ? (std::int64_t{1} << (to.bits - 1)) - 1 : static_cast<std::int64_t>(mask(std::min(to.bits, 63)));
      if (to.bits < 64) r.bits = static_cast<std::uint64_t>(std::clamp(sv, lo, hi)) & mask(to.bits);
    }
    if (a.tagged(in_bytes)) {
      if (widen && from.kind == TypeKind::s) {
        t.derive(inst, r, out_bytes, {&a});
      } else if (inst.sat) {
        t.derive(inst, r, out_bytes, {&a});
      } else {
        for (int i = 0; i < out_bytes; ++i)
          r.tags[static_cast<std::size_t>(i)] = i < in_bytes ? a.tags[static_cast<std::size_t>(i)] : 0;
      }
    }
    return r;
  }
  if ((to.kind == TypeKind::f || to.kind == TypeKind::bf) && (from.kind == TypeKind::f || from.kind == TypeKind::bf)) {
    const std::uint64_t in = a.bits & mask(from.bits);
    std::uint32_t f32 = 0;
    double f64 = 0;
    const bool wide_in = from.bits == 64;
    if (wide_in) f64 = bits_f64(in);
    else
      f32 = from.bits == 32 ? static_cast<std::uint32_t>(in)
                            : (from.kind == TypeKind::bf ? bf16_to_f32(static_cast<std::uint16_t>(in))
                                                         : f16_to_f32(static_cast<std::uint16_t>(in)));
    if (inst.ftz && !wide_in) f32 = f32_bits(ftz32(bits_f32(f32), true));
    if (to.bits == 64) r.bits = f64_bits(wide_in ? f64 : static_cast<double>(bits_f32(f32)));
    else {
      const std::uint32_t x = wide_in ? f32_bits(static_cast<float>(f64)) : f32;
      if (to.bits == 32) r.bits = inst.ftz ? f32_bits(ftz32(bits_f32(x), true)) : x;
      else if (to.kind == TypeKind::bf) r.bits = f32_to_bf16_rn(x);
      else r.bits = f32_to_f16_rn(x);
    }
    const ElementRef e = element_ref(t.provenance(), a, 0, in_bytes);
    if (e.kind == ElementRef::Kind::value && t.provenance().opaque_inst(e.id) < 0) {
      const std::uint64_t id =
          to.bits == from.bits && to.kind == from.kind ? e.id : t.provenance().add_convert(e.id, out_bytes, t.origin());
      for (int i = 0; i < out_bytes; ++i) r.tags[static_cast<std::size_t>(i)] = make_tag(id, i);
    } else {
      t.derive(inst, r, out_bytes, {&a});
    }
    return r;
  }
  // Between integers and floats: rounding to an integer (rni, rzi, rmi, rpi)
  // or to a float (rn).
  if (to.is_int()) {
    const double x = float_in(inst, a.bits & mask(from.bits), from);
    double rounded = x;
    switch (inst.rounding) {
      case Rounding::rni: rounded = std::nearbyint(x); break;
      case Rounding::rmi: rounded = std::floor(x); break;
      case Rounding::rpi: rounded = std::ceil(x); break;
      default: rounded = std::trunc(x); break;
    }
    const bool ts = to.kind == TypeKind::s;
    const double lo = ts ? -std::ldexp(1.0, to.bits - 1) : 0.0;
    const double hi = ts ? std::ldexp(1.0, to.bits - 1) - 1 : std::ldexp(1.0, to.bits) - 1;
    const double clamped = std::isnan(rounded) ? 0.0 : std::clamp(rounded, lo, hi);
    r.bits =
        (ts ? static_cast<std::uint64_t>(static_cast<std::int64_t>(clamped)) : static_cast<std::uint64_t>(clamped)) &
        mask(to.bits);
  } else {
    const std::uint64_t ua = a.bits & mask(from.bits);
    const double x = from.kind == TypeKind::s ? static_cast<double>(sext(ua, from.bits)) : static_cast<double>(ua);
    if (to.bits == 64) r.bits = f64_bits(x);
    else {
      const std::uint32_t f = f32_bits(static_cast<float>(x));
      r.bits = to.bits == 32 ? f : to.kind == TypeKind::bf ? f32_to_bf16_rn(f) : f32_to_f16_rn(f);
    }
  }
  t.derive(inst, r, out_bytes, {&a});
  return r;
}

void exec_cvt(const Instruction& inst, ThreadContext& t) {
  if (inst.type.kind == TypeKind::f16x2 || inst.type.kind == TypeKind::bf16x2) {
    // cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower.
    const PtxType half{inst.type.kind == TypeKind::f16x2 ? TypeKind::f : TypeKind::bf, 16};
    const Value hi = convert_one(inst, t, t.get(inst.ops[1], 32), half, inst.type2);
    const Value lo = convert_one(inst, t, t.get(inst.ops[2], 32), half, inst.type2);
    Value r;
    r.bits = (lo.bits & 0xFFFF) | ((hi.bits & 0xFFFF) << 16);
    r.tags[0] = lo.tags[0];
    r.tags[1] = lo.tags[1];
    r.tags[2] = hi.tags[0];
    r.tags[3] = hi.tags[1];
    t.set(inst.ops[0], r);
    return;
  }
  t.set(inst.ops[0], convert_one(inst, t, t.get(inst.ops[1], inst.type2.bits), inst.type, inst.type2));
}

// ---- semantics: warp-collective ----------------------------------------------

// mma.sync: the lanes' registers gathered through the instruction's PTX
// frames into logical tiles, the arithmetic (when the run has one) on the
// tiles, and for every element of D a new sum: its C element plus the row
// of A times the column of B, as element ids.
// Where each element of an mma operand's tile came from: its value, and the
// lane, operand register and element index that held it.
struct Gathered {
  std::vector<std::uint64_t> bits;
  std::vector<ElementRef> refs;
  std::vector<int> lane, slot, elem;
};

// The diagnosis of an operand whose tile is not one row of a tensor per
// tile row and one column per tile column, each a different one:
//   - registers in the wrong order (some exchange of two register slots,
//     the same in every lane, makes the tile whole) blame the mma;
//   - otherwise the element that disagrees with its row's and column's
//     majority, or the first of a row (column) that repeats another's, blames
//     the instruction that loaded it into its register (ld, ldmatrix), or
//     else the one that last wrote the register.
// Recorded for the check of D to cite when one of the mma's sums is wrong.
struct Blame {
  int inst = -1;
  int lane = 0;
  std::string message;
};
std::optional<Blame> diagnose_operand(WarpContext& w, const Frame& f, const Gathered& g,
                                      const mmacheck::ptx::Operand& op, char name) {
  Provenance& prov = w.provenance();
  const auto& regions = w.lane(0).machine().global.regions();
  const auto n = static_cast<std::size_t>(f.rows * f.cols);
  using RowCol = std::pair<std::int64_t, std::int64_t>;
  // Where each element (by lane and element index) came from in its tensor.
  std::vector<std::optional<RowCol>> src(static_cast<std::size_t>(kWarpLanes * f.elems()));
  std::vector<std::size_t> tile_of(src.size(), n);
  int tensor = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t key = static_cast<std::size_t>(g.lane[i] * f.elems() + g.elem[i]);
    tile_of[key] = i;
    if (g.refs[i].kind != ElementRef::Kind::value) continue;
    const auto in = prov.input(g.refs[i].id);
    if (!in) continue;
    if (tensor >= 0 && in->tensor != tensor) return std::nullopt;  // two tensors: the check of D says which
    tensor = in->tensor;
    src[key] = regions[static_cast<std::size_t>(in->tensor)].tensor.matrix_index(in->element);
  }
  if (tensor < 0) return std::nullopt;
  const int per = f.per_reg();
  // The tile under a permutation of register slots: tile index -> source.
  const auto place = [&](const std::vector<int>& perm) {
    std::vector<std::optional<RowCol>> tile(n);
    for (int lane = 0; lane < kWarpLanes; ++lane)
      for (int e = 0; e < f.elems(); ++e) {
        const int moved = perm[static_cast<std::size_t>(e / per)] * per + e % per;
        const TileCoord tc = f.at(lane, moved);
        tile[static_cast<std::size_t>(tc.row * f.cols + tc.col)] = src[static_cast<std::size_t>(lane * f.elems() + e)];
      }
    return tile;
  };
  // Whole: one tensor row per tile row, one column per tile column, all
  // different; `ordered`: also increasing, as a tile of a gemm is.
  const auto whole = [&](const std::vector<std::optional<RowCol>>& tile, bool ordered) {
    std::vector<std::optional<std::int64_t>> rows(static_cast<std::size_t>(f.rows)),
        cols(static_cast<std::size_t>(f.cols));
    for (int r = 0; r < f.rows; ++r)
      for (int c = 0; c < f.cols; ++c) {
        const auto& x = tile[static_cast<std::size_t>(r * f.cols + c)];
        if (!x) continue;
        auto& rr = rows[static_cast<std::size_t>(r)];
        auto& cc = cols[static_cast<std::size_t>(c)];
        if ((rr && *rr != x->first) || (cc && *cc != x->second)) return false;
        rr = x->first;
        cc = x->second;
      }
    const auto distinct = [ordered](const std::vector<std::optional<std::int64_t>>& v) {
      std::vector<std::int64_t> d;
      for (const auto& x : v)
        if (x) d.push_back(*x);
      if (ordered) return std::adjacent_find(d.begin(), d.end(), std::greater_equal<>()) == d.end();
      std::sort(d.begin(), d.end());
      return std::adjacent_find(d.begin(), d.end()) == d.end();
    };
    return distinct(rows) && distinct(cols);
  };
  std::vector<int> identity(static_cast<std::size_t>(f.regs));
  for (int r = 0; r < f.regs; ++r) identity[static_cast<std::size_t>(r)] = r;
  const std::vector<std::optional<RowCol>> as_is = place(identity);
  if (whole(as_is, false)) return std::nullopt;
  ThreadContext t0 = w.lane(0);
  const PtxKernel& k = t0.machine().kernel;
  const auto reg_name = [&](int slot) {
    return k.reg_names[static_cast<std::size_t>(op.regs[static_cast<std::size_t>(slot)])];
  };
  for (const bool ordered : {true, false})
    for (int x = 0; x < f.regs; ++x)
      for (int y = x + 1; y < f.regs; ++y) {
        std::vector<int> perm = identity;
        std::swap(perm[static_cast<std::size_t>(x)], perm[static_cast<std::size_t>(y)]);
        if (whole(place(perm), ordered))
          return Blame{t0.pc(), 0,
                       std::string(1, name) + "'s registers " + std::to_string(x) + " (" + reg_name(x) + ") and " +
                           std::to_string(y) + " (" + reg_name(y) +
                           ") are in each other's place: the tile is whole with the two exchanged (the mma names "
                           "them in the wrong order, or what loaded them exchanged them)"};
      }
  // The odd element: against its row's and column's majority, or repeating
  // an earlier row or column.
  const auto majority = [&](bool by_row, int index) -> std::optional<std::int64_t> {
    std::vector<std::pair<std::int64_t, int>> counts;
    const int other = by_row ? f.cols : f.rows;
    for (int o = 0; o < other; ++o) {
      const auto& a = as_is[static_cast<std::size_t>(by_row ? index * f.cols + o : o * f.cols + index)];
      if (!a) continue;
      const std::int64_t v = by_row ? a->first : a->second;
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == v; });
      if (it == counts.end()) counts.emplace_back(v, 1);
      else ++it->second;
    }
    if (counts.empty()) return std::nullopt;
    return std::max_element(counts.begin(), counts.end(),
                            [](const auto& p, const auto& q) { return p.second < q.second; })
        ->first;
  };
  std::vector<std::optional<std::int64_t>> rows(static_cast<std::size_t>(f.rows)),
      cols(static_cast<std::size_t>(f.cols));
  for (int r = 0; r < f.rows; ++r) rows[static_cast<std::size_t>(r)] = majority(true, r);
  for (int c = 0; c < f.cols; ++c) cols[static_cast<std::size_t>(c)] = majority(false, c);
  std::optional<std::size_t> odd;
  std::string why;
  const std::string& tname = regions[static_cast<std::size_t>(tensor)].tensor.name;
  const auto elem_name = [&](const RowCol& rc) {
    return tname + "[" + std::to_string(rc.first) + "][" + std::to_string(rc.second) + "]";
  };
  for (std::size_t i = 0; i < n && !odd; ++i) {
    const auto& x = as_is[i];
    const auto r = static_cast<std::size_t>(static_cast<int>(i) / f.cols),
               c = static_cast<std::size_t>(static_cast<int>(i) % f.cols);
    if (x && rows[r] && cols[c] && (x->first != *rows[r] || x->second != *cols[c])) {
      odd = i;
      why = "where the mma's fragment needs " + elem_name({*rows[r], *cols[c]});
    }
  }
  for (int r = 1; r < f.rows && !odd; ++r)
    for (int q = 0; q < r && !odd; ++q)
      if (rows[static_cast<std::size_t>(r)] && rows[static_cast<std::size_t>(r)] == rows[static_cast<std::size_t>(q)])
        for (int c = 0; c < f.cols && !odd; ++c)
          if (as_is[static_cast<std::size_t>(r * f.cols + c)]) {
            odd = static_cast<std::size_t>(r * f.cols + c);
            why = "where the fragment's row " + std::to_string(r) + " needs another row than its row " +
                  std::to_string(q) + "'s";
          }
  for (int c = 1; c < f.cols && !odd; ++c)
    for (int q = 0; q < c && !odd; ++q)
      if (cols[static_cast<std::size_t>(c)] && cols[static_cast<std::size_t>(c)] == cols[static_cast<std::size_t>(q)])
        for (int r = 0; r < f.rows && !odd; ++r)
          if (as_is[static_cast<std::size_t>(r * f.cols + c)]) {
            odd = static_cast<std::size_t>(r * f.cols + c);
            why = "where the fragment's column " + std::to_string(c) + " needs another column than its column " +
                  std::to_string(q) + "'s";
          }
  if (!odd) return std::nullopt;
  const int lane = g.lane[*odd], e = g.elem[*odd], slot = g.slot[*odd];
  ThreadContext t = w.lane(lane);
  const int r = op.regs[static_cast<std::size_t>(slot)];
  const Value v = t.reg(r);
  const int loader = tag_loaded_by(v.tags[static_cast<std::size_t>((e % per) * f.elem_bits / 8)]);
  const int blamed = loader >= 0 ? loader : t.reg_writer(r);
  const std::string by = blamed >= 0 ? "'" + k.code[static_cast<std::size_t>(blamed)].opcode + "' at line " +
                                           std::to_string(k.code[static_cast<std::size_t>(blamed)].loc.line)
                                     : std::string("nothing");
  return Blame{blamed >= 0 ? blamed : t.pc(), lane,
               "lane " + std::to_string(lane) + "'s " + std::string(1, name) + " register " + reg_name(slot) +
                   " holds " + elem_name(*as_is[*odd]) + " as element " +
                   std::string(1, static_cast<char>(std::tolower(name))) + std::to_string(e) + ", " + why + "; " +
                   (loader >= 0 ? "it was loaded by " : "it was last written by ") + by};
}

void exec_mma(const Instruction& inst, WarpContext& w) {
  const MmaInst& mi = *inst.mma;
  const Frame& fa = mi.frame(mmacheck::Operand::A);
  const Frame& fb = mi.frame(mmacheck::Operand::B);
  const Frame& fc = mi.frame(mmacheck::Operand::C);
  const Frame& fd = mi.d_frame();
  Provenance& prov = w.provenance();
  const auto gather = [&](const Frame& f, const mmacheck::ptx::Operand& op, std::string_view name) {
    const auto n = static_cast<std::size_t>(f.rows * f.cols);
    Gathered g{std::vector<std::uint64_t>(n, 0), std::vector<ElementRef>(n, ElementRef{ElementRef::Kind::zero, 0}),
               std::vector<int>(n, 0), std::vector<int>(n, 0), std::vector<int>(n, 0)};
    for (int lane = 0; lane < kWarpLanes; ++lane) {
      ThreadContext t = w.lane(lane);
      for (int e = 0; e < f.elems(); ++e) {
        const int reg = e / f.per_reg();
        const int bit = (e % f.per_reg()) * f.elem_bits;
        const int r = op.regs[static_cast<std::size_t>(reg)];
        const Value v = r < 0 ? Value{} : t.reg(r);
        const TileCoord at = f.at(lane, e);
        const auto idx = static_cast<std::size_t>(at.row * f.cols + at.col);
        g.bits[idx] = (v.bits >> bit) & mask(f.elem_bits);
        g.refs[idx] = element_ref(prov, v, bit / 8, f.elem_bits / 8);
        g.lane[idx] = lane;
        g.slot[idx] = reg;
        g.elem[idx] = e;
        if (g.refs[idx].kind == ElementRef::Kind::unwritten)
          w.fault(inst, lane,
                  "mma.sync reads " + std::string(name) + " register " +
                      t.machine().kernel.reg_names[static_cast<std::size_t>(r)] + " of lane " + std::to_string(lane) +
                      ", which was never written");
      }
    }
    return g;
  };
  const Gathered a = gather(fa, inst.ops[1], "A");
  const Gathered b = gather(fb, inst.ops[2], "B");
  const Gathered c = gather(fc, inst.ops[3], "C");
  // Without sums (a run for D's numbers alone) D's elements are values of
  // this instruction, as other arithmetic makes them, and nothing is
  // diagnosed.
  const bool with_sums = w.options().sums;
  std::optional<Blame> blame;
  if (with_sums) blame = diagnose_operand(w, fa, a, inst.ops[1], 'A');
  if (with_sums && !blame) blame = diagnose_operand(w, fb, b, inst.ops[2], 'B');
  const std::uint64_t first_sum = prov.next_id();
  std::vector<std::uint64_t> d(static_cast<std::size_t>(fd.rows * fd.cols), 0);
  if (w.options().arithmetic) w.options().arithmetic(mi, a.bits, b.bits, c.bits, d);
  const std::uint64_t bad = prov.opaque(w.lane(0).pc());
  const auto id_of = [&](const ElementRef& e) { return e.kind == ElementRef::Kind::value ? e.id : bad; };
  std::vector<std::uint64_t> sums(d.size(), 0);
  std::vector<Product> products;
  for (int lane = 0; lane < kWarpLanes && with_sums; ++lane) {
    ThreadContext t = w.lane(lane);
    for (int e = 0; e < fd.elems(); ++e) {
      const TileCoord at = fd.at(lane, e);
      const int i = at.row, j = at.col;
      products.clear();
      for (int k = 0; k < mi.k; ++k) {
        const ElementRef& ea = a.refs[static_cast<std::size_t>(i * fa.cols + k)];
        const ElementRef& eb = b.refs[static_cast<std::size_t>(k * fb.cols + j)];
        if (ea.kind == ElementRef::Kind::zero || eb.kind == ElementRef::Kind::zero) continue;
        products.push_back({id_of(ea), id_of(eb)});
      }
      const ElementRef& ec = c.refs[static_cast<std::size_t>(i * fc.cols + j)];
      std::uint64_t parent = ec.kind == ElementRef::Kind::zero ? 0 : id_of(ec);
      if (ec.kind == ElementRef::Kind::constant) {
        // A constant C (a scalar C); -0 adds nothing to a float sum.
        const std::uint64_t bits = c.bits[static_cast<std::size_t>(i * fc.cols + j)];
        const bool negative_zero = dtype_info(mi.c).is_float && bits == (std::uint64_t{1} << (fc.elem_bits - 1));
        parent = negative_zero ? 0 : prov.constant(bits, fc.elem_bits / 8, t.origin());
      }
      sums[static_cast<std::size_t>(i * fd.cols + j)] =
          prov.add_sum(parent, products, fd.elem_bits / 8, t.origin(), !blame);
    }
  }
  if (blame) {
    ThreadContext t = w.lane(blame->lane);
    Origin o = t.origin();
    o.inst = blame->inst;
    prov.add_note({first_sum, prov.next_id() - 1, blame->inst, o, blame->message});
  }
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    ThreadContext t = w.lane(lane);
    for (int reg = 0; reg < fd.regs; ++reg) {
      const int r = inst.ops[0].regs[static_cast<std::size_t>(reg)];
      if (r < 0) continue;
      Value v;
      for (int p = 0; p < fd.per_reg(); ++p) {
        const int e = reg * fd.per_reg() + p;
        const TileCoord at = fd.at(lane, e);
        const auto idx = static_cast<std::size_t>(at.row * fd.cols + at.col);
        const int bit = p * fd.elem_bits;
        v.bits |= (d[idx] & mask(fd.elem_bits)) << bit;
        for (int byte = 0; byte < fd.elem_bits / 8; ++byte)
          v.tags[static_cast<std::size_t>(bit / 8 + byte)] = make_tag(with_sums ? sums[idx] : bad, byte);
      }
      t.set_reg(r, v);
    }
  }
}

// ldmatrix's and stmatrix's rows: the shared offset each of lanes 0 ..
// 8·num-1 gives in its address operand.
std::array<std::uint64_t, kWarpLanes> matrix_rows(const Instruction& inst, WarpContext& w, const MatrixCopy& copy,
                                                  const mmacheck::ptx::Operand& address) {
  std::array<std::uint64_t, kWarpLanes> rows{};
  for (int lane = 0; lane < copy.address_lanes(); ++lane) {
    ThreadContext t = w.lane(lane);
    rows[static_cast<std::size_t>(lane)] = t.address(inst, address);
    if (inst.space == Space::generic) rows[static_cast<std::size_t>(lane)] -= kSharedWindow;
  }
  return rows;
}

// ldmatrix: lanes 0 .. 8·num-1 give the rows' shared addresses; every lane
// receives its bytes by the variant's table (core/gemm/ldmatrix.h).
void exec_ldmatrix(const Instruction& inst, WarpContext& w) {
  const MatrixCopy& copy = matrix_copy(false, static_cast<int>(inst.count), inst.trans);
  const std::array<std::uint64_t, kWarpLanes> rows = matrix_rows(inst, w, copy, inst.ops[1]);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    ThreadContext t = w.lane(lane);
    for (int reg = 0; reg < copy.num; ++reg) {
      Value v;
      for (int byte = 0; byte < 4; ++byte) {
        const RowByte rb = matrix_copy_byte(copy, lane, reg, byte);
        const Value one =
            t.load(inst, Space::shared,
                   rows[static_cast<std::size_t>(rb.address_lane)] + static_cast<std::uint64_t>(rb.byte_in_row), 1);
        v.bits |= (one.bits & 0xFF) << (8 * byte);
        v.tags[static_cast<std::size_t>(byte)] = loaded_by(one.tags[0], t.pc());
      }
      t.set_reg(inst.ops[0].regs[static_cast<std::size_t>(reg)], v);
    }
  }
}

// stmatrix: ldmatrix's map the other way (sm_90): lanes 0 .. 8·num-1 give
// the rows' shared addresses, every lane's registers go to their bytes with
// their tags.
void exec_stmatrix(const Instruction& inst, WarpContext& w) {
  const MatrixCopy& copy = matrix_copy(true, static_cast<int>(inst.count), inst.trans);
  const std::array<std::uint64_t, kWarpLanes> rows = matrix_rows(inst, w, copy, inst.ops[0]);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    ThreadContext t = w.lane(lane);
    for (int reg = 0; reg < copy.num; ++reg) {
      const int r = inst.ops[1].regs[static_cast<std::size_t>(reg)];
      const Value v = r < 0 ? Value{} : t.reg(r);
      for (int byte = 0; byte < 4; ++byte) {
        const RowByte rb = matrix_copy_byte(copy, lane, reg, byte);
        Value one;
        one.bits = (v.bits >> (8 * byte)) & 0xFF;
        one.tags[0] = v.tags[static_cast<std::size_t>(byte)];
        t.store(inst, Space::shared,
                rows[static_cast<std::size_t>(rb.address_lane)] + static_cast<std::uint64_t>(rb.byte_in_row), 1, one);
      }
    }
  }
}

// vote.sync.MODE d, {!}a, membermask: every lane of the member mask
// contributes its predicate; all, any and uni give a predicate, ballot the
// mask of the lanes whose predicate is true.  A predicate computed from
// tensor data is a decision the run does not follow.
void exec_vote(const Instruction& inst, WarpContext& w) {
  std::uint32_t member = 0, ballot = 0;
  for (int lane = 0; lane < w.lanes(); ++lane) {
    ThreadContext t = w.lane(lane);
    const Value m = t.get(inst.ops[2], 32);
    t.require_plain(inst, m, 4, "vote's member mask");
    if (((m.bits >> lane) & 1) == 0)
      w.fault(inst, lane, "lane " + std::to_string(lane) + " executes 'vote.sync' outside its member mask");
    member |= std::uint32_t{1} << lane;
    const Value p = t.get(inst.ops[1], 1);
    t.require_plain(inst, p, 1, "vote's predicate");
    if (((p.bits & 1) != 0) != inst.ops[1].negated) ballot |= std::uint32_t{1} << lane;
  }
  Value r;
  switch (inst.count) {
    case 0: r.bits = ballot == member ? 1 : 0; break;                 // all
    case 1: r.bits = ballot != 0 ? 1 : 0; break;                      // any
    case 2: r.bits = ballot == member || ballot == 0 ? 1 : 0; break;  // uni
    default: r.bits = ballot; break;                                  // ballot
  }
  for (int lane = 0; lane < w.lanes(); ++lane) w.lane(lane).set(inst.ops[0], r);
}

// elect.sync d|p, membermask: one leader among the member lanes, the lowest
// (the ISA: "a leader thread ... chosen in a deterministic manner"); d is its
// lane, p true in it alone.  Every lane of the warp meets here, each in the mask.
void exec_elect(const Instruction& inst, WarpContext& w) {
  std::uint32_t member = 0;
  for (int lane = 0; lane < w.lanes(); ++lane) {
    ThreadContext t = w.lane(lane);
    const Value m = t.get(inst.ops[1], 32);
    t.require_plain(inst, m, 4, "elect's member mask");
    if (((m.bits >> lane) & 1) == 0)
      w.fault(inst, lane, "lane " + std::to_string(lane) + " executes 'elect.sync' outside its member mask");
    member |= std::uint32_t{1} << lane;
  }
  const int leader = std::countr_zero(member);
  for (int lane = 0; lane < w.lanes(); ++lane) {
    ThreadContext t = w.lane(lane);
    Value d;
    d.bits = static_cast<std::uint64_t>(leader);
    if (inst.ops[0].reg >= 0) t.set(inst.ops[0], d);
    Value p;
    p.bits = lane == leader ? 1 : 0;
    if (!inst.ops[0].regs.empty()) t.set_reg(inst.ops[0].regs[0], p);
  }
}

// shfl.sync.MODE.b32 d[|p], a, b, c, membermask (PTX ISA's pseudo-code).
void exec_shfl(const Instruction& inst, WarpContext& w) {
  std::array<Value, kWarpLanes> in{};
  for (int lane = 0; lane < kWarpLanes; ++lane) in[static_cast<std::size_t>(lane)] = w.lane(lane).get(inst.ops[1], 32);
  for (int lane = 0; lane < kWarpLanes; ++lane) {
    ThreadContext t = w.lane(lane);
    const Value bv = t.get(inst.ops[2], 32), cv = t.get(inst.ops[3], 32);
    t.require_plain(inst, bv, 4, "shfl's lane operand");
    t.require_plain(inst, cv, 4, "shfl's clamp operand");
    const int b = static_cast<int>(bv.bits & 0x1F), c = static_cast<int>(cv.bits & 0x1F);
    const int seg = static_cast<int>((cv.bits >> 8) & 0x1F);
    const int max_lane = (lane & seg) | (c & ~seg);
    const int min_lane = lane & seg;
    int j = lane;
    bool ok = false;
    switch (inst.count) {
      case 0:
        j = lane - b;
        ok = j >= max_lane;
        break;  // up
      case 1:
        j = lane + b;
        ok = j <= max_lane;
        break;  // down
      case 2:
        j = lane ^ b;
        ok = j <= max_lane;
        break;  // bfly
      default:
        j = min_lane | (b & ~seg);
        ok = j <= max_lane;
        break;  // idx
    }
    if (!ok || j < 0 || j >= kWarpLanes) j = lane;
    t.set(inst.ops[0], in[static_cast<std::size_t>(j)]);
    if (!inst.ops[0].regs.empty()) {
      Value p;
      p.bits = ok ? 1 : 0;
      t.set_reg(inst.ops[0].regs[0], p);
    }
  }
}

// bar.warp.sync: the warp's accesses before it are ordered before those after.
void exec_warp_sync(const Instruction&, WarpContext& w) { w.sync(); }

// ---- the table ---------------------------------------------------------------

enum Accepts : unsigned {
  kType = 1u << 0,
  kSourceType = 1u << 1,
  kSpace = 1u << 2,
  kVec = 1u << 3,
  kCmp = 1u << 4,
  kBool = 1u << 5,
  kMode = 1u << 6,
  kRound = 1u << 7,
  kFtz = 1u << 8,
  kSat = 1u << 9,
  kCache = 1u << 10,
  kMatrix = 1u << 11,  // ldmatrix's m8n8, x1/x2/x4, trans
  kShfl = 1u << 12,    // up, down, bfly, idx
  kTo = 1u << 13,      // cvta.to
  kNeedsType = 1u << 14,
  kVote = 1u << 15,    // all, any, uni, ballot
  kArrive = 1u << 16,  // barrier.arrive's form of barrier (`barrier.arrive.aligned`)
};

struct Row {
  std::string_view name;
  unsigned accepts;
  std::string_view words;  // further modifiers read and ignored ("sync aligned")
  int min_ops;
  int max_ops;
  ThreadExec thread;
  WarpExec warp;
  Collective collective;
};

constexpr unsigned kAlu = kType | kNeedsType;

const std::array kRows{
    Row{"mov", kAlu, "", 2, 2, exec_mov, nullptr, Collective::none},
    Row{"ld", kSpace | kVec | kType | kCache | kNeedsType, "", 2, 3, exec_ld, nullptr, Collective::none},
    Row{"st", kSpace | kVec | kType | kCache | kNeedsType, "", 2, 3, exec_st, nullptr, Collective::none},
    Row{"cvta", kTo | kSpace | kNeedsType | kType, "", 2, 2, exec_cvta, nullptr, Collective::none},
    Row{"add", kAlu | kRound | kFtz | kSat, "", 3, 3, exec_arith<Arith::add>, nullptr, Collective::none},
    Row{"sub", kAlu | kRound | kFtz | kSat, "", 3, 3, exec_arith<Arith::sub>, nullptr, Collective::none},
    Row{"mul", kAlu | kMode | kRound | kFtz | kSat, "", 3, 3, exec_arith<Arith::mul>, nullptr, Collective::none},
    Row{"mad", kAlu | kMode | kRound | kFtz | kSat, "", 4, 4, exec_arith<Arith::mad>, nullptr, Collective::none},
    Row{"fma", kAlu | kRound | kFtz | kSat, "", 4, 4, exec_arith<Arith::fma>, nullptr, Collective::none},
    Row{"min", kAlu | kFtz, "", 3, 3, exec_arith<Arith::min>, nullptr, Collective::none},
    Row{"max", kAlu | kFtz, "", 3, 3, exec_arith<Arith::max>, nullptr, Collective::none},
    Row{"div", kAlu | kRound | kFtz, "", 3, 3, exec_arith<Arith::div>, nullptr, Collective::none},
    Row{"rem", kAlu, "", 3, 3, exec_arith<Arith::rem>, nullptr, Collective::none},
    Row{"neg", kAlu | kFtz, "", 2, 2, exec_arith<Arith::neg>, nullptr, Collective::none},
    Row{"abs", kAlu | kFtz, "", 2, 2, exec_arith<Arith::abs>, nullptr, Collective::none},
    Row{"and", kAlu, "", 3, 3, exec_arith<Arith::and_op>, nullptr, Collective::none},
    Row{"or", kAlu, "", 3, 3, exec_arith<Arith::or_op>, nullptr, Collective::none},
    Row{"xor", kAlu, "", 3, 3, exec_arith<Arith::xor_op>, nullptr, Collective::none},
    Row{"not", kAlu, "", 2, 2, exec_arith<Arith::not_op>, nullptr, Collective::none},
    Row{"shl", kAlu, "", 3, 3, exec_arith<Arith::shl>, nullptr, Collective::none},
    Row{"shr", kAlu, "", 3, 3, exec_arith<Arith::shr>, nullptr, Collective::none},
    Row{"prmt", kAlu, "", 4, 4, exec_prmt, nullptr, Collective::none},
    Row{"bfe", kAlu, "", 4, 4, exec_bfe, nullptr, Collective::none},
    Row{"bfi", kAlu, "", 5, 5, exec_bfi, nullptr, Collective::none},
    Row{"lop3", kAlu, "", 5, 5, exec_lop3, nullptr, Collective::none},
    Row{"setp", kCmp | kBool | kFtz | kAlu, "", 3, 4, exec_setp, nullptr, Collective::none},
    Row{"selp", kAlu, "", 4, 4, exec_selp, nullptr, Collective::none},
    Row{"cvt", kType | kSourceType | kRound | kFtz | kSat | kNeedsType, "", 2, 3, exec_cvt, nullptr, Collective::none},
    Row{"bra", 0, "uni", 1, 1, exec_bra, nullptr, Collective::none},
    Row{"ret", 0, "uni", 0, 0, exec_exit, nullptr, Collective::none},
    Row{"exit", 0, "", 0, 0, exec_exit, nullptr, Collective::none},
    Row{"bar.sync", 0, "aligned", 1, 2, nullptr, nullptr, Collective::cta},
    Row{"barrier.sync", 0, "aligned", 1, 2, nullptr, nullptr, Collective::cta},
    Row{"bar.arrive", kArrive, "aligned", 2, 2, nullptr, nullptr, Collective::cta},
    Row{"barrier.arrive", kArrive, "aligned", 2, 2, nullptr, nullptr, Collective::cta},
    Row{"bar.warp.sync", 0, "", 1, 1, nullptr, exec_warp_sync, Collective::warp},
    Row{"membar", 0, "cta gl sys", 0, 0, exec_nop, nullptr, Collective::none},
    Row{"fence", 0, "sc acq_rel cta gpu sys cluster", 0, 0, exec_nop, nullptr, Collective::none},
    Row{"mma.sync", 0, "", 4, 4, nullptr, exec_mma, Collective::warp},
    Row{"ldmatrix.sync", kMatrix | kSpace | kType | kNeedsType, "aligned", 2, 2, nullptr, exec_ldmatrix,
        Collective::warp},
    Row{"stmatrix.sync", kMatrix | kSpace | kType | kNeedsType, "aligned", 2, 2, nullptr, exec_stmatrix,
        Collective::warp},
    Row{"shfl.sync", kShfl | kType | kNeedsType, "", 5, 5, nullptr, exec_shfl, Collective::warp},
    Row{"vote.sync", kVote | kType | kNeedsType, "", 3, 3, nullptr, exec_vote, Collective::warp},
    Row{"cp.async.commit_group", 0, "", 0, 0, exec_cp_commit, nullptr, Collective::none},
    Row{"cp.async.wait_group", 0, "", 1, 1, exec_cp_wait, nullptr, Collective::none},
    Row{"cp.async.wait_all", 0, "", 0, 0, exec_cp_wait, nullptr, Collective::none},
    Row{"cp.async", kSpace | kCache, "ca cg", 3, 5, exec_cp_async, nullptr, Collective::none},
    // Hopper's warpgroup MMA (core/ptx/ptx_wgmma.h) and the proxy fence
    // before it (generic-proxy writes of shared memory, then wgmma's reads).
    Row{"wgmma.fence", 0, "sync aligned", 0, 0, nullptr, exec_wgmma_fence, Collective::warpgroup},
    Row{"wgmma.mma_async", 0, "", 6, 8, nullptr, exec_wgmma_mma, Collective::warpgroup},
    Row{"wgmma.commit_group", 0, "sync aligned", 0, 0, nullptr, exec_wgmma_commit, Collective::warpgroup},
    Row{"wgmma.wait_group", 0, "sync aligned", 1, 1, nullptr, exec_wgmma_wait, Collective::warpgroup},
    Row{"fence.proxy.async", 0, "shared::cta shared::cluster global", 0, 0, exec_proxy_fence, nullptr,
        Collective::none},
    Row{"elect.sync", 0, "", 2, 2, nullptr, exec_elect, Collective::warp},
    // Hints and fences with no effect on one CTA's run: a tensor map's prefetch
    // into the cache (the copies read the map as the launch gives it), and the
    // fence that makes mbarrier.init visible to the cluster's other CTAs and the
    // async proxy (the machine's mbarriers are the CTA's own, initialised when
    // the instruction runs).
    Row{"prefetch.tensormap", 0, "", 1, 1, exec_nop, nullptr, Collective::none},
    Row{"fence.mbarrier_init", 0, "release cluster", 0, 0, exec_nop, nullptr, Collective::none},
    // Warp specialisation (core/ptx/ptx_setmaxnreg.h): a warpgroup's register maximum.
    Row{"setmaxnreg", 0, "inc dec sync aligned u32", 1, 1, nullptr, exec_setmaxnreg, Collective::warpgroup},
    // mbarriers (core/ptx/ptx_mbarrier.h) and TMA (core/ptx/ptx_tma.h).
    Row{"mbarrier.init", 0, "shared shared::cta b64", 2, 2, exec_mbarrier_init, nullptr, Collective::none},
    Row{"mbarrier.inval", 0, "shared shared::cta b64", 1, 1, exec_mbarrier_inval, nullptr, Collective::none},
    Row{"mbarrier.arrive", 0, "release relaxed cta shared shared::cta b64", 2, 3, exec_mbarrier_arrive, nullptr,
        Collective::none},
    Row{"mbarrier.arrive.expect_tx", 0, "release relaxed cta shared shared::cta b64", 3, 3,
        exec_mbarrier_arrive_expect_tx, nullptr, Collective::none},
    Row{"mbarrier.expect_tx", 0, "relaxed cta shared shared::cta b64", 2, 2, exec_mbarrier_expect_tx, nullptr,
        Collective::none},
    Row{"mbarrier.try_wait", 0, "parity acquire relaxed cta shared shared::cta b64", 3, 4, exec_mbarrier_try_wait,
        nullptr, Collective::none},
    Row{"mbarrier.test_wait", 0, "parity acquire relaxed cta shared shared::cta b64", 3, 3, exec_mbarrier_test_wait,
        nullptr, Collective::none},
    Row{"cp.async.bulk.tensor", 0,
        "1d 2d 3d 4d 5d shared::cluster shared::cta global tile mbarrier::complete_tx::bytes L2::cache_hint", 3, 4,
        exec_tma_copy, nullptr, Collective::none},
    // Blackwell's tcgen05 (core/ptx/ptx_tcgen05.h): TMEM allocation, loads
    // and stores are a warp's; tcgen05.mma and commit one thread's.  Their
    // modifiers are read by decode_tcgen05.
    Row{"tcgen05.alloc", 0, "", 2, 2, nullptr, exec_tcgen05_alloc, Collective::warp},
    Row{"tcgen05.dealloc", 0, "", 2, 2, nullptr, exec_tcgen05_dealloc, Collective::warp},
    Row{"tcgen05.relinquish_alloc_permit", 0, "", 0, 0, nullptr, exec_tcgen05_relinquish, Collective::warp},
    Row{"tcgen05.mma", 0, "", 4, 7, exec_tcgen05_mma, nullptr, Collective::none},
    Row{"tcgen05.commit", 0, "", 1, 2, exec_tcgen05_commit, nullptr, Collective::none},
    Row{"tcgen05.ld", 0, "", 2, 3, nullptr, exec_tcgen05_ld, Collective::warp},
    Row{"tcgen05.st", 0, "", 2, 3, nullptr, exec_tcgen05_st, Collective::warp},
    Row{"tcgen05.wait::ld", 0, "", 0, 0, exec_tcgen05_wait_ld, nullptr, Collective::none},
    Row{"tcgen05.wait::st", 0, "", 0, 0, exec_tcgen05_wait_st, nullptr, Collective::none},
    Row{"tcgen05.fence::before_thread_sync", 0, "", 0, 0, exec_nop, nullptr, Collective::none},
    Row{"tcgen05.fence::after_thread_sync", 0, "", 0, 0, exec_nop, nullptr, Collective::none},
};

bool cache_word(std::string_view m) {
  static constexpr std::array kWords{"nc",      "ca",      "cg",      "cs",       "lu",  "cv",  "wb",  "wt",     "weak",
                                     "relaxed", "acquire", "release", "volatile", "cta", "gpu", "sys", "cluster"};
  for (const std::string_view w : kWords)
    if (m == w) return true;
  return m.starts_with("L1::") || m.starts_with("L2::");
}

std::optional<Cmp> parse_cmp(std::string_view m) {
  static constexpr std::array<std::pair<std::string_view, Cmp>, 18> kCmps{{
      {"eq", Cmp::eq},
      {"ne", Cmp::ne},
      {"lt", Cmp::lt},
      {"le", Cmp::le},
      {"gt", Cmp::gt},
      {"ge", Cmp::ge},
      {"lo", Cmp::lo},
      {"ls", Cmp::ls},
      {"hi", Cmp::hi},
      {"hs", Cmp::hs},
      {"equ", Cmp::equ},
      {"neu", Cmp::neu},
      {"ltu", Cmp::ltu},
      {"leu", Cmp::leu},
      {"gtu", Cmp::gtu},
      {"geu", Cmp::geu},
      {"num", Cmp::num},
      {"nan", Cmp::nan},
  }};
  for (const auto& [name, cmp] : kCmps)
    if (name == m) return cmp;
  return std::nullopt;
}

std::optional<Rounding> parse_rounding(std::string_view m) {
  static constexpr std::array<std::pair<std::string_view, Rounding>, 8> kRoundings{{
      {"rn", Rounding::rn},
      {"rz", Rounding::rz},
      {"rm", Rounding::rm},
      {"rp", Rounding::rp},
      {"rni", Rounding::rni},
      {"rzi", Rounding::rzi},
      {"rmi", Rounding::rmi},
      {"rpi", Rounding::rpi},
  }};
  for (const auto& [name, r] : kRoundings)
    if (name == m) return r;
  return std::nullopt;
}

void require_reg(const Instruction& inst, std::size_t i, const char* what) {
  const Operand& o = inst.ops[i];
  if (o.kind != Kind::reg) throw Error(o.loc, std::string(what) + " must be a register");
}
void require_value(const Instruction& inst, std::size_t i) {
  const Operand& o = inst.ops[i];
  if (o.kind == Kind::vec || o.kind == Kind::address || o.kind == Kind::label)
    throw Error(o.loc, "'" + inst.opcode + "' takes a register or a constant here");
}
void require_vec(const Instruction& inst, std::size_t i, std::size_t n, const char* what) {
  const Operand& o = inst.ops[i];
  if (o.kind != Kind::vec || o.regs.size() != n)
    throw Error(o.loc, std::string(what) + " must be a vector of " + std::to_string(n) + " registers");
}

// The checks of operands per row, beyond their count.
void check_operands(Instruction& inst, const Row& row, const PtxKernel& k) {
  const std::string_view name = row.name;
  if (name == "ld" || name == "st") {
    const std::size_t mem = name == "ld" ? 1 : 0, val = name == "ld" ? 0 : 1;
    if (inst.ops.size() != 2) not_modelled(inst.loc, "'" + inst.opcode + "' with a cache policy operand");
    if (inst.ops[mem].kind != Kind::address) throw Error(inst.ops[mem].loc, "expected an address [..]");
    const Operand& v = inst.ops[val];
    if (inst.vec > 1) require_vec(inst, val, static_cast<std::size_t>(inst.vec), "the value");
    else if (name == "ld") require_reg(inst, val, "the destination");
    else require_value(inst, val);
    if (inst.space == Space::param && name == "st") not_modelled(inst.loc, "st.param");
    if (inst.space == Space::constant && name == "st")
      throw Error(inst.loc, "st.const: the constant bank is read-only to a kernel");
    (void)v;
    return;
  }
  if (name == "bra") {
    if (inst.ops[0].kind != Kind::label) throw Error(inst.ops[0].loc, "bra needs a label");
    return;
  }
  if (name == "bar.sync" || name == "barrier.sync" || name == "bar.arrive" || name == "barrier.arrive") {
    // The barrier (0..15) and the thread count (a multiple of 32), constants
    // or registers; the scheduler reads and checks their values.
    for (std::size_t i = 0; i < inst.ops.size(); ++i) require_value(inst, i);
    if (inst.ops[0].kind == Kind::imm && (inst.ops[0].imm < 0 || inst.ops[0].imm > 15))
      throw Error(inst.ops[0].loc, "a barrier is numbered 0..15");
    if (inst.ops.size() > 1 && inst.ops[1].kind == Kind::imm &&
        (inst.ops[1].imm <= 0 || inst.ops[1].imm > 1024 || inst.ops[1].imm % 32 != 0))
      throw Error(inst.ops[1].loc, "a barrier's thread count is a multiple of 32 in 32..1024");
    inst.count = (row.accepts & kArrive) != 0 ? 1 : 0;
    return;
  }
  if (name == "bar.warp.sync") return;
  if (name == "cp.async") {
    if (inst.ops[0].kind != Kind::address || inst.ops[1].kind != Kind::address)
      throw Error(inst.loc, "cp.async takes [shared], [global], bytes");
    if (inst.ops[2].kind != Kind::imm || (inst.ops[2].imm != 4 && inst.ops[2].imm != 8 && inst.ops[2].imm != 16))
      throw Error(inst.ops[2].loc, "cp.async copies 4, 8 or 16 bytes");
    if (inst.ops.size() > 4) not_modelled(inst.loc, "cp.async with a cache policy operand");
    return;
  }
  if (name == "cp.async.wait_group") {
    if (inst.ops[0].kind != Kind::imm || inst.ops[0].imm < 0)
      throw Error(inst.ops[0].loc, "wait_group takes a constant N >= 0");
    inst.count = inst.ops[0].imm;
    return;
  }
  if (name == "cp.async.wait_all") {
    inst.count = -1;
    return;
  }
  if (name == "mma.sync") {
    const MmaInst& mi = *inst.mma;
    require_vec(inst, 0, static_cast<std::size_t>(mi.d_frame().regs), "D");
    require_vec(inst, 1, static_cast<std::size_t>(mi.frame(mmacheck::Operand::A).regs), "A");
    require_vec(inst, 2, static_cast<std::size_t>(mi.frame(mmacheck::Operand::B).regs), "B");
    require_vec(inst, 3, static_cast<std::size_t>(mi.frame(mmacheck::Operand::C).regs), "C");
    return;
  }
  if (name == "ldmatrix.sync") {
    require_vec(inst, 0, static_cast<std::size_t>(inst.count), "ldmatrix's destination");
    if (inst.ops[1].kind != Kind::address) throw Error(inst.ops[1].loc, "expected an address [..]");
    return;
  }
  if (name == "stmatrix.sync") {
    if (inst.ops[0].kind != Kind::address) throw Error(inst.ops[0].loc, "expected an address [..]");
    require_vec(inst, 1, static_cast<std::size_t>(inst.count), "stmatrix's source");
    return;
  }
  if (name == "vote.sync") {
    require_reg(inst, 0, "the destination");
    if ((k.reg_bits[static_cast<std::size_t>(inst.ops[0].reg)] == 1) != (inst.count != 3))
      throw Error(inst.ops[0].loc, inst.count == 3 ? "vote.sync.ballot writes a .b32 register"
                                                   : "vote.sync.all, .any and .uni write a predicate");
    require_reg(inst, 1, "vote's source predicate");
    if (k.reg_bits[static_cast<std::size_t>(inst.ops[1].reg)] != 1)
      throw Error(inst.ops[1].loc, "vote's source is a predicate register");
    require_value(inst, 2);
    return;
  }
  if (name == "mov") {
    const Operand& d = inst.ops[0];
    const Operand& a = inst.ops[1];
    if (d.kind == Kind::vec || a.kind == Kind::vec) {
      const Operand& v = d.kind == Kind::vec ? d : a;
      if (d.kind == Kind::vec && a.kind == Kind::vec) throw Error(a.loc, "mov between two vectors");
      if (inst.type.bits % static_cast<int>(v.regs.size()) != 0 || inst.type.bits / static_cast<int>(v.regs.size()) < 8)
        throw Error(v.loc, "a vector that does not split " + std::string(type_name(inst.type)));
      for (const int r : v.regs)
        if (r >= 0 && k.reg_bits[static_cast<std::size_t>(r)] != inst.type.bits / static_cast<int>(v.regs.size()))
          throw Error(v.loc, "register " + k.reg_names[static_cast<std::size_t>(r)] + " is not " +
                                 std::to_string(inst.type.bits / static_cast<int>(v.regs.size())) + " bits wide");
      if (d.kind != Kind::vec) require_reg(inst, 0, "the destination");
      return;
    }
    require_reg(inst, 0, "the destination");
    if (a.kind == Kind::address || a.kind == Kind::label)
      throw Error(a.loc, "mov takes a register, a constant or a name");
    return;
  }
  if (name == "shfl.sync") {
    require_reg(inst, 0, "the destination");
    for (std::size_t i = 1; i < 5; ++i) require_value(inst, i);
    return;
  }
  if (name.starts_with("wgmma.")) {
    check_wgmma_operands(inst, k);
    return;
  }
  if (name.starts_with("tcgen05.")) {
    check_tcgen05_operands(inst, k);
    return;
  }
  if (name.starts_with("mbarrier.")) {
    check_mbarrier_operands(inst, name, k);
    return;
  }
  if (name == "cp.async.bulk.tensor") {
    check_tma_operands(inst, k);
    return;
  }
  if (name == "prefetch.tensormap") {
    if (inst.ops[0].kind != Kind::address) throw Error(inst.ops[0].loc, "expected the tensor map's address [..]");
    return;
  }
  if (name == "fence.mbarrier_init") return;
  if (name == "setmaxnreg") {
    check_setmaxnreg_operands(inst);
    return;
  }
  if (name == "elect.sync") {
    if (inst.ops[0].kind != Kind::reg) throw Error(inst.ops[0].loc, "elect.sync writes d|p");
    require_value(inst, 1);
    return;
  }
  if (name == "ret" || name == "exit" || name == "membar" || name == "fence" || name == "fence.proxy.async" ||
      name == "cp.async.commit_group")
    return;
  if (row.max_ops == 0) return;  // a row without operands (fence.mbarrier_init)
  // Arithmetic, setp, selp, cvt, cvta, prmt: a register, then values.
  require_reg(inst, 0, "the destination");
  for (std::size_t i = 1; i < inst.ops.size(); ++i) require_value(inst, i);
  if (name == "setp" && k.reg_bits[static_cast<std::size_t>(inst.ops[0].reg)] != 1)
    throw Error(inst.ops[0].loc, "setp writes a predicate register");
  if (name == "cvt" &&
      (inst.type.kind == TypeKind::f16x2 || inst.type.kind == TypeKind::bf16x2) != (inst.ops.size() == 3))
    throw Error(inst.loc, "cvt to a packed pair takes two sources; other cvts one");
  if (name == "setp" && inst.boolop != BoolOp::none && inst.ops.size() != 4)
    throw Error(inst.loc, "setp with .and/.or/.xor takes a third source predicate");
}

}  // namespace

void decode_instruction(Instruction& inst, const PtxKernel& kernel, const SourceLoc& opcode_loc) {
  const std::string& op = inst.opcode;
  const Row* row = nullptr;
  for (const Row& r : kRows)
    if ((op == r.name || (op.starts_with(r.name) && op.size() > r.name.size() && op[r.name.size()] == '.')) &&
        (row == nullptr || r.name.size() > row->name.size()))
      row = &r;
  if (row == nullptr) not_modelled(opcode_loc, "'" + op + "'");
  inst.thread = row->thread;
  inst.warp = row->warp;
  inst.collective = row->collective;
  if (row->name == "wgmma.mma_async") {
    decode_wgmma(inst, opcode_loc);
  } else if (row->name.starts_with("tcgen05.")) {
    decode_tcgen05(inst, opcode_loc);
  } else if (row->name == "mma.sync") {
    inst.mma = find_mma_inst(op);
    if (inst.mma == nullptr)
      throw Error(opcode_loc, "'" + op + "' is not an mma.sync instruction of the table (core/gemm/mma_inst.cc)");
    if (inst.mma->block_scaled() || inst.mma->products != 1 || inst.mma->elem_bits(mmacheck::Operand::A) < 8 ||
        inst.mma->elem_bits(mmacheck::Operand::B) < 8 || inst.mma->bop != BitOp::none || inst.mma->satfinite)
      not_modelled(opcode_loc, "'" + op + "' (sub-byte, single-bit, block-scaled, saturating and m8n8k4 forms)");
  } else {
    std::string_view rest = std::string_view(op).substr(row->name.size());
    bool have_type = false, have_type2 = false, have_mode = false;
    while (!rest.empty()) {
      rest.remove_prefix(1);  // the '.'
      const std::size_t dot = rest.find('.');
      const std::string_view m = rest.substr(0, dot);
      rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot);
      const unsigned a = row->accepts;
      bool ignored = false;
      for (std::string_view words = row->words; !words.empty() && !ignored;) {
        const std::size_t sp = words.find(' ');
        ignored = words.substr(0, sp) == m;
        words = sp == std::string_view::npos ? std::string_view{} : words.substr(sp + 1);
      }
      if (ignored) continue;
      if ((a & kType) != 0 && parse_type(m)) {
        if (!have_type) {
          inst.type = *parse_type(m);
          have_type = true;
        } else if ((a & kSourceType) != 0 && !have_type2) {
          inst.type2 = *parse_type(m);
          have_type2 = true;
        } else {
          throw Error(opcode_loc, "'" + op + "' names two types");
        }
      } else if ((a & kSpace) != 0 && parse_space(m)) {
        inst.space = *parse_space(m);
      } else if ((a & kVec) != 0 && (m == "v2" || m == "v4")) {
        inst.vec = m == "v2" ? 2 : 4;
      } else if ((a & kCmp) != 0 && parse_cmp(m)) {
        inst.cmp = *parse_cmp(m);
      } else if ((a & kBool) != 0 && (m == "and" || m == "or" || m == "xor")) {
        inst.boolop = m == "and" ? BoolOp::and_op : m == "or" ? BoolOp::or_op : BoolOp::xor_op;
      } else if ((a & kMode) != 0 && (m == "lo" || m == "hi" || m == "wide")) {
        inst.mode = m == "lo" ? IntMode::lo : m == "hi" ? IntMode::hi : IntMode::wide;
      } else if ((a & kRound) != 0 && parse_rounding(m)) {
        inst.rounding = *parse_rounding(m);
      } else if ((a & kFtz) != 0 && m == "ftz") {
        inst.ftz = true;
      } else if ((a & kSat) != 0 && m == "sat") {
        inst.sat = true;
      } else if ((a & kCache) != 0 && cache_word(m)) {
        continue;
      } else if ((a & kMatrix) != 0 && (m == "m8n8" || m == "x1" || m == "x2" || m == "x4" || m == "trans")) {
        if (m == "trans") inst.trans = true;
        else if (m != "m8n8") inst.count = m[1] - '0';
      } else if ((a & kShfl) != 0 && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
        inst.count = m == "up" ? 0 : m == "down" ? 1 : m == "bfly" ? 2 : 3;
      } else if ((a & kVote) != 0 && (m == "all" || m == "any" || m == "uni" || m == "ballot")) {
        inst.count = m == "all" ? 0 : m == "any" ? 1 : m == "uni" ? 2 : 3;
        have_mode = true;
      } else if ((a & kTo) != 0 && m == "to") {
        inst.count = 1;
      } else {
        not_modelled(opcode_loc, "modifier '." + std::string(m) + "' of '" + op + "'");
      }
    }
    if ((row->accepts & kNeedsType) != 0 && !have_type) throw Error(opcode_loc, "'" + op + "' needs a type");
    if ((row->accepts & kSourceType) != 0 && !have_type2) throw Error(opcode_loc, "'" + op + "' needs a source type");
    if (row->name == "ldmatrix.sync" && (inst.count == 0 || inst.type.bits != 16 || inst.space != Space::shared))
      not_modelled(opcode_loc, "'" + op + "' (ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 is)");
    if (row->name == "stmatrix.sync" && (inst.count == 0 || inst.type.bits != 16 || inst.space != Space::shared))
      not_modelled(opcode_loc, "'" + op + "' (stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 is)");
    if (row->name == "shfl.sync" && inst.type.bits != 32) throw Error(opcode_loc, "shfl.sync moves .b32");
    if (row->name == "vote.sync" && (!have_mode || (inst.count == 3) != (inst.type == PtxType{TypeKind::b, 32}) ||
                                     (inst.count != 3 && inst.type.kind != TypeKind::pred)))
      not_modelled(opcode_loc, "'" + op + "' (vote.sync.{all,any,uni}.pred and vote.sync.ballot.b32 are)");
    if (inst.mode == IntMode::wide && (inst.type.bits > 32 || !inst.type.is_int()))
      throw Error(opcode_loc, "'" + op + "': .wide takes 16- or 32-bit integers");
    if (inst.type.kind == TypeKind::f && inst.type.bits == 16 && row->thread != exec_mov && row->thread != exec_ld &&
        row->thread != exec_st && row->thread != exec_cvt && row->name != "setp" && row->name != "selp")
      not_modelled(opcode_loc, "half-precision arithmetic '" + op + "'");
    if ((inst.type.kind == TypeKind::f16x2 || inst.type.kind == TypeKind::bf16x2) && row->name != "cvt")
      not_modelled(opcode_loc, "packed arithmetic '" + op + "'");
    if (inst.type.kind == TypeKind::f && inst.rounding != Rounding::none && inst.rounding != Rounding::rn &&
        row->name != "cvt")
      not_modelled(opcode_loc, "rounding '" + op + "' other than .rn");
    if (row->name == "div" && inst.type.kind == TypeKind::f && inst.rounding != Rounding::rn)
      not_modelled(opcode_loc, "'" + op + "' (approximate division)");
  }
  const auto n = static_cast<int>(inst.ops.size());
  if (n < row->min_ops || n > row->max_ops)
    throw Error(opcode_loc, "'" + op + "' takes " +
                                (row->min_ops == row->max_ops
                                     ? std::to_string(row->min_ops)
                                     : std::to_string(row->min_ops) + " to " + std::to_string(row->max_ops)) +
                                " operands, not " + std::to_string(n));
  // `{ %rs1 }`, a vector of one register, is that register (Triton's inline
  // assembly writes loads so), except where the instruction takes vectors.
  if (row->name != "mma.sync" && row->name != "ldmatrix.sync" && row->name != "stmatrix.sync" &&
      row->name != "wgmma.mma_async" && row->name != "cp.async.bulk.tensor")
    for (Operand& o : inst.ops)
      if (o.kind == Kind::vec && o.regs.size() == 1 && inst.vec == 1) {
        if (o.regs[0] == kVecConstant) {  // `{5}`: the constant
          o.kind = Kind::imm;
          o.imm = o.imms[0];
        } else {
          o.kind = Kind::reg;
          o.reg = o.regs[0];
        }
        o.regs.clear();
        o.imms.clear();
      }
  for (const Operand& o : inst.ops)
    if (o.negated && row->name != "vote.sync") not_modelled(o.loc, "a negated predicate operand of '" + op + "'");
  // A vector with constant elements is a store's source only.
  for (std::size_t i = 0; i < inst.ops.size(); ++i)
    if (std::count(inst.ops[i].regs.begin(), inst.ops[i].regs.end(), kVecConstant) != 0 &&
        (row->name != "st" || i != 1))
      not_modelled(inst.ops[i].loc, "a constant in a vector operand of '" + op + "' (a store's source may have them)");
  check_operands(inst, *row, kernel);
}

std::vector<std::string_view> modelled_opcodes() {
  std::vector<std::string_view> out;
  for (const Row& r : kRows) out.push_back(r.name);
  return out;
}

}  // namespace mmacheck::ptx
