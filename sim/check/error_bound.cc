#include "sim/check/error_bound.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/float_format.h"

namespace mmacheck::sim {

namespace {

// Relative error of one long double operation, doubled for margin.
const long double kSlack = std::ldexp(1.0L, -62);

RoundingSpec rounding_spec(DType type, bool nearest) {
  const FloatFormat& f = float_format(type);
  return {f.man_bits, f.min_exp(), std::ldexp(2.0L - std::ldexp(1.0L, -f.man_bits), f.max_exp()), nearest};
}

// The largest rounding error of a result of magnitude at most `mag`.
long double rounding_error(const RoundingSpec& r, long double mag) {
  const int e = mag > 0 ? std::max(r.min_exp, std::ilogb(mag)) : r.min_exp;
  const long double ulp = std::ldexp(1.0L, e - r.man_bits);
  return r.nearest ? ulp / 2 : ulp;
}

// The class of x + y for single classes, as the models combine specials.
std::uint8_t add_one(std::uint8_t x, std::uint8_t y) {
  const std::uint8_t both = x | y;
  if (both & kNaN || (both & kPosInf && both & kNegInf)) return kNaN;
  if (both & kPosInf) return kPosInf;
  if (both & kNegInf) return kNegInf;
  return kFinite;
}

// Every class x + y can take, for sets of classes.
std::uint8_t add_classes(std::uint8_t xs, std::uint8_t ys) {
  std::uint8_t out = 0;
  for (std::uint8_t x = 1; x <= kNaN; x <<= 1)
    for (std::uint8_t y = 1; y <= kNaN; y <<= 1)
      if (xs & x && ys & y) out |= add_one(x, y);
  return out;
}

// The class of a value (a product of two inputs has the class the models
// give it: NaN for a NaN input or Inf * 0, else ±Inf for an Inf input).
std::uint8_t value_class(long double v) {
  if (std::isnan(v)) return kNaN;
  if (std::isinf(v)) return v > 0 ? kPosInf : kNegInf;
  return kFinite;
}

Outcomes start(long double c) {
  const std::uint8_t cls = value_class(c);
  return {cls, cls == kFinite ? c : 0, 0};
}

// A finite result near `sum` (within `spread`) may overflow to ±Inf.
std::uint8_t overflow_classes(const RoundingSpec& r, long double sum, long double spread) {
  return (sum + spread >= r.max_finite ? kPosInf : 0) | (sum - spread <= -r.max_finite ? kNegInf : 0);
}

// Products of a run of K: values and alignment exponents.
struct Run {
  std::span<const long double> a, b;
  std::span<const int> a_exp, b_exp;

