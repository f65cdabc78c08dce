#include "sim/numerics/edge_inputs.h"

#include <algorithm>
#include <bit>

#include "sim/numerics/float_format.h"

namespace mmacheck::sim {

namespace {

std::uint64_t mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

enum class Frac { full, shortened };  // shortened: only the top two fraction bits random

// Values of one element type by sign and exponent of the leading bit.
class Values {
 public:
  Values(DType type, CaseStream& rng) : type_(type), rng_(rng) {
    if (dtype_info(type).is_float) f_ = &float_format(type);
  }

  bool is_float() const { return f_ != nullptr; }
  const FloatFormat& format() const { return *f_; }

  int uniform(int lo, int hi) { return static_cast<int>(rng_.uniform(lo, hi)); }
  // one_in a power of two.
  bool chance(int one_in) { return rng_.one_in_pow2(std::countr_zero(static_cast<unsigned>(one_in))); }
  bool sign() { return chance(2); }

  // Fields as stored; tf32's ignored low bits random.
  std::uint64_t encode(bool neg, std::uint64_t field, std::uint64_t man) {
    const std::uint64_t w = (std::uint64_t{neg} << (f_->exp_bits + f_->man_bits)) | (field << f_->man_bits) | man;
    return (w << f_->ignored_low_bits) | rng_.bits(f_->ignored_low_bits);
  }
  std::uint64_t zero() { return encode(sign(), 0, 0); }

  // (-1)^neg * 1.frac * 2^exp, clamped to the largest finite exponent;
  // below the normal range a subnormal (at least the least one).
  // value() with a random sign, drawn after `exp` (whose own draws the caller
  // made): one draw at a time, never two in one argument list, whose order
  // is the compiler's.
  std::uint64_t signed_value(int exp) {
    const bool neg = sign();
    return value(neg, exp);
  }
  std::uint64_t value(bool neg, int exp, Frac mode = Frac::full) {
    const int m = f_->man_bits;
    std::uint64_t frac = rng_.bits(m);
    if (mode == Frac::shortened && m > 2) frac &= mask(2) << (m - 2);
    exp = std::min(exp, f_->max_exp());
    if (exp >= f_->min_exp()) {
      const std::uint64_t field = static_cast<std::uint64_t>(exp + f_->bias);
      const bool top = field == mask(f_->exp_bits);  // nan_only formats: S.1111.111 is NaN
      return encode(neg, field, top && frac == mask(m) ? frac - 1 : frac);
    }
    const int shift = f_->min_exp() - exp;
    if (shift > m) return encode(neg, 0, 1);
    return encode(neg, 0, std::max<std::uint64_t>(1, ((std::uint64_t{1} << m) | frac) >> shift));
  }
  // ±0 `zero_pct` percent of the time, else value().
  std::uint64_t value_or_zero(int zero_pct, int exp, Frac mode = Frac::full) {
    return uniform(0, 99) < zero_pct ? zero() : value(sign(), exp, mode);
  }

  // Integers: small values, or the extremes where `extremes`.
  std::uint64_t integer(bool extremes) {
    const int bits = dtype_bits(type_);
    const bool is_signed = dtype_info(type_).is_signed;
    if (extremes) {
      const std::uint64_t top = std::uint64_t{1} << (bits - 1);
      const std::uint64_t picks[] = {mask(bits), top, top - 1, 1, 0};
      return picks[uniform(0, 4)];
    }
    return static_cast<std::uint64_t>(is_signed ? uniform(-8, 8) : uniform(0, 15)) & mask(bits);
  }

  // tf32 patterns whose ignored bits alone are set, or under zero, Inf and
  // NaN exponents; least subnormals for the other types.
  std::uint64_t low_bits() {
    const bool neg = sign();
    const std::uint64_t top = mask(f_->exp_bits);
    if (f_->ignored_low_bits == 0)
      return chance(2) ? encode(neg, 0, 1 + rng_.bits(std::min(f_->man_bits, 3))) : value(neg, uniform(-2, 2));
    switch (uniform(0, 5)) {
      case 0: return encode(neg, 0, 0);                                         // a zero with low bits
      case 1: return encode(neg, top, 0);                                       // Inf with low bits
      case 2: return encode(neg, top, std::uint64_t{1} << (f_->man_bits - 1));  // quiet NaN with low bits
      case 3: return encode(neg, 0, rng_.bits(f_->man_bits));                   // subnormal with low bits
      case 4: return encode(neg, top - 1, mask(f_->man_bits));                  // largest finite with low bits
      default: return value(neg, uniform(-2, 2));
    }
  }

 private:
  DType type_;
  CaseStream& rng_;
  const FloatFormat* f_ = nullptr;
};

std::int64_t k_extent(const MatrixSpec& s) { return s.k_dim == 0 ? s.rows : s.cols; }
std::int64_t other_extent(const MatrixSpec& s) { return s.rows * s.cols / k_extent(s); }
std::int64_t at_k(const MatrixSpec& s, std::int64_t i, std::int64_t k) {
  return s.k_dim == 0 ? k * s.cols + i : i * s.cols + k;
}

// Draws the three matrices for one kind.  P is an exponent target for a
// product, split between A (p_a) and B (P - p_a) by the callers.
class EdgeCase {
 public:
  EdgeCase(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, CaseStream& rng)
      : as_(a), bs_(b), cs_(c), va_(a.dtype, rng), vb_(b.dtype, rng), vc_(c.dtype, rng) {
    in_ = {{a.rows, a.cols, a.dtype, std::vector<std::uint64_t>(a.rows * a.cols)},
           {b.rows, b.cols, b.dtype, std::vector<std::uint64_t>(b.rows * b.cols)},
           {c.rows, c.cols, c.dtype, std::vector<std::uint64_t>(c.rows * c.cols)}};
  }

