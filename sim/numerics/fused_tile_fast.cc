#include "sim/numerics/fused_tile_fast.h"

#include <algorithm>
#include <bit>
#include <string>

#include "core/base/error.h"

#include "sim/numerics/fused_dot.h"
#include "sim/numerics/fused_tile_kernels.h"

namespace mmacheck::sim {

namespace fast {

bool load(const FloatFormat& f, std::uint64_t bits, int pre_shift, std::int32_t* sig, std::int32_t* exp) {
  const std::uint64_t w = bits >> f.ignored_low_bits;
  const int exp_field = static_cast<int>(w >> f.man_bits) & ((1 << f.exp_bits) - 1);
  if (exp_field == (1 << f.exp_bits) - 1) {  // NaN or Inf: a zero stand-in, patched later
    *sig = 0;
    *exp = kZeroInputExp;
    return false;
  }
  const std::int32_t man = static_cast<std::int32_t>(w & ((1u << f.man_bits) - 1));
  const std::int32_t mag = (exp_field ? man | (1 << f.man_bits) : man) << pre_shift;
  *sig = (w >> (f.exp_bits + f.man_bits)) & 1 ? -mag : mag;
  *exp = mag == 0 ? kZeroInputExp : (exp_field ? exp_field - f.bias : f.min_exp());
  return true;
}

std::uint32_t f32_toward_zero(std::int64_t sum, int scale) {
  if (sum == 0) return 0;
  const std::uint32_t sign = sum < 0 ? 0x80000000u : 0;
  const std::uint64_t mag = sum < 0 ? -static_cast<std::uint64_t>(sum) : static_cast<std::uint64_t>(sum);
  const int width = std::bit_width(mag);
  const int exp = width - 1 + scale;
  if (exp > 127) return sign | 0x7F800000u;
  if (exp >= -126) {
    const std::uint64_t sig = width > 24 ? mag >> (width - 24) : mag << (24 - width);
    return sign | static_cast<std::uint32_t>((exp + 127) << 23) | static_cast<std::uint32_t>(sig & 0x7FFFFF);
  }
  const int shift = -149 - scale;  // the subnormals' quantum is 2^-149
  const std::uint64_t sig = shift >= 64 ? 0 : shift >= 0 ? mag >> shift : mag << -shift;
  return sig ? sign | static_cast<std::uint32_t>(sig) : 0;  // a sum rounded to zero is +0
}

bool decode(const TileSpec& s, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, Operands& op) {
  bool finite = true;
  for (int i = 0; i < kM; ++i)
    for (int k = 0; k < s.k; ++k)
      finite &= load(*s.a, a[i * s.k + k], s.pre_shift, &op.a_sig[i * s.k + k], &op.a_exp[i * s.k + k]);
  for (int k = 0; k < s.k; ++k)
    for (int j = 0; j < kN; ++j) finite &= load(*s.b, b[k * kN + j], 0, &op.b_sig[k * kN + j], &op.b_exp[k * kN + j]);
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j)
      finite &= load(*s.c, c[i * kN + j], s.c_shift, &op.c_sig[i * kN + j], &op.c_exp[i * kN + j]);
  return finite;
}

void aligned_sums(const TileSpec& s, const Operands& op, Sums& out) {
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j) {
      const int ij = i * kN + j;
      const auto exp_of = [&](int k) { return op.a_exp[i * s.k + k] + op.b_exp[k * kN + j]; };
      std::int32_t top = std::max(op.c_exp[ij], s.zero_floor);
      for (int k = 0; k < s.k; ++k) top = std::max(top, exp_of(k));
      const auto aligned = [&](std::int32_t v, int shift) {
        const std::int32_t mag = (v < 0 ? -v : v) >> std::min(shift, 31);
        return v < 0 ? -mag : mag;
      };
      std::int32_t acc = 0;
      for (int k = 0; k < s.k; ++k) acc += aligned(op.a_sig[i * s.k + k] * op.b_sig[k * kN + j], top - exp_of(k));
      out.acc[ij] = acc;
      out.c_term[ij] = aligned(op.c_sig[ij], top - op.c_exp[ij]);
      out.top[ij] = top;
    }
}

void finish_f32(const TileSpec& s, const Sums& sums, std::uint64_t* d) {
  for (int n = 0; n < kM * kN; ++n)
    d[n] = f32_toward_zero(std::int64_t{sums.acc[n]} + sums.c_term[n], sums.top[n] - s.kept_bits);
}

