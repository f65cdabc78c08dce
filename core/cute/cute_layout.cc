#include "core/cute/cute_layout.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "core/base/checked.h"
#include "core/base/error.h"

namespace mmacheck {

std::int64_t IntTuple::size() const {
  if (leaf) return value;
  std::int64_t n = 1;
  for (const IntTuple& t : items)
    if (__builtin_mul_overflow(n, t.size(), &n)) return std::numeric_limits<std::int64_t>::max();
  return n;
}

std::vector<std::int64_t> IntTuple::flatten() const {
  if (leaf) return {value};
  std::vector<std::int64_t> out;
  for (const IntTuple& t : items) {
    const std::vector<std::int64_t> sub = t.flatten();
    out.insert(out.end(), sub.begin(), sub.end());
  }
  return out;
}

std::string IntTuple::str() const {
  if (leaf) return std::to_string(value);
  std::string s = "(";
  for (std::size_t i = 0; i < items.size(); ++i) s += (i ? "," : "") + items[i].str();
  return s + ")";
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.leaf || b.leaf) return a.leaf == b.leaf;
  if (a.items.size() != b.items.size()) return false;
  for (std::size_t i = 0; i < a.items.size(); ++i)
    if (!congruent(a.items[i], b.items[i])) return false;
  return true;
}

namespace {
IntTuple compact_strides(const IntTuple& shape, std::int64_t& running) {
  if (shape.leaf) {
    const IntTuple s = IntTuple::of(shape.value == 1 ? 0 : running);
    // Saturates as size() does: such a layout is refused later by its checks, never wrapped.
    running = try_mul(running, shape.value).value_or(std::numeric_limits<std::int64_t>::max());
    return s;
  }
  std::vector<IntTuple> items;
  for (const IntTuple& t : shape.items) items.push_back(compact_strides(t, running));
  return IntTuple::tuple(std::move(items));
}

IntTuple flat_tuple(const IntTuple& t) {
  std::vector<IntTuple> items;
  for (std::int64_t v : t.flatten()) items.push_back(IntTuple::of(v));
  return IntTuple::tuple(std::move(items));
}
}  // namespace

CuteLayout CuteLayout::compact(IntTuple shape) {
  std::int64_t running = 1;
  IntTuple stride = compact_strides(shape, running);
  return {std::move(shape), std::move(stride)};
}

CuteLayout CuteLayout::mode(int i) const {
  if (shape.leaf) return *this;
  const IntTuple d = stride.leaf ? stride : stride.items.at(static_cast<std::size_t>(i));
  return {shape.items.at(static_cast<std::size_t>(i)), d};
}

CuteLayout CuteLayout::flat() const { return {flat_tuple(shape), flat_tuple(stride)}; }

std::int64_t CuteLayout::at(std::int64_t i) const {
  const std::vector<std::int64_t> s = shape.flatten();
  const std::vector<std::int64_t> d = stride.flatten();
  std::int64_t index = 0;
  for (std::size_t k = 0; k < s.size() && k < d.size(); ++k) {
    index += (i % s[k]) * d[k];
    i /= s[k];
  }
  return index;
}

std::vector<std::int64_t> CuteLayout::indices() const {
  const std::vector<std::int64_t> s = shape.flatten();
  const std::vector<std::int64_t> d = stride.flatten();
  const std::size_t modes = std::min(s.size(), d.size());
  std::vector<std::int64_t> out(static_cast<std::size_t>(size()));
  std::vector<std::int64_t> coord(modes, 0);  // the coordinate of i, first mode fastest
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int64_t index = 0;
    for (std::size_t k = 0; k < modes; ++k) index += coord[k] * d[k];
    out[i] = index;
    for (std::size_t k = 0; k < modes && ++coord[k] == s[k]; ++k) coord[k] = 0;
  }
  return out;
}

std::string CuteLayout::str() const { return shape.str() + ":" + stride.str(); }

