// AVX2 versions of the fused tile kernels (see fused_tile_kernels.h); only
// these functions are compiled for AVX2, and only called when the processor
// has it.
#include "sim/numerics/fused_tile_kernels.h"

#ifdef MMACHECK_AVX2_KERNELS

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>

#define MMACHECK_AVX2 __attribute__((target("avx2,f16c")))

namespace mmacheck::sim::fast {

bool cpu_has_avx2() {  // and F16C, which every AVX2 processor has
  // F16C from CPUID leaf 1 (ECX bit 29): clang's __builtin_cpu_supports does
  // not know "f16c".
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __builtin_cpu_supports("avx2") && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  return has;
}

namespace {

// The low 32 bits of 8 consecutive 64-bit words.
MMACHECK_AVX2 __m256i low_words(const std::uint64_t* p) {
  const __m256 lo = _mm256_loadu_ps(reinterpret_cast<const float*>(p));      // words 0..3
  const __m256 hi = _mm256_loadu_ps(reinterpret_cast<const float*>(p + 4));  // words 4..7
  // Even dwords per 128-bit half: 0 1 4 5 | 2 3 6 7; then restore the order.
  const __m256i mixed = _mm256_castps_si256(_mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)));
  return _mm256_permute4x64_epi64(mixed, _MM_SHUFFLE(3, 1, 2, 0));
}

// Decodes `count` (a multiple of 8) elements of format f; returns the lanes
// that held NaN or Inf.
MMACHECK_AVX2 __m256i decode_run(const FloatFormat& f, const std::uint64_t* words, int count, int pre_shift,
                                 std::int32_t* sig, std::int32_t* exp) {
  const __m128i ignored = _mm_cvtsi32_si128(f.ignored_low_bits);
  const __m128i man_bits = _mm_cvtsi32_si128(f.man_bits);
  const __m128i shift = _mm_cvtsi32_si128(pre_shift);
  const __m128i to_sign = _mm_cvtsi32_si128(31 - f.exp_bits - f.man_bits);
  const __m256i exp_mask = _mm256_set1_epi32((1 << f.exp_bits) - 1);
  const __m256i man_mask = _mm256_set1_epi32((1 << f.man_bits) - 1);
  const __m256i implicit = _mm256_set1_epi32(1 << f.man_bits);
  const __m256i bias = _mm256_set1_epi32(f.bias);
  const __m256i min_exp = _mm256_set1_epi32(f.min_exp());
  const __m256i zero_exp = _mm256_set1_epi32(kZeroInputExp);
  const __m256i zero = _mm256_setzero_si256();
  __m256i special = zero;
  for (int n = 0; n < count; n += 8) {
    const __m256i w = _mm256_srl_epi32(low_words(words + n), ignored);
    const __m256i e = _mm256_and_si256(_mm256_srl_epi32(w, man_bits), exp_mask);
    const __m256i subnormal = _mm256_cmpeq_epi32(e, zero);
    special = _mm256_or_si256(special, _mm256_cmpeq_epi32(e, exp_mask));
    const __m256i mag = _mm256_or_si256(_mm256_and_si256(w, man_mask), _mm256_andnot_si256(subnormal, implicit));
    const __m256i x = _mm256_blendv_epi8(_mm256_sub_epi32(e, bias), min_exp, subnormal);
    const __m256i neg = _mm256_srai_epi32(_mm256_sll_epi32(w, to_sign), 31);
    const __m256i s = _mm256_sub_epi32(_mm256_xor_si256(_mm256_sll_epi32(mag, shift), neg), neg);
    _mm256_store_si256(reinterpret_cast<__m256i*>(sig + n), s);
    _mm256_store_si256(reinterpret_cast<__m256i*>(exp + n),
                       _mm256_blendv_epi8(x, zero_exp, _mm256_cmpeq_epi32(mag, zero)));
  }
  return special;
}

