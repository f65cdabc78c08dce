#include "core/tcgen05/tcgen05_instr.h"

#include <array>

namespace mmacheck {

namespace {

struct KindRow {
  Tcgen05Kind kind;
  std::string_view name;
};
constexpr std::array<KindRow, 4> kKinds{{
    {Tcgen05Kind::tf32, "tf32"},
    {Tcgen05Kind::f16, "f16"},
    {Tcgen05Kind::f8f6f4, "f8f6f4"},
    {Tcgen05Kind::i8, "i8"},
}};

// PTX ISA Table 42 (codes), Table 39 (K), CUTLASS's a_major_ note (MN-major).
// WgmmaType: {name, bytes, K, MN-major allowed}.
constexpr std::array<Tcgen05Format, 10> kFormats{{
    {Tcgen05Kind::tf32, "tf32", 2, {"tf32", 4, 8, true}},
    {Tcgen05Kind::f16, "f16", 0, {"f16", 2, 16, true}},
    {Tcgen05Kind::f16, "bf16", 1, {"bf16", 2, 16, true}},
    {Tcgen05Kind::f8f6f4, "e4m3", 0, {"e4m3", 1, 32, true}},
    {Tcgen05Kind::f8f6f4, "e5m2", 1, {"e5m2", 1, 32, true}},
    {Tcgen05Kind::f8f6f4, "e2m3", 3, {"e2m3", 1, 32, false}},
    {Tcgen05Kind::f8f6f4, "e3m2", 4, {"e3m2", 1, 32, false}},
    {Tcgen05Kind::f8f6f4, "e2m1", 5, {"e2m1", 1, 32, false}},
    {Tcgen05Kind::i8, "u8", 0, {"u8", 1, 32, true}},
    {Tcgen05Kind::i8, "s8", 1, {"s8", 1, 32, true}},
}};

constexpr std::array<Tcgen05DFormat, 5> kDFormats{{
    {Tcgen05Kind::tf32, "f32", 1},
    {Tcgen05Kind::f16, "f16", 0},
    {Tcgen05Kind::f16, "f32", 1},
    {Tcgen05Kind::f8f6f4, "f32", 1},
    {Tcgen05Kind::i8, "s32", 2},
}};

constexpr std::array<IdescField, 16> kFields{{
    {"sparsity selector", 0, 2},
    {"sparsity", 2, 1},
    {"saturate", 3, 1},
    {"dtype", 4, 2},
    {"reserved bit 6", 6, 1},
    {"atype", 7, 3},
    {"btype", 10, 3},
    {"negate A", 13, 1},
    {"negate B", 14, 1},
    {"transpose A", 15, 1},
    {"transpose B", 16, 1},
    {"N >> 3", 17, 6},
    {"reserved bit 23", 23, 1},
    {"M >> 4", 24, 5},
    {"reserved bit 29", 29, 1},
    {"max shift", 30, 2},
}};

std::string bits_text(const IdescField& f) {
  return f.width == 1 ? "bit " + std::to_string(f.low)
                      : "bits " + std::to_string(f.low) + "-" + std::to_string(f.low + f.width - 1);
}

// What a field's value means for this instruction's kind.
std::string meaning(const Tcgen05Instr& instr, const IdescField& f, std::uint32_t v) {
  const std::string_view n = f.name;
  if (n == "dtype") {
    for (const Tcgen05DFormat& d : kDFormats)
      if (d.kind == instr.kind && static_cast<std::uint32_t>(d.code) == v) return std::string(d.name);
    return "no D format of kind::" + std::string(tcgen05_kind_name(instr.kind));
  }
  if (n == "atype" || n == "btype") {
    for (const Tcgen05Format& t : kFormats)
      if (t.kind == instr.kind && static_cast<std::uint32_t>(t.code) == v) return std::string(t.name);
    return "no format of kind::" + std::string(tcgen05_kind_name(instr.kind));
  }
  if (n == "transpose A" || n == "transpose B") return v ? "MN-major" : "K-major";
  if (n == "N >> 3") return "N = " + std::to_string(v << 3);
  if (n == "M >> 4") return "M = " + std::to_string(v << 4);
  if (n == "negate A" || n == "negate B") return v ? "negated" : "not negated";
  if (n == "sparsity") return v ? "sparse" : "dense";
  if (n == "saturate") return v ? "saturating" : "not saturating";
  if (n == "max shift") return v ? "a .ws shift of " + std::to_string(4 << v) : "no shift";
  return v ? "set" : "clear";
}

}  // namespace

std::string_view tcgen05_kind_name(Tcgen05Kind kind) {
  for (const KindRow& k : kKinds)
    if (k.kind == kind) return k.name;
  return "?";
}

bool find_tcgen05_kind(std::string_view name, Tcgen05Kind& out) {
  for (const KindRow& k : kKinds)
    if (k.name == name) {
      out = k.kind;
      return true;
    }
  return false;
}

std::span<const Tcgen05Format> tcgen05_formats() { return kFormats; }

const Tcgen05Format* find_tcgen05_format(Tcgen05Kind kind, std::string_view name) {
  for (const Tcgen05Format& t : kFormats)
    if (t.kind == kind && t.name == name) return &t;
  return nullptr;
}

const Tcgen05DFormat* find_tcgen05_d(Tcgen05Kind kind, std::string_view name) {
  for (const Tcgen05DFormat& d : kDFormats)
    if (d.kind == kind && d.name == name) return &d;
  return nullptr;
}

std::string tcgen05_format_names(Tcgen05Kind kind, bool d) {
  std::string out;
  if (d) {
    for (const Tcgen05DFormat& f : kDFormats)
      if (f.kind == kind) out += (out.empty() ? "" : ", ") + std::string(f.name);
  } else {
    for (const Tcgen05Format& f : kFormats)
      if (f.kind == kind) out += (out.empty() ? "" : ", ") + std::string(f.name);
  }
  return out;
}

std::string Tcgen05Instr::problem() const {
  if (!d || !a || !b) return "the D, A and B formats are required";
  if (d->kind != kind || a->kind != kind || b->kind != kind)
    return "a format is not of kind::" + std::string(tcgen05_kind_name(kind));
  if (kind == Tcgen05Kind::f16 && d->name == "f16" && (a->name != "f16" || b->name != "f16"))
    return "kind::f16 with an f16 D takes f16 A and B (Table 39)";
  if (kind == Tcgen05Kind::f16 && a->name != b->name) return "kind::f16 takes A and B of one type (f16 or bf16)";
  if (cta_group != 1 && cta_group != 2) return "cta_group is 1 or 2, got " + std::to_string(cta_group);
  const bool pair = cta_group == 2;
  if (pair ? (m != 128 && m != 256) : (m != 64 && m != 128))
    return "cta_group::" + std::to_string(cta_group) + " has M = " + (pair ? "128 or 256" : "64 or 128") + ", got " +
           std::to_string(m);
  const int step = pair ? 16 : 8;
  if (n < step || n > 256 || n % step != 0)
    return "cta_group::" + std::to_string(cta_group) + " has N = " + std::to_string(step) + "..256 in steps of " +
           std::to_string(step) + ", got " + std::to_string(n);
  if (a_major == Major::mn && !a->operand.transposable)
    return "A of " + std::string(a->name) + " must be K-major (no transpose for it)";
  if (b_major == Major::mn && !b->operand.transposable)
    return "B of " + std::string(b->name) + " must be K-major (no transpose for it)";
  if (kind == Tcgen05Kind::i8 && (negate_a || negate_b)) return "kind::i8 cannot negate A or B";
  if (kind != Tcgen05Kind::i8 && saturate) return "saturate is for kind::i8 only";
  return "";
}

std::string Tcgen05Instr::str() const {
  return "tcgen05.mma.cta_group::" + std::to_string(cta_group) + ".kind::" + std::string(tcgen05_kind_name(kind)) +
         " m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k()) + " " +
         std::string(d ? d->name : "?") + " += " + (negate_a ? "-" : "") + std::string(a ? a->name : "?") + " * " +
         (negate_b ? "-" : "") + std::string(b ? b->name : "?") + (saturate ? " saturating" : "") + " (A " +
         std::string(major_name(a_major)) + "-major, B " + std::string(major_name(b_major)) + "-major)";
}

std::uint32_t Tcgen05Instr::idesc() const {
  const auto put = [](std::string_view field, std::uint32_t v) {
    for (const IdescField& f : kFields)
      if (f.name == field) return (v & ((1u << f.width) - 1)) << f.low;
    return 0u;
  };
  return put("saturate", saturate) | put("dtype", static_cast<std::uint32_t>(d->code)) |
         put("atype", static_cast<std::uint32_t>(a->code)) | put("btype", static_cast<std::uint32_t>(b->code)) |
         put("negate A", negate_a) | put("negate B", negate_b) | put("transpose A", a_major == Major::mn) |
         put("transpose B", b_major == Major::mn) | put("N >> 3", static_cast<std::uint32_t>(n >> 3)) |
         put("M >> 4", static_cast<std::uint32_t>(m >> 4));
}

std::span<const IdescField> idesc_fields() { return kFields; }

std::optional<Tcgen05Instr> instr_of_idesc(Tcgen05Kind kind, int cta_group, std::uint32_t bits) {
  const auto field = [&](std::string_view name) {
    for (const IdescField& f : kFields)
      if (f.name == name) return f.get(bits);
    return 0u;
  };
  Tcgen05Instr in;
  in.kind = kind;
  in.cta_group = cta_group;
  in.m = static_cast<int>(field("M >> 4")) << 4;
  in.n = static_cast<int>(field("N >> 3")) << 3;
  for (const Tcgen05DFormat& d : kDFormats)
    if (d.kind == kind && static_cast<std::uint32_t>(d.code) == field("dtype")) in.d = &d;
  for (const Tcgen05Format& t : kFormats) {
    if (t.kind != kind) continue;
    if (static_cast<std::uint32_t>(t.code) == field("atype")) in.a = &t;
    if (static_cast<std::uint32_t>(t.code) == field("btype")) in.b = &t;
  }
  in.a_major = field("transpose A") ? Major::mn : Major::k;
  in.b_major = field("transpose B") ? Major::mn : Major::k;
  in.negate_a = field("negate A") != 0;
  in.negate_b = field("negate B") != 0;
  in.saturate = field("saturate") != 0;
  if (!in.d || !in.a || !in.b || !in.problem().empty() || in.idesc() != bits) return std::nullopt;
  return in;
}

std::vector<IdescDifference> idesc_differences(const Tcgen05Instr& instr, std::uint32_t got) {
  const std::uint32_t want = instr.idesc();
  std::vector<IdescDifference> out;
  for (const IdescField& f : kFields) {
    const std::uint32_t g = f.get(got), w = f.get(want);
    if (g == w) continue;
    out.push_back({&f, g, w,
                   "instruction descriptor " + std::string(f.name) + " (" + bits_text(f) + ") is " + std::to_string(g) +
                       " (" + meaning(instr, f, g) + ") but the instruction needs " + std::to_string(w) + " (" +
                       meaning(instr, f, w) + ")"});
  }
  return out;
}

}  // namespace mmacheck
