// Internal to sim/numerics/fused_tile_fast.cc: the fixed-point tile kernels, in a
// portable version and (GCC on x86-64) an AVX2 version chosen at run time.
// Both compute the same integers; tests compare the fast path with the
// reference model (sim/numerics/fused_dot.h).
#pragma once

#include <cstdint>

#include "sim/numerics/float_format.h"

#if defined(__GNUC__) && defined(__x86_64__)
#define MMACHECK_AVX2_KERNELS 1
#endif

namespace mmacheck::sim::fast {

constexpr int kM = 16;
constexpr int kN = 8;  // the lanes of the vectorized loops
constexpr int kMaxK = 16;
constexpr int kZeroInputExp = -1000;  // keeps zero products below any floor

struct TileSpec {
  int k;
  const FloatFormat* a;
  const FloatFormat* b;
  const FloatFormat* c;
  int pre_shift;  // kept_bits - frac(a) - frac(b), applied to A's significands
  int c_shift;    // kept_bits - frac(c), applied to C's significands
  int kept_bits;
  int zero_floor;  // ArchParams::zero_term_exp
  bool narrow;     // f16 A and B: exponents within [-14, 16], Values need no offsets
};

// Fixed-point operands, in units of 2^(X - kept_bits) for an output's largest
// alignment exponent X.  A product's aligned magnitude is
// |sig_a * sig_b| >> (X - exp_a - exp_b): below 2047^2 * 32 < 2^27 for
// f16/tf32 (pre_shift 5) and 255^2 * 2048 < 2^27 for bf16 (pre_shift 11), so
// 16 of them sum exactly in int32 (16 * 2047^2 * 32 < 2^31); C's term is
// below 2^26 and joins in int64.  Significands are signed; a zero element
// has exponent kZeroInputExp.
struct Operands {
  alignas(32) std::int32_t a_sig[kM * kMaxK];  // A[i][k] at i * k + k
  alignas(32) std::int32_t a_exp[kM * kMaxK];
  alignas(32) std::int32_t b_sig[kMaxK * kN];  // B[k][j] at k * 8 + j
  alignas(32) std::int32_t b_exp[kMaxK * kN];
  alignas(32) std::int32_t c_sig[kM * kN];
  alignas(32) std::int32_t c_exp[kM * kN];
};

// D[i][j] = (acc + c_term) * 2^(top - kept_bits), exactly.
struct Sums {
  alignas(32) std::int32_t acc[kM * kN];
  alignas(32) std::int32_t c_term[kM * kN];
  alignas(32) std::int32_t top[kM * kN];
};

// The f32-product kernel's operands (AVX2): A[i][k] and B[k][j] as f32
// values times 2^-offset_a and 2^-offset_b (each operand's largest
// exponent; 0 for narrow tiles).  When the nonzero exponents of A and of B
// spread at most kMaxSpread together, every nonzero product of two is exact
// and normal in f32 (24 significant bits hold the 22 of a product), and so
// is the product times 2^(kept_bits + offset - X) for an output's X, clamped
// to a normal power of two: that is the aligned term before truncation, so
// cvtt (toward zero) gives the integer term of Sums exactly.  A clamp to the
// least power 2^-126 only meets products whose term is below 1 (0 either
// way); one to 2^127 cannot happen while the spread holds.
constexpr int kMaxSpread = 100;
struct Values {
  alignas(32) float a[kM * kMaxK];
  alignas(32) float b[kMaxK * kN];
  int offset = 0;      // offset_a + offset_b
  bool exact = false;  // the spread holds: product_sums_avx2 may run
};

// One element; false for NaN or Inf.
bool load(const FloatFormat& f, std::uint64_t bits, int pre_shift, std::int32_t* sig, std::int32_t* exp);
// sum * 2^scale rounded toward zero to f32 bits (subnormals kept, overflow to Inf).
std::uint32_t f32_toward_zero(std::int64_t sum, int scale);

// false when A, B or C holds a NaN or Inf (op is then partly filled).
bool decode(const TileSpec& s, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c, Operands& op);
void aligned_sums(const TileSpec& s, const Operands& op, Sums& out);
void finish_f32(const TileSpec& s, const Sums& sums, std::uint64_t* d);

#ifdef MMACHECK_AVX2_KERNELS
bool cpu_has_avx2();
// decode() and the Values.
bool decode_avx2(const TileSpec& s, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
                 Operands& op, Values& v);
void aligned_sums_avx2(const TileSpec& s, const Operands& op, Sums& out);
// aligned_sums() through f32 products; requires v.exact.
void product_sums_avx2(const TileSpec& s, const Operands& op, const Values& v, Sums& out);
void finish_f32_avx2(const TileSpec& s, const Sums& sums, std::uint64_t* d);
// AVX-512 F/BW/DQ/VL (fused_tile_avx512.cc): product_sums_avx2 over two
// rows per 16-lane vector, the same integers.
bool cpu_has_avx512();
void product_sums_avx512(const TileSpec& s, const Operands& op, const Values& v, Sums& out);
// The outputs a NaN or an Inf reaches, for f16 A and B and f32 C and D:
// each is the IEEE class of C + sum of a * b in f32 (NaN, else the Inf's
// sign; `nan` the model's NaN bits), replaced in d; the others are left.
// Exact because finite f16 products stay below 2^32 and 16 of them with C
// cannot overflow f32 (FLT_MAX + 2^36 rounds to FLT_MAX): an output's sum
// is non-finite exactly when a special reaches it, and its class is step 1
// of the model (NaN, Inf * 0, +Inf with -Inf give NaN).  c must not be d.
void patch_specials_f16_avx2(int k, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
                             std::uint32_t nan, std::uint64_t* d);
#endif

}  // namespace mmacheck::sim::fast