// decode_run for f16 operands of the f32-product kernel: exponents and
// values only (no significands: narrow tiles never take the integer
// kernel); `count` a multiple of 16.  The values come from F16C's exact
// conversion, so a NaN or an Inf stays one: it only reaches the outputs
// that patch_specials replaces.
MMACHECK_AVX2 __m256i decode_f16_run(const std::uint64_t* words, int count, std::int32_t* exp, float* val) {
  const __m256i exp_mask = _mm256_set1_epi32(31);
  const __m256i magnitude = _mm256_set1_epi32(0x7FFF), low16 = _mm256_set1_epi32(0xFFFF);
  const __m256i one = _mm256_set1_epi32(1), bias = _mm256_set1_epi32(15);
  const __m256i zero_exp = _mm256_set1_epi32(kZeroInputExp);
  const __m256i zero = _mm256_setzero_si256();
  __m256i special = zero;
  for (int n = 0; n < count; n += 16) {
    // Bits above the element's 16 are ignored (and must not saturate the pack).
    const __m256i w[2] = {_mm256_and_si256(low_words(words + n), low16),
                          _mm256_and_si256(low_words(words + n + 8), low16)};
    for (int h = 0; h < 2; ++h) {
      const __m256i e = _mm256_and_si256(_mm256_srli_epi32(w[h], 10), exp_mask);
      special = _mm256_or_si256(special, _mm256_cmpeq_epi32(e, exp_mask));
      const __m256i x = _mm256_sub_epi32(_mm256_max_epi32(e, one), bias);  // subnormals: min_exp
      const __m256i is_zero = _mm256_cmpeq_epi32(_mm256_and_si256(w[h], magnitude), zero);
      _mm256_store_si256(reinterpret_cast<__m256i*>(exp + n + 8 * h), _mm256_blendv_epi8(x, zero_exp, is_zero));
    }
    const __m256i halves = _mm256_permute4x64_epi64(_mm256_packus_epi32(w[0], w[1]), _MM_SHUFFLE(3, 1, 2, 0));
    _mm256_store_ps(val + n, _mm256_cvtph_ps(_mm256_castsi256_si128(halves)));
    _mm256_store_ps(val + n + 8, _mm256_cvtph_ps(_mm256_extracti128_si256(halves, 1)));
  }
  return special;
}

// The least and the largest exponent of the nonzero elements among `count`.
struct Spread {
  int lo, hi;  // lo > hi when every element is zero
};

MMACHECK_AVX2 Spread spread(const std::int32_t* exp, int count) {
  const __m256i zero_exp = _mm256_set1_epi32(kZeroInputExp);
  const __m256i none = _mm256_set1_epi32(-kZeroInputExp);
  __m256i lo = none, hi = zero_exp;
  for (int n = 0; n < count; n += 8) {
    const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(exp + n));
    hi = _mm256_max_epi32(hi, x);
    lo = _mm256_min_epi32(lo, _mm256_blendv_epi8(x, none, _mm256_cmpeq_epi32(x, zero_exp)));
  }
  alignas(32) std::int32_t l[8], h[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(l), lo);
  _mm256_store_si256(reinterpret_cast<__m256i*>(h), hi);
  Spread r{l[0], h[0]};
  for (int i = 1; i < 8; ++i) r = {std::min(r.lo, l[i]), std::max(r.hi, h[i])};
  return r;
}

// Values from decoded significands and exponents, the power clamped to a
// normal f32 (only zeros, whose value is 0 anyway, reach the clamp).
MMACHECK_AVX2 void fill_values(const FloatFormat& f, const std::int32_t* sig, const std::int32_t* exp, int count,
                               int pre_shift, int offset, float* val) {
  const __m256i val_bias = _mm256_set1_epi32(127 - f.man_bits - pre_shift - offset);
  const __m256i lo = _mm256_set1_epi32(1), hi = _mm256_set1_epi32(254);
  for (int n = 0; n < count; n += 8) {
    const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(exp + n));
    const __m256i e = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(x, val_bias), lo), hi);
    const __m256 s = _mm256_cvtepi32_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(sig + n)));
    _mm256_store_ps(val + n, _mm256_mul_ps(s, _mm256_castsi256_ps(_mm256_slli_epi32(e, 23))));
  }
}

MMACHECK_AVX2 inline __m256i at(const std::int32_t* p) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(p));
}

