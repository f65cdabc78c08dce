#include "sim/numerics/mma_model.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/f64_fma.h"
#include "sim/numerics/fp8_emulation.h"
#include "sim/numerics/fused_dot.h"
#include "sim/numerics/fused_tile_fast.h"

namespace mmacheck::sim {

namespace {

struct Tiles {
  const MmaInst& inst;
  std::span<const std::uint64_t> a, b, c;
  std::span<std::uint64_t> d;
};

// A row-major (m x k) and B transposed to column-major (n x k), decoded, so
// that the K run of every output is contiguous in both.
struct DecodedOperands {
  std::vector<FpValue> a;
  std::vector<FpValue> bt;
};

DecodedOperands decode_operands(const Tiles& t) {
  const MmaInst& in = t.inst;
  const FloatFormat& fa = float_format(in.a);
  const FloatFormat& fb = float_format(in.b);
  DecodedOperands ops{std::vector<FpValue>(in.m * in.k), std::vector<FpValue>(in.n * in.k)};
  for (int i = 0; i < in.m * in.k; ++i) ops.a[i] = decode(fa, t.a[i]);
  for (int kk = 0; kk < in.k; ++kk)
    for (int j = 0; j < in.n; ++j) ops.bt[j * in.k + kk] = decode(fb, t.b[kk * in.n + j]);
  return ops;
}

int fused_block(DType in, const ArchParams& arch) {
  switch (in) {
    case DType::tf32: return arch.block_tf32;
    case DType::e4m3:
    case DType::e5m2:
    case DType::e3m2:
    case DType::e2m3:
    case DType::e2m1: return arch.block_fp8;
    default: return arch.block_16bit;
  }
}

// f16, bf16, tf32 (and native fp8): chained fused blocks.
void fused_mma(const Tiles& t, const ArchParams& arch) {
  const MmaInst& in = t.inst;
  const FloatFormat& out = float_format(in.d);
  const FloatFormat& acc = float_format(in.c);
  const int block = fused_block(in.a, arch);
  if (in.k <= block && fused_tile_fast(in, arch, t.a, t.b, t.c, t.d)) return;

  const DecodedOperands ops = decode_operands(t);
  const FusedStep step = fused_step_for(in.a, out, arch);
  for (int i = 0; i < in.m; ++i)
    for (int j = 0; j < in.n; ++j) {
      FpValue c = decode(acc, t.c[i * in.n + j]);
      std::uint64_t bits = 0;
      for (int k0 = 0; k0 < in.k; k0 += block) {
        const int len = std::min(block, in.k - k0);
        bits = fused_dot(step, std::span(ops.a).subspan(i * in.k + k0, len),
                         std::span(ops.bt).subspan(j * in.k + k0, len), c);
        c = decode(out, bits);
      }
      t.d[i * in.n + j] = bits;
    }
}

// Integer inputs -> s32: exact products summed exactly onto C, then wrapped
// to 32 bits, or clamped with .satfinite; b1: C + popc(a AND/XOR b) over K.
void integer_mma(const Tiles& t) {
  const MmaInst& in = t.inst;
  const auto product = [&](std::uint64_t x, std::uint64_t y) -> std::int64_t {
    switch (in.bop) {
      case BitOp::and_popc: return (x & y) & 1;
      case BitOp::xor_popc: return (x ^ y) & 1;
      case BitOp::none: break;
    }
    return int_value(in.a, x) * int_value(in.b, y);
  };
  for (int i = 0; i < in.m; ++i)
    for (int j = 0; j < in.n; ++j) {
      std::int64_t sum = int_value(DType::s32, t.c[i * in.n + j]);
      for (int kk = 0; kk < in.k; ++kk) sum += product(t.a[i * in.k + kk], t.b[kk * in.n + j]);
      if (in.satfinite) sum = std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX);
      t.d[i * in.n + j] = static_cast<std::uint32_t>(sum);
    }
}

// f64: a chain of fmas in k order, starting from c.
void f64_mma(const Tiles& t) {
  const MmaInst& in = t.inst;
  for (int i = 0; i < in.m; ++i)
    for (int j = 0; j < in.n; ++j) {
      std::uint64_t acc = t.c[i * in.n + j];
      for (int kk = 0; kk < in.k; ++kk) acc = f64_fma(t.a[i * in.k + kk], t.b[kk * in.n + j], acc);
      t.d[i * in.n + j] = acc;
    }
}

void check_size(const MmaInst& inst, std::string_view operand, std::size_t got, int want) {
  if (got != static_cast<std::size_t>(want))
    throw Error(inst.ptx() + ": tile " + std::string(operand) + " has " + std::to_string(got) + " elements, expected " +
                std::to_string(want));
}

}  // namespace