namespace {

// Decode and sums, false when the tile holds a NaN or an Inf (the sums of
// the outputs it reaches are then garbage, and patch_specials replaces them).
struct Kernels {
  TileIsa isa;
  bool (*available)();
  bool (*sums)(const TileSpec&, const std::uint64_t*, const std::uint64_t*, const std::uint64_t*, Sums&);
  void (*finish_f32)(const TileSpec&, const Sums&, std::uint64_t*);
  bool vector_specials;  // patch_specials_f16_avx2 may decide the f16 specials
};

bool sums_portable(const TileSpec& s, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
                   Sums& out) {
  Operands op;
  const bool finite = decode(s, a, b, c, op);
  aligned_sums(s, op, out);
  return finite;
}

bool always() { return true; }

#ifdef MMACHECK_AVX2_KERNELS
// The vector decode, then the f32-product pass of the given width where the
// exponent spread allows it, else the integer pass.
template <void (*product_sums)(const TileSpec&, const Operands&, const Values&, Sums&)>
bool sums_vector(const TileSpec& s, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, Sums& out) {
  Operands op;
  Values v;
  const bool finite = decode_avx2(s, a, b, c, op, v);
  if (v.exact) product_sums(s, op, v, out);
  else aligned_sums_avx2(s, op, out);
  return finite;
}
#endif

// One row per instruction set, worst first.
constexpr Kernels kKernels[] = {
    {TileIsa::portable, always, sums_portable, finish_f32, false},
#ifdef MMACHECK_AVX2_KERNELS
    {TileIsa::avx2, cpu_has_avx2, sums_vector<product_sums_avx2>, finish_f32_avx2, true},
    {TileIsa::avx512, cpu_has_avx512, sums_vector<product_sums_avx512>, finish_f32_avx2, true},
#endif
};

const Kernels* find_kernels(TileIsa isa) {
  for (const Kernels& k : kKernels)
    if (k.isa == isa) return &k;
  return nullptr;
}

// An element's part in step 1 of the model (fused_dot.h), as bits; the
// formats here (f16, bf16, tf32, f32) are all ieee.
enum : std::uint8_t { kNan = 1, kInf = 2, kZero = 4, kNeg = 8 };

std::uint8_t special_class(const FloatFormat& f, std::uint64_t bits) {
  const std::uint64_t w = bits >> f.ignored_low_bits;
  const std::uint64_t man = w & ((std::uint64_t{1} << f.man_bits) - 1);
  const std::uint64_t top = (std::uint64_t{1} << f.exp_bits) - 1;
  const std::uint64_t exp = (w >> f.man_bits) & top;
  const std::uint8_t neg = (w >> (f.exp_bits + f.man_bits)) & 1 ? kNeg : 0;
  if (exp == top) return static_cast<std::uint8_t>((man ? kNan : kInf) | neg);
  return static_cast<std::uint8_t>((exp == 0 && man == 0 ? kZero : 0) | neg);
}

// The outputs whose row of A, column of B or C holds a NaN or an Inf: step
// 1 of the model decides each of them (fused_dot's special_result, on the
// elements' classes), whatever the finite terms are.
void patch_specials(const TileSpec& s, const FusedStep& step, const std::uint64_t* a, const std::uint64_t* b,
                    const std::uint64_t* c, std::uint64_t* d) {
  const auto special = [](const FloatFormat& f, std::uint64_t bits) {
    const std::uint64_t top = (std::uint64_t{1} << f.exp_bits) - 1;
    return ((bits >> (f.ignored_low_bits + f.man_bits)) & top) == top;
  };
  bool row[kM] = {}, col[kN] = {}, row_done[kM] = {}, col_done[kN] = {};
  for (int i = 0; i < kM; ++i)
    for (int k = 0; k < s.k; ++k) row[i] |= special(*s.a, a[i * s.k + k]);
  for (int k = 0; k < s.k; ++k)
    for (int j = 0; j < kN; ++j) col[j] |= special(*s.b, b[k * kN + j]);
  std::uint8_t ac[kM][kMaxK], bc[kN][kMaxK];  // classes of A's rows and B's columns, once each
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j) {
      const std::uint8_t cc = special_class(*s.c, c[i * kN + j]);
      if (!row[i] && !col[j] && !(cc & (kNan | kInf))) continue;
      if (!row_done[i])
        for (int k = 0; k < s.k; ++k) ac[i][k] = special_class(*s.a, a[i * s.k + k]);
      if (!col_done[j])
        for (int k = 0; k < s.k; ++k) bc[j][k] = special_class(*s.b, b[k * kN + j]);
      row_done[i] = col_done[j] = true;
      bool nan = cc & kNan, pos_inf = (cc & (kInf | kNeg)) == kInf, neg_inf = (cc & (kInf | kNeg)) == (kInf | kNeg);
      for (int k = 0; k < s.k; ++k) {
        const std::uint8_t x = ac[i][k], y = bc[j][k];
        if ((x | y) & kNan) {
          nan = true;
        } else if ((x | y) & kInf) {
          if ((x | y) & kZero) nan = true;  // Inf * 0
          ((x ^ y) & kNeg ? neg_inf : pos_inf) = true;
        }
      }
      d[i * kN + j] = nan || (pos_inf && neg_inf) ? canonical_nan(*step.out) : step.out->inf_bits(neg_inf);
    }
}

}  // namespace

}  // namespace fast

