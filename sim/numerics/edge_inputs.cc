#include "sim/numerics/edge_inputs.h"

#include <algorithm>

#include "sim/numerics/case_stream.h"
#include "sim/numerics/element_words.h"
#include "sim/numerics/float_format.h"

namespace mmacheck::sim {

namespace {

using element::Bits;
using element::select;

std::uint64_t mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

enum class Frac { full, shortened };  // shortened: only the top two fraction bits random

// An element's control split in two halves (8 bits each for 16-bit
// elements, else 16), each making one choice: `first` whether the element
// is zero or which alternative, `second` its exponent's offset.
template <int S>
struct Halves {
  using T = typename Bits<S>::T;
  static constexpr int kBits = Bits<S>::kControlBits / 2;
  static T first(T c, std::uint64_t n) { return static_cast<T>(((c >> kBits) & mask(kBits)) * n >> kBits); }
  static T second(T c, std::uint64_t n) { return static_cast<T>((c & mask(kBits)) * n >> kBits); }
};

// Values of one floating-point format by sign and exponent of the leading
// bit, from an element's payload (sign, fraction, tf32's ignored bits) and
// a computed exponent; no branch.
template <int S>
class EdgeValues {
 public:
  using B = Bits<S>;
  using T = typename B::T;

  explicit EdgeValues(const FloatFormat& f)
      : e_(f.exp_bits),
        m_(f.man_bits),
        low_(f.ignored_low_bits),
        man_all_(static_cast<T>(mask(f.man_bits))),
        low_all_(static_cast<T>(mask(f.ignored_low_bits))),
        top_(static_cast<T>(mask(f.exp_bits))),
        min_exp_(f.min_exp()),
        max_exp_(f.max_exp()),
        bias_(f.bias) {}

  // Fields as stored; sign and tf32's ignored low bits from the payload.
  T encode(T p, T field, T man) const {
    return ((B::sign(p) << (e_ + m_) | field << m_ | man) << low_) | (p & low_all_);
  }
  T zero(T p) const { return encode(p, 0, 0); }
  T fraction(T p) const { return (p >> low_) & man_all_; }
  // (-1)^sign * 1.frac * 2^exp, clamped to the largest finite exponent;
  // below the normal range a subnormal (at least the least one).
  T value(T p, std::int32_t exp, Frac mode = Frac::full) const {
    T frac = fraction(p);
    if (mode == Frac::shortened && m_ > 2) frac &= static_cast<T>(mask(2) << (m_ - 2));
    exp = std::min(exp, max_exp_);
    const T field = static_cast<T>(std::max(exp + bias_, 0));
    const T top = static_cast<T>(field == top_ && frac == man_all_);  // nan_only formats: S.1111.111 is NaN
    // Below the normal range: the significand shifted right (at most m + 1
    // places, where it is 1 anyway).
    const std::int32_t shift = std::min(std::max(min_exp_ - exp, 0), m_ + 1);
    const T sub = std::max<T>(1, ((T{1} << m_) | frac) >> shift);
    return select(exp >= min_exp_, encode(p, field, frac - top), encode(p, 0, sub));
  }
  // Zero where `zero`, else value().
  T value_or_zero(T p, bool zero, std::int32_t exp, Frac mode = Frac::full) const {
    return select(zero, this->zero(p), value(p, exp, mode));
  }
  // tf32 patterns whose ignored bits alone are set, or under zero, Inf and
  // NaN exponents; least subnormals for the other types.  `pick` in 0..5,
  // `exp` -2..2, `half` a coin.
  T low_bits(T p, T pick, std::int32_t exp, bool half) const {
    const T moderate = value(p, exp);
    if (low_ == 0)
      return select(half, encode(p, 0, 1 + (fraction(p) & static_cast<T>(mask(std::min(m_, 3))))), moderate);
    T v = select(pick == 0, encode(p, 0, 0), moderate);           // a zero with low bits
    v = select(pick == 1, encode(p, top_, 0), v);                 // Inf with low bits
    v = select(pick == 2, encode(p, top_, T{1} << (m_ - 1)), v);  // quiet NaN with low bits
    v = select(pick == 3, encode(p, 0, fraction(p)), v);          // subnormal with low bits
    return select(pick == 4, encode(p, top_ - 1, man_all_), v);   // largest finite with low bits
  }