bool has_model(const MmaInst& inst, const ArchParams& arch) {
  if (inst.products > 1) return arch.sm >= inst.min_sm && !arch.quad_pair_row.empty();
  const bool fp8 = is_f8f6f4(inst.a);
  if (fp8 && arch.fp8 == Fp8Path::emulated && !fp8_emulation_known(inst)) return false;
  return arch.sm >= inst.min_sm && !(fp8 && arch.fp8 == Fp8Path::none);
}

void check_has_model(const MmaInst& inst, const ArchParams& arch) {
  if (arch.sm < inst.min_sm)
    throw Error(inst.ptx() + " needs sm_" + std::to_string(inst.min_sm) + ", not " + std::string(arch.name));
  if (!has_model(inst, arch) && inst.products > 1)
    throw Error(inst.ptx() + " has no model on " + std::string(arch.name) +
                " (modelled: sm_70 and sm_75, Volta's arithmetic as MMA-Sim has it)");
  if (!has_model(inst, arch))
    throw Error(inst.ptx() + ": fp8 has no model on " + std::string(arch.name) +
                " (modelled: sm_89 and sm_120 native, sm_90 CUDA 13's emulation of " + fp8_emulated_shapes() + ")");
}

void mma_tile(const MmaInst& inst, const ArchParams& arch, std::span<const std::uint64_t> a,
              std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  check_size(inst, "A", a.size(), inst.a_elems());
  check_size(inst, "B", b.size(), inst.b_elems());
  check_size(inst, "C", c.size(), inst.c_elems());
  check_size(inst, "D", d.size(), inst.c_elems());
  check_has_model(inst, arch);
  if (inst.block_scaled())
    throw Error(inst.ptx() + " is block-scaled: its scale factors are operands too (block_scaled_tile)");
  if (inst.products > 1) {  // m8n8k4 f16: each quad pair's product on its own, with the row's Volta arithmetic
    const ArchParams& volta = arch_params(arch.quad_pair_row);
    const std::size_t ma = inst.m * inst.k, mb = inst.k * inst.n, mc = inst.m * inst.n;
    for (std::size_t p = 0; p < static_cast<std::size_t>(inst.products); ++p)
      fused_mma({inst, a.subspan(p * ma, ma), b.subspan(p * mb, mb), c.subspan(p * mc, mc), d.subspan(p * mc, mc)},
                volta);
    return;
  }
  const Tiles t{inst, a, b, c, d};
  switch (inst.a) {
    case DType::f16:
    case DType::bf16:
    case DType::tf32: return fused_mma(t, arch);
    case DType::e4m3:
    case DType::e5m2:
    case DType::e3m2:
    case DType::e2m3:
    case DType::e2m1:
      // check_has_model excluded Fp8Path::none.
      if (arch.fp8 == Fp8Path::fused) return fused_mma(t, arch);
      return fp8_mma_emulated(inst, arch, a, b, c, d);
    case DType::s8:
    case DType::u8:
    case DType::s4:
    case DType::u4:
    case DType::b1: return integer_mma(t);
    case DType::f64: return f64_mma(t);
    default: throw Error(inst.ptx() + ": no arithmetic model for input type " + std::string(dtype_info(inst.a).ptx));
  }
}

}  // namespace mmacheck::sim