template <int K>
MMACHECK_AVX2 void rows(const TileSpec& s, const Operands& op, Sums& out) {
  const __m256i floor = _mm256_set1_epi32(s.zero_floor);
  for (int i = 0; i < kM; ++i) {
    const std::int32_t* a_exp = op.a_exp + i * K;
    const std::int32_t* a_sig = op.a_sig + i * K;
    const __m256i c_exp = at(op.c_exp + i * kN);
    __m256i top = _mm256_max_epi32(c_exp, floor);
    __m256i exps[K];
    for (int k = 0; k < K; ++k) {
      exps[k] = _mm256_add_epi32(_mm256_set1_epi32(a_exp[k]), at(op.b_exp + k * kN));
      top = _mm256_max_epi32(top, exps[k]);
    }
    __m256i acc = _mm256_setzero_si256();
    for (int k = 0; k < K; ++k) {
      const __m256i shift = _mm256_sub_epi32(top, exps[k]);
      const __m256i p = _mm256_mullo_epi32(_mm256_set1_epi32(a_sig[k]), at(op.b_sig + k * kN));
      acc = _mm256_add_epi32(acc, _mm256_sign_epi32(_mm256_srlv_epi32(_mm256_abs_epi32(p), shift), p));
    }
    const __m256i c = at(op.c_sig + i * kN);
    const __m256i c_term = _mm256_sign_epi32(_mm256_srlv_epi32(_mm256_abs_epi32(c), _mm256_sub_epi32(top, c_exp)), c);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.acc + i * kN), acc);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.c_term + i * kN), c_term);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.top + i * kN), top);
  }
}

// rows<K> with the products in f32 (Values): per output the largest
// exponent X, then each term as cvtt(a * b * 2^(kept_bits + offset - X)).
template <int K>
MMACHECK_AVX2 void product_rows(const TileSpec& s, const Operands& op, const Values& v, Sums& out) {
  const __m256i floor = _mm256_set1_epi32(s.zero_floor);
  const __m256i bias = _mm256_set1_epi32(127 + s.kept_bits + v.offset);
  const __m256i lo = _mm256_set1_epi32(1), hi = _mm256_set1_epi32(254);
  __m256 b[K];
  for (int k = 0; k < K; ++k) b[k] = _mm256_load_ps(v.b + k * kN);
  for (int i = 0; i < kM; ++i) {
    const std::int32_t* a_exp = op.a_exp + i * K;
    const float* a_val = v.a + i * K;
    const __m256i c_exp = at(op.c_exp + i * kN);
    __m256i top = _mm256_max_epi32(c_exp, floor);
    for (int k = 0; k < K; ++k)
      top = _mm256_max_epi32(top, _mm256_add_epi32(_mm256_set1_epi32(a_exp[k]), at(op.b_exp + k * kN)));
    const __m256 scale = _mm256_castsi256_ps(
        _mm256_slli_epi32(_mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32(bias, top), lo), hi), 23));
    __m256i acc = _mm256_setzero_si256();
    for (int k = 0; k < K; ++k)
      acc = _mm256_add_epi32(acc,
                             _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(a_val[k]), b[k]), scale)));
    const __m256i c = at(op.c_sig + i * kN);
    const __m256i c_term = _mm256_sign_epi32(_mm256_srlv_epi32(_mm256_abs_epi32(c), _mm256_sub_epi32(top, c_exp)), c);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.acc + i * kN), acc);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.c_term + i * kN), c_term);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out.top + i * kN), top);
  }
}

// Four outputs: (acc + c_term) * 2^(top - kept_bits), exact in double, then
// cut to f32 toward zero by bit manipulation.
MMACHECK_AVX2 __m256i f32_toward_zero4(__m128i acc, __m128i c_term, __m128i top, int kept_bits) {
  const __m256d sum = _mm256_add_pd(_mm256_cvtepi32_pd(acc), _mm256_cvtepi32_pd(c_term));
  const __m256i scale =
      _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(top), _mm256_set1_epi64x(1023 - kept_bits)), 52);
  const __m256i bits = _mm256_castpd_si256(_mm256_mul_pd(sum, _mm256_castsi256_pd(scale)));
  const __m256i sign = _mm256_srli_epi64(_mm256_and_si256(bits, _mm256_set1_epi64x(INT64_MIN)), 32);
  const __m256i exp =
      _mm256_sub_epi64(_mm256_srli_epi64(bits, 52) & _mm256_set1_epi64x(0x7FF), _mm256_set1_epi64x(1023));
  const __m256i man = _mm256_and_si256(bits, _mm256_set1_epi64x((std::int64_t{1} << 52) - 1));
  const __m256i normal = _mm256_or_si256(_mm256_slli_epi64(_mm256_add_epi64(exp, _mm256_set1_epi64x(127)), 23),
                                         _mm256_srli_epi64(man, 29));
  const __m256i subnormal = _mm256_srlv_epi64(_mm256_or_si256(man, _mm256_set1_epi64x(std::int64_t{1} << 52)),
                                              _mm256_sub_epi64(_mm256_set1_epi64x(-97), exp));
  __m256i r = _mm256_blendv_epi8(normal, subnormal, _mm256_cmpgt_epi64(_mm256_set1_epi64x(-126), exp));
  r = _mm256_blendv_epi8(r, _mm256_set1_epi64x(0x7F800000), _mm256_cmpgt_epi64(exp, _mm256_set1_epi64x(127)));
  // A nonzero sum that rounds to zero is +0: no sign on a zero magnitude.
  return _mm256_or_si256(r, _mm256_andnot_si256(_mm256_cmpeq_epi64(r, _mm256_setzero_si256()), sign));
}

}  // namespace