 private:
  int e_, m_, low_;
  T man_all_, low_all_, top_;
  std::int32_t min_exp_, max_exp_, bias_;
};

std::int64_t k_extent(const MatrixSpec& s) { return s.k_dim == 0 ? s.rows : s.cols; }
std::int64_t other_extent(const MatrixSpec& s) { return s.rows * s.cols / k_extent(s); }
std::int64_t at_k(const MatrixSpec& s, std::int64_t i, std::int64_t k) {
  return s.k_dim == 0 ? k * s.cols + i : i * s.cols + k;
}

// The per-case choices of each kind, from the case's own stream (3), in
// this order: threshold draws one position per row of A; zeroterm a center
// and a fraction mode; underflow, ties and overflow their exponents.
struct CaseChoices {
  std::int32_t center = 0, ec = 0;
  Frac mode = Frac::full;
};

// One operand's elements for kind d; `v` its format's values, `out` the
// output's format, `operand` 0, 1, 2 for A, B, C.
template <int S>
[[gnu::always_inline]] inline void draw_edge(std::uint64_t* o, std::int64_t n, const FloatFormat& f,
                                             const FloatFormat& out, Distribution d, int operand, const CaseChoices& cc,
                                             const PhiloxStream& s, PhiloxPath path) {
  using T = typename Bits<S>::T;
  using H = Halves<S>;
  using B = Bits<S>;
  const EdgeValues<S> v(f);
  // first(c, 100) < pct: zero pct percent of the time.
  const auto pct = [](T c, std::uint64_t percent) { return H::first(c, 100) < percent; };
  const auto noise = [](T c, int lo, int hi) {
    return lo + static_cast<std::int32_t>(H::second(c, static_cast<std::uint64_t>(hi - lo + 1)));
  };
  const std::int32_t out_max = out.max_exp();
  const int half = cc.center / 2, other = cc.center - cc.center / 2;
  switch (d) {
    case Distribution::threshold:
      // One product near 2^2 per row (placed afterwards), the rest 18..30 binades lower.
      if (operand == 0)
        return element::fill<S>(o, n, s, path,
                                [=](T p, T c) { return v.value_or_zero(p, pct(c, 25), 1 - noise(c, 18, 30)); });
      if (operand == 1)
        return element::fill<S>(o, n, s, path,
                                [=](T p, T c) { return v.value_or_zero(p, pct(c, 12), noise(c, -1, 1)); });
      return element::fill<S>(o, n, s, path, [=](T p, T c) {
        const T pick = H::first(c, 3);
        const T near = v.value(p, noise(c, 0, 3)), far = v.value(p, -noise(c, 20, 30));
        return select(pick == 0, v.zero(p), select(pick == 1, near, far));
      });
    case Distribution::zeroterm: {
      // Products at two levels 13 binades apart, both below the zero-term
      // exponent; short fractions half the time (the case's mode).
      if (operand == 2)
        return element::fill<S>(o, n, s, path, [=](T p, T c) {
          return select((B::flags(p) & 3) == 0, v.value(p, cc.center + noise(c, -3, 3)), v.zero(p));
        });
      const std::int32_t level = operand == 0 ? half : other;
      return element::fill<S>(o, n, s, path, [=](T p, T c) {
        const T pick = H::first(c, 100);
        const std::int32_t exp =
            level + static_cast<std::int32_t>(select(pick < 85, T{0}, static_cast<T>(-13))) + noise(c, -2, 2);
        return select(pick < 45, v.zero(p), v.value(p, exp, cc.mode));
      });
    }
    case Distribution::underflow:
      if (operand == 0)
        return element::fill<S>(o, n, s, path,
                                [=](T p, T c) { return v.value_or_zero(p, pct(c, 75), half + noise(c, -2, 2)); });
      if (operand == 1)
        return element::fill<S>(o, n, s, path,
                                [=](T p, T c) { return v.value_or_zero(p, pct(c, 50), other + noise(c, -2, 2)); });
      return element::fill<S>(o, n, s, path,
                              [=](T p, T) { return select(B::flags(p) == 0, v.encode(p, 0, 1), v.zero(p)); });
    case Distribution::ties:
      // Products at half an ulp of C's binade (give or take a binade or two).
      if (operand == 0)
        return element::fill<S>(o, n, s, path,
                                [=](T p, T c) { return v.value_or_zero(p, pct(c, 75), half, Frac::shortened); });
      if (operand == 1)
        return element::fill<S>(o, n, s, path, [=](T p, T) { return v.value(p, other, Frac::shortened); });
      return element::fill<S>(o, n, s, path,
                              [=](T p, T) { return select(B::flags(p) == 0, v.zero(p), v.value(p, cc.ec)); });
    case Distribution::overflow:
      if (operand == 0)
        return element::fill<S>(o, n, s, path,
                                [=](T p, T c) { return v.value_or_zero(p, pct(c, 50), half + noise(c, -1, 1)); });
      if (operand == 1)
        return element::fill<S>(o, n, s, path, [=](T p, T c) { return v.value(p, other + noise(c, -1, 1)); });
      return element::fill<S>(o, n, s, path, [=](T p, T c) {
        return select((B::flags(p) & 1) == 0, v.value(p, out_max - noise(c, 0, 1)), v.zero(p));
      });
    case Distribution::lowbits:
      if (operand < 2)
        return element::fill<S>(o, n, s, path, [=](T p, T c) {
          return v.low_bits(p, H::first(c, 6), noise(c, -2, 2), (B::flags(p) & 1) == 0);
        });
      return element::fill<S>(o, n, s, path, [=](T p, T c) {
        return select((B::flags(p) & 6) == 0, v.low_bits(p, H::first(c, 6), noise(c, -2, 2), (B::flags(p) & 1) == 0),
                      v.value(p, noise(c, -2, 2)));
      });
    default: break;
  }
}

// Integers: small values, or the extremes where `extremes`.
template <int S>
[[gnu::always_inline]] inline void draw_integers(std::uint64_t* o, std::int64_t n, DType t, bool extremes,
                                                 const PhiloxStream& s, PhiloxPath path) {
  using T = typename Bits<S>::T;
  const int bits = dtype_bits(t);
  const bool is_signed = dtype_info(t).is_signed;
  const T all = static_cast<T>(mask(bits)), top = T{1} << (bits - 1);
  if (extremes)
    return element::fill<S>(o, n, s, path, [=](T, T c) {
      const T k = Bits<S>::choice(c, 5);
      T x = select(k == 0, all, static_cast<T>(k == 3));
      x = select(k == 1, top, x);
      return select(k == 2, top - 1, x);
    });
  return element::fill<S>(o, n, s, path, [=](T, T c) {
    const std::int64_t lo = is_signed ? -8 : 0;
    return static_cast<T>(lo + static_cast<std::int64_t>(Bits<S>::choice(c, is_signed ? 17 : 16))) & all;
  });
}

[[gnu::always_inline]] inline void draw_operand(Matrix& m, const FloatFormat* out, Distribution d, int operand,
                                                const CaseChoices& cc, const PhiloxStream& s, PhiloxPath path,
                                                bool integers) {
  std::uint64_t* o = m.bits.data();
  const auto n = static_cast<std::int64_t>(m.bits.size());
  if (integers) {
    const bool extremes =
        d == Distribution::overflow || d == Distribution::lowbits || (operand == 2 && d == Distribution::underflow);
    switch (element::payload_bits(dtype_bits(m.dtype))) {
      case 16: return draw_integers<16>(o, n, m.dtype, extremes, s, path);
      case 32: return draw_integers<32>(o, n, m.dtype, extremes, s, path);
      default: return draw_integers<64>(o, n, m.dtype, extremes, s, path);
    }
  }
  const FloatFormat& f = float_format(m.dtype);
  switch (element::payload_bits(f.storage_bits())) {
    case 16: return draw_edge<16>(o, n, f, *out, d, operand, cc, s, path);
    case 32: return draw_edge<32>(o, n, f, *out, d, operand, cc, s, path);
    default: return draw_edge<64>(o, n, f, *out, d, operand, cc, s, path);
  }
}

// draw_operand compiled for each instruction set (its loops vectorise on
// AVX2 and AVX-512 lanes; integer arithmetic, the same bits), chosen with
// the path.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"), flatten)) void draw_operand_avx512(
    Matrix& m, const FloatFormat* out, Distribution d, int operand, const CaseChoices& cc, const PhiloxStream& s,
    bool integers) {
  draw_operand(m, out, d, operand, cc, s, PhiloxPath::avx512, integers);
}
__attribute__((target("avx2"), flatten)) void draw_operand_avx2(Matrix& m, const FloatFormat* out, Distribution d,
                                                                int operand, const CaseChoices& cc,
                                                                const PhiloxStream& s, bool integers) {
  draw_operand(m, out, d, operand, cc, s, PhiloxPath::avx2, integers);
}
#endif

// flatten: every element function inlined into its loop, which then vectorises.
[[gnu::flatten]] void draw_operand_on(PhiloxPath path, Matrix& m, const FloatFormat* out, Distribution d, int operand,
                                      const CaseChoices& cc, const PhiloxStream& s, bool integers) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (path == PhiloxPath::avx512) return draw_operand_avx512(m, out, d, operand, cc, s, integers);
  if (path == PhiloxPath::avx2) return draw_operand_avx2(m, out, d, operand, cc, s, integers);
#endif
  draw_operand(m, out, d, operand, cc, s, PhiloxPath::scalar, integers);
}

