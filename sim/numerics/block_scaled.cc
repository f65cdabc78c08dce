#include "sim/numerics/block_scaled.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/fused_dot.h"

namespace mmacheck::sim {

namespace {

// MMA-Sim's sm_120 block-scaled arithmetic (mmasim/nv_ptx/sim.py,
// MMABlockScale): K 32 is MMA_ST_FDPA, K 64 MMA_GST_FDPA.  group 0: no
// grouping (each product is a term).
struct BlockScaleArith {
  int k;
  int group;      // products summed exactly into one term
  int kept_bits;  // F: terms truncated below 2^(E - kept_bits)
  int zero_term;  // alignment exponent of a zero term
};
constexpr BlockScaleArith kArith[] = {
    {32, 0, 25, -133},
    {64, 16, 35, -139},
};

const BlockScaleArith& arith_for(const MmaInst& inst) {
  for (const BlockScaleArith& a : kArith)
    if (a.k == inst.k) return a;
  throw Error(inst.ptx() + ": no block-scaled arithmetic for K " + std::to_string(inst.k));
}

void check_size(const MmaInst& inst, const char* operand, std::size_t got, int want) {
  if (got != static_cast<std::size_t>(want))
    throw Error(inst.ptx() + ": tile " + operand + " has " + std::to_string(got) + " elements, expected " +
                std::to_string(want));
}

// An A or B element: the 8-bit container, or an e2m1 nibble moved to the
// container's bits 5:2.
FpValue decode_element(const MmaInst& inst, DType t, std::uint64_t bits) {
  const int width = inst.elem_bits(Operand::A);
  return decode(float_format(t), width == 4 ? (bits & 0xF) << 2 : bits & 0xFF);
}

struct Tile {
  const MmaInst& inst;
  const BlockScaleArith& arith;
  FusedStep step;
  std::vector<FpValue> a, bt;  // A row-major, B column-major (so a K run is contiguous)
  std::vector<ScaleValue> sa, sb;
  std::span<const std::uint64_t> c;
};

// K 32: the native fp8 block with the scales' exponents on each product.
std::uint64_t scaled_block(const Tile& t, int i, int j) {
  const MmaInst& in = t.inst;
  const ScaleValue& x = t.sa[i];
  const ScaleValue& y = t.sb[j];
  if (x.nan || y.nan) return canonical_nan(*t.step.out);
  // ue8m0 scales are powers of two (sig 1, frac 0): only the exponent moves.
  std::vector<FpValue> row(t.a.begin() + i * in.k, t.a.begin() + (i + 1) * in.k);
  for (FpValue& v : row) v.exp += x.exp + y.exp;
  return fused_dot(t.step, row, std::span(t.bt).subspan(j * in.k, in.k),
                   decode(float_format(DType::f32), t.c[i * in.n + j]));
}

// K 64: exact group sums, each scaled, one truncated sum of the groups and C.
std::uint64_t grouped_block(const Tile& t, int i, int j) {
  const MmaInst& in = t.inst;
  const BlockScaleArith& ar = t.arith;
  const FpValue c = decode(float_format(DType::f32), t.c[i * in.n + j]);
  const int groups = in.k / ar.group;
  bool nan = c.cls == FpClass::nan;
  for (int v = 0; v < in.scale_vec; ++v) nan = nan || t.sa[i * in.scale_vec + v].nan || t.sb[v * in.n + j].nan;
  if (nan) return canonical_nan(*t.step.out);
  if (c.cls == FpClass::inf) return t.step.out->inf_bits(c.neg);  // e2m1 and finite scales cannot overflow

  struct Term {
    std::int64_t value;  // times 2^(exp - frac)
    int exp;             // alignment exponent
    int frac;
  };
  std::vector<Term> terms;
  for (int g = 0; g < groups; ++g) {
    std::int64_t sum = 0;  // in units of 2^-2 (e2m1: sig * 2^(exp - 1))
    bool all_zero = true;
    for (int kk = g * ar.group; kk < (g + 1) * ar.group; ++kk) {
      const FpValue& x = t.a[i * in.k + kk];
      const FpValue& y = t.bt[j * in.k + kk];
      if (x.sig == 0 || y.sig == 0) continue;
      all_zero = false;
      const std::int64_t p = static_cast<std::int64_t>(x.sig * y.sig) << (x.exp + y.exp);
      sum += x.neg != y.neg ? -p : p;
    }
    const int block = g * ar.group / in.scale_block_k();
    const ScaleValue& x = t.sa[i * in.scale_vec + block];
    const ScaleValue& y = t.sb[block * in.n + j];
    const std::uint64_t q = x.sig * y.sig;
    if (all_zero || q == 0) {
      terms.push_back({0, ar.zero_term, 0});
      continue;
    }
    terms.push_back({sum * static_cast<std::int64_t>(q), x.exp + y.exp, 2 + x.frac + y.frac});
  }
  const std::int64_t csig = static_cast<std::int64_t>(c.sig);
  terms.push_back({c.neg ? -csig : csig, c.sig ? c.exp : ar.zero_term, c.frac});

  int max_exp = terms.front().exp;
  for (const Term& term : terms) max_exp = std::max(max_exp, term.exp);
  // In units of 2^(max_exp - kept_bits), each truncated toward zero.
  std::int64_t total = 0;
  for (const Term& term : terms) {
    if (term.value == 0) continue;
    const int shift = term.exp - term.frac - max_exp + ar.kept_bits;
    const std::uint64_t mag = term.value < 0 ? -static_cast<std::uint64_t>(term.value) : term.value;
    const std::uint64_t units = shift >= 0 ? mag << shift : (-shift >= 64 ? 0 : mag >> -shift);
    total += term.value < 0 ? -static_cast<std::int64_t>(units) : static_cast<std::int64_t>(units);
  }
  const std::uint64_t mag = total < 0 ? -static_cast<std::uint64_t>(total) : total;
  return fused_round(t.step, total < 0, mag, max_exp - ar.kept_bits);
}

}  // namespace

ScaleValue decode_scale(ScaleType type, std::uint64_t bits) {
  bits &= 0xFF;
  switch (type) {
    case ScaleType::ue8m0:
      if (bits == 0xFF) return {true};
      return {false, 1, static_cast<int>(bits) - 127, 0};
    case ScaleType::ue4m3: {
      const std::uint64_t w = bits & 0x7F;  // the sign bit is ignored (MMA-Sim's truncate_e4m3_to_ue4m3)
      const FpValue v = decode(float_format(DType::e4m3), w);
      if (v.cls == FpClass::nan) return {true};
      return {false, v.sig, v.exp, v.frac};
    }
    case ScaleType::none: break;
  }
  throw Error("not a scale-factor type");
}

void block_scaled_tile(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                       std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                       std::span<const std::uint64_t> scale_a, std::span<const std::uint64_t> scale_b,
                       std::span<std::uint64_t> d) {
  if (!inst.block_scaled()) throw Error(inst.ptx() + " is not block-scaled");
  check_size(inst, "A", a.size(), inst.a_elems());
  check_size(inst, "B", b.size(), inst.b_elems());
  check_size(inst, "C", c.size(), inst.c_elems());
  check_size(inst, "D", d.size(), inst.c_elems());
  check_size(inst, "scale_A", scale_a.size(), inst.m * inst.scale_vec);
  check_size(inst, "scale_B", scale_b.size(), inst.scale_vec * inst.n);
  check_has_model(inst, arch);
  const BlockScaleArith& ar = arith_for(inst);
  const FloatFormat& f32 = float_format(DType::f32);
  Tile t{inst, ar, {&f32, ar.kept_bits, ar.zero_term, Rounding::toward_zero, f32.man_bits}, {}, {}, {}, {}, c};
  t.a.resize(static_cast<std::size_t>(inst.m * inst.k));
  t.bt.resize(static_cast<std::size_t>(inst.n * inst.k));
  for (int i = 0; i < inst.m * inst.k; ++i) t.a[i] = decode_element(inst, inst.a, a[i]);
  for (int kk = 0; kk < inst.k; ++kk)
    for (int j = 0; j < inst.n; ++j) t.bt[j * inst.k + kk] = decode_element(inst, inst.b, b[kk * inst.n + j]);
  for (const std::uint64_t s : scale_a) t.sa.push_back(decode_scale(inst.stype, s));
  for (const std::uint64_t s : scale_b) t.sb.push_back(decode_scale(inst.stype, s));
  for (int i = 0; i < inst.m; ++i)
    for (int j = 0; j < inst.n; ++j) d[i * inst.n + j] = ar.group ? grouped_block(t, i, j) : scaled_block(t, i, j);
}

}  // namespace mmacheck::sim