std::string_view tile_isa_name(TileIsa isa) {
  constexpr std::string_view kNames[] = {"portable", "AVX2", "AVX-512"};  // in TileIsa's order
  return kNames[static_cast<int>(isa)];
}

bool tile_isa_available(TileIsa isa) {
  const fast::Kernels* k = fast::find_kernels(isa);
  return k && k->available();
}

TileIsa best_tile_isa() {
  static const TileIsa best = [] {
    TileIsa b = TileIsa::portable;
    for (const fast::Kernels& k : fast::kKernels)
      if (k.available()) b = k.isa;
    return b;
  }();
  return best;
}

bool fused_tile_fast(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                     std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  return fused_tile_fast(inst, arch, a, b, c, d, best_tile_isa());
}

bool fused_tile_fast(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
                     std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d,
                     TileIsa isa) {
  using namespace fast;
  const Kernels* chosen = find_kernels(isa);
  if (!chosen || !chosen->available())
    throw Error(std::string("the fused tile kernels for ") + std::string(tile_isa_name(isa)) +
                " are not available on this processor or in this build");
  if (inst.m != kM || inst.n != kN || (inst.k != 16 && inst.k != 8 && inst.k != 4)) return false;
  if (inst.a != DType::f16 && inst.a != DType::bf16 && inst.a != DType::tf32) return false;
  const FloatFormat& fd = float_format(inst.d);
  const FusedStep step = fused_step_for(inst.a, fd, arch);
  const TileSpec spec{inst.k,
                      &float_format(inst.a),
                      &float_format(inst.b),
                      &float_format(inst.c),
                      arch.kept_bits - float_format(inst.a).man_bits - float_format(inst.b).man_bits,
                      arch.kept_bits - float_format(inst.c).man_bits,
                      arch.kept_bits,
                      step.zero_term_exp,
                      inst.a == DType::f16 && inst.b == DType::f16};
  // kept_bits <= 25 keeps aligned products below 2^27 (the int32 bound in
  // fused_tile_kernels.h).  The kernels apply the zero-term exponent as a
  // floor on E for every output; that equals the model (zero terms only)
  // while a nonzero C's exponent, at least c's min_exp, is never below it.
  if (arch.kept_bits > 25 || spec.pre_shift < 0 || spec.c_shift < 0 || spec.c != &fd ||
      step.zero_term_exp > spec.c->min_exp())
    return false;

  const Kernels& kernels = *chosen;
  Sums sums;
  const bool finite = kernels.sums(spec, a.data(), b.data(), c.data(), sums);
  std::uint64_t c_copy[kM * kN];  // patch_specials reads C after D is written, and d may be c
  if (!finite) std::copy(c.begin(), c.end(), c_copy);
  if (fd.man_bits == 23) {
    kernels.finish_f32(spec, sums, d.data());
  } else {
    for (int n = 0; n < kM * kN; ++n) {  // f16 output: nearest-even
      const std::int64_t s = std::int64_t{sums.acc[n]} + sums.c_term[n];
      const std::uint64_t mag = s < 0 ? -static_cast<std::uint64_t>(s) : static_cast<std::uint64_t>(s);
      d[n] = fused_round(step, s < 0, mag, sums.top[n] - arch.kept_bits);
    }
  }
  if (finite) return true;
#ifdef MMACHECK_AVX2_KERNELS
  if (spec.narrow && fd.man_bits == 23 && kernels.vector_specials && spec.c->man_bits == 23) {
    patch_specials_f16_avx2(spec.k, a.data(), b.data(), c_copy, static_cast<std::uint32_t>(canonical_nan(fd)),
                            d.data());
    return true;
  }
#endif
  patch_specials(spec, step, a.data(), b.data(), c_copy, d.data());
  return true;
}

}  // namespace mmacheck::sim
