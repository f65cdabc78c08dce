// Layout expressions — TVM TIRx's layout syntax, evaluated to TileLayouts.
//
//     S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)].tile_to([16, 16], [16, 8])
//     TileLayout(S[(8, 4) : (4@laneid, 1@laneid)] + R[2 : 1@warpid] + 64)
//     A_FRAG.group([16, 16]).permute_by_groups([1, 0])
//
// The expression is evaluated as Python evaluates the TIRx builders
// (python/tvm/tirx/layout.py), so pasted TVM code means what it means there:
//
//   S[e : s] / S[(e0, e1) : (s0, s1)]  shard iters; a stride is an integer
//                  (on `m`), `n @ axis`, an axis name string ("laneid": stride
//                  1 on laneid), a tuple (n, axis), or (an extension) a bare
//                  axis (stride 1 on it).
//   S[8, 4, 2] / S[8]  row-major default strides on `m`.
//   R[...]         replica iters, same forms.
//   + n @ axis     offsets; a plain `+ n` is on `m`; offsets on one axis add
//                  up.  Terms may come in any order; one S and one R at most.
//                  (An extension: a finished layout — a name, TileLayout(..),
//                  a method's result — may be a term too: `A_FRAG + 64`.)
//   TileLayout(x)  optional wrapper; `T.`, `Tx.` prefixes on S, R and
//                  TileLayout, `Axis.` on axis names; `Axis.get("laneid")`.
//   R[...] alone   a replica-only layout (one element, its owners the replicas).
//   T.TileLayout.from_iters(shard=[T.Iter(e, s, "axis"), ...], replica=[...],
//                  offset={"axis": v})   TVM's printed form.
//   NAME           an earlier binding (see LayoutNames).
//   ComposeLayout(per_element, swizzle_len, atom_len, tile_layout[, swizzle_inner])
//                  TIRx's swizzled layout (core/layout/compose_layout.h), also
//                  ComposeLayout(SwizzleLayout(per_element=, swizzle_len=,
//                  atom_len=[, swizzle_inner=]), tile_layout); its methods are
//                  canonicalize, tile, tile_to, pack and unpack.  Only
//                  parse_any_layout yields one: where a TileLayout is needed it
//                  is a located error.  True and False are 1 and 0, as in Python.
//   .tile_to(shape, tile_shape)  .tile(outer, outer_shape, inner_shape)
//   .canonicalize()  .storage()  .group(shape)  .permute_dims(perm)
//   .permute_by_groups(perm)       after .group (TVM's (seps, perm) form works
//                                  on any layout)
//   .slice(shape, [(start, end), ...])  .pack(n[, axis])  .unpack(n[, axis])
//   Integer arithmetic (+ - * // %, Python semantics) wherever an integer
//   goes; shapes and lists as [...] or (...); keyword arguments by TVM's
//   parameter names.  Bare names resolve to bindings first, then the builders
//   (S, R, TileLayout, T, Tx, Axis), then the axes of axis.h.
//
// Errors are mmacheck::Error at the offending token: `expected ']' to close
// 'S[' opened at column 3`, `unknown name 'A_FRG' (known layouts: A_FRAG,
// B_FRAG)`, `extent must be positive, got 0`; an algebra failure inside a
// method is placed at the method's name.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/error.h"
#include "core/layout/compose_layout.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

class TokenCursor;

// A layout expression's value: a TileLayout, or one grouped by a shape (the
// result of `.group(shape)`), which remembers its separators so that
// `.permute_by_groups` can follow, also through a name bound to it.
using LayoutValue = std::variant<TileLayout, GroupedLayout>;
const TileLayout& layout_of(const LayoutValue& value);
// What `mmacheck layout` evaluates: a LayoutValue's kinds or a ComposeLayout.
using AnyLayout = std::variant<TileLayout, GroupedLayout, ComposeLayout>;

// The names an expression may use.
struct LayoutNames {
  std::map<std::string, LayoutValue, std::less<>> layouts;
  // Names that exist but are not layouts, and what they are ("buffer"), so
  // that using one gets "'A' is a buffer, not a layout", not "unknown name".
  std::map<std::string, std::string, std::less<>> others;
  // Integer tuples: the separators of `grouped, seps = L.group(shape)`
  // (TVM's group returns the layout and its separators).
  std::map<std::string, std::vector<int>, std::less<>> lists;
  // Integers: a factory's arguments and locals (`D.tile_to([16 * Mt, 8], ...)`),
  // core/program/python_eval.h.
  std::map<std::string, std::int64_t, std::less<>> integers;
};

// Parse one layout expression at the cursor, stopping before the first
// token that cannot continue it (end of line, `,` or `)` of an enclosing call).
LayoutValue parse_layout(TokenCursor& in, const LayoutNames& names);
// Parse `text`, which must hold exactly one layout expression; `source`
// names it in messages (SourceLoc::file, e.g. "<expr>").
LayoutValue parse_layout(std::string_view text, const std::string& source, const LayoutNames& names = {});
// The same for an expression that starts at `at` in its file (lexer.h's
// tokenize(text, at)): errors at the file's line and column.
LayoutValue parse_layout(std::string_view text, const SourceLoc& at, const LayoutNames& names = {});
// The same, with a ComposeLayout allowed as the result.
AnyLayout parse_any_layout(std::string_view text, const std::string& source, const LayoutNames& names = {});
// The same for an expression that starts at `at` in its file.
AnyLayout parse_any_layout(std::string_view text, const SourceLoc& at, const LayoutNames& names = {});

}  // namespace mmacheck
