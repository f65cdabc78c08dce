// The values a layout expression evaluates to on its way to a TileLayout, and
// the operations on them — the C++ mirror of what Python does with TVM's
// builders (S, R, `n @ axis`, `+`).  Internal to layout_parser.cc.
//
//     4 @ laneid            OnAxis{4, laneid}
//     1 @ laneid + 64       Offset{laneid: 1, m: 64}
//     S[8 : 4 @ laneid]     Spec{shard = [(8, 4, laneid)]}
//     S[..] + R[..] + 64    Spec{shard, replica, offset}
//
// Every value keeps the location where it starts, for messages.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/error.h"
#include "core/layout/compose_layout.h"
#include "core/program/layout_parser.h"
#include "core/program/lexer.h"

namespace mmacheck::layout_expr {

struct Str {
  std::string text;
};
// `value @ axis`.
struct OnAxis {
  std::int64_t value;
  Axis axis;
};
// A layout under construction: the terms of `S[..] + R[..] + offsets`.
struct Spec {
  std::optional<std::vector<Iter>> shard;
  std::optional<std::vector<Iter>> replica;
  Offset offset;
};
struct Builder {  // S or R
  bool replica;
};
struct Wrapper {};  // TileLayout(...)
struct Namespace {  // T / Tx (builders) or Axis (axes)
  bool axes;
};
// What TVM prints and users paste: T.Iter(e, s, "axis"),
// T.TileLayout.from_iters(shard=[...], replica=[...], offset={...}),
// Axis.get("laneid").
// TIRx's swizzle composition: ComposeLayout(per_element, swizzle_len,
// atom_len, tile_layout[, swizzle_inner]) or ComposeLayout(SWIZZLE,
// tile_layout[, swizzle_inner]) with SWIZZLE a SwizzleLayout(per_element=,
// swizzle_len=, atom_len=[, swizzle_inner=]) (the earlier TIRx spelling the
// layout files take).
// TVM's integer expressions, as it prints a layout's int64 values:
// T.int64(5), T.Cast("int64", 3), T.Mul(T.int64(2), T.int64(3)) (a row of
// prim_ops() each; `prim` names it).
struct Callable {
  enum class Kind { iter, from_iters, axis_get, compose, swizzle, prim, builtin } kind;
  std::string_view prim = {};  // prim: the T. name; builtin: the Python builtin's
};
// The table's own spelling of `name` when it (after `T.`) is one of TVM's
// integer expressions mmacheck evaluates, else "".
std::string_view prim_op(std::string_view name);
// The same for the Python builtins a layout's module code uses on integers
// and their tuples: list, tuple, len, int, range.
std::string_view python_builtin(std::string_view name);

struct Value;
struct Seq {
  std::vector<Value> items;
  bool list;  // [...] rather than (...)
};

struct Value {
  std::variant<std::int64_t, Str, Axis, OnAxis, Offset, Spec, TileLayout, GroupedLayout, Seq, Builder, Wrapper,
               Namespace, Callable, Iter, ComposeLayout, Swizzle>
      v;
  SourceLoc loc;

  template <class T>
  const T* get() const {
    return std::get_if<T>(&v);
  }
};

// "an integer", "a layout spec", "a tuple", ... for messages.
std::string kind_name(const Value& value);

// Conversions; each throws Error at the value's location naming `what`
// ("expected <what>, got <kind>").
std::int64_t to_int(const Value& value, std::string_view what);
// An axis: laneid, Axis.laneid, Axis.get("laneid") or "laneid".
Axis axis_of(const Value& value);
// `callee(args)` for a Callable.
Value call_callable(const Callable& callee, const Token& name, const std::vector<struct Arg>& args,
                    const SourceLoc& loc);
const std::vector<Value>& to_seq(const Value& value, std::string_view what);
// Positive dimensions: "shape dimension must be positive, got 0".
Shape to_shape(const Value& value, std::string_view what);
std::vector<int> to_int_list(const Value& value, std::string_view what);
Region to_region(const Value& value, std::string_view what);
bool is_layout_like(const Value& value);
// A Spec, TileLayout or GroupedLayout as a TileLayout.  A spec needs a
// shard list whose size fits int64 (extents, strides and offsets are any
// int64, as in TVM).
TileLayout to_layout(const Value& value);

// `builder[extents : strides]` (strides null: row-major defaults).
Value make_spec(const Builder& builder, const Value& extents, const Value* strides, const SourceLoc& loc);

// Python's binary operators on these values; `op` is the operator token.
Value add(const Value& a, const Value& b, const Token& op);
Value arith(const Value& a, const Value& b, const Token& op);    // - * // %
Value at_axis(const Value& a, const Value& b, const Token& op);  // @
Value negate(const Value& a, const Token& op);

// One argument of a call: `value` or `keyword=value`.
struct Arg {
  std::optional<Token> keyword;
  Value value;
};

// ComposeLayout(...) and SwizzleLayout(...) (layout_parser_compose.cc);
// TVM's checks fail at `name`.
Value call_compose(const Callable& callee, const Token& name, const std::vector<Arg>& args, const SourceLoc& loc);
// `self.name(args)` on a ComposeLayout.
Value call_compose_method(const ComposeLayout& layout, const Value& self, const Token& name,
                          const std::vector<Arg>& args);

// The layout methods (layout_parser_methods.cc).
bool is_method(std::string_view name);
std::string method_names();  // "tile_to, tile, ..." for messages
// `self.name(args)`; `self` is layout-like or a ComposeLayout (which has
// canonicalize, tile, tile_to, pack and unpack only).  Algebra failures are
// placed at the method's name.
Value call_method(const Value& self, const Token& name, const std::vector<Arg>& args);
// The values of `args` in the order of `params` (positional, then by
// keyword); throws at the offending argument, or at `callee` for a missing one.
std::vector<Value> bind_args(const std::vector<Arg>& args, const Token& callee,
                             std::initializer_list<std::string_view> params);

}  // namespace mmacheck::layout_expr