MMACHECK_AVX2 bool decode_avx2(const TileSpec& s, const std::uint64_t* a, const std::uint64_t* b,
                               const std::uint64_t* c, Operands& op, Values& v) {
  const int na = kM * s.k, nb = s.k * kN;
  __m256i special = decode_run(*s.c, c, kM * kN, s.c_shift, op.c_sig, op.c_exp);
  if (s.narrow) {  // f16: values at offset 0 (their spread is at most 60), no significands
    special = _mm256_or_si256(special, decode_f16_run(a, na, op.a_exp, v.a));
    special = _mm256_or_si256(special, decode_f16_run(b, nb, op.b_exp, v.b));
    v.offset = 0;
    v.exact = true;
  } else {
    special = _mm256_or_si256(special, decode_run(*s.a, a, na, s.pre_shift, op.a_sig, op.a_exp));
    special = _mm256_or_si256(special, decode_run(*s.b, b, nb, 0, op.b_sig, op.b_exp));
    const Spread sa = spread(op.a_exp, na), sb = spread(op.b_exp, nb);
    const int offset_a = sa.lo <= sa.hi ? sa.hi : 0, offset_b = sb.lo <= sb.hi ? sb.hi : 0;
    v.offset = offset_a + offset_b;
    v.exact = std::max(sa.hi - sa.lo, 0) + std::max(sb.hi - sb.lo, 0) <= kMaxSpread;
    if (v.exact) {
      fill_values(*s.a, op.a_sig, op.a_exp, na, s.pre_shift, offset_a, v.a);
      fill_values(*s.b, op.b_sig, op.b_exp, nb, 0, offset_b, v.b);
    }
  }
  return _mm256_testz_si256(special, special);
}

MMACHECK_AVX2 void aligned_sums_avx2(const TileSpec& s, const Operands& op, Sums& out) {
  switch (s.k) {
    case 16: return rows<16>(s, op, out);
    case 8: return rows<8>(s, op, out);
    default: return rows<4>(s, op, out);
  }
}

MMACHECK_AVX2 void product_sums_avx2(const TileSpec& s, const Operands& op, const Values& v, Sums& out) {
  switch (s.k) {
    case 16: return product_rows<16>(s, op, v, out);
    case 8: return product_rows<8>(s, op, v, out);
    default: return product_rows<4>(s, op, v, out);
  }
}

