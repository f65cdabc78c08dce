#include "sim/numerics/philox_blocks.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define MMACHECK_PHILOX_X86 1
#include <immintrin.h>
#define MMACHECK_PHILOX_AVX2 __attribute__((target("avx2")))
#define MMACHECK_PHILOX_AVX512 __attribute__((target("avx512f")))
#endif

namespace mmacheck::sim {

namespace {

constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;

void blocks_scalar(const PhiloxStream& s, std::uint32_t first, int blocks, std::uint32_t* out) {
  for (int b = 0; b < blocks; ++b) {
    const PhiloxBlock r =
        philox4x32_10({{first + static_cast<std::uint32_t>(b), s.stream, s.case_lo, s.case_hi}}, s.key);
    for (int w = 0; w < 4; ++w) out[4 * b + w] = r.w[w];
  }
}

#ifdef MMACHECK_PHILOX_X86

// Both vector paths keep one block per 64-bit lane: vpmuludq multiplies the
// low 32 bits of each lane into the full 64-bit product, whose high half is
// a shift away.  The lanes' high halves collect garbage from the xors, which
// no multiply reads (it takes the low 32 bits only); the words are the low
// halves at the end.  G groups of lanes side by side hide the multiply's
// latency.

template <int G>
MMACHECK_PHILOX_AVX512 inline void groups_avx512(const PhiloxStream& s, std::uint32_t first, std::uint32_t* out) {
  const __m512i m0 = _mm512_set1_epi64(kM0), m1 = _mm512_set1_epi64(kM1);
  const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
  __m512i c0[G], c1[G], c2[G], c3[G];
  for (int g = 0; g < G; ++g) {
    c0[g] = _mm512_add_epi64(_mm512_set1_epi64(first + 8u * static_cast<std::uint32_t>(g)), lane);
    c1[g] = _mm512_set1_epi64(s.stream);
    c2[g] = _mm512_set1_epi64(s.case_lo);
    c3[g] = _mm512_set1_epi64(s.case_hi);
  }
  std::uint32_t k0 = s.key.k[0], k1 = s.key.k[1];
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += kW0;
      k1 += kW1;
    }
    const __m512i key0 = _mm512_set1_epi64(k0), key1 = _mm512_set1_epi64(k1);
    for (int g = 0; g < G; ++g) {
      const __m512i p0 = _mm512_mul_epu32(c0[g], m0), p1 = _mm512_mul_epu32(c2[g], m1);
      c0[g] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p1, 32), c1[g]), key0);
      c2[g] = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(p0, 32), c3[g]), key1);
      c1[g] = p1;
      c3[g] = p0;
    }
  }
  const __m512i low = _mm512_set1_epi64(0xffffffffu);
  const __m512i blocks_0123 = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
  const __m512i blocks_4567 = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
  for (int g = 0; g < G; ++g) {
    // (w0 | w1 << 32) and (w2 | w3 << 32) per block, then blocks in order.
    const __m512i w01 = _mm512_or_si512(_mm512_and_si512(c0[g], low), _mm512_slli_epi64(c1[g], 32));
    const __m512i w23 = _mm512_or_si512(_mm512_and_si512(c2[g], low), _mm512_slli_epi64(c3[g], 32));
    _mm512_storeu_si512(out + 32 * g, _mm512_permutex2var_epi64(w01, blocks_0123, w23));
    _mm512_storeu_si512(out + 32 * g + 16, _mm512_permutex2var_epi64(w01, blocks_4567, w23));
  }
}

MMACHECK_PHILOX_AVX512 void blocks_avx512(const PhiloxStream& s, std::uint32_t first, int blocks, std::uint32_t* out) {
  int b = 0;
  for (; b + 32 <= blocks; b += 32) groups_avx512<4>(s, first + static_cast<std::uint32_t>(b), out + 4 * b);
  for (; b + 8 <= blocks; b += 8) groups_avx512<1>(s, first + static_cast<std::uint32_t>(b), out + 4 * b);
  blocks_scalar(s, first + static_cast<std::uint32_t>(b), blocks - b, out + 4 * b);
}

