#include "core/tcgen05/tirx_lowered_expr.h"

namespace mmacheck {

namespace {

using Wide = __int128;

struct Evaluator {
  TokenCursor& in;
  const LoweredNames& names;

  // Wide enough for an unsigned 64-bit value and the products on the way.
  Wide fit(Wide v, const Token& at) const {
    if (v < -kLimit || v > kLimit) in.fail(at, "the value leaves 96 bits here");
    return v;
  }
  static constexpr Wide kLimit = Wide{1} << 96;

  // a * b, checked before it can wrap: two 96-bit factors overflow even 128 bits.
  Wide product(Wide a, Wide b, const Token& at) const {
    Wide p = 0;
    if (__builtin_mul_overflow(a, b, &p)) in.fail(at, "the value leaves 96 bits here");
    return fit(p, at);
  }

  // Python's binary operators, loosest first.
  static int level(const Token& t) {
    if (t.kind != TokenKind::op) return -1;
    if (t.text == "|") return 0;
    if (t.text == "^") return 1;
    if (t.text == "&") return 2;
    if (t.text == "<<" || t.text == ">>") return 3;
    if (t.text == "+" || t.text == "-") return 4;
    if (t.text == "*" || t.text == "//" || t.text == "%") return 5;
    return -1;
  }

  Wide binary(int min_level) {
    const TokenCursor::Nesting nest(in);
    Wide left = unary();
    for (;;) {
      const Token& op = in.peek();
      const int l = level(op);
      if (l < min_level || l < 0) return left;
      in.next();
      const Wide right = binary(l + 1);
      left = apply(op, left, right);
    }
  }

  Wide apply(const Token& op, Wide a, Wide b) const {
    const std::string& o = op.text;
    if (o == "|") return a | b;
    if (o == "^") return a ^ b;
    if (o == "&") return a & b;
    if (o == "+") return fit(a + b, op);
    if (o == "-") return fit(a - b, op);
    if (o == "*") return product(a, b, op);
    if (o == "<<" || o == ">>") {
      if (b < 0 || b > 63) in.fail(op, "a shift by more than 63 bits or a negative one");
      return o == ">>" ? a >> b : product(a, Wide{1} << b, op);
    }
    if (b == 0) in.fail(op, "division by zero");
    const Wide q = a / b, r = a % b;
    const bool floor = r != 0 && ((r < 0) != (b < 0));
    return o == "//" ? q - (floor ? 1 : 0) : r + (floor ? b : 0);
  }

  Wide unary() {
    if (in.peek().is_op("-")) {
      const Token& at = in.next();
      return fit(-unary(), at);
    }
    return primary();
  }

  // `T.a.b` at the cursor: the dotted name after T.
  std::string dotted() {
    std::string name = in.next().text;
    while (in.peek().is_op(".")) {
      in.next();
      name += "." + in.expect_name("a name after '.'").text;
    }
    return name;
  }

  Wide call_arg_end(Wide v, const Token& open) {
    in.expect_close(")", "(", open);
    return v;
  }

  Wide primary() {
    const Token& t = in.peek();
    if (t.kind == TokenKind::integer) return Wide{in.next().int_value};
    if (t.is_op("(")) {
      const Token& open = in.next();
      return call_arg_end(binary(0), open);
    }
    if (t.kind != TokenKind::identifier) in.fail(t, "expected an integer expression, got " + describe(t));
    if (t.text != "T") {
      const auto it = names.loop_vars.find(t.text);
      if (it == names.loop_vars.end()) in.fail(t, "'" + printable(t.text) + "' is no loop variable of the call");
      in.next();
      return Wide{it->second};
    }
    const Token& at = t;
    const std::string name = dotted();
    const Token& open = in.expect("(", "after " + name);
    if (name == "T.int32" || name == "T.uint32" || name == "T.uint64") return call_arg_end(binary(0), open);
    if (name == "T.Cast") {
      const Token& type = in.next();
      const int bits = type.text == "uint64" ? 64 : type.text == "uint32" || type.text == "int32" ? 32 : 0;
      if (type.kind != TokenKind::string || bits == 0)
        in.fail(type, "T.Cast to " + describe(type) + " is not read (int32, uint32, uint64)");
      in.expect(",", "after the cast's type");
      Wide v = binary(0);
      v &= (Wide{1} << bits) - 1;
      if (type.text == "int32" && v >= (Wide{1} << 31)) v -= Wide{1} << 32;
      return call_arg_end(v, open);
    }
    if (name == "T.cuda.cvta_generic_to_shared") {
      const Token& inner = in.peek();
      if (dotted() != "T.address_of") in.fail(inner, "expected T.address_of(BUFFER[...]) here");
      const Token& open2 = in.expect("(", "after T.address_of");
      const Token& buffer = in.expect_name("a shared buffer");
      const Token& bracket = in.expect("[", "after the buffer");
      std::vector<Wide> indices{binary(0)};
      while (in.accept(",")) indices.push_back(binary(0));
      in.expect_close("]", "[", bracket);
      in.expect_close(")", "(", open2);
      std::vector<std::int64_t> narrow;
      for (const Wide i : indices) {
        if (i < 0 || i > 1 << 20) in.fail(buffer, "an index outside the buffer");
        narrow.push_back(static_cast<std::int64_t>(i));
      }
      return call_arg_end(names.address(buffer, narrow), open);
    }
    in.fail(at, "'" + printable(name) + "' is not read in a descriptor or address expression");
  }

