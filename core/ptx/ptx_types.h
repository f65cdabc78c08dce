// PtxType, Space — PTX's fundamental types and state spaces, as the opcode
// table decodes an instruction's modifiers (PTX ISA §5.1, §5.2).
//
// One table (ptx_types.cc) gives each type suffix its kind and width:
//
//     parse_type("u32")    == PtxType{TypeKind::u, 32}
//     parse_type("f16x2")  == PtxType{TypeKind::f16x2, 32}
//     parse_type("pred")   == PtxType{TypeKind::pred, 1}
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace mmacheck::ptx {

// b: untyped bits; u/s: unsigned/signed integers; f: IEEE binary16/32/64;
// bf: bfloat16; f16x2/bf16x2: two packed halves (the low one first).
enum class TypeKind : std::uint8_t { b, u, s, f, bf, f16x2, bf16x2, pred };

struct PtxType {
  TypeKind kind = TypeKind::b;
  int bits = 0;
  bool operator==(const PtxType&) const = default;
  bool is_int() const { return kind == TypeKind::b || kind == TypeKind::u || kind == TypeKind::s; }
  bool is_float() const { return kind == TypeKind::f || kind == TypeKind::bf; }
};

// The type a modifier names ("u32", "f16x2"), nullopt when it names none.
std::optional<PtxType> parse_type(std::string_view modifier);
// "u32", "f16x2", ...
std::string_view type_name(PtxType type);

// State spaces.  `generic` is the default of ld/st without a space: the
// address decides (the machine maps shared and global into one generic
// space as cvta does).
enum class Space : std::uint8_t { generic, global, shared, local, param, constant };

// The space a modifier names ("global", "shared", "shared::cta", ...).
std::optional<Space> parse_space(std::string_view modifier);
std::string_view space_name(Space space);

}  // namespace mmacheck::ptx
