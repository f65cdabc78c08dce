#include "sim/check/error_bound.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/float_format.h"

namespace mmacheck::sim {

namespace {

// Exponents and powers of two in the working type T: long double through
// libm; double through its bits (the bound's values are normal doubles, far
// inside the range; anything else goes to libm).
template <class T>
struct Bits {
  static int ilog(T x) { return std::ilogb(x); }
  static T pow2(int e) { return std::ldexp(T(1), e); }
};
template <>
struct Bits<double> {
  static int ilog(double x) {
    const int biased = static_cast<int>(std::bit_cast<std::uint64_t>(x) >> 52 & 0x7ff);
    return biased == 0 || biased == 0x7ff ? std::ilogb(x) : biased - 1023;
  }
  static double pow2(int e) {
    return e < -1022 || e > 1023 ? std::ldexp(1.0, e)
                                 : std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
  }
};

// Relative error of one operation in T, doubled for margin (2^-62 in long double).
template <class T>
const T kSlack = std::ldexp(T(1), 2 - std::numeric_limits<T>::digits);

RoundingSpec rounding_spec(DType type, bool nearest) {
  const FloatFormat& f = float_format(type);
  return {f.man_bits, f.min_exp(), std::ldexp(2.0L - std::ldexp(1.0L, -f.man_bits), f.max_exp()), nearest};
}

// The largest rounding error of a result of magnitude at most `mag`.
template <class T>
T rounding_error(const RoundingSpec& r, T mag) {
  const int e = mag > 0 ? std::max(r.min_exp, Bits<T>::ilog(mag)) : r.min_exp;
  const T ulp = Bits<T>::pow2(e - r.man_bits);
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
  if (xs == kFinite && ys == kFinite) return kFinite;  // the common case
  std::uint8_t out = 0;
  for (std::uint8_t x = 1; x <= kNaN; x <<= 1)
    for (std::uint8_t y = 1; y <= kNaN; y <<= 1)
      if (xs & x && ys & y) out |= add_one(x, y);
  return out;
}

// The class of a value (a product of two inputs has the class the models
// give it: NaN for a NaN input or Inf * 0, else ±Inf for an Inf input).
template <class T>
std::uint8_t value_class(T v) {
  if (std::isnan(v)) return kNaN;
  if (std::isinf(v)) return v > 0 ? kPosInf : kNegInf;
  return kFinite;
}

// Outcomes while the steps run, in the working type.
template <class T>
struct Acc {
  std::uint8_t classes = kFinite;
  T exact = 0, error = 0;
};

template <class T>
Acc<T> start(T c) {
  const std::uint8_t cls = value_class(c);
  return {cls, cls == kFinite ? c : T(0), T(0)};
}

// A finite result near `sum` (within `spread`) may overflow to ±Inf.
template <class T>
std::uint8_t overflow_classes(const RoundingSpec& r, T sum, T spread) {
  const T max = static_cast<T>(r.max_finite);
  return (sum + spread >= max ? kPosInf : 0) | (sum - spread <= -max ? kNegInf : 0);
}

// Products of a run of K: values and alignment exponents.
template <class T>
struct Run {
  std::span<const T> a, b;
  std::span<const int> a_exp, b_exp;

