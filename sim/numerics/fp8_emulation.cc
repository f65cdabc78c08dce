#include "sim/numerics/fp8_emulation.h"

#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

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

// f16 + f16 in IEEE f16, nearest-even; a NaN result is canonical.
std::uint16_t f16_add(std::uint16_t x, std::uint16_t y) {
  const FloatFormat& h = float_format(DType::f16);
  const FpValue a = decode(h, x), b = decode(h, y);
  if (a.cls == FpClass::nan || b.cls == FpClass::nan ||
      (a.cls == FpClass::inf && b.cls == FpClass::inf && a.neg != b.neg))
    return static_cast<std::uint16_t>(canonical_nan(h));
  if (a.cls == FpClass::inf || b.cls == FpClass::inf)
    return static_cast<std::uint16_t>(h.inf_bits(a.cls == FpClass::inf ? a.neg : b.neg));
  // Both exact in units of 2^(min_exp - man_bits) = 2^-24 (under 2^41).
  const auto units = [&](const FpValue& v) {
    const auto mag = static_cast<std::int64_t>(v.sig << (v.exp - h.min_exp()));
    return v.neg ? -mag : mag;
  };
  const std::int64_t sum = units(a) + units(b);
  // An exact zero is +0 but for (-0) + (-0), as IEEE's nearest-even has it.
  const bool neg = sum < 0 || (sum == 0 && a.neg && b.neg);
  const std::uint64_t mag = sum < 0 ? static_cast<std::uint64_t>(-sum) : static_cast<std::uint64_t>(sum);
  return static_cast<std::uint16_t>(round_to_format(h, neg, mag, h.min_exp() - h.man_bits, Rounding::nearest_even));
}

}  // namespace

bool fp8_emulation_known(const MmaInst& inst) {
  return is_f8f6f4(inst.a) && inst.kind.empty() && inst.m == 16 && inst.n == 8 && (inst.k == 32 || inst.k == 16);
}
std::string fp8_emulated_shapes() { return "m16n8k32 and m16n8k16, f32 or f16 accumulators"; }

void fp8_mma_emulated(const MmaInst& in, const ArchParams& arch, std::span<const std::uint64_t> a,
                      std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  if (arch.fp8 != Fp8Path::emulated)
    throw Error(in.ptx() + ": the CUDA 13 fp8 emulation is sm_90's, not " + std::string(arch.name) + "'s");
  if (!fp8_emulation_known(in)) throw Error(in.ptx() + ": sm_90's emulation is modelled for " + fp8_emulated_shapes());
  const bool f32 = in.d == DType::f32;
  const int half_k = in.k / 2;
  const std::string acc_type = f32 ? "f32" : "f16";
  const MmaInst& hmma = *find_mma_inst("mma.sync.aligned.m16n8k" + std::to_string(half_k) + ".row.col." + acc_type +
                                       ".f16.f16." + acc_type);
  const HalfTable& ha = to_half(in.a);
  const HalfTable& hb = to_half(in.b);
  std::vector<std::uint64_t> a16(in.m * half_k), b16(half_k * in.n);
  std::vector<std::uint64_t> acc(in.m * in.n, 0), out(in.m * in.n);  // +0, then the first HMMA's result
  for (int pair = 0; pair < 2; ++pair) {                             // k mod 4 in {0, 1}, then {2, 3}
    for (int kk = 0, n = 0; kk < in.k; ++kk) {
      if ((kk % 4) / 2 != pair) continue;
      for (int i = 0; i < in.m; ++i) a16[i * half_k + n] = ha[a[i * in.k + kk] & 0xFF];
      for (int j = 0; j < in.n; ++j) b16[n * in.n + j] = hb[b[kk * in.n + j] & 0xFF];
      ++n;
    }
    mma_tile(hmma, arch, a16, b16, acc, out);
    acc = out;
  }
  for (int i = 0; i < in.m * in.n; ++i)
    d[i] = f32 ? f32_add(static_cast<std::uint32_t>(acc[i]), static_cast<std::uint32_t>(c[i]))
               : f16_add(static_cast<std::uint16_t>(acc[i]), static_cast<std::uint16_t>(c[i]));
}

}  // namespace mmacheck::sim
