// ComposeLayout — TIRx's swizzled layout (apache-tvm-tirx 0.1.0a4,
// tvm_tirx.tirx.layout.ComposeLayout): a TileLayout whose memory offset on
// `m` then goes through an XOR swizzle (core/layout/swizzle.h).
//
//     ComposeLayout(per_element=M, swizzle_len=B, atom_len=S, tile_layout, swizzle_inner=True)
//
// maps element i to swizzle(D(i) + O) where D(i) + O is the tile layout's
// offset on m.  What TVM does, and so what this type does:
//   - construction needs per_element >= 0, swizzle_len >= 0 and
//     atom_len >= swizzle_len (TVM's check); mmacheck also bounds
//     per_element + swizzle_len + atom_len by 62 (int64 shifts; TVM takes
//     wider ones);
//   - size() and span() are the tile layout's (the span of the offsets
//     before the swizzle; TVM takes no axis for a ComposeLayout);
//   - apply is defined only when the tile layout's shard and offset name
//     axis m alone (replicas are not applied), as TVM's apply checks;
//   - construction checks the tile layout is well formed (TVM's
//     check_well_formed: registered axes, one scope chain);
//   - canonicalize, tile and tile_to act on the tile layout and keep the
//     swizzle (tile and tile_to: mmacheck refuses a tile layout with a
//     memory axis other than m, which TVM renames in ways it does not
//     document); pack(n) and unpack(n) need n a power of two, act on the tile
//     layout and move per_element down or up by log2(n) (pack needs
//     per_element >= log2(n)).  TVM's ComposeLayout has no other method.
// Errors are Error without a location (the caller adds it), as TileLayout's.
//
//     ComposeLayout c(Swizzle{3, 3, 3}, TileLayout({{8, 64, Axis::m()}, {64, 1, Axis::m()}}));
//     c.apply_flat(64) == 72;   // row 1, chunk 0 -> chunk 1
//     c.str() == "ComposeLayout(3, 3, 3, TileLayout(S[(8, 64) : (64, 1)]))"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/layout/swizzle.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

class ComposeLayout {
 public:
  // `swizzle`'s bits, base and shift are swizzle_len, per_element and atom_len.
  ComposeLayout(Swizzle swizzle, TileLayout tile);
  // Throws unless `swizzle` may be a ComposeLayout's (the rules above).
  static void check(const Swizzle& swizzle);

  const Swizzle& swizzle() const { return swizzle_; }
  const TileLayout& tile() const { return tile_; }
  std::int64_t size() const { return tile_.size(); }
  std::int64_t span() const { return tile_.span(); }

  // Whether apply is defined: the tile layout's shard and offset use m only.
  bool applies() const;
  // The swizzled offset of flat element `index`; throws unless applies()
  // and 0 <= index < size().
  std::int64_t apply_flat(std::int64_t index) const;

  // The same swizzle over `tile`, the result of the tile layout's
  // canonicalize, tile or tile_to (`op`); tile and tile_to are refused when
  // the tile layout uses a memory axis other than m.
  ComposeLayout with_tile(TileLayout tile, std::string_view op) const;
  ComposeLayout pack(std::int64_t num, const Axis& axis = Axis::m()) const;
  ComposeLayout unpack(std::int64_t num, const Axis& axis = Axis::m()) const;

  // As an expression reads it back: "ComposeLayout(3, 3, 3, TileLayout(S[8 : 1]))",
  // ", swizzle_inner=False" before the closing parenthesis when outer.
  std::string str() const;

  bool operator==(const ComposeLayout& o) const { return swizzle_ == o.swizzle_ && tile_ == o.tile_; }

 private:
  Swizzle swizzle_;
  TileLayout tile_;
};

}  // namespace mmacheck