  std::size_t size() const { return a.size(); }
  Run sub(std::size_t at, std::size_t len) const {
    return {a.subspan(at, len), b.subspan(at, len), a_exp.subspan(at, len), b_exp.subspan(at, len)};
  }
};

// round(x + sum a[k] * b[k]), the terms truncated below 2^(E - kept_bits)
// when `truncate` (a fused block), exactly summed otherwise (an fma).
template <class T>
Acc<T> fused_step(const BoundModel& m, const Acc<T>& x, const Run<T>& p, const RoundingSpec& r, bool truncate) {
  // Products of finite inputs are exact in T (no overflow either; T is long
  // double for f64 inputs), so a non-finite product means a non-finite input
  // or Inf * 0.
  T sum = x.exact, magnitudes = std::fabs(x.exact);
  int e = m.zero_term_exp;
  bool finite = true;
  for (std::size_t k = 0; k < p.size(); ++k) {
    const T product = p.a[k] * p.b[k];
    sum += product;
    magnitudes += std::fabs(product);
    // Only finite products align the block (a non-finite one returns below);
    // ilogb(Inf) is INT_MAX, so their exponents would overflow the sum.
    const bool f = std::isfinite(product);
    finite &= f;
    if (product != 0 && f) e = std::max(e, p.a_exp[k] + p.b_exp[k]);
  }
  std::uint8_t products = kFinite;
  if (!finite)
    for (std::size_t k = 0; k < p.size(); ++k) products = add_one(products, value_class(p.a[k] * p.b[k]));
  Acc<T> out{add_classes(x.classes, products), 0, 0};
  if (!(out.classes & kFinite)) return out;

  if (const T acc = std::fabs(x.exact) + x.error; acc > 0) e = std::max(e, std::max(r.min_exp, Bits<T>::ilog(acc)));
  const T slack = static_cast<T>(p.size() + 2) * kSlack<T> * magnitudes;
  const T truncation = truncate ? static_cast<T>(p.size() + 1) * Bits<T>::pow2(e - m.kept_bits) : T(0);
  const T before = x.error + truncation + slack;  // |T - sum| before the final rounding
  out.exact = sum;
  out.error = before + rounding_error(r, std::fabs(sum) + before);
  out.classes |= overflow_classes(r, sum, before);
  return out;
}

// round(x + y) nearest-even, exact before rounding (fp8's f32 FADD of C).
template <class T>
Acc<T> add_step(const Acc<T>& x, const Acc<T>& y, const RoundingSpec& r) {
  Acc<T> out{add_classes(x.classes, y.classes), 0, 0};
  if (!(out.classes & kFinite)) return out;
  const T sum = x.exact + y.exact;
  const T before = x.error + y.error + 3 * kSlack<T> * (std::fabs(x.exact) + std::fabs(y.exact));
  out.exact = sum;
  out.error = before + rounding_error(r, std::fabs(sum) + before);
  out.classes |= overflow_classes(r, sum, before);
  return out;
}

constexpr int kMaxK = 32;  // the longest instruction K (m16n8k32)

// One fp8 K tile: C = +0, products with k mod 4 in {0,1}, then {2,3}, both
// fused (f32 toward zero, or f16 nearest-even); then the accumulator added in
// the output format, nearest-even.
template <class T>
Acc<T> fp8_tile(const BoundModel& m, const Acc<T>& acc, const Run<T>& tile) {
  Acc<T> partial{kFinite, 0, 0};
  for (int pair = 0; pair < 2; ++pair) {
    std::array<T, kMaxK> a{}, b{};
    std::array<int, kMaxK> a_exp{}, b_exp{};
    std::size_t n = 0;
    for (std::size_t k = 0; k < tile.size(); ++k)
      if (static_cast<int>(k % 4) / 2 == pair) {
        a[n] = tile.a[k];
        b[n] = tile.b[k];
        a_exp[n] = tile.a_exp[k];
        b_exp[n++] = tile.b_exp[k];
      }
    const Run<T> half{std::span<const T>(a).first(n), std::span<const T>(b).first(n),
                      std::span<const int>(a_exp).first(n), std::span<const int>(b_exp).first(n)};
    partial = fused_step(m, partial, half, m.out, true);
  }
  RoundingSpec add = m.out;
  add.nearest = true;
  return add_step(acc, partial, add);
}

template <class T>
Outcomes outcomes(const BoundModel& m, const ElementRun<T>& in) {
  const std::size_t k = in.a.size();
  if (in.b.size() != k || in.a_exp.size() != k || in.b_exp.size() != k || k % m.inst_k != 0)
    throw Error("element_outcomes: " + std::to_string(k) + " A and " + std::to_string(in.b.size()) +
                " B values (with exponents) do not make whole K tiles of " + std::to_string(m.inst_k));
  const Run<T> all{in.a, in.b, in.a_exp, in.b_exp};
  Acc<T> acc = start(in.c);
  for (std::size_t k0 = 0; k0 < k; k0 += m.inst_k) {
    const Run<T> tile = all.sub(k0, m.inst_k);
    switch (m.family) {
      case BoundModel::Family::fused:
        for (int j = 0; j < m.inst_k; j += m.block)
          acc = fused_step(m, acc, tile.sub(j, std::min(m.block, m.inst_k - j)), m.out, true);
        break;
      case BoundModel::Family::fp8: acc = fp8_tile(m, acc, tile); break;
      case BoundModel::Family::f64:
        for (int j = 0; j < m.inst_k; ++j) acc = fused_step(m, acc, tile.sub(j, 1), m.out, false);
        break;
    }
  }
  return {acc.classes, static_cast<long double>(acc.exact), static_cast<long double>(acc.error)};
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
    case DType::e3m2:
    case DType::e2m3:
    case DType::e2m1:
      if (arch.fp8 == Fp8Path::fused) {  // native blocks (sm_89, sm_120)
        m.family = BoundModel::Family::fused;
        m.block = arch.block_fp8;
        m.kept_bits = arch.kept_bits_fp8;
        m.input_min_exp = std::min(float_format(inst.a).min_exp(), float_format(inst.b).min_exp());
        m.out = rounding_spec(inst.d, inst.d == DType::f16);
        m.out.man_bits = inst.d == DType::f16 ? m.out.man_bits : arch.f32_frac_bits_fp8;
        return m;
      }
      m.family = BoundModel::Family::fp8;
      m.input_min_exp = float_format(DType::f16).min_exp();
      m.out = rounding_spec(inst.d, inst.d == DType::f16);
      return m;
    case DType::f64:
      m.family = BoundModel::Family::f64;
      m.out = rounding_spec(DType::f64, true);
      return m;
    default: throw Error(inst.ptx() + ": integer instructions are exact and have no error bound");
  }
}

int align_exp(const BoundModel& m, long double x) { return std::max(m.input_min_exp, std::ilogb(x)); }

Outcomes element_outcomes(const BoundModel& m, const ElementInputs& in) { return outcomes(m, in); }

Outcomes element_outcomes(const BoundModel& m, const ElementRun<double>& in) {
  if (m.family == BoundModel::Family::f64)
    throw Error("element_outcomes: f64 products are not exact in double; pass long double values");
  return outcomes(m, in);
}

// The exponent of a zero (or non-finite, zeroed) B value in BoundColumns:
// so low that no sum with an A exponent raises a block's E (products of
// zero do not align a block), yet far from overflowing.
constexpr int kNoExp = -(1 << 29);

BoundColumns::BoundColumns(const BoundModel& m, std::span<const double> bt, std::span<const int> bt_exp, std::int64_t n,
                           std::int64_t k)
    : n_(static_cast<std::size_t>(n)),
      k_(static_cast<std::size_t>(k)),
      bt_(bt),
      b_(n_ * k_, 0),
      b_exp_(n_ * k_, kNoExp),
      blocks_(k_ / static_cast<std::size_t>(std::min(m.block, m.inst_k))) {
  const auto block = static_cast<std::size_t>(std::min(m.block, m.inst_k));
  if (m.family != BoundModel::Family::fused || bt.size() != n_ * k_ || bt_exp.size() != n_ * k_ || k_ % m.inst_k != 0 ||
      m.inst_k % block != 0)
    throw Error("BoundColumns: a fused instruction and whole K tiles of " + std::to_string(n) + " x " +
                std::to_string(k) + " values");
  bad_.assign(blocks_ * n_, 0);
  for (std::size_t j = 0; j < n_; ++j)
    for (std::size_t kk = 0; kk < k_; ++kk) {
      const double v = bt[j * k_ + kk];
      if (!std::isfinite(v)) {
        bad_[kk / block * n_ + j] = 1;
        continue;
      }
      b_[kk * n_ + j] = v;
      b_exp_[kk * n_ + j] = v == 0 ? kNoExp : bt_exp[j * k_ + kk];
    }
}

void row_outcomes(const BoundModel& m, const BoundColumns& cols, std::span<const double> a_row,
                  std::span<const int> a_exp_row, std::span<const double> c_row, std::span<Outcomes> out) {
  const std::size_t k = cols.k(), n = cols.n();
  if (a_row.size() != k || a_exp_row.size() != k || c_row.size() != n || out.size() != n)
    throw Error("row_outcomes: a row of " + std::to_string(a_row.size()) + " for " + std::to_string(k) + " x " +
                std::to_string(n) + " columns");
  // The steps of fused_step<double>, column j of D in lane j: the same
  // operations in the same order, so the same bits as element_outcomes.
  // Non-finite inputs read as 0 in the sums; an element whose block holds
  // one gets that block's classes one by one, and once it cannot be finite
  // (a non-finite product always does that) its numbers no longer matter.
  std::vector<double> exact(n), error(n, 0), sum(n), mag(n), a(k);
  std::vector<int> e(n);
  std::vector<std::uint8_t> classes(n), dead(n);
  for (std::size_t j = 0; j < n; ++j) {
    const Acc<double> x = start(c_row[j]);
    classes[j] = x.classes;
    exact[j] = x.exact;
    dead[j] = !(x.classes & kFinite);
  }
  std::vector<std::uint8_t> row_bad(cols.blocks(), 0);
  const std::size_t block = k / cols.blocks();
  for (std::size_t kk = 0; kk < k; ++kk) {
    const bool finite = std::isfinite(a_row[kk]);
    a[kk] = finite ? a_row[kk] : 0;
    row_bad[kk / block] |= !finite;
  }
  const RoundingSpec& r = m.out;
  for (std::size_t blk = 0; blk < cols.blocks(); ++blk) {
    const std::size_t first = blk * block;
    for (std::size_t j = 0; j < n; ++j) {
      sum[j] = exact[j];
      mag[j] = std::fabs(exact[j]);
      e[j] = m.zero_term_exp;
    }
    for (std::size_t kk = first; kk < first + block; ++kk) {
      const double av = a[kk];
      if (av == 0) continue;  // zero products change neither the sums nor E
      const int ae = a_exp_row[kk];
      const double* __restrict b = cols.b().data() + kk * n;
      const int* __restrict be = cols.b_exp().data() + kk * n;
      double* __restrict sums = sum.data();
      double* __restrict mags = mag.data();
      int* __restrict es = e.data();
      for (std::size_t j = 0; j < n; ++j) {  // branch-free, so that it vectorises
        const double p = av * b[j];
        sums[j] += p;
        mags[j] += std::fabs(p);
        es[j] = std::max(es[j], ae + be[j]);  // a zero b has exponent kNoExp: no effect
      }
    }
    const double slack_terms = static_cast<double>(block + 2) * kSlack<double>,
                 truncation_terms = static_cast<double>(block + 1);
    const std::uint8_t* bad = cols.bad().data() + blk * n;
    for (std::size_t j = 0; j < n; ++j) {
      if ((row_bad[blk] || bad[j]) && classes[j] != kNaN) {  // NaN absorbs every class
        std::uint8_t products = kFinite;
        for (std::size_t kk = first; kk < first + block; ++kk)
          products = add_one(products, value_class(a_row[kk] * cols.bt()[j * k + kk]));
        classes[j] = add_classes(classes[j], products);
        dead[j] |= !(classes[j] & kFinite);
      }
      if (dead[j]) continue;
      int ej = e[j];
      if (const double acc = std::fabs(exact[j]) + error[j]; acc > 0)
        ej = std::max(ej, std::max(r.min_exp, Bits<double>::ilog(acc)));
      const double before = error[j] + truncation_terms * Bits<double>::pow2(ej - m.kept_bits) + slack_terms * mag[j];
      exact[j] = sum[j];
      error[j] = before + rounding_error(r, std::fabs(sum[j]) + before);
      classes[j] |= overflow_classes(r, sum[j], before);
    }
  }
  for (std::size_t j = 0; j < n; ++j)
    out[j] = dead[j] ? Outcomes{classes[j], 0, 0} : Outcomes{classes[j], exact[j], error[j]};
}

}  // namespace mmacheck::sim