template <int G>
MMACHECK_PHILOX_AVX2 inline void groups_avx2(const PhiloxStream& s, std::uint32_t first, std::uint32_t* out) {
  const __m256i m0 = _mm256_set1_epi64x(kM0), m1 = _mm256_set1_epi64x(kM1);
  const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
  __m256i c0[G], c1[G], c2[G], c3[G];
  for (int g = 0; g < G; ++g) {
    c0[g] = _mm256_add_epi64(_mm256_set1_epi64x(first + 4u * static_cast<std::uint32_t>(g)), lane);
    c1[g] = _mm256_set1_epi64x(s.stream);
    c2[g] = _mm256_set1_epi64x(s.case_lo);
    c3[g] = _mm256_set1_epi64x(s.case_hi);
  }
  std::uint32_t k0 = s.key.k[0], k1 = s.key.k[1];
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k0 += kW0;
      k1 += kW1;
    }
    const __m256i key0 = _mm256_set1_epi64x(k0), key1 = _mm256_set1_epi64x(k1);
    for (int g = 0; g < G; ++g) {
      const __m256i p0 = _mm256_mul_epu32(c0[g], m0), p1 = _mm256_mul_epu32(c2[g], m1);
      c0[g] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), c1[g]), key0);
      c2[g] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), c3[g]), key1);
      c1[g] = p1;
      c3[g] = p0;
    }
  }
  const __m256i low = _mm256_set1_epi64x(0xffffffffu);
  for (int g = 0; g < G; ++g) {
    const __m256i w01 = _mm256_or_si256(_mm256_and_si256(c0[g], low), _mm256_slli_epi64(c1[g], 32));
    const __m256i w23 = _mm256_or_si256(_mm256_and_si256(c2[g], low), _mm256_slli_epi64(c3[g], 32));
    // Within each 128-bit half: blocks 0 and 2, then 1 and 3.
    const __m256i even = _mm256_unpacklo_epi64(w01, w23), odd = _mm256_unpackhi_epi64(w01, w23);
    auto* o = reinterpret_cast<__m256i*>(out + 16 * g);
    _mm256_storeu_si256(o, _mm256_permute2x128_si256(even, odd, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(even, odd, 0x31));
  }
}

MMACHECK_PHILOX_AVX2 void blocks_avx2(const PhiloxStream& s, std::uint32_t first, int blocks, std::uint32_t* out) {
  int b = 0;
  for (; b + 16 <= blocks; b += 16) groups_avx2<4>(s, first + static_cast<std::uint32_t>(b), out + 4 * b);
  for (; b + 4 <= blocks; b += 4) groups_avx2<1>(s, first + static_cast<std::uint32_t>(b), out + 4 * b);
  blocks_scalar(s, first + static_cast<std::uint32_t>(b), blocks - b, out + 4 * b);
}

#endif

}  // namespace

bool philox_path_available(PhiloxPath path) {
#ifdef MMACHECK_PHILOX_X86
  switch (path) {
    case PhiloxPath::avx2: return __builtin_cpu_supports("avx2");
    case PhiloxPath::avx512: return __builtin_cpu_supports("avx512f");
    default: return true;
  }
#else
  return path == PhiloxPath::scalar;
#endif
}

PhiloxPath best_philox_path() {
  static const PhiloxPath best = philox_path_available(PhiloxPath::avx512) ? PhiloxPath::avx512
                                 : philox_path_available(PhiloxPath::avx2) ? PhiloxPath::avx2
                                                                           : PhiloxPath::scalar;
  return best;
}

void philox_blocks(const PhiloxStream& s, std::uint32_t first_block, int blocks, std::uint32_t* out, PhiloxPath path) {
#ifdef MMACHECK_PHILOX_X86
  if (path == PhiloxPath::avx512) return blocks_avx512(s, first_block, blocks, out);
  if (path == PhiloxPath::avx2) return blocks_avx2(s, first_block, blocks, out);
#else
  (void)path;
#endif
  blocks_scalar(s, first_block, blocks, out);
}

}  // namespace mmacheck::sim
