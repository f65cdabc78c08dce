#include "core/cute/cute_atom_name.h"

#include <cctype>
#include <vector>

#include "core/cute/cute_gmma_name.h"
#include "core/cute/cute_name_parts.h"

namespace mmacheck {

namespace {

struct TypeToken {
  std::string_view cute;  // as in the atom name
  std::string_view ptx;
  int bits;
  bool complex;
};

// Longest first, so that GC64 wins over C64 and BF16 over F16.
constexpr TypeToken kTypeTokens[] = {
    {"GC64", "f64", 64, true},   {"E4M3", "e4m3", 8, false}, {"E5M2", "e5m2", 8, false}, {"BF16", "bf16", 16, false},
    {"TF32", "tf32", 32, false}, {"C64", "f64", 64, true},   {"F16", "f16", 16, false},  {"F32", "f32", 32, false},
    {"F64", "f64", 64, false},   {"S32", "s32", 32, false},  {"S8", "s8", 8, false},     {"U8", "u8", 8, false},
    {"S4", "s4", 4, false},      {"U4", "u4", 4, false},     {"U1", "b1", 1, false},     {"B1", "b1", 1, false},
};

struct Suffix {
  std::string_view cute;
  std::string_view before_types;  // qualifier after .row.col
  std::string_view after_types;   // qualifier at the end
};
constexpr Suffix kSuffixes[] = {
    {"", "", ""},
    {"SATURATE", ".satfinite", ""},
    {"XORPOPC", "", ".xor.popc"},
    {"ANDPOPC", "", ".and.popc"},
};

}  // namespace

std::optional<CuteAtomName> decode_atom_name(std::string_view name, std::string* problem) {
  if (name.find('<') != std::string_view::npos) {
    refuse(problem, is_umma_name(name)
                        ? "a templated atom: UMMA (tcgen05.mma) traits are templated on the element types and M, N, "
                          "so the header fixes no layout; an atom list entry states one instantiation"
                        : "a templated atom: its instruction depends on template arguments (sm_120 mma, UMMA)");
    return std::nullopt;
  }
  if (is_gmma_name(name)) return decode_gmma_name(name, problem);
  if (is_umma_name(name)) return decode_umma_name(name, problem);
  const std::vector<std::string_view> parts = split_name(name, '_');
  if (parts.size() < 4 || parts.size() > 5 || parts[0].size() < 3 || parts[0].substr(0, 2) != "SM") {
    refuse(problem, "not an mma atom name of the form SM<arch>_<M>x<N>x<K>_<types>_<layout>");
    return std::nullopt;
  }
  CuteAtomName out;
  for (char c : parts[0].substr(2)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) {
      refuse(problem, "architecture '" + std::string(parts[0]) + "' is not SM<number>");
      return std::nullopt;
    }
    out.arch = out.arch * 10 + (c - '0');
  }
  int mnk[3];
  if (!read_mnk(parts[1], mnk)) {
    refuse(problem, "shape '" + std::string(parts[1]) + "' is not <M>x<N>x<K>");
    return std::nullopt;
  }
  out.m = mnk[0];
  out.n = mnk[1];
  out.k = mnk[2];
  out.shape = "m" + std::to_string(out.m) + "n" + std::to_string(out.n) + "k" + std::to_string(out.k);

  std::vector<const TypeToken*> types;
  for (std::string_view rest = parts[2]; !rest.empty();) {
    const TypeToken* hit = nullptr;
    for (const TypeToken& t : kTypeTokens)
      if (rest.substr(0, t.cute.size()) == t.cute) {
        hit = &t;
        break;
      }
    if (!hit) {
      refuse(problem, "unknown element type at '" + std::string(rest) + "' in '" + std::string(parts[2]) + "'");
      return std::nullopt;
    }
    types.push_back(hit);
    rest.remove_prefix(hit->cute.size());
  }
  if (types.size() != 4) {
    refuse(problem, "types '" + std::string(parts[2]) + "' are not four (D, A, B, C)");
    return std::nullopt;
  }
  if (parts[3] != "TN") {
    refuse(problem, "layout " + std::string(parts[3]) + ": mma.sync of this kind is .row.col (TN) only");
    return std::nullopt;
  }
  const std::string_view suffix = parts.size() == 5 ? parts[4] : std::string_view{};
  const Suffix* sfx = nullptr;
  for (const Suffix& s : kSuffixes)
    if (s.cute == suffix) sfx = &s;
  if (!sfx) {
    refuse(problem, "unknown suffix _" + std::string(suffix));
    return std::nullopt;
  }
  out.ptx = "mma.sync.aligned." + out.shape + ".row.col" + std::string(sfx->before_types);
  for (const TypeToken* t : types) out.ptx += "." + std::string(t->ptx);
  out.ptx += sfx->after_types;
  for (std::size_t i = 0; i < 4; ++i) out.types[i] = std::string(types[i]->cute);
  out.a_bits = types[1]->bits;
  out.b_bits = types[2]->bits;
  out.c_bits = types[3]->bits;
  if (types[0]->complex || types[1]->complex)
    out.note = "complex " + std::string(types[1]->cute) +
               " atom: CUTLASS composes it from real f64 mma.sync with the same layouts";
  return out;
}

}  // namespace mmacheck
