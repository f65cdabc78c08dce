#include "sim/numerics/random_inputs.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/case_stream.h"
#include "sim/numerics/edge_inputs.h"
#include "sim/numerics/float_format.h"

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

// Draws elements of one type.
class ElementSource {
 public:
  ElementSource(DType type, CaseStream& rng) : type_(type), bits_(dtype_bits(type)), rng_(rng) {
    if (dtype_info(type).is_float) format_ = &sim::float_format(type);
  }

  std::uint64_t draw(Distribution d, Role role) { return format_ ? draw_float(d, role) : draw_int(d, role); }
  std::uint64_t negate(std::uint64_t x) const { return format_ ? x ^ format_->sign_bit() : (~x + 1) & low_mask(bits_); }
  // One low-order bit of the value flipped (a fraction bit for floats).
  std::uint64_t perturb(std::uint64_t x) {
    const int span = format_ ? format_->man_bits : std::min(3, bits_);  // b1: its one bit
    const int low = format_ ? format_->ignored_low_bits : 0;
    return x ^ (std::uint64_t{1} << (low + uniform(0, span - 1)));
  }

 private:
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) { return rng_.uniform(lo, hi); }
  // one_in a power of two.
  bool chance(int one_in) { return rng_.one_in_pow2(std::countr_zero(static_cast<unsigned>(one_in))); }
  std::uint64_t random_bits(int n) { return rng_.bits(n); }

  int top_field() const { return (1 << format_->exp_bits) - 1; }
  // The largest exponent field of finite values.
  int max_finite_field() const { return format_->specials == sim::Specials::ieee ? top_field() - 1 : top_field(); }
  std::uint64_t encode(bool neg, int field, std::uint64_t man) {
    const sim::FloatFormat& f = *format_;
    const std::uint64_t w =
        (std::uint64_t{neg} << (f.exp_bits + f.man_bits)) | (static_cast<std::uint64_t>(field) << f.man_bits) | man;
    return (w << f.ignored_low_bits) | random_bits(f.ignored_low_bits);
  }
  // A finite value with exponent field `field` (<= max_finite_field()).
  std::uint64_t finite_field(bool neg, int field, std::uint64_t man) {
    const std::uint64_t all = low_mask(format_->man_bits);
    if (format_->specials == sim::Specials::nan_only && field == top_field() && man == all) --man;
    return encode(neg, field, man);
  }
  // A finite value with unbiased exponent `exp` (clamped to the format's
  // range; below it, a subnormal) and a random fraction.
  std::uint64_t finite(int exp) {
    const int field = std::clamp(exp + format_->bias, 0, max_finite_field());
    // One draw per statement: an argument list's order is the compiler's, and
    // the stream must not depend on it (these follow GCC's right-to-left).
    const std::uint64_t fraction = random_bits(format_->man_bits);
    const bool neg = chance(2);
    return finite_field(neg, field, fraction);
  }
  std::uint64_t nan(bool neg, bool quiet) {
    const sim::FloatFormat& f = *format_;
    if (f.specials == sim::Specials::nan_only) return encode(neg, top_field(), low_mask(f.man_bits));
    if (f.specials == sim::Specials::none) return encode(neg, top_field(), low_mask(f.man_bits));  // fp6/fp4: largest
    const std::uint64_t q = std::uint64_t{1} << (f.man_bits - 1);
    return encode(neg, top_field(),
                  quiet ? q | random_bits(f.man_bits - 1) : 1 + random_bits(f.man_bits - 1) % (q - 1));
  }
  std::uint64_t special() {
    const bool neg = chance(2);
    const bool ieee = format_->specials == sim::Specials::ieee;
    const std::uint64_t all = low_mask(format_->man_bits);
    switch (uniform(0, 6)) {
      case 0: return encode(neg, 0, 0);                                    // +-0
      case 1: return ieee ? encode(neg, top_field(), 0) : nan(neg, true);  // +-Inf
      case 2: return nan(neg, true);                                       // quiet NaN, random payload
      case 3: return nan(neg, false);                                      // signalling NaN
      case 4: return finite_field(neg, max_finite_field(), all);           // +-largest finite
      case 5: return encode(neg, 0, 1);                                    // +-least subnormal
      default: return encode(neg, 1, 0);                                   // +-least normal
    }
  }
  std::uint64_t draw_float(Distribution d, Role role) {
    const sim::FloatFormat& f = *format_;
    const auto moderate = [&] { return finite(static_cast<int>(uniform(-2, 2))); };
    switch (d) {
      case Distribution::normal:
      case Distribution::cancel: return moderate();
      case Distribution::wide: {
        const std::uint64_t fraction = random_bits(f.man_bits);
        const int field = static_cast<int>(uniform(0, max_finite_field()));
        const bool neg = chance(2);
        return finite_field(neg, field, fraction);
      }
      case Distribution::bits: return random_bits(f.storage_bits());
      case Distribution::spread: {
        const int s = f.storage_bits() <= 16 ? 12 : 24;
        return finite(static_cast<int>(uniform(-s, s)));
      }
      case Distribution::sparse: return chance(8) ? moderate() : encode(chance(2), 0, 0);
      case Distribution::specials: return chance(4) ? special() : moderate();
      case Distribution::nearsum:
        return finite(static_cast<int>(role == Role::accumulator ? uniform(8, 12) : uniform(-6, -2)));
      default: break;  // the edge kinds: edge_inputs.cc
    }
    return 0;
  }

  std::uint64_t draw_int(Distribution d, Role role) {
    const bool is_signed = dtype_info(type_).is_signed;
    const std::uint64_t mask = low_mask(bits_);
    const auto small = [&] {
      const std::int64_t v = is_signed ? uniform(-8, 8) : uniform(0, 15);
      return static_cast<std::uint64_t>(v) & mask;
    };
    switch (d) {
      case Distribution::normal:
      case Distribution::cancel: return small();
      case Distribution::wide:
      case Distribution::bits:
      case Distribution::spread: return random_bits(bits_);
      case Distribution::sparse: return chance(8) ? small() : 0;
      case Distribution::specials: {
        if (!chance(4)) return small();
        const std::uint64_t top_bit = std::uint64_t{1} << (bits_ - 1);
        const std::uint64_t extremes[] = {0, mask, top_bit, top_bit - 1, 1};
        return extremes[uniform(0, 4)];
      }
      case Distribution::nearsum:
        return role == Role::accumulator ? static_cast<std::uint64_t>(uniform(-(1ll << 30), 1ll << 30)) & mask
                                         : static_cast<std::uint64_t>(uniform(is_signed ? -4 : 0, 4)) & mask;
      default: break;
    }
    return 0;
  }

  DType type_;
  int bits_;
  CaseStream& rng_;
  const sim::FloatFormat* format_ = nullptr;
};

