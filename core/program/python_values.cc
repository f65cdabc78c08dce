// The values the Python-syntax readers take as call arguments, read the one
// way every reader spells them (python_values.h).
#include "core/program/python_values.h"

#include <optional>

namespace mmacheck::python {

namespace {

// Element counts beyond this are refused (as layouts refuse them).
constexpr std::int64_t kMaxElements = std::int64_t{1} << 62;

}  // namespace

Shape parse_shape(TokenCursor& in) {
  const Token& first = in.peek();
  const auto dimension = [&]() {
    const Token& t = in.peek();
    if (t.kind != TokenKind::integer) in.fail(t, "expected a shape dimension (an integer), got " + describe(t));
    if (t.int_value <= 0) in.fail(t, "shape dimension must be positive, got " + t.text);
    return in.next().int_value;
  };
  if (first.kind == TokenKind::integer) return Shape{dimension()};
  if (!first.is_op("(") && !first.is_op("[")) in.fail(first, "expected a shape ((16, 8)), got " + describe(first));
  const Token& open = in.next();
  const std::string_view close = open.text == "(" ? ")" : "]";
  Shape shape;
  std::int64_t count = 1;
  while (!in.peek().is_op(close)) {
    const Token& at = in.peek();
    shape.push_back(dimension());
    if (__builtin_mul_overflow(count, shape.back(), &count) || count > kMaxElements)
      in.fail(at, "buffer shape too large (more than 2^62 elements)");
    if (!in.accept(",")) break;
  }
  in.expect_close(close, open.text, open);
  if (shape.empty()) in.fail(open, "a buffer shape needs at least one dimension");
  return shape;
}

// A dtype or scope: quoted ("float16"), bare (float16) or T.float16.
const Token& word(TokenCursor& in, std::string_view what) {
  if (in.peek().is_name("T") && in.peek(1).is_op(".") && in.peek(2).kind == TokenKind::identifier) {
    in.next();
    in.next();
  }
  const Token& t = in.peek();
  if (t.kind != TokenKind::string && t.kind != TokenKind::identifier)
    in.fail(t, "expected " + std::string(what) + ", got " + describe(t));
  return in.next();
}

DType parse_dtype_word(TokenCursor& in) {
  const Token& t = word(in, "a dtype (\"float16\")");
  if (const std::optional<DType> d = parse_dtype(t.text)) return *d;
  std::string known;
  for (const DTypeInfo& info : all_dtypes()) known += (known.empty() ? "" : ", ") + std::string(info.tvm);
  in.fail(t, "unknown dtype '" + t.text + "' (known: " + known + ")");
}

MemScope parse_scope_word(TokenCursor& in) {
  const Token& t = word(in, "a scope (\"local\")");
  for (MemScope s : {MemScope::local, MemScope::shared, MemScope::global})
    if (t.text == mem_scope_name(s)) return s;
  in.fail(t, "unknown scope '" + t.text + "' (known: local, shared, global)");
}

bool parse_bool(TokenCursor& in) {
  const Token& t = in.peek();
  if (!t.is_name("True") && !t.is_name("False")) in.fail(t, "expected True or False, got " + describe(t));
  return in.next().text == "True";
}

double parse_number(TokenCursor& in) {
  const bool negative = in.peek().is_op("-");
  if (negative || in.peek().is_op("+")) in.next();
  const Token& t = in.peek();
  if (t.kind == TokenKind::integer) return static_cast<double>(negative ? -in.next().int_value : in.next().int_value);
  if (t.kind == TokenKind::floating) return negative ? -in.next().float_value : in.next().float_value;
  in.fail(t, "expected a number, got " + describe(t));
}

}  // namespace mmacheck::python
