#include "core/layout/compose_layout.h"

#include "core/base/error.h"

namespace mmacheck {

namespace {

// log2(num); throws unless num is a power of two (TVM: "num must be a power of 2").
int log2_of(std::int64_t num, std::string_view op) {
  if (num <= 0 || (num & (num - 1)) != 0)
    throw Error(std::string(op) + " of a ComposeLayout: num must be a power of 2, got " + std::to_string(num));
  int bits = 0;
  while ((std::int64_t{1} << bits) < num) ++bits;
  return bits;
}

Swizzle with_base(Swizzle s, int base) {
  s.base = base;
  return s;
}

}  // namespace

ComposeLayout::ComposeLayout(Swizzle swizzle, TileLayout tile) : swizzle_(swizzle), tile_(std::move(tile)) {
  swizzle_.tirx = true;
  check(swizzle_);
  tile_.check_well_formed();  // as TVM's constructor
}

void ComposeLayout::check(const Swizzle& swizzle) {
  if (swizzle.base < 0 || swizzle.bits < 0 || swizzle.shift < swizzle.bits)
    throw Error("a ComposeLayout needs per_element >= 0, swizzle_len >= 0 and atom_len >= swizzle_len, got (" +
                std::to_string(swizzle.base) + ", " + std::to_string(swizzle.bits) + ", " +
                std::to_string(swizzle.shift) + ")");
  if (swizzle.base + swizzle.bits + swizzle.shift > 62)
    throw Error("a ComposeLayout's per_element + swizzle_len + atom_len is at most 62 in mmacheck, got " +
                std::to_string(swizzle.base + swizzle.bits + swizzle.shift));
}

bool ComposeLayout::applies() const {
  bool m = false;
  for (const Iter& it : tile_.shard()) {
    if (it.axis != Axis::m()) return false;
    m = true;
  }
  for (const auto& [axis, value] : tile_.offset()) {
    if (axis != Axis::m()) return false;
    m = true;
  }
  return m;
}

std::int64_t ComposeLayout::apply_flat(std::int64_t index) const {
  if (!applies())
    throw Error(
        "a ComposeLayout applies only when its tile layout's shard and offset are on m alone (TVM's "
        "apply); " +
        tile_.str() + " is not");
  return swizzle_.apply(owner_coord(tile_.apply_flat(index), Axis::m()));
}

// TVM's ComposeLayout.tile does not keep a memory axis other than m as
// TileLayout.tile does (S[8 : 1@TCol] tiled by S[2 : 1] is S[16 : 1] there);
// what it means then is not documented, so mmacheck refuses.
ComposeLayout ComposeLayout::with_tile(TileLayout tile, std::string_view op) const {
  const auto check = [&](const Axis& axis) {
    if (op != "canonicalize" && axis.is_memory() && axis != Axis::m())
      throw Error(std::string(op) + " of a ComposeLayout whose tile layout uses memory axis '" + axis.name() +
                  "' is not supported (mmacheck tiles ComposeLayouts on m only)");
  };
  for (const Iter& it : tile_.shard()) check(it.axis);
  for (const Iter& it : tile_.replica()) check(it.axis);
  for (const auto& [axis, value] : tile_.offset()) check(axis);
  return {swizzle_, std::move(tile)};
}

ComposeLayout ComposeLayout::pack(std::int64_t num, const Axis& axis) const {
  const int bits = log2_of(num, "pack");
  if (swizzle_.base < bits)
    throw Error("pack(" + std::to_string(num) + ") of a ComposeLayout needs per_element >= " + std::to_string(bits) +
                ", got " + std::to_string(swizzle_.base) +
                " (TVM: per_element must be greater than or equal to "
                "num.bit_length() - 1)");
  return {with_base(swizzle_, swizzle_.base - bits), tile_.pack(num, axis)};
}

ComposeLayout ComposeLayout::unpack(std::int64_t num, const Axis& axis) const {
  const int bits = log2_of(num, "unpack");
  return {with_base(swizzle_, swizzle_.base + bits), tile_.unpack(num, axis)};
}

std::string ComposeLayout::str() const {
  return "ComposeLayout(" + std::to_string(swizzle_.base) + ", " + std::to_string(swizzle_.bits) + ", " +
         std::to_string(swizzle_.shift) + ", TileLayout(" + tile_.str() + ")" +
         (swizzle_.inner ? "" : ", swizzle_inner=False") + ")";
}

}  // namespace mmacheck
