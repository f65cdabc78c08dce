// TIRx's swizzle composition in layout expressions: the ComposeLayout and
// SwizzleLayout calls, with TVM's parameter names and defaults, and the
// methods a ComposeLayout has (core/layout/compose_layout.h).
#include <algorithm>
#include <array>

#include "core/program/layout_parser_values.h"

namespace mmacheck::layout_expr {

namespace {

constexpr std::array<std::string_view, 5> kComposeMethods = {"canonicalize", "tile", "tile_to", "pack", "unpack"};

bool has_keyword(const std::vector<Arg>& args, std::string_view keyword) {
  return std::any_of(args.begin(), args.end(), [&](const Arg& a) { return a.keyword && a.keyword->text == keyword; });
}

std::size_t positional(const std::vector<Arg>& args) {
  return static_cast<std::size_t>(std::count_if(args.begin(), args.end(), [](const Arg& a) { return !a.keyword; }));
}

// `args` with swizzle_inner=`inner` appended when it is not given (TVM's default).
std::vector<Arg> with_inner_default(std::vector<Arg> args, std::size_t params, bool inner, const SourceLoc& loc) {
  if (!has_keyword(args, "swizzle_inner") && positional(args) < params)
    args.push_back(Arg{Token{TokenKind::identifier, "swizzle_inner", 0, 0, loc}, Value{std::int64_t{inner}, loc}});
  return args;
}

int small(const Value& v, std::string_view what) {
  const std::int64_t n = to_int(v, what);
  if (n < -64 || n > 64)
    throw Error(v.loc, std::string(what) + " " + std::to_string(n) + " is out of range (at most 62 bits)");
  return static_cast<int>(n);
}

// Python's truth of an integer (True and False are 1 and 0).
bool truth(const Value& v) { return to_int(v, "swizzle_inner (True or False)") != 0; }

template <class F>
auto at_name(const Token& name, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    throw e.located(name.loc);
  }
}

}  // namespace

Value call_compose(const Callable& callee, const Token& name, const std::vector<Arg>& args, const SourceLoc& loc) {
  if (callee.kind == Callable::Kind::swizzle) {
    const std::vector<Value> a = bind_args(with_inner_default(args, 4, true, loc), name,
                                           {"per_element", "swizzle_len", "atom_len", "swizzle_inner"});
    Swizzle s;
    s.base = small(a[0], "per_element");
    s.bits = small(a[1], "swizzle_len");
    s.shift = small(a[2], "atom_len");
    s.inner = truth(a[3]);
    s.tirx = true;
    at_name(name, [&] {
      ComposeLayout::check(s);
      return 0;
    });
    return Value{s, loc};
  }
  const Swizzle* given = !args.empty() && !args[0].keyword ? args[0].value.get<Swizzle>() : nullptr;
  Swizzle s;
  std::vector<Value> a;
  if (given) {  // ComposeLayout(SWIZZLE, tile_layout[, swizzle_inner])
    a = bind_args(with_inner_default(args, 3, given->inner, loc), name, {"swizzle", "tile_layout", "swizzle_inner"});
    s = *given;
    a.erase(a.begin());
  } else {
    a = bind_args(with_inner_default(args, 5, true, loc), name,
                  {"per_element", "swizzle_len", "atom_len", "tile_layout", "swizzle_inner"});
    s.base = small(a[0], "per_element");
    s.bits = small(a[1], "swizzle_len");
    s.shift = small(a[2], "atom_len");
    a.erase(a.begin(), a.begin() + 3);
  }
  s.inner = truth(a[1]);
  if (a[0].get<ComposeLayout>())
    throw Error(
        a[0].loc,
        "expected a TileLayout as tile_layout, got a ComposeLayout (TVM composes one swizzle with a TileLayout)");
  // TVM takes a TileLayout only: S[...] alone is a spec, .group(...) a pair.
  const TileLayout* tile = a[0].get<TileLayout>();
  if (!tile) throw Error(a[0].loc, "expected a TileLayout as tile_layout (TileLayout(S[...])), got " + kind_name(a[0]));
  return Value{at_name(name, [&] { return ComposeLayout(s, *tile); }), loc};
}

Value call_compose_method(const ComposeLayout& layout, const Value& self, const Token& name,
                          const std::vector<Arg>& args) {
  const std::string& m = name.text;
  if (std::find(kComposeMethods.begin(), kComposeMethods.end(), m) == kComposeMethods.end())
    throw Error(name.loc, "a ComposeLayout has no method '" + m +
                              "' (TVM's ComposeLayout has canonicalize, tile, tile_to, "
                              "pack and unpack)");
  if (m == "pack" || m == "unpack") {  // pack(num, axis="m"): the swizzle's per_element follows
    const bool with_axis = args.size() > 1;
    const std::vector<Value> a = with_axis ? bind_args(args, name, {"num", "axis"}) : bind_args(args, name, {"num"});
    const std::int64_t num = to_int(a[0], "an element count");
    const Axis axis = with_axis ? axis_of(a[1]) : Axis::m();
    return Value{at_name(name, [&] { return m == "pack" ? layout.pack(num, axis) : layout.unpack(num, axis); }),
                 self.loc};
  }
  // canonicalize, tile, tile_to: the tile layout's method, the swizzle kept.
  const Value tiled = call_method(Value{layout.tile(), self.loc}, name, args);
  return Value{at_name(name, [&] { return layout.with_tile(to_layout(tiled), m); }), self.loc};
}

}  // namespace mmacheck::layout_expr
