#include "sim/numerics/fp8_emulation.h"

#include <array>
#include <bit>
#include <cmath>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/fused_dot.h"

namespace mmacheck::sim {

namespace {

using HalfTable = std::array<std::uint16_t, 256>;

// Every fp8 pattern as the f16 the emulation converts it to.
HalfTable half_table(DType fp8) {
  const FloatFormat& f = float_format(fp8);
  const FloatFormat& f16 = float_format(DType::f16);
  HalfTable table{};
  for (std::uint64_t w = 0; w < 256; ++w) {
    const FpValue v = decode(f, w);
    table[w] = static_cast<std::uint16_t>(
        v.cls == FpClass::nan   ? canonical_nan(f16)
        : v.cls == FpClass::inf ? f16.inf_bits(v.neg)
                                : round_to_format(f16, v.neg, v.sig, v.exp - v.frac, Rounding::nearest_even));
  }
  return table;
}

const HalfTable& to_half(DType fp8) {
  static const HalfTable e4m3 = half_table(DType::e4m3);
  static const HalfTable e5m2 = half_table(DType::e5m2);
  return fp8 == DType::e4m3 ? e4m3 : e5m2;
}

std::uint32_t f32_add(std::uint32_t x, std::uint32_t y) {
  const float r = std::bit_cast<float>(x) + std::bit_cast<float>(y);
  return std::isnan(r) ? 0x7FFFFFFF : std::bit_cast<std::uint32_t>(r);
}

}  // namespace

void fp8_mma_emulated(const MmaInst& in, const ArchParams& arch, std::span<const std::uint64_t> a,
                      std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                      std::span<std::uint64_t> d) {
  if (arch.fp8 != Fp8Path::emulated)
    throw Error(in.ptx() + ": the CUDA 13 fp8 emulation is sm_90's, not " + std::string(arch.name) + "'s");
  const MmaInst& hmma = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const HalfTable& ha = to_half(in.a);
  const HalfTable& hb = to_half(in.b);
  constexpr int kHalfK = 16;
  std::array<std::uint64_t, 16 * kHalfK> a16;
  std::array<std::uint64_t, kHalfK * 8> b16;
  std::array<std::uint64_t, 16 * 8> acc{};  // +0, then the first HMMA's result
  for (int pair = 0; pair < 2; ++pair) {    // k mod 4 in {0, 1}, then {2, 3}
    for (int kk = 0, n = 0; kk < in.k; ++kk) {
      if ((kk % 4) / 2 != pair) continue;
      for (int i = 0; i < in.m; ++i) a16[i * kHalfK + n] = ha[a[i * in.k + kk] & 0xFF];
      for (int j = 0; j < in.n; ++j) b16[n * in.n + j] = hb[b[kk * in.n + j] & 0xFF];
      ++n;
    }
    std::array<std::uint64_t, 16 * 8> out;
    mma_tile(hmma, arch, a16, b16, acc, out);
    acc = out;
  }
  for (int i = 0; i < in.m * in.n; ++i)
    d[i] = f32_add(static_cast<std::uint32_t>(acc[i]), static_cast<std::uint32_t>(c[i]));
}

}  // namespace mmacheck::sim
