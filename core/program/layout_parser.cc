// The grammar of layout expressions (Python's, restricted to what TIRx layout
// code uses), evaluated while parsing:
//
//   sum      := product (('+' | '-') product)*
//   product  := unary (('*' | '//' | '%' | '@') unary)*
//   unary    := ('-' | '+') unary | postfix
//   postfix  := atom ('.' NAME | '[' subscript ']' | '(' arguments ')')*
//   atom     := INT | STRING | NAME | '(' [sum (',' sum)* [',']] ')' | '[' ... ']'
//   subscript:= items [':' items]      items := sum (',' sum)* [',']
#include "core/program/layout_parser.h"

#include <algorithm>

#include "core/program/layout_parser_values.h"
#include "core/program/lexer.h"

namespace mmacheck {

using namespace layout_expr;

const TileLayout& layout_of(const LayoutValue& value) {
  if (const auto* g = std::get_if<GroupedLayout>(&value)) return g->layout();
  return std::get<TileLayout>(value);
}

namespace {

bool is_known_axis(std::string_view name) {
  const auto names = Axis::known_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string known_axes() {
  std::string out;
  for (std::string_view n : Axis::known_names()) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

bool is_builtin(std::string_view name) {
  return name == "S" || name == "R" || name == "TileLayout" || name == "T" || name == "Tx" || name == "Axis" ||
         name == "Iter" || name == "ComposeLayout" || name == "SwizzleLayout" || name == "True" || name == "False";
}

std::string known_layouts(const LayoutNames& names) {
  if (names.layouts.empty()) return "no layouts are defined";
  std::string out = "known layouts: ";
  int shown = 0;
  for (const auto& [name, value] : names.layouts) {
    if (shown++ == 12) return out + ", ...";
    out += (shown > 1 ? ", " : "") + name;
  }
  return out;
}

class Parser {
 public:
  Parser(TokenCursor& in, const LayoutNames& names) : in_(in), names_(names) {}

  Value sum() {
    Value lhs = product();
    while (in_.peek().is_op("+") || in_.peek().is_op("-")) {
      const Token& op = in_.next();
      const Value rhs = product();
      lhs = op.text == "+" ? add(lhs, rhs, op) : arith(lhs, rhs, op);
    }
    return lhs;
  }

 private:
  Value product() {
    Value lhs = unary();
    while (true) {
      const Token& op = in_.peek();
      if (op.is_op("/")) in_.fail(op, "use '//' for integer division");
      if (op.is_op("@")) {
        in_.next();
        lhs = at_axis(lhs, axis_operand(), op);
      } else if (op.is_op("*") || op.is_op("//") || op.is_op("%")) {
        in_.next();
        lhs = arith(lhs, unary(), op);
      } else {
        return lhs;
      }
    }
  }

  Value unary() {
    const TokenCursor::Nesting guard(in_);
    const Token& t = in_.peek();
    if (t.is_op("-")) {
      in_.next();
      return negate(unary(), t);
    }
    if (t.is_op("+")) {
      in_.next();
      Value v = unary();
      to_int(v, "an integer after unary '+'");
      return v;
    }
    return postfix();
  }

  // Right of '@' a bare name means an axis, even one that a binding shadows.
  Value axis_operand() {
    const Token& t = in_.peek();
    if (t.kind == TokenKind::identifier && !in_.peek(1).is_op(".")) {
      if (is_known_axis(t.text)) return Value{Axis(in_.next().text), t.loc};
      if (!names_.layouts.contains(t.text) && !is_builtin(t.text))
        in_.fail(t, "unknown axis '" + t.text + "' (known axes: " + known_axes() + "; write \"" + t.text +
                        "\" for a new memory axis)");
    }
    return unary();
  }

  Value postfix() {
    Value v = atom();
    while (true) {
      const Token& t = in_.peek();
      if (t.is_op(".")) {
        in_.next();
        v = attribute(v, in_.expect_name("a name after '.'"));
      } else if (t.is_op("[")) {
        in_.next();
        v = subscript(v, t);
      } else if (t.is_op("(")) {
        in_.next();
        v = call(v, t);
      } else {
        return v;
      }
    }
  }

  Value atom() {
    const Token& t = in_.next();
    switch (t.kind) {
      case TokenKind::integer: return Value{t.int_value, t.loc};
      case TokenKind::string: return Value{Str{t.text}, t.loc};
      case TokenKind::identifier: return name(t);
      case TokenKind::floating: in_.fail(t, "expected an integer, got '" + t.text + "'");
      default: break;
    }
    if (t.is_op("(")) return sequence(t, ")", false);
    if (t.is_op("[")) return sequence(t, "]", true);
    if (t.is_op("{")) return offsets(t);
    in_.fail(t, "expected an expression, got " + describe(t));
  }

  Value name(const Token& t) {
    if (const auto it = names_.layouts.find(t.text); it != names_.layouts.end())
      return std::visit([&](const auto& layout) { return Value{layout, t.loc}; }, it->second);
    if (const auto it = names_.lists.find(t.text); it != names_.lists.end()) {
      Seq seq{{}, false};
      for (int v : it->second) seq.items.push_back(Value{std::int64_t{v}, t.loc});
      return Value{std::move(seq), t.loc};
    }
    if (const auto it = names_.integers.find(t.text); it != names_.integers.end()) return Value{it->second, t.loc};
    if (const auto it = names_.others.find(t.text); it != names_.others.end())
      in_.fail(t, "'" + t.text + "' is a " + it->second + ", not a layout");
    if (t.text == "S" || t.text == "R") return Value{Builder{t.text == "R"}, t.loc};
    if (t.text == "TileLayout") return Value{Wrapper{}, t.loc};
    if (t.text == "T" || t.text == "Tx") return Value{Namespace{false}, t.loc};
    if (t.text == "Axis") return Value{Namespace{true}, t.loc};
    if (t.text == "Iter") return Value{Callable{Callable::Kind::iter}, t.loc};
    if (t.text == "ComposeLayout") return Value{Callable{Callable::Kind::compose}, t.loc};
    if (t.text == "SwizzleLayout") return Value{Callable{Callable::Kind::swizzle}, t.loc};
    if (t.text == "True" || t.text == "False")
      return Value{std::int64_t{t.text == "True"}, t.loc};  // Python's bools are ints
    if (is_known_axis(t.text)) return Value{Axis(t.text), t.loc};
    if (const std::string_view builtin = python_builtin(t.text); !builtin.empty() && in_.peek().is_op("("))
      return Value{Callable{Callable::Kind::builtin, builtin}, t.loc};
    in_.fail(t, "unknown name '" + t.text + "' (" + known_layouts(names_) + ")");
  }

  // `(a, b)`, `(a,)`, `()` and `[...]`; a parenthesised single value is itself.
  Value sequence(const Token& open, std::string_view close, bool list) {
    Seq seq{{}, list};
    bool comma = false;
    while (!in_.peek().is_op(close)) {
      seq.items.push_back(sum());
      if (!in_.accept(",")) break;
      comma = true;
    }
    in_.expect_close(close, open.text, open);
    if (!list && !comma && seq.items.size() == 1) return seq.items.front();
    return Value{std::move(seq), open.loc};
  }

  // `{"laneid": 3, "m": 64}` (from_iters' offset): axis -> integer.
  Value offsets(const Token& open) {
    Offset offset;
    while (!in_.peek().is_op("}")) {
      const Value key = sum();
      in_.expect(":", "after the axis of an offset ({\"laneid\": 3})");
      const Value value = sum();
      const Axis axis = axis_of(key);
      if (offset.contains(axis)) in_.fail(in_.peek(), "axis '" + axis.name() + "' given twice in the offset");
      offset.emplace(axis, to_int(value, "an offset value"));
      if (!in_.accept(",")) break;
    }
    in_.expect_close("}", "{", open);
    return Value{std::move(offset), open.loc};
  }

  Value attribute(const Value& target, const Token& name) {
    if (const Namespace* ns = target.get<Namespace>()) {
      if (ns->axes) {
        if (name.text == "get") return Value{Callable{Callable::Kind::axis_get}, target.loc};
        if (!is_known_axis(name.text))
          in_.fail(name, "unknown axis 'Axis." + name.text + "' (known axes: " + known_axes() + ")");
        return Value{Axis(name.text), target.loc};
      }
      if (name.text == "S" || name.text == "R") return Value{Builder{name.text == "R"}, target.loc};
      if (name.text == "TileLayout") return Value{Wrapper{}, target.loc};
      if (name.text == "Axis") return Value{Namespace{true}, target.loc};
      if (name.text == "Iter") return Value{Callable{Callable::Kind::iter}, target.loc};
      if (name.text == "ComposeLayout") return Value{Callable{Callable::Kind::compose}, target.loc};
      if (name.text == "SwizzleLayout") return Value{Callable{Callable::Kind::swizzle}, target.loc};
      if (const std::string_view op = prim_op(name.text); !op.empty())
        return Value{Callable{Callable::Kind::prim, op}, target.loc};
      in_.fail(name, "unknown name '" + name.text +
                         "' after 'T.' (known: S, R, TileLayout, Iter, Axis, ComposeLayout, SwizzleLayout; TVM's "
                         "int64, int32, Cast, Add, Sub, Mul, FloorDiv, FloorMod)");
    }
    if (target.get<Wrapper>()) {
      if (name.text != "from_iters") in_.fail(name, "unknown name 'TileLayout." + name.text + "' (known: from_iters)");
      return Value{Callable{Callable::Kind::from_iters}, target.loc};
    }
    if (!is_layout_like(target) && !target.get<ComposeLayout>())
      in_.fail(name, kind_name(target) + " has no attribute '" + name.text + "'");
    if (!is_method(name.text) && !target.get<ComposeLayout>())
      in_.fail(name, "unknown layout method '" + name.text + "' (methods: " + method_names() + ")");
    const Token& open = in_.peek();
    if (!open.is_op("(")) in_.fail(open, "expected '(' to call method '" + name.text + "', got " + describe(open));
    in_.next();
    return call_method(target, name, arguments(open, name.text + "("));
  }

  Value call(const Value& callee, const Token& open) {
    if (const Callable* c = callee.get<Callable>()) {
      const std::string spelled = c->kind == Callable::Kind::iter         ? "Iter"
                                  : c->kind == Callable::Kind::from_iters ? "from_iters"
                                  : c->kind == Callable::Kind::compose    ? "ComposeLayout"
                                  : c->kind == Callable::Kind::swizzle    ? "SwizzleLayout"
                                  : c->kind == Callable::Kind::prim       ? "T." + std::string(c->prim)
                                  : c->kind == Callable::Kind::builtin    ? std::string(c->prim)
                                                                          : "get";
      const Token name{TokenKind::identifier, spelled, 0, 0, callee.loc};
      return call_callable(*c, name, arguments(open, spelled + "("), callee.loc);
    }
    if (!callee.get<Wrapper>()) in_.fail(open, kind_name(callee) + " cannot be called");
    const Token name{TokenKind::identifier, "TileLayout", 0, 0, callee.loc};
    const std::vector<Value> args = bind_args(arguments(open, "TileLayout("), name, {"spec"});
    if (!is_layout_like(args[0]))
      in_.fail(name, "TileLayout(...) takes a layout spec (S[...] + ...), got " + kind_name(args[0]));
    return Value{to_layout(args[0]), callee.loc};
  }

  std::vector<Arg> arguments(const Token& open, const std::string& opener) {
    std::vector<Arg> args;
    while (!in_.peek().is_op(")")) {
      std::optional<Token> keyword;
      if (in_.peek().kind == TokenKind::identifier && in_.peek(1).is_op("=")) {
        keyword = in_.next();
        in_.next();
      } else if (!args.empty() && args.back().keyword) {
        in_.fail(in_.peek(), "positional argument after a keyword argument");
      }
      args.push_back(Arg{keyword, sum()});
      if (!in_.accept(",")) break;
    }
    in_.expect_close(")", opener, open);
    return args;
  }

  Value subscript(const Value& target, const Token& open) {
    const Builder* builder = target.get<Builder>();
    if (!builder) in_.fail(open, kind_name(target) + " cannot be subscripted");
    const std::string opener = builder->replica ? "R[" : "S[";
    if (in_.peek().is_op("]")) in_.fail(in_.peek(), opener + "...] needs at least one extent");
    bool bare = false;
    const Value extents = items(bare);
    std::optional<Value> strides;
    if (in_.peek().is_op(":")) {
      const Token& colon = in_.next();
      if (bare) in_.fail(colon, "write several extents as a tuple: " + opener + "(e0, e1) : (s0, s1)]");
      strides = items(bare);
      if (bare) throw Error(strides->loc, "write several strides as a tuple: " + opener + "(e0, e1) : (s0, s1)]");
    }
    in_.expect_close("]", opener, open);
    return make_spec(*builder, extents, strides ? &*strides : nullptr, target.loc);
  }

  // One value, or a bare tuple `a, b, ...` (then `bare` is set).
  Value items(bool& bare) {
    const Value first = sum();
    bare = in_.peek().is_op(",");
    if (!bare) return first;
    Seq seq{{first}, false};
    while (in_.accept(",") && !in_.peek().is_op("]") && !in_.peek().is_op(":")) seq.items.push_back(sum());
    return Value{std::move(seq), first.loc};
  }

  TokenCursor& in_;
  const LayoutNames& names_;
};

}  // namespace

namespace {

AnyLayout any_layout(const Value& v) {
  if (const auto* g = v.get<GroupedLayout>()) return *g;
  if (const auto* c = v.get<ComposeLayout>()) return *c;
  if (v.get<Swizzle>())
    throw Error(v.loc,
                "expected a layout, got a swizzle: compose it with one, ComposeLayout(SwizzleLayout(...), "
                "TileLayout(...))");
  if (!is_layout_like(v)) throw Error(v.loc, "expected a layout, got " + kind_name(v));
  return to_layout(v);
}

}  // namespace

LayoutValue parse_layout(TokenCursor& in, const LayoutNames& names) {
  const Value v = Parser(in, names).sum();
  if (v.get<ComposeLayout>())
    throw Error(v.loc,
                "a ComposeLayout (a swizzled layout) is no TileLayout and cannot be used here; a shared "
                "buffer takes one as layout= (docs/shared-memory.md)");
  if (const auto* g = v.get<GroupedLayout>()) return *g;
  if (!is_layout_like(v)) throw Error(v.loc, "expected a layout, got " + kind_name(v));
  return to_layout(v);
}

namespace {

// The whole of `text` as one expression, read by `read`.
template <class F>
auto parse_whole(std::vector<Token> tokens, F&& read) {
  TokenCursor in(std::move(tokens));
  if (in.peek().ends_statement()) in.fail(in.peek(), "empty layout expression");
  auto value = read(in);
  while (in.peek().kind == TokenKind::newline) in.next();
  if (in.peek().kind != TokenKind::end)
    in.fail(in.peek(), "unexpected " + describe(in.peek()) + " after the layout expression");
  return value;
}

}  // namespace

LayoutValue parse_layout(std::string_view text, const std::string& source, const LayoutNames& names) {
  return parse_whole(tokenize(text, source), [&](TokenCursor& in) { return parse_layout(in, names); });
}

LayoutValue parse_layout(std::string_view text, const SourceLoc& at, const LayoutNames& names) {
  return parse_whole(tokenize(text, at), [&](TokenCursor& in) { return parse_layout(in, names); });
}

AnyLayout parse_any_layout(std::string_view text, const std::string& source, const LayoutNames& names) {
  return parse_whole(tokenize(text, source), [&](TokenCursor& in) { return any_layout(Parser(in, names).sum()); });
}

AnyLayout parse_any_layout(std::string_view text, const SourceLoc& at, const LayoutNames& names) {
  return parse_whole(tokenize(text, at), [&](TokenCursor& in) { return any_layout(Parser(in, names).sum()); });
}

}  // namespace mmacheck
