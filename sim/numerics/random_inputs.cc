#include "sim/numerics/random_inputs.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <type_traits>

#include "core/base/error.h"
#include "sim/numerics/case_stream.h"
#include "sim/numerics/edge_inputs.h"
#include "sim/numerics/element_words.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/philox_blocks.h"

namespace mmacheck::sim {

namespace {

constexpr std::array kDistributions = {Distribution::normal,   Distribution::wide,   Distribution::cancel,
                                       Distribution::bits,     Distribution::spread, Distribution::sparse,
                                       Distribution::specials, Distribution::nearsum};
constexpr std::array kEdge = {Distribution::threshold, Distribution::zeroterm, Distribution::underflow,
                              Distribution::ties,      Distribution::overflow, Distribution::lowbits};
constexpr std::array kAll = {Distribution::normal,   Distribution::wide,      Distribution::cancel,
                             Distribution::bits,     Distribution::spread,    Distribution::sparse,
                             Distribution::specials, Distribution::nearsum,   Distribution::threshold,
                             Distribution::zeroterm, Distribution::underflow, Distribution::ties,
                             Distribution::overflow, Distribution::lowbits};

std::uint64_t low_mask(int bits) { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }

enum class Role { product, accumulator };

// The streams of a case (sim/numerics/philox_blocks.h): A's, B's and C's
// element words, and the case's own few choices (cancel's flipped bit).
constexpr std::uint32_t kStreamOf[] = {0, 1, 2};
constexpr std::uint32_t kCaseStream = 3;

using element::Bits;
using element::fill;
using element::payload_bits;
using element::select;

// Floating-point elements of one format, each a function of its bits
// without a branch: the alternatives are computed and one is selected.
template <int S>
class FloatDraw {
 public:
  using B = Bits<S>;
  using T = typename B::T;

  explicit FloatDraw(const FloatFormat& f)
      : e_(f.exp_bits),
        m_(f.man_bits),
        low_(f.ignored_low_bits),
        storage_all_(static_cast<T>(low_mask(f.storage_bits()))),
        man_all_(static_cast<T>(low_mask(f.man_bits))),
        low_all_(static_cast<T>(low_mask(f.ignored_low_bits))),
        top_(static_cast<T>(low_mask(f.exp_bits))),
        max_finite_(f.specials == Specials::ieee ? top_ - 1 : top_),
        max_finite_field_(static_cast<std::int32_t>(max_finite_)),
        bias_(f.bias),
        nan_only_(f.specials == Specials::nan_only) {
    // The special values' fractions: formats without Inf take a quiet NaN
    // for it, formats without NaN (fp6, fp4) their largest value.
    const bool ieee = f.specials == Specials::ieee;
    const T q = T{1} << (f.man_bits - 1);
    inf_man_ = ieee ? 0 : man_all_;
    nan_fixed_ = ieee ? q : man_all_;
    nan_random_ = ieee ? q - 1 : 0;
    snan_fixed_ = ieee ? 0 : man_all_;
    snan_least_ = ieee ? 1 : 0;
    largest_ = nan_only_ && max_finite_ == top_ ? man_all_ - 1 : man_all_;
  }