namespace {

// Eight outputs in 32-bit lanes, for the common case: false (nothing
// stored) when a sum leaves int32 or a result is subnormal, which
// f32_toward_zero4 then handles.  The magnitude keeps its top 24 bits (its
// width from an exact conversion of mag >> 8), converts exactly, and the
// scale is added to the exponent field.
MMACHECK_AVX2 bool f32_toward_zero8(const std::int32_t* acc, const std::int32_t* c_term, const std::int32_t* top,
                                    int kept_bits, std::uint64_t* d) {
  const __m256i x = at(acc), c = at(c_term);
  const __m256i sum = _mm256_add_epi32(x, c);
  // Overflow: both addends' signs differ from the sum's; INT_MIN has no magnitude in int32.
  __m256i rare = _mm256_and_si256(_mm256_xor_si256(x, sum), _mm256_xor_si256(c, sum));
  rare = _mm256_or_si256(rare, _mm256_cmpeq_epi32(sum, _mm256_set1_epi32(INT32_MIN)));
  const __m256i mag = _mm256_abs_epi32(sum);
  const __m256i width_field = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_srli_epi32(mag, 8))), 23);
  const __m256i drop =
      _mm256_max_epi32(_mm256_sub_epi32(width_field, _mm256_set1_epi32(127 + 23 - 8)), _mm256_setzero_si256());
  const __m256i kept = _mm256_and_si256(mag, _mm256_sllv_epi32(_mm256_set1_epi32(-1), drop));
  const __m256i bits = _mm256_castps_si256(_mm256_cvtepi32_ps(kept));
  const __m256i scale = _mm256_sub_epi32(at(top), _mm256_set1_epi32(kept_bits));
  const __m256i field = _mm256_add_epi32(_mm256_srli_epi32(bits, 23), scale);
  const __m256i is_zero = _mm256_cmpeq_epi32(kept, _mm256_setzero_si256());
  // Subnormal results (field below 1) of nonzero sums.
  rare = _mm256_or_si256(rare, _mm256_andnot_si256(is_zero, _mm256_cmpgt_epi32(_mm256_set1_epi32(1), field)));
  if (_mm256_movemask_ps(_mm256_castsi256_ps(rare))) return false;
  __m256i r = _mm256_add_epi32(bits, _mm256_slli_epi32(scale, 23));
  r = _mm256_blendv_epi8(r, _mm256_set1_epi32(0x7F800000), _mm256_cmpgt_epi32(field, _mm256_set1_epi32(254)));
  r = _mm256_or_si256(r, _mm256_and_si256(sum, _mm256_set1_epi32(INT32_MIN)));
  r = _mm256_andnot_si256(is_zero, r);  // a zero sum is +0
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(d), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(r, 1)));
  return true;
}

}  // namespace

MMACHECK_AVX2 void finish_f32_avx2(const TileSpec& s, const Sums& sums, std::uint64_t* d) {
  for (int n = 0; n < kM * kN; n += 8) {
    if (f32_toward_zero8(sums.acc + n, sums.c_term + n, sums.top + n, s.kept_bits, d + n)) continue;
    for (int h = n; h < n + 8; h += 4) {
      const auto four = [&](const std::int32_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p + h)); };
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + h),
                          f32_toward_zero4(four(sums.acc), four(sums.c_term), four(sums.top), s.kept_bits));
    }
  }
}

MMACHECK_AVX2 void patch_specials_f16_avx2(int k, const std::uint64_t* a, const std::uint64_t* b,
                                           const std::uint64_t* c, std::uint32_t nan, std::uint64_t* d) {
  alignas(32) float va[kM * kMaxK], vb[kMaxK * kN];
  alignas(32) std::int32_t unused[kM * kMaxK];
  decode_f16_run(a, kM * k, unused, va);
  decode_f16_run(b, k * kN, unused, vb);
  const __m256i exp_field = _mm256_set1_epi32(0x7F800000), nan_bits = _mm256_set1_epi32(static_cast<int>(nan));
  const __m256i sign = _mm256_set1_epi32(INT32_MIN);
  for (int i = 0; i < kM; ++i) {
    __m256 acc = _mm256_castsi256_ps(low_words(c + i * kN));
    for (int kk = 0; kk < k; ++kk)
      acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(va[i * k + kk]), _mm256_load_ps(vb + kk * kN)));
    const __m256i bits = _mm256_castps_si256(acc);
    const __m256i special = _mm256_cmpeq_epi32(_mm256_and_si256(bits, exp_field), exp_field);
    if (_mm256_testz_si256(special, special)) continue;
    const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(acc, acc, _CMP_UNORD_Q));
    const __m256i inf = _mm256_or_si256(_mm256_and_si256(bits, sign), exp_field);
    const __m256i patched = _mm256_blendv_epi8(inf, nan_bits, is_nan);
    const __m256i r = _mm256_blendv_epi8(low_words(d + i * kN), patched, special);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * kN), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(r)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * kN + 4),
                        _mm256_cvtepu32_epi64(_mm256_extracti128_si256(r, 1)));
  }
}

}  // namespace mmacheck::sim::fast

#endif  // MMACHECK_AVX2_KERNELS
