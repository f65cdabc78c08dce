#include "sim/numerics/wgmma_model.h"

#include <algorithm>
#include <array>
#include <climits>

#include "core/base/error.h"
#include "sim/numerics/fused_chain.h"

namespace mmacheck::sim {

namespace {

// PTX ISA §9.7.15.5 (wgmma.mma_async's .dtype/.atype/.btype table, inputs in
// shared memory): the rows, any N.
constexpr std::array<WgmmaTypes, 16> kTypeRows{{
    {DType::f32, DType::f16, DType::f16},
    {DType::f16, DType::f16, DType::f16},
    {DType::f32, DType::bf16, DType::bf16},
    {DType::f32, DType::tf32, DType::tf32},
    {DType::f32, DType::e4m3, DType::e4m3},
    {DType::f32, DType::e4m3, DType::e5m2},
    {DType::f32, DType::e5m2, DType::e4m3},
    {DType::f32, DType::e5m2, DType::e5m2},
    {DType::f16, DType::e4m3, DType::e4m3},
    {DType::f16, DType::e4m3, DType::e5m2},
    {DType::f16, DType::e5m2, DType::e4m3},
    {DType::f16, DType::e5m2, DType::e5m2},
    {DType::s32, DType::s8, DType::s8},
    {DType::s32, DType::s8, DType::u8},
    {DType::s32, DType::u8, DType::s8},
    {DType::s32, DType::u8, DType::u8},
}};

// MMA-Sim 2.1.1's Hopper WGMMA (mmasim/nv_ptx/sim.py, class WGMMA): F = 25
// and RZ-FP32 / RNE-FP16 for f16, bf16, tf32; F = 13 and RZ-E8M13 /
// RNE-FP16 for fp8; L_max = 32 bytes of inputs (16 f16, 8 tf32, 32 fp8);
// e_zero -133 (f32 output) / -21 (f16).  Columns as ArchParams': block_16bit,
// block_tf32, kept_bits, the zero terms, then fp8 (fused, block, kept_bits,
// f32 fraction bits).  The f16/bf16/tf32 columns are sm_90's mma.sync row.
constexpr std::array kWgmmaArith = {
    ArchParams{"sm_90", "Hopper", 90, 16, 8, 25, -133, -21, Fp8Path::fused, 32, 13, 13},
};

bool valid_n(const WgmmaInst& inst) {
  if (inst.n < 8 || inst.n > 256 || inst.n % 8 != 0) return false;
  return inst.d != DType::s32 || inst.n <= 32 || inst.n % 16 == 0;  // §9.7.15.5.1.1.3
}

void check_size(const WgmmaInst& inst, std::string_view operand, std::size_t got, int want) {
  if (got != static_cast<std::size_t>(want))
    throw Error(inst.ptx() + ": tile " + std::string(operand) + " has " + std::to_string(got) + " elements, expected " +
                std::to_string(want));
}

void integer_wgmma(const WgmmaInst& inst, std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                   std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  const int n = inst.n, k = inst.k();
  for (int i = 0; i < WgmmaInst::kM; ++i)
    for (int j = 0; j < n; ++j) {
      std::int64_t sum = int_value(DType::s32, c[std::size_t(i) * n + j]);
      for (int kk = 0; kk < k; ++kk)
        sum += int_value(inst.a, a[std::size_t(i) * k + kk]) * int_value(inst.b, b[std::size_t(kk) * n + j]);
      if (inst.satfinite) sum = std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX);
      d[std::size_t(i) * n + j] = static_cast<std::uint32_t>(sum);
    }
}

}  // namespace

int WgmmaInst::k() const {
  if (a == DType::tf32) return 8;
  if (dtype_bits(a) == 8) return 32;
  return 16;
}

std::string WgmmaInst::ptx() const {
  return "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k" + std::to_string(k()) +
         (satfinite ? ".satfinite" : "") + "." + std::string(dtype_info(d).ptx) + "." + std::string(dtype_info(a).ptx) +
         "." + std::string(dtype_info(b).ptx);
}

std::string WgmmaInst::problem() const {
  const bool row = std::any_of(kTypeRows.begin(), kTypeRows.end(),
                               [&](const WgmmaTypes& t) { return t.d == d && t.a == a && t.b == b; });
  if (!row)
    return "no wgmma has types ." + std::string(dtype_info(d).ptx) + "." + std::string(dtype_info(a).ptx) + "." +
           std::string(dtype_info(b).ptx);
  if (satfinite && d != DType::s32) return ".satfinite needs s32 accumulators";
  if (!valid_n(*this)) return "N = " + std::to_string(n) + " is no N of this wgmma";
  return "";
}

std::optional<WgmmaInst> parse_wgmma_inst(std::string_view ptx) {
  constexpr std::string_view kPrefix = "wgmma.mma_async.sync.aligned.m64n";
  if (ptx.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view rest = ptx.substr(kPrefix.size());
  WgmmaInst inst;
  std::size_t pos = 0;
  int n = 0;
  while (pos < rest.size() && rest[pos] >= '0' && rest[pos] <= '9' && n < 1000) n = n * 10 + (rest[pos++] - '0');
  inst.n = n;
  rest = rest.substr(pos);
  const std::size_t dot = rest.find('.');
  if (dot == std::string_view::npos || rest[0] != 'k') return std::nullopt;
  const std::string_view kpart = rest.substr(0, dot);
  rest = rest.substr(dot + 1);
  constexpr std::string_view kSat = "satfinite.";
  if (rest.substr(0, kSat.size()) == kSat) {
    inst.satfinite = true;
    rest = rest.substr(kSat.size());
  }
  std::array<DType, 3> types{};
  for (int t = 0; t < 3; ++t) {
    const std::size_t end = t < 2 ? rest.find('.') : rest.size();
    if (end == std::string_view::npos) return std::nullopt;
    const std::optional<DType> dt = parse_dtype(rest.substr(0, end));
    if (!dt) return std::nullopt;
    types[t] = *dt;
    rest = t < 2 ? rest.substr(end + 1) : std::string_view{};
  }
  inst.d = types[0];
  inst.a = types[1];
  inst.b = types[2];
  if (!inst.problem().empty() || kpart != "k" + std::to_string(inst.k())) return std::nullopt;
  return inst;
}

std::span<const WgmmaTypes> wgmma_type_rows() { return kTypeRows; }

std::span<const ArchParams> all_wgmma_arith() { return kWgmmaArith; }

const ArchParams& wgmma_arith(std::string_view arch) {
  for (const ArchParams& p : kWgmmaArith)
    if (p.name == arch) return p;
  throw Error("no wgmma on '" + std::string(arch) + "' (wgmma.mma_async is sm_90a's)");
}

void wgmma_tile(const WgmmaInst& inst, const ArchParams& arith, std::span<const std::uint64_t> a,
                std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  if (const std::string why = inst.problem(); !why.empty()) throw Error(inst.ptx() + ": " + why);
  const int m = WgmmaInst::kM, n = inst.n, k = inst.k();
  check_size(inst, "A", a.size(), m * k);
  check_size(inst, "B", b.size(), k * n);
  check_size(inst, "C", c.size(), m * n);
  check_size(inst, "D", d.size(), m * n);
  if (inst.d == DType::s32) return integer_wgmma(inst, a, b, c, d);
  fused_chain_tile({.m = m, .n = n, .k = k, .a = inst.a, .b = inst.b, .d = inst.d}, arith, a, b, c, d);
}

}  // namespace mmacheck::sim