  GemmInputs draw(Distribution d) {
    if (!va_.is_float() || !vb_.is_float() || !vc_.is_float()) {
      const bool extremes = d == Distribution::overflow || d == Distribution::lowbits;
      for (std::uint64_t& x : in_.a.bits) x = va_.integer(extremes);
      for (std::uint64_t& x : in_.b.bits) x = vb_.integer(extremes);
      for (std::uint64_t& x : in_.c.bits) x = vc_.integer(extremes || d == Distribution::underflow);
      return in_;
    }
    const FloatFormat& out = vc_.format();
    const bool f16_out = out.exp_bits == 5;
    switch (d) {
      case Distribution::threshold: {
        // One product near 2^2 per row, the rest 18..30 binades lower.
        for (std::int64_t i = 0; i < other_extent(as_); ++i) {
          const std::int64_t big = va_.uniform(0, static_cast<int>(k_extent(as_)) - 1);
          for (std::int64_t k = 0; k < k_extent(as_); ++k)
            a(i, k) = k == big ? va_.value(va_.sign(), 1) : va_.value_or_zero(25, 1 - va_.uniform(18, 30));
        }
        fill_b([&] { return vb_.value_or_zero(12, vb_.uniform(-1, 1)); });
        fill_c([&] {
          switch (vc_.uniform(0, 2)) {
            case 0: return vc_.zero();
            case 1: return vc_.signed_value(vc_.uniform(0, 3));
            default: return vc_.signed_value(-vc_.uniform(20, 30));
          }
        });
        break;
      }
      case Distribution::zeroterm: {
        // Products at two levels about 26 binades apart, both below the
        // zero-term exponent, so that E is the zero term's and the lower
        // level sits at its truncation threshold; short fractions half the
        // time, so that f16 results land on ties that a tiny term decides.
        const int center = (f16_out ? -21 : -133) - va_.uniform(0, 12);
        const Frac mode = va_.chance(2) ? Frac::shortened : Frac::full;
        const auto level = [&](Values& v, int half) {
          const int pick = v.uniform(0, 99);
          if (pick < 45) return v.zero();
          const int exp = half + (pick < 85 ? 0 : -13) + v.uniform(-2, 2);
          return v.value(v.sign(), exp, mode);
        };
        for (std::uint64_t& x : in_.a.bits) x = level(va_, center / 2);
        for (std::uint64_t& x : in_.b.bits) x = level(vb_, center - center / 2);
        fill_c([&] { return vc_.chance(4) ? vc_.signed_value(center + vc_.uniform(-3, 3)) : vc_.zero(); });
        break;
      }
      case Distribution::underflow: {
        const int least = out.min_exp() - out.man_bits;  // f32: -149, f16: -24
        products(least - va_.uniform(-1, 12), 2, 75, 50);
        fill_c([&] { return vc_.chance(8) ? vc_.encode(vc_.sign(), 0, 1) : vc_.zero(); });
        break;
      }
      case Distribution::ties: {
        // Products at half an ulp of C's binade (give or take a binade or two).
        const int ec = vc_.uniform(-3, 3);
        products(ec - out.man_bits - 1 + va_.uniform(-2, 1), 0, 75, 0, Frac::shortened);
        fill_c([&] { return vc_.chance(8) ? vc_.zero() : vc_.value(vc_.sign(), ec); });
        break;
      }
      case Distribution::overflow: {
        products(out.max_exp() - va_.uniform(0, 2), 1, 50, 0);
        fill_c([&] { return vc_.chance(2) ? vc_.signed_value(out.max_exp() - vc_.uniform(0, 1)) : vc_.zero(); });
        break;
      }
      case Distribution::lowbits:
        for (std::uint64_t& x : in_.a.bits) x = va_.low_bits();
        for (std::uint64_t& x : in_.b.bits) x = vb_.low_bits();
        fill_c([&] { return vc_.chance(4) ? vc_.low_bits() : vc_.signed_value(vc_.uniform(-2, 2)); });
        break;
      default: break;
    }
    return in_;
  }

 private:
  std::uint64_t& a(std::int64_t i, std::int64_t k) { return in_.a.bits[at_k(as_, i, k)]; }
  template <class F>
  void fill_b(F draw) {
    for (std::uint64_t& x : in_.b.bits) x = draw();
  }
  template <class F>
  void fill_c(F draw) {
    for (std::uint64_t& x : in_.c.bits) x = draw();
  }
  // Products with exponents about `center`: A and B each near half of it
  // (noise ± `noise`), zero `a_zero_pct` and `b_zero_pct` percent of the time.
  void products(int center, int noise, int a_zero_pct, int b_zero_pct, Frac mode = Frac::full) {
    const int half = center / 2;
    for (std::uint64_t& x : in_.a.bits) x = va_.value_or_zero(a_zero_pct, half + va_.uniform(-noise, noise), mode);
    for (std::uint64_t& x : in_.b.bits)
      x = vb_.value_or_zero(b_zero_pct, center - half + vb_.uniform(-noise, noise), mode);
  }

  MatrixSpec as_, bs_, cs_;
  Values va_, vb_, vc_;
  GemmInputs in_;
};

}  // namespace

GemmInputs edge_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                            CaseStream& rng) {
  return EdgeCase(a, b, c, rng).draw(dist);
}

}  // namespace mmacheck::sim
