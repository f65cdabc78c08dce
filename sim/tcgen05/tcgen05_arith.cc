#include "sim/tcgen05/tcgen05_arith.h"

#include <array>
#include <charconv>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/fused_chain.h"

namespace mmacheck::sim {

namespace {

// MMA-Sim 2.1.1's Blackwell TCGen05MMA (mmasim/nv_ptx/sim.py): F = 25,
// RZ-FP32 / RNE-FP16, L_max = 32 bytes of the input type, e_zero -133 (f32
// D) / -21 (f16 D), for every kind it models, fp8/fp6/fp4 included.
// Columns as ArchParams': block_16bit, block_tf32, kept_bits, the zero
// terms, then f8f6f4 (fused, block, kept_bits, f32 fraction bits).  The
// first columns are sm_100's mma.sync row, the f8f6f4 ones sm_120's
// (sim/numerics/arch_params.cc).
constexpr std::array kTcgen05Arith = {
    ArchParams{"sm_100", "Blackwell", 100, 16, 8, 25, -133, -21, Fp8Path::fused, 32, 25, 23},
};

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t dot = s.find('.', pos);
    out.push_back(s.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos));
    if (dot == std::string_view::npos) return out;
    pos = dot + 1;
  }
}

// "m128n16k16" -> M, N, K; false unless three decimal numbers after m, n, k.
bool parse_shape(std::string_view s, int& m, int& n, int& k) {
  int* fields[3] = {&m, &n, &k};
  const char letters[3] = {'m', 'n', 'k'};
  for (int f = 0; f < 3; ++f) {
    if (s.empty() || s[0] != letters[f]) return false;
    s.remove_prefix(1);
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *fields[f]);
    if (ec != std::errc{} || p == s.data()) return false;
    s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  }
  return s.empty();
}

void check_size(const Tcgen05Instr& instr, std::string_view operand, std::size_t got, int want) {
  if (got != static_cast<std::size_t>(want))
    throw Error(tcgen05_name(instr) + ": tile " + std::string(operand) + " has " + std::to_string(got) +
                " elements, expected " + std::to_string(want));
}

}  // namespace

std::string tcgen05_name(const Tcgen05Instr& instr) {
  return "tcgen05.mma.cta_group::" + std::to_string(instr.cta_group) +
         ".kind::" + std::string(tcgen05_kind_name(instr.kind)) + ".m" + std::to_string(instr.m) + "n" +
         std::to_string(instr.n) + "k" + std::to_string(instr.k()) + "." + std::string(instr.d ? instr.d->name : "?") +
         "." + std::string(instr.a ? instr.a->name : "?") + "." + std::string(instr.b ? instr.b->name : "?");
}

std::optional<Tcgen05Instr> parse_tcgen05_name(std::string_view name) {
  const std::vector<std::string_view> p = split_dots(name);
  constexpr std::string_view kGroup = "cta_group::", kKind = "kind::";
  if (p.size() != 8 || p[0] != "tcgen05" || p[1] != "mma" || !p[2].starts_with(kGroup) || !p[3].starts_with(kKind))
    return std::nullopt;
  Tcgen05Instr instr;
  if (p[2].substr(kGroup.size()) == "1") instr.cta_group = 1;
  else if (p[2].substr(kGroup.size()) == "2") instr.cta_group = 2;
  else return std::nullopt;
  if (!find_tcgen05_kind(p[3].substr(kKind.size()), instr.kind)) return std::nullopt;
  int k = 0;
  if (!parse_shape(p[4], instr.m, instr.n, k)) return std::nullopt;
  instr.d = find_tcgen05_d(instr.kind, p[5]);
  instr.a = find_tcgen05_format(instr.kind, p[6]);
  instr.b = find_tcgen05_format(instr.kind, p[7]);
  if (!tcgen05_sim_problem(instr).empty() || k != instr.k()) return std::nullopt;
  return instr;
}

std::string tcgen05_sim_problem(const Tcgen05Instr& instr) {
  if (std::string why = instr.problem(); !why.empty()) return why;
  if (instr.kind == Tcgen05Kind::i8) return "kind::i8 is not simulated (MMA-Sim has no integer tcgen05.mma)";
  if (instr.cta_group != 1) return "cta_group::2 is not simulated (MMA-Sim models cta_group::1 only)";
  if (instr.negate_a || instr.negate_b) return "negated A or B is not simulated";
  return "";
}

DType tcgen05_dtype(std::string_view format) {
  const std::optional<DType> t = parse_dtype(format);
  if (!t) throw Error("no element type '" + std::string(format) + "'");
  return *t;
}

std::span<const ArchParams> all_tcgen05_arith() { return kTcgen05Arith; }

const ArchParams& tcgen05_arith(std::string_view arch) {
  for (const ArchParams& p : kTcgen05Arith)
    if (p.name == arch) return p;
  throw Error("no tcgen05.mma on '" + std::string(arch) + "' (the simulated tcgen05 arithmetic is sm_100's)");
}

void tcgen05_tile(const Tcgen05Instr& instr, const ArchParams& arith, std::span<const std::uint64_t> a,
                  std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  if (const std::string why = tcgen05_sim_problem(instr); !why.empty()) throw Error(tcgen05_name(instr) + ": " + why);
  const int m = instr.m, n = instr.n, k = instr.k();
  check_size(instr, "A", a.size(), m * k);
  check_size(instr, "B", b.size(), k * n);
  check_size(instr, "C", c.size(), m * n);
  check_size(instr, "D", d.size(), m * n);
  fused_chain_tile({.m = m,
                    .n = n,
                    .k = k,
                    .a = tcgen05_dtype(instr.a->name),
                    .b = tcgen05_dtype(instr.b->name),
                    .d = tcgen05_dtype(instr.d->name)},
                   arith, a, b, c, d);
}

}  // namespace mmacheck::sim