// threshold's large product per row of A: one element of each row, near 2^1.
void place_large(const MatrixSpec& as, Matrix& a, CaseStream& rng) {
  const FloatFormat& f = float_format(as.dtype);
  const std::int64_t k = k_extent(as);
  for (std::int64_t i = 0; i < other_extent(as); ++i) {
    const std::int64_t big = rng.uniform(0, k - 1);
    const std::uint64_t neg = rng.bits(1), frac = rng.bits(f.man_bits), low = rng.bits(f.ignored_low_bits);
    const std::uint64_t w =
        neg << (f.exp_bits + f.man_bits) | static_cast<std::uint64_t>(1 + f.bias) << f.man_bits | frac;
    a.bits[at_k(as, i, big)] = w << f.ignored_low_bits | low;
  }
}

}  // namespace

GemmInputs edge_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                            std::uint64_t seed, std::uint64_t case_index, PhiloxPath path) {
  GemmInputs in{{a.rows, a.cols, a.dtype, std::vector<std::uint64_t>(a.rows * a.cols)},
                {b.rows, b.cols, b.dtype, std::vector<std::uint64_t>(b.rows * b.cols)},
                {c.rows, c.cols, c.dtype, std::vector<std::uint64_t>(c.rows * c.cols)}};
  const bool integers = !dtype_info(a.dtype).is_float || !dtype_info(b.dtype).is_float || !dtype_info(c.dtype).is_float;
  const FloatFormat* out = integers ? nullptr : &float_format(c.dtype);
  CaseStream rng(seed, case_index, 3);
  CaseChoices cc;
  if (!integers) {
    switch (dist) {
      case Distribution::zeroterm:
        cc.center = static_cast<std::int32_t>((out->exp_bits == 5 ? -21 : -133) - rng.uniform(0, 12));
        cc.mode = rng.one_in_pow2(1) ? Frac::shortened : Frac::full;
        break;
      case Distribution::underflow:
        cc.center = static_cast<std::int32_t>(out->min_exp() - out->man_bits - rng.uniform(-1, 12));  // f32: -149
        break;
      case Distribution::ties: {
        cc.ec = static_cast<std::int32_t>(rng.uniform(-3, 3));
        cc.center = static_cast<std::int32_t>(cc.ec - out->man_bits - 1 + rng.uniform(-2, 1));
        break;
      }
      case Distribution::overflow: cc.center = static_cast<std::int32_t>(out->max_exp() - rng.uniform(0, 2)); break;
      default: break;
    }
  }
  Matrix* const operands[] = {&in.a, &in.b, &in.c};
  for (int operand = 0; operand < 3; ++operand)
    draw_operand_on(path, *operands[operand], out, dist, operand, cc,
                    philox_stream(seed, case_index, static_cast<std::uint32_t>(operand)), integers);
  if (!integers && dist == Distribution::threshold) place_large(a, in.a, rng);
  return in;
}

}  // namespace mmacheck::sim