  std::size_t size() const { return a.size(); }
  Run sub(std::size_t at, std::size_t len) const {
    return {a.subspan(at, len), b.subspan(at, len), a_exp.subspan(at, len), b_exp.subspan(at, len)};
  }
};

// round(x + sum a[k] * b[k]), the terms truncated below 2^(E - kept_bits)
// when `truncate` (a fused block), exactly summed otherwise (an fma).
Outcomes fused_step(const BoundModel& m, const Outcomes& x, const Run& p, const RoundingSpec& r,
                    bool truncate) {
  // Products of finite inputs are exact in long double (no overflow either),
  // so a non-finite product means a non-finite input or Inf * 0.
  std::uint8_t products = kFinite;
  long double sum = x.exact, magnitudes = std::fabs(x.exact);
  int e = m.zero_term_exp;
  for (std::size_t k = 0; k < p.size(); ++k) {
    const long double product = p.a[k] * p.b[k];
    products = add_one(products, value_class(product));
    sum += product;
    magnitudes += std::fabs(product);
    // Only finite products align the block (a non-finite one returns below);
    // ilogb(Inf) is INT_MAX, so their exponents would overflow the sum.
    if (product != 0 && std::isfinite(product)) e = std::max(e, p.a_exp[k] + p.b_exp[k]);
  }
  Outcomes out{add_classes(x.classes, products), 0, 0};
  if (!(out.classes & kFinite)) return out;

  if (const long double acc = std::fabs(x.exact) + x.error; acc > 0)
    e = std::max(e, std::max(r.min_exp, std::ilogb(acc)));
  const long double slack = (p.size() + 2) * kSlack * magnitudes;
  const long double truncation = truncate ? (p.size() + 1) * std::ldexp(1.0L, e - m.kept_bits) : 0;
  const long double before = x.error + truncation + slack;  // |T - sum| before the final rounding
  out.exact = sum;
  out.error = before + rounding_error(r, std::fabs(sum) + before);
  out.classes |= overflow_classes(r, sum, before);
  return out;
}

// round(x + y) nearest-even, exact before rounding (fp8's f32 FADD of C).
Outcomes add_step(const Outcomes& x, const Outcomes& y, const RoundingSpec& r) {
  Outcomes out{add_classes(x.classes, y.classes), 0, 0};
  if (!(out.classes & kFinite)) return out;
  const long double sum = x.exact + y.exact;
  const long double before = x.error + y.error + 3 * kSlack * (std::fabs(x.exact) + std::fabs(y.exact));
  out.exact = sum;
  out.error = before + rounding_error(r, std::fabs(sum) + before);
  out.classes |= overflow_classes(r, sum, before);
  return out;
}

constexpr int kMaxK = 32;  // the longest instruction K (m16n8k32)

// One fp8 K tile: C = +0, products with k mod 4 in {0,1}, then {2,3}, both
// fused f32 toward zero; then the accumulator added, nearest-even.
Outcomes fp8_tile(const BoundModel& m, const Outcomes& acc, const Run& tile) {
  Outcomes partial{kFinite, 0, 0};
  for (int pair = 0; pair < 2; ++pair) {
    std::array<long double, kMaxK> a{}, b{};
    std::array<int, kMaxK> a_exp{}, b_exp{};
    std::size_t n = 0;
    for (std::size_t k = 0; k < tile.size(); ++k)
      if (static_cast<int>(k % 4) / 2 == pair) {
        a[n] = tile.a[k];
        b[n] = tile.b[k];
        a_exp[n] = tile.a_exp[k];
        b_exp[n++] = tile.b_exp[k];
      }
    const Run half{std::span(a).first(n), std::span(b).first(n), std::span(a_exp).first(n),
                   std::span(b_exp).first(n)};
    partial = fused_step(m, partial, half, m.out, true);
  }
  return add_step(acc, partial, rounding_spec(DType::f32, true));
}

}  // namespace

BoundModel bound_model(const MmaInst& inst, const ArchParams& arch) {
  if (inst.k > kMaxK) throw Error(inst.ptx() + ": K longer than " + std::to_string(kMaxK));
  BoundModel m;
  m.inst_k = inst.k;
  m.kept_bits = arch.kept_bits;
  m.zero_term_exp = arch.zero_term_exp(inst.d);
  switch (inst.a) {
    case DType::f16:
    case DType::bf16:
    case DType::tf32:
      m.family = BoundModel::Family::fused;
      m.block = inst.a == DType::tf32 ? arch.block_tf32 : arch.block_16bit;
      m.input_min_exp = float_format(inst.a).min_exp();
      m.out = rounding_spec(inst.d, inst.d == DType::f16);
      return m;
    case DType::e4m3:
    case DType::e5m2:
      if (arch.fp8 == Fp8Path::fused) {  // native blocks (sm_89, sm_120)
        m.family = BoundModel::Family::fused;
        m.block = arch.block_fp8;
        m.kept_bits = arch.kept_bits_fp8;
        m.input_min_exp = float_format(inst.a).min_exp();
        m.out = rounding_spec(inst.d, inst.d == DType::f16);
        m.out.man_bits = inst.d == DType::f16 ? m.out.man_bits : arch.f32_frac_bits_fp8;
        return m;
      }
      m.family = BoundModel::Family::fp8;
      m.input_min_exp = float_format(DType::f16).min_exp();
      m.out = rounding_spec(DType::f32, false);
      return m;
    case DType::f64:
      m.family = BoundModel::Family::f64;
      m.out = rounding_spec(DType::f64, true);
      return m;
    default:
      throw Error(inst.ptx() + ": integer instructions are exact and have no error bound");
  }
}

int align_exp(const BoundModel& m, long double x) { return std::max(m.input_min_exp, std::ilogb(x)); }

Outcomes element_outcomes(const BoundModel& m, const ElementInputs& in) {
  const std::size_t k = in.a.size();
  if (in.b.size() != k || in.a_exp.size() != k || in.b_exp.size() != k || k % m.inst_k != 0)
    throw Error("element_outcomes: " + std::to_string(k) + " A and " + std::to_string(in.b.size()) +
                " B values (with exponents) do not make whole K tiles of " + std::to_string(m.inst_k));
  const Run all{in.a, in.b, in.a_exp, in.b_exp};
  Outcomes acc = start(in.c);
  for (std::size_t k0 = 0; k0 < k; k0 += m.inst_k) {
    const Run tile = all.sub(k0, m.inst_k);
    switch (m.family) {
      case BoundModel::Family::fused:
        for (int j = 0; j < m.inst_k; j += m.block)
          acc = fused_step(m, acc, tile.sub(j, std::min(m.block, m.inst_k - j)), m.out, true);
        break;
      case BoundModel::Family::fp8:
        acc = fp8_tile(m, acc, tile);
        break;
      case BoundModel::Family::f64:
        for (int j = 0; j < m.inst_k; ++j) acc = fused_step(m, acc, tile.sub(j, 1), m.out, false);
        break;
    }
  }
  return acc;
}

}  // namespace mmacheck::sim