  // Sign from the payload, the given field and fraction, tf32's ignored
  // bits from the payload's lowest.
  T encode(T p, T field, T man) const {
    return ((B::sign(p) << (e_ + m_) | field << m_ | man) << low_) | (p & low_all_);
  }
  T fraction(T p) const { return (p >> low_) & man_all_; }
  // A finite value: S.1111.111 (NaN in nan_only formats) is one ulp lower.
  T finite(T p, T field) const {
    const T man = fraction(p);
    return encode(p, field, man - static_cast<T>(nan_only_ & (field == top_) & (man == man_all_)));
  }
  // Exponents lo..hi uniformly, clamped to the finite range (below it, the
  // subnormal field 0).
  T exponent_in(T p, T c, int lo, int hi) const {
    const std::int32_t field =
        lo + bias_ + static_cast<std::int32_t>(B::choice(c, static_cast<std::uint64_t>(hi - lo + 1)));
    const std::int32_t clamped = std::min(std::max(field, 0), max_finite_field_);
    return finite(p, static_cast<T>(clamped));
  }
  T moderate(T p, T c) const { return exponent_in(p, c, -2, 2); }
  T wide(T p, T c) const { return finite(p, B::choice(c, static_cast<std::uint64_t>(max_finite_) + 1)); }
  T raw(T p) const { return p & storage_all_; }
  // One in eight a moderate value, else +-0.
  T sparse(T p, T c) const { return select(B::flags(p) == 0, moderate(p, c), encode(p, 0, 0)); }
  // One of seven: +-0, +-Inf, a quiet NaN, a signalling NaN (random
  // payloads), +-largest finite, +-least subnormal, +-least normal.
  T special(T p, T c) const {
    const T k = B::choice(c, 7), frac = fraction(p);
    T field = select(k == 4, max_finite_, static_cast<T>(k == 6));
    field = select(k - 1 < 3, top_, field);
    T man = select(k == 4, largest_, static_cast<T>(k == 5));
    man = select(k == 1, inf_man_, man);
    man = select(k == 2, nan_fixed_ | (frac & nan_random_), man);
    man = select(k == 3, std::max(snan_fixed_ | (frac & nan_random_), snan_least_), man);
    return encode(p, field, man);
  }
  // One in four a special value, else a moderate one (the choice's bits
  // serve whichever is taken).
  T specials(T p, T c) const { return select((B::flags(p) & 3) == 0, special(p, c), moderate(p, c)); }

 private:
  int e_, m_, low_;
  T storage_all_, man_all_, low_all_, top_, max_finite_;
  std::int32_t max_finite_field_, bias_;
  bool nan_only_;
  T inf_man_ = 0, nan_fixed_ = 0, nan_random_ = 0, snan_fixed_ = 0, snan_least_ = 0, largest_ = 0;
};

template <int S>
class IntDraw {
 public:
  using B = Bits<S>;
  using T = typename B::T;

  explicit IntDraw(DType t)
      : bits_(dtype_bits(t)), signed_(dtype_info(t).is_signed), mask_(static_cast<T>(low_mask(bits_))) {}

  T raw(T p) const { return p & mask_; }
  // -8..8 signed, 0..15 unsigned.
  T small(T c) const { return signed_ ? in(c, -8, 8) : in(c, 0, 15); }
  T sparse(T p, T c) const { return select(B::flags(p) == 0, small(c), T{0}); }
  // One in four an extreme (0, all ones, the top bit, the top bit less one, 1).
  T specials(T p, T c) const {
    const T top_bit = T{1} << (bits_ - 1);
    const T k = B::choice(c, 5);
    T extreme = select(k == 1, mask_, static_cast<T>(k == 4));
    extreme = select(k == 2, top_bit, extreme);
    extreme = select(k == 3, top_bit - 1, extreme);
    return select((B::flags(p) & 3) == 0, extreme, small(c));
  }
  T nearsum(T c, Role role) const {
    if (role == Role::accumulator) return in(c, -(1ll << 30), 1ll << 30);
    return signed_ ? in(c, -4, 4) : in(c, 0, 4);
  }

 private:
  T in(T c, std::int64_t lo, std::int64_t hi) const {
    const std::int64_t v = lo + static_cast<std::int64_t>(B::choice(c, static_cast<std::uint64_t>(hi - lo + 1)));
    return static_cast<T>(v) & mask_;
  }

