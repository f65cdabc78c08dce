#include "core/cute/cute_gmma_name.h"

#include <vector>

#include "core/cute/cute_name_parts.h"

namespace mmacheck {

namespace {

struct ElemType {
  std::string_view cute;
  std::string_view ptx;
  int bits;
};
// Longest first, so that BF16 wins over F16 (no prefix clashes otherwise).
constexpr ElemType kElems[] = {{"BF16", "bf16", 16}, {"TF32", "tf32", 32}, {"E4M3", "e4m3", 8},
                               {"E5M2", "e5m2", 8},  {"F16", "f16", 16},   {"F32", "f32", 32},
                               {"S32", "s32", 32},   {"S8", "s8", 8},      {"U8", "u8", 8}};

// The wgmma type combinations (PTX ISA §9.7.15.5.2, wgmma.mma_async): D A B
// as the name spells them, K, whether the name ends in _TN (K-major only,
// no GMMA::Major parameters) and whether _SATURATE (.satfinite) may follow.
struct GmmaRow {
  std::string_view types;
  int k;
  bool tn;
  bool integer;  // N is 8, 16, 24 or a multiple of 16; _SATURATE allowed
};
constexpr GmmaRow kGmma[] = {
    {"F16F16F16", 16, false, false},  {"F32F16F16", 16, false, false},  {"F32BF16BF16", 16, false, false},
    {"F32TF32TF32", 8, true, false},  {"F16E4M3E4M3", 32, true, false}, {"F16E4M3E5M2", 32, true, false},
    {"F16E5M2E4M3", 32, true, false}, {"F16E5M2E5M2", 32, true, false}, {"F32E4M3E4M3", 32, true, false},
    {"F32E4M3E5M2", 32, true, false}, {"F32E5M2E4M3", 32, true, false}, {"F32E5M2E5M2", 32, true, false},
    {"S32S8S8", 32, true, true},      {"S32S8U8", 32, true, true},      {"S32U8S8", 32, true, true},
    {"S32U8U8", 32, true, true},
};

// The UMMA families mmacheck reads (cute/arch/mma_sm100_umma.hpp names):
// the kind, K (256 bits of A's element) and A's element bits.
struct UmmaRow {
  std::string_view cute;
  std::string_view kind;
  int k;
};
constexpr UmmaRow kUmma[] = {{"TF32", "tf32", 8}, {"F16BF16", "f16", 16}, {"S8", "i8", 32}, {"F8F6F4", "f8f6f4", 32}};

// "F32BF16BF16" -> F32, BF16, BF16
std::vector<const ElemType*> read_types(std::string_view s) {
  std::vector<const ElemType*> out;
  while (!s.empty()) {
    const ElemType* hit = nullptr;
    for (const ElemType& e : kElems)
      if (s.substr(0, e.cute.size()) == e.cute) {
        hit = &e;
        break;
      }
    if (!hit) return {};
    out.push_back(hit);
    s.remove_prefix(hit->cute.size());
  }
  return out;
}

}  // namespace

bool is_gmma_name(std::string_view name) {
  const std::vector<std::string_view> parts = split_name(name);
  return parts.size() >= 4 && parts[0] == "SM90" && (parts[3] == "SS" || parts[3] == "RS");
}

bool is_umma_name(std::string_view name) { return name.substr(0, 10) == "SM100_MMA_"; }

std::optional<CuteAtomName> decode_gmma_name(std::string_view name, std::string* problem) {
  const std::vector<std::string_view> parts = split_name(name);
  if (!is_gmma_name(name)) {
    refuse(problem, "not a wgmma atom name of the form SM90_64x<N>x<K>_<D><A><B>_<SS|RS>[_TN][_SATURATE]");
    return std::nullopt;
  }
  CuteAtomName out;
  out.family = CuteMmaFamily::wgmma;
  out.arch = 90;
  int mnk[3];
  if (!read_mnk(parts[1], mnk)) {
    refuse(problem, "shape '" + std::string(parts[1]) + "' is not <M>x<N>x<K>");
    return std::nullopt;
  }
  out.m = mnk[0];
  out.n = mnk[1];
  out.k = mnk[2];
  const GmmaRow* row = nullptr;
  for (const GmmaRow& r : kGmma)
    if (r.types == parts[2]) row = &r;
  if (!row) {
    const std::vector<const ElemType*> types = read_types(parts[2]);
    refuse(problem, types.size() == 4 ? "wgmma atom types '" + std::string(parts[2]) +
                                            "' are four; a wgmma name gives three (D, A, B; C is D)"
                                      : "wgmma types '" + std::string(parts[2]) + "' are no wgmma combination");
    return std::nullopt;
  }
  const bool tn = parts.size() > 4 && parts[4] == "TN";
  const std::size_t suffix_at = tn ? 5 : 4;
  const bool saturate = parts.size() > suffix_at && parts[suffix_at] == "SATURATE";
  if (parts.size() > suffix_at + (saturate ? 1 : 0)) {
    refuse(problem, "unknown suffix _" + std::string(parts[suffix_at]) + " of a wgmma atom");
    return std::nullopt;
  }
  if (tn != row->tn) {
    refuse(problem, std::string(parts[2]) + (row->tn ? " wgmma is K-major only: its atom name ends in _TN"
                                                     : " wgmma takes GMMA::Major parameters: its name has no _TN"));
    return std::nullopt;
  }
  if (saturate && !row->integer) {
    refuse(problem, "_SATURATE is for integer wgmma only");
    return std::nullopt;
  }
  if (out.m != 64 || out.k != row->k) {
    refuse(problem, "wgmma " + std::string(parts[2]) + " is m64nNk" + std::to_string(row->k) + ", the name says " +
                        std::string(parts[1]));
    return std::nullopt;
  }
  const bool n_ok = out.n >= 8 && out.n <= 256 && out.n % 8 == 0 && (!row->integer || out.n <= 24 || out.n % 16 == 0);
  if (!n_ok) {
    refuse(problem, "N = " + std::to_string(out.n) + " is no wgmma shape" +
                        (row->integer ? " (integer: 8, 16, 24 or a multiple of 16 up to 256)"
                                      : " (a multiple of 8 from 8 to 256)"));
    return std::nullopt;
  }
  const std::vector<const ElemType*> types = read_types(parts[2]);
  out.shape = "m64n" + std::to_string(out.n) + "k" + std::to_string(out.k);
  out.frame_shape = "m64nNk" + std::to_string(out.k);
  out.ptx = "wgmma.mma_async.sync.aligned." + out.shape + (saturate ? ".satfinite" : "");
  for (const ElemType* t : types) out.ptx += "." + std::string(t->ptx);
  out.types = {std::string(types[0]->cute), std::string(types[1]->cute), std::string(types[2]->cute),
               std::string(types[0]->cute)};
  out.c_bits = types[0]->bits;
  out.a_bits = types[1]->bits;
  out.b_bits = types[2]->bits;
  out.a_source = parts[3] == "SS" ? "shared memory" : "registers";
  return out;
}

std::optional<CuteAtomName> decode_umma_name(std::string_view name, std::string* problem) {
  if (!is_umma_name(name)) {
    refuse(problem, "not a UMMA atom name of the form SM100_MMA_<KIND>[_2x1SM]_<SS|TS>");
    return std::nullopt;
  }
  std::vector<std::string_view> parts = split_name(name.substr(10));
  CuteAtomName out;
  out.family = CuteMmaFamily::umma;
  out.arch = 100;
  out.cta_group = parts.size() == 3 && parts[1] == "2x1SM" ? 2 : 1;
  if (out.cta_group == 2) parts.erase(parts.begin() + 1);
  const UmmaRow* row = nullptr;
  for (const UmmaRow& r : kUmma)
    if (parts.size() == 2 && r.cute == parts[0]) row = &r;
  if (!row || (parts[1] != "SS" && parts[1] != "TS")) {
    refuse(problem,
           "UMMA atom " + std::string(name) +
               " is not in mmacheck's table (TF32, F16BF16, S8, F8F6F4; _SS or _TS; 1SM or 2x1SM; block-scaled, "
               "sparse and complex forms are not read)");
    return std::nullopt;
  }
  out.k = row->k;
  out.ptx = "tcgen05.mma.cta_group::" + std::to_string(out.cta_group) + ".kind::" + std::string(row->kind);
  out.a_source = parts[1] == "SS" ? "shared memory" : "tensor memory";
  return out;
}

}  // namespace mmacheck