namespace {

// `_32`, `32`, `Int<32>`, `C<32>` (each possibly `cute::`-qualified).
bool integer_ahead(const CppCursor& c) {
  std::size_t k = 0;
  if (c.peek().is_name("cute") && c.peek(1).is("::")) k = 2;
  const CppToken& t = c.peek(k);
  if (t.kind == CppKind::integer) return true;
  if (t.kind != CppKind::identifier) return false;
  if ((t.text == "Int" || t.text == "C") && c.peek(k + 1).is("<")) return true;
  return t.text.size() > 1 && t.text[0] == '_' &&
         std::all_of(t.text.begin() + 1, t.text.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

// Shapes and strides are kept below 2^31, so that sizes and indices of
// layouts of a few modes cannot overflow.
constexpr std::int64_t kLargest = std::int64_t{1} << 31;

std::int64_t bounded(std::int64_t v, const CppToken& t) {
  if (v >= kLargest) throw Error(t.loc, "integer " + t.text + " is too large for a layout (at most 2^31 - 1)");
  return v;
}

std::int64_t parse_integer(CppCursor& c) {
  if (c.peek().is_name("cute") && c.peek(1).is("::")) {
    c.next();
    c.next();
  }
  const CppToken& t = c.next();
  if (t.kind == CppKind::integer) return bounded(t.value, t);
  if (t.text == "Int" || t.text == "C") {
    c.expect("<", "after " + t.text);
    const CppToken& v = c.next();
    if (v.kind != CppKind::integer)
      throw Error(v.loc, "expected an integer in " + t.text + "<...>, got " + describe(v));
    c.expect(">", "closing " + t.text + "<...>");
    return bounded(v.value, v);
  }
  std::int64_t v = 0;
  const std::string digits = t.text.substr(1);
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc{} || ptr != digits.data() + digits.size())
    throw Error(t.loc, "integer " + t.text + " is too large for a layout (at most 2^31 - 1)");
  return bounded(v, t);
}

void skip_cute_prefix(CppCursor& c) {
  if (c.peek().is_name("cute") && c.peek(1).is("::")) {
    c.next();
    c.next();
  }
}

// C++ spelling: `Shape<...>` / `Stride<...>` / an integer.
// A shape's extents are at least 1 (a zero extent would make the layout
// empty and its index arithmetic divide by zero); strides may be 0.
std::int64_t extent(CppCursor& c, bool is_shape) {
  const SourceLoc loc = c.peek().loc;
  const std::int64_t v = parse_integer(c);
  if (is_shape && v < 1) throw Error(loc, "a shape's extent must be at least 1, got " + std::to_string(v));
  return v;
}

IntTuple parse_type_tuple(CppCursor& c, std::string_view kind) {
  const CppCursor::Level level(c);
  if (integer_ahead(c)) return IntTuple::of(extent(c, kind == "Shape"));
  skip_cute_prefix(c);
  const CppToken& t = c.peek();
  if (!t.is_name(kind) && !t.is_name("tuple"))
    throw Error(t.loc, "expected " + std::string(kind) + "<...> or an integer, got " + describe(t));
  c.next();
  c.expect("<", "after " + t.text);
  std::vector<IntTuple> items;
  if (!c.accept(">")) {
    do items.push_back(parse_type_tuple(c, kind));
    while (c.accept(","));
    c.expect(">", "closing " + std::string(kind) + "<...>");
  }
  return IntTuple::tuple(std::move(items));
}

// Printed spelling: `(a,b,...)` or an integer.
IntTuple parse_text_tuple(CppCursor& c, bool is_shape) {
  const CppCursor::Level level(c);
  if (c.accept("(")) {
    std::vector<IntTuple> items;
    if (!c.accept(")")) {
      do items.push_back(parse_text_tuple(c, is_shape));
      while (c.accept(","));
      c.expect(")", "closing a tuple");
    }
    return IntTuple::tuple(std::move(items));
  }
  if (!integer_ahead(c)) throw Error(c.peek().loc, "expected an integer or '(', got " + describe(c.peek()));
  return IntTuple::of(extent(c, is_shape));
}

}  // namespace

IntTuple parse_cute_shape(CppCursor& cursor) {
  if (cursor.peek().is("(")) return parse_text_tuple(cursor, true);  // (16,8,16), as CuTe prints it
  return parse_type_tuple(cursor, "Shape");
}

std::array<std::optional<CuteLayout>, 3> parse_cute_permutation(CppCursor& c) {
  std::array<std::optional<CuteLayout>, 3> out;
  c.expect("(", "opening the permutation (P_M, P_N, P_K)");
  for (std::size_t i = 0; i < 3; ++i) {
    if (i) c.expect(",", "between the permutation's modes");
    if (c.peek().is_name("_")) c.next();
    else out[i] = parse_cute_layout(c);
  }
  c.expect(")", "closing the permutation");
  return out;
}

CuteLayout parse_cute_layout(CppCursor& c) {
  skip_cute_prefix(c);
  if (c.peek().is_name("Layout")) {
    c.next();
    c.expect("<", "after Layout");
    IntTuple shape = parse_type_tuple(c, "Shape");
    if (c.accept(">")) return CuteLayout::compact(std::move(shape));
    c.expect(",", "between a layout's shape and stride");
    IntTuple stride = parse_type_tuple(c, "Stride");
    c.expect(">", "closing Layout<...>");
    return {std::move(shape), std::move(stride)};
  }
  IntTuple shape = parse_text_tuple(c, true);
  if (!c.accept(":")) return CuteLayout::compact(std::move(shape));
  IntTuple stride = parse_text_tuple(c, false);
  return {std::move(shape), std::move(stride)};
}

CuteLayout parse_cute_layout(std::string_view text, const std::string& what) {
  CppCursor c(tokenize_cpp(text, what));
  CuteLayout layout = parse_cute_layout(c);
  if (!c.at_end()) throw Error(c.peek().loc, "unexpected " + describe(c.peek()) + " after the layout");
  return layout;
}

}  // namespace mmacheck