  int bits_;
  bool signed_;
  T mask_;
};

template <int S>
[[gnu::always_inline]] inline void draw_floats(std::uint64_t* out, std::int64_t n, const FloatFormat& f, Distribution d,
                                               Role role, const PhiloxStream& s, PhiloxPath path) {
  using T = typename Bits<S>::T;
  const FloatDraw<S> fd(f);
  const int spread = f.storage_bits() <= 16 ? 12 : 24;
  switch (d) {
    case Distribution::normal:
    case Distribution::cancel: return fill<S>(out, n, s, path, [fd](T p, T c) { return fd.moderate(p, c); });
    case Distribution::wide: return fill<S>(out, n, s, path, [fd](T p, T c) { return fd.wide(p, c); });
    case Distribution::bits: return fill<S>(out, n, s, path, [fd](T p, T) { return fd.raw(p); });
    case Distribution::spread:
      return fill<S>(out, n, s, path, [fd, spread](T p, T c) { return fd.exponent_in(p, c, -spread, spread); });
    case Distribution::sparse: return fill<S>(out, n, s, path, [fd](T p, T c) { return fd.sparse(p, c); });
    case Distribution::specials: return fill<S>(out, n, s, path, [fd](T p, T c) { return fd.specials(p, c); });
    case Distribution::nearsum:
      if (role == Role::accumulator)
        return fill<S>(out, n, s, path, [fd](T p, T c) { return fd.exponent_in(p, c, 8, 12); });
      return fill<S>(out, n, s, path, [fd](T p, T c) { return fd.exponent_in(p, c, -6, -2); });
    default: break;  // the edge kinds: edge_inputs.cc
  }
}

template <int S>
[[gnu::always_inline]] inline void draw_ints(std::uint64_t* out, std::int64_t n, DType t, Distribution d, Role role,
                                             const PhiloxStream& s, PhiloxPath path) {
  using T = typename Bits<S>::T;
  const IntDraw<S> id(t);
  switch (d) {
    case Distribution::normal:
    case Distribution::cancel: return fill<S>(out, n, s, path, [id](T, T c) { return id.small(c); });
    case Distribution::wide:
    case Distribution::bits:
    case Distribution::spread: return fill<S>(out, n, s, path, [id](T p, T) { return id.raw(p); });
    case Distribution::sparse: return fill<S>(out, n, s, path, [id](T p, T c) { return id.sparse(p, c); });
    case Distribution::specials: return fill<S>(out, n, s, path, [id](T p, T c) { return id.specials(p, c); });
    case Distribution::nearsum:
      if (role == Role::accumulator)
        return fill<S>(out, n, s, path, [id](T, T c) { return id.nearsum(c, Role::accumulator); });
      return fill<S>(out, n, s, path, [id](T, T c) { return id.nearsum(c, Role::product); });
    default: break;
  }
}

// One matrix's elements: the same code compiled for each instruction set
// (the element loops vectorise on AVX2 and AVX-512 lanes; integer
// arithmetic, so every build gives the same bits), chosen with the path.
[[gnu::always_inline]] inline void draw_elements(std::uint64_t* out, std::int64_t n, DType t, Distribution d, Role role,
                                                 const PhiloxStream& s, PhiloxPath path) {
  const bool is_float = dtype_info(t).is_float;
  switch (payload_bits(dtype_bits(t))) {
    case 16:
      return is_float ? draw_floats<16>(out, n, float_format(t), d, role, s, path)
                      : draw_ints<16>(out, n, t, d, role, s, path);
    case 32:
      return is_float ? draw_floats<32>(out, n, float_format(t), d, role, s, path)
                      : draw_ints<32>(out, n, t, d, role, s, path);
    default:
      return is_float ? draw_floats<64>(out, n, float_format(t), d, role, s, path)
                      : draw_ints<64>(out, n, t, d, role, s, path);
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f,avx512bw,avx512dq,avx512vl"))) void draw_elements_avx512(std::uint64_t* out,
                                                                                        std::int64_t n, DType t,
                                                                                        Distribution d, Role role,
                                                                                        const PhiloxStream& s) {
  draw_elements(out, n, t, d, role, s, PhiloxPath::avx512);
}
__attribute__((target("avx2"))) void draw_elements_avx2(std::uint64_t* out, std::int64_t n, DType t, Distribution d,
                                                        Role role, const PhiloxStream& s) {
  draw_elements(out, n, t, d, role, s, PhiloxPath::avx2);
}
#endif

Matrix draw_matrix(const MatrixSpec& spec, Distribution d, const PhiloxStream& s, PhiloxPath path) {
  Matrix m{spec.rows, spec.cols, spec.dtype, {}};
  m.bits.resize(spec.rows * spec.cols);
  const Role role = spec.k_dim < 0 ? Role::accumulator : Role::product;
  const auto n = static_cast<std::int64_t>(m.bits.size());
#if defined(__x86_64__) && defined(__GNUC__)
  if (path == PhiloxPath::avx512) {
    draw_elements_avx512(m.bits.data(), n, spec.dtype, d, role, s);
    return m;
  }
  if (path == PhiloxPath::avx2) {
    draw_elements_avx2(m.bits.data(), n, spec.dtype, d, role, s);
    return m;
  }
#endif
  draw_elements(m.bits.data(), n, spec.dtype, d, role, s, PhiloxPath::scalar);
  return m;
}

// Index of element (i, k) of a matrix whose K runs along spec.k_dim.
std::int64_t at_k(const MatrixSpec& spec, std::int64_t i, std::int64_t k) {
  return spec.k_dim == 0 ? k * spec.cols + i : i * spec.cols + k;
}

std::uint64_t negate(DType t, std::uint64_t x) {
  if (dtype_info(t).is_float) return x ^ float_format(t).sign_bit();
  return (~x + 1) & low_mask(dtype_bits(t));
}

// The second half of K repeats the first, negated in A, so the products
// cancel in pairs; then one low-order bit (a fraction bit for floats) of
// one second-half A element is flipped, at a place the case's own stream
// picks.
void make_cancel(const MatrixSpec& as, Matrix& a, const MatrixSpec& bs, Matrix& b, CaseStream& rng) {
  const std::int64_t ka = as.k_dim == 0 ? as.rows : as.cols, ma = as.rows * as.cols / ka;
  const std::int64_t kb = bs.k_dim == 0 ? bs.rows : bs.cols, nb = bs.rows * bs.cols / kb;
  const std::int64_t half = std::min(ka, kb) / 2;
  if (half == 0) return;
  for (std::int64_t k = half; k < 2 * half; ++k) {
    for (std::int64_t i = 0; i < ma; ++i) a.bits[at_k(as, i, k)] = negate(as.dtype, a.bits[at_k(as, i, k - half)]);
    for (std::int64_t j = 0; j < nb; ++j) b.bits[at_k(bs, j, k)] = b.bits[at_k(bs, j, k - half)];
  }
  const std::int64_t i = rng.uniform(0, ma - 1);
  const std::int64_t k = rng.uniform(half, 2 * half - 1);
  const bool is_float = dtype_info(as.dtype).is_float;
  const int span = is_float ? float_format(as.dtype).man_bits : std::min(3, dtype_bits(as.dtype));  // b1: its one bit
  const int low = is_float ? float_format(as.dtype).ignored_low_bits : 0;
  a.bits[at_k(as, i, k)] ^= std::uint64_t{1} << (low + rng.uniform(0, span - 1));
}

}  // namespace

std::span<const Distribution> all_distributions() { return kDistributions; }
std::span<const Distribution> edge_distributions() { return kEdge; }

std::span<const Distribution> distributions(InputSet set) {
  switch (set) {
    case InputSet::edge: return kEdge;
    case InputSet::all: return kAll;
    default: return kDistributions;
  }
}

std::string_view distribution_name(Distribution d) {
  constexpr std::string_view kNames[] = {"normal",    "wide",     "cancel",   "bits",      "spread",
                                         "sparse",    "specials", "nearsum",  "threshold", "zeroterm",
                                         "underflow", "ties",     "overflow", "lowbits"};
  return kNames[static_cast<int>(d)];
}

std::string_view input_set_name(InputSet set) {
  constexpr std::string_view kNames[] = {"standard", "edge", "all"};
  return kNames[static_cast<int>(set)];
}

InputSet input_set(std::string_view name) {
  for (const InputSet set : {InputSet::standard, InputSet::edge, InputSet::all})
    if (input_set_name(set) == name) return set;
  throw Error("unknown input set '" + std::string(name) + "' (standard, edge or all)");
}

Distribution case_distribution(int index, InputSet set) {
  const std::span<const Distribution> kinds = distributions(set);
  return kinds[static_cast<std::size_t>(index) % kinds.size()];
}

GemmInputs random_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                              std::uint64_t seed, int case_index) {
  return random_gemm_inputs(a, b, c, dist, seed, case_index, best_philox_path());
}

GemmInputs random_gemm_inputs(const MatrixSpec& a, const MatrixSpec& b, const MatrixSpec& c, Distribution dist,
                              std::uint64_t seed, int case_index, PhiloxPath path) {
  const auto index = static_cast<std::uint64_t>(case_index);
  if (std::ranges::find(kEdge, dist) != kEdge.end()) return edge_gemm_inputs(a, b, c, dist, seed, index, path);
  GemmInputs in{draw_matrix(a, dist, philox_stream(seed, index, kStreamOf[0]), path),
                draw_matrix(b, dist, philox_stream(seed, index, kStreamOf[1]), path),
                draw_matrix(c, dist, philox_stream(seed, index, kStreamOf[2]), path)};
  if (dist == Distribution::cancel) {
    CaseStream rng(seed, index, kCaseStream);
    make_cancel(a, in.a, b, in.b, rng);
  }
  return in;
}

}  // namespace mmacheck::sim