  // A condition: T.Or/T.And/T.Not of conditions, T.bool(True|False), or a
  // comparison of two integer expressions (what TIRx writes for the
  // accumulate flag: `T.Or(repeat_2 != 0, T.bool(False))`).
  bool condition() {
    const TokenCursor::Nesting nest(in);
    const Token& t = in.peek();
    if (t.is_name("True") || t.is_name("False")) return in.next().text == "True";
    if (t.is_name("T") && in.peek(1).is_op(".") &&
        (in.peek(2).is_name("Or") || in.peek(2).is_name("And") || in.peek(2).is_name("Not") ||
         in.peek(2).is_name("bool"))) {
      const std::string name = dotted();
      const Token& open = in.expect("(", "after " + name);
      bool v = condition();
      if (name == "T.Not") v = !v;
      if (name == "T.Or" || name == "T.And") {
        in.expect(",", "between " + name + "'s operands");
        const bool w = condition();
        v = name == "T.Or" ? v || w : v && w;
      }
      in.expect_close(")", "(", open);
      return v;
    }
    if (t.is_op("(") && !starts_integer_comparison()) {
      const Token& open = in.next();
      const bool v = condition();
      in.expect_close(")", "(", open);
      return v;
    }
    const Wide a = binary(0);
    const Token& op = in.next();
    const Wide b = binary(0);
    if (op.text == "==") return a == b;
    if (op.text == "!=") return a != b;
    if (op.text == "<") return a < b;
    if (op.text == "<=") return a <= b;
    if (op.text == ">") return a > b;
    if (op.text == ">=") return a >= b;
    in.fail(op, "expected a comparison (== != < <= > >=) here, got " + describe(op));
  }

  // Whether a `(` at the cursor opens an integer operand of a comparison
  // (`(a + b) != 0`) rather than a parenthesised condition: the token after
  // its matching `)` is a comparison or another integer operator.
  bool starts_integer_comparison() const {
    int depth = 0;
    for (std::size_t i = 0;; ++i) {
      const Token& t = in.peek(i);
      if (t.kind == TokenKind::end || t.ends_statement()) return false;
      if (t.is_op("(") || t.is_op("[")) ++depth;
      if ((t.is_op(")") || t.is_op("]")) && --depth == 0) {
        const Token& after = in.peek(i + 1);
        return after.kind == TokenKind::op && (level(after) >= 0 || is_comparison(after));
      }
    }
  }

  static bool is_comparison(const Token& t) {
    return t.is_op("==") || t.is_op("!=") || t.is_op("<") || t.is_op("<=") || t.is_op(">") || t.is_op(">=");
  }
};

}  // namespace

std::int64_t evaluate_lowered(TokenCursor& in, const LoweredNames& names, int bits) {
  const Token& at = in.peek();
  Evaluator e{in, names};
  const Wide v = e.binary(0);
  if (v < 0 || v >= (Wide{1} << bits)) in.fail(at, "the value is not a " + std::to_string(bits) + "-bit unsigned one");
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(v));
}

bool evaluate_lowered_condition(TokenCursor& in, const LoweredNames& names) {
  Evaluator e{in, names};
  return e.condition();
}

}  // namespace mmacheck