Matrix draw_matrix(const MatrixSpec& spec, Distribution d, CaseStream& stream) {
  // A local copy: its address does not escape, so the compiler keeps the
  // stream in registers instead of reloading it after every element stored.
  CaseStream rng = stream;
  ElementSource source(spec.dtype, rng);
  Matrix m{spec.rows, spec.cols, spec.dtype, {}};
  m.bits.resize(spec.rows * spec.cols);
  const Role role = spec.k_dim < 0 ? Role::accumulator : Role::product;
  for (std::uint64_t& x : m.bits) x = source.draw(d, role);
  stream = rng;
  return m;
}

// Index of element (i, k) of a matrix whose K runs along spec.k_dim.
std::int64_t at_k(const MatrixSpec& spec, std::int64_t i, std::int64_t k) {
  return spec.k_dim == 0 ? k * spec.cols + i : i * spec.cols + k;
}

// The second half of K repeats the first, negated in A, so the products
// cancel in pairs; then one bit of one second-half A element is flipped.
void make_cancel(const MatrixSpec& as, Matrix& a, const MatrixSpec& bs, Matrix& b, CaseStream& rng) {
  ElementSource source(as.dtype, rng);
  const std::int64_t ka = as.k_dim == 0 ? as.rows : as.cols, ma = as.rows * as.cols / ka;
  const std::int64_t kb = bs.k_dim == 0 ? bs.rows : bs.cols, nb = bs.rows * bs.cols / kb;
  const std::int64_t half = std::min(ka, kb) / 2;
  if (half == 0) return;
  for (std::int64_t k = half; k < 2 * half; ++k) {
    for (std::int64_t i = 0; i < ma; ++i) a.bits[at_k(as, i, k)] = source.negate(a.bits[at_k(as, i, k - half)]);
    for (std::int64_t j = 0; j < nb; ++j) b.bits[at_k(bs, j, k)] = b.bits[at_k(bs, j, k - half)];
  }
  const std::int64_t i = rng.uniform(0, ma - 1);
  const std::int64_t k = rng.uniform(half, 2 * half - 1);
  a.bits[at_k(as, i, k)] = source.perturb(a.bits[at_k(as, i, k)]);
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
  CaseStream rng(seed, static_cast<std::uint64_t>(case_index));
  if (std::ranges::find(kEdge, dist) != kEdge.end()) return edge_gemm_inputs(a, b, c, dist, rng);
  GemmInputs in{draw_matrix(a, dist, rng), draw_matrix(b, dist, rng), draw_matrix(c, dist, rng)};
  if (dist == Distribution::cancel) make_cancel(a, in.a, b, in.b, rng);
  return in;
}

}  // namespace mmacheck::sim
