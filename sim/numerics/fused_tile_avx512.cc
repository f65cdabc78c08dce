// AVX-512 version of the f32-product pass (product_sums_avx2 in
// fused_tile_avx2.cc): 16 lanes hold two rows of the tile's 8 columns, so one
// multiply covers 16 products where AVX2 covers 8.  Decode and rounding stay
// the AVX2 ones (sim/numerics/fused_tile_fast.cc picks this pass only on a
// processor with AVX-512 F/BW/DQ/VL).  Why only this pass, and what it gains
// on which core: docs/performance.md, "AVX-512".
#include "sim/numerics/fused_tile_kernels.h"

#ifdef MMACHECK_AVX2_KERNELS

#include <immintrin.h>

#define MMACHECK_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

namespace mmacheck::sim::fast {

bool cpu_has_avx512() {
  static const bool has = cpu_has_avx2() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  return has;
}

namespace {

// Lanes 0..7 hold x0, lanes 8..15 x1: row i0's and row i1's element of A
// against the 8 columns.
MMACHECK_AVX512 inline __m512i pair(std::int32_t x0, std::int32_t x1) {
  return _mm512_mask_set1_epi32(_mm512_set1_epi32(x0), 0xFF00, x1);
}
MMACHECK_AVX512 inline __m512 pair(float x0, float x1) {
  return _mm512_mask_mov_ps(_mm512_set1_ps(x0), 0xFF00, _mm512_set1_ps(x1));
}

// Rows i and i + 1 (i even) of product_rows<K> (fused_tile_avx2.cc) at once: the
// same exponent max, scale, products and truncation, lane for lane.
template <int K>
MMACHECK_AVX512 void product_pairs(const TileSpec& s, const Operands& op, const Values& v, Sums& out) {
  const __m512i floor = _mm512_set1_epi32(s.zero_floor);
  const __m512i bias = _mm512_set1_epi32(127 + s.kept_bits + v.offset);
  const __m512i lo = _mm512_set1_epi32(1), hi = _mm512_set1_epi32(254);
  __m512 b[K];
  __m512i b_exp[K];
  for (int k = 0; k < K; ++k) {  // B's row k in both halves
    b[k] = _mm512_broadcast_f32x8(_mm256_load_ps(v.b + k * kN));
    b_exp[k] = _mm512_broadcast_i32x8(_mm256_load_si256(reinterpret_cast<const __m256i*>(op.b_exp + k * kN)));
  }
  for (int i = 0; i < kM; i += 2) {
    const std::int32_t* e0 = op.a_exp + i * K;
    const std::int32_t* e1 = e0 + K;
    const float* a0 = v.a + i * K;
    const float* a1 = a0 + K;
    const __m512i c_exp = _mm512_loadu_si512(op.c_exp + i * kN);  // rows i and i + 1
    __m512i top = _mm512_max_epi32(c_exp, floor);
    for (int k = 0; k < K; ++k) top = _mm512_max_epi32(top, _mm512_add_epi32(pair(e0[k], e1[k]), b_exp[k]));
    const __m512 scale = _mm512_castsi512_ps(
        _mm512_slli_epi32(_mm512_min_epi32(_mm512_max_epi32(_mm512_sub_epi32(bias, top), lo), hi), 23));
    __m512i acc = _mm512_setzero_si512();
    for (int k = 0; k < K; ++k)
      acc = _mm512_add_epi32(acc, _mm512_cvttps_epi32(_mm512_mul_ps(_mm512_mul_ps(pair(a0[k], a1[k]), b[k]), scale)));
    const __m512i c = _mm512_loadu_si512(op.c_sig + i * kN);
    const __m512i c_mag = _mm512_srlv_epi32(_mm512_abs_epi32(c), _mm512_sub_epi32(top, c_exp));
    const __m512i c_term = _mm512_mask_sub_epi32(c_mag, _mm512_movepi32_mask(c), _mm512_setzero_si512(), c_mag);
    _mm512_storeu_si512(out.acc + i * kN, acc);
    _mm512_storeu_si512(out.c_term + i * kN, c_term);
    _mm512_storeu_si512(out.top + i * kN, top);
  }
}

}  // namespace

MMACHECK_AVX512 void product_sums_avx512(const TileSpec& s, const Operands& op, const Values& v, Sums& out) {
  switch (s.k) {
    case 16: return product_pairs<16>(s, op, v, out);
    case 8: return product_pairs<8>(s, op, v, out);
    default: return product_pairs<4>(s, op, v, out);
  }
}

}  // namespace mmacheck::sim::fast

#endif  // MMACHECK_AVX2_KERNELS
