#include "core/ptx/ptx_types.h"

#include <array>

namespace mmacheck::ptx {

namespace {

struct TypeRow {
  std::string_view name;
  PtxType type;
};

constexpr std::array kTypes{
    TypeRow{"b8", {TypeKind::b, 8}},         TypeRow{"b16", {TypeKind::b, 16}},
    TypeRow{"b32", {TypeKind::b, 32}},       TypeRow{"b64", {TypeKind::b, 64}},
    TypeRow{"u8", {TypeKind::u, 8}},         TypeRow{"u16", {TypeKind::u, 16}},
    TypeRow{"u32", {TypeKind::u, 32}},       TypeRow{"u64", {TypeKind::u, 64}},
    TypeRow{"s8", {TypeKind::s, 8}},         TypeRow{"s16", {TypeKind::s, 16}},
    TypeRow{"s32", {TypeKind::s, 32}},       TypeRow{"s64", {TypeKind::s, 64}},
    TypeRow{"f16", {TypeKind::f, 16}},       TypeRow{"f32", {TypeKind::f, 32}},
    TypeRow{"f64", {TypeKind::f, 64}},       TypeRow{"bf16", {TypeKind::bf, 16}},
    TypeRow{"f16x2", {TypeKind::f16x2, 32}}, TypeRow{"bf16x2", {TypeKind::bf16x2, 32}},
    TypeRow{"pred", {TypeKind::pred, 1}},
};

struct SpaceRow {
  std::string_view name;
  Space space;
};

constexpr std::array kSpaces{
    SpaceRow{"global", Space::global},  SpaceRow{"shared", Space::shared}, SpaceRow{"shared::cta", Space::shared},
    SpaceRow{"local", Space::local},    SpaceRow{"param", Space::param},   SpaceRow{"param::entry", Space::param},
    SpaceRow{"const", Space::constant},
};

}  // namespace

std::optional<PtxType> parse_type(std::string_view modifier) {
  for (const TypeRow& row : kTypes)
    if (row.name == modifier) return row.type;
  return std::nullopt;
}

std::string_view type_name(PtxType type) {
  for (const TypeRow& row : kTypes)
    if (row.type == type) return row.name;
  return "?";
}

std::optional<Space> parse_space(std::string_view modifier) {
  for (const SpaceRow& row : kSpaces)
    if (row.name == modifier) return row.space;
  return std::nullopt;
}

std::string_view space_name(Space space) {
  if (space == Space::generic) return "generic";
  for (const SpaceRow& row : kSpaces)
    if (row.space == space) return row.name;
  return "?";
}

}  // namespace mmacheck::ptx
