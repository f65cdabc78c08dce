// The calls of a layout file: `NAME = buffer(SHAPE, DTYPE, SCOPE, LAYOUT)`
// and `gemm(D, A, B, C, transpose_A=..., transpose_B=..., alpha=..., beta=...)`.
#include <algorithm>
#include <optional>

#include "core/program/python_values.h"
#include "core/program/tvmscript/program_parser.h"

namespace mmacheck {

namespace {

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::int64_t elements(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;  // bounded by parse_shape
  return n;
}

}  // namespace

using namespace program_detail;
using namespace python;

void ProgramParser::call_args(const Token& callee, std::initializer_list<std::string_view> params, std::size_t required,
                              const std::function<void(std::size_t)>& parse_one) {
  const std::vector<std::string_view> names(params);
  const Token& open = in_.expect("(", "after '" + callee.text + "'");
  std::vector<bool> given(names.size(), false);
  std::size_t positional = 0;
  bool keywords = false;
  while (!in_.peek().is_op(")")) {
    const Token& at = in_.peek();
    std::size_t i = positional;
    if (at.kind == TokenKind::identifier && in_.peek(1).is_op("=")) {
      i = static_cast<std::size_t>(std::find(names.begin(), names.end(), at.text) - names.begin());
      if (i == names.size())
        in_.fail(at, callee.text + "() has no parameter '" + at.text + "' (parameters: " + join(names) + ")");
      in_.next();
      in_.next();
      keywords = true;
    } else if (keywords) {
      in_.fail(at, "positional argument after a keyword argument");
    } else if (++positional > names.size()) {
      in_.fail(at,
               callee.text + "() takes at most " + std::to_string(names.size()) + " arguments (" + join(names) + ")");
    }
    if (given[i]) in_.fail(at, "argument '" + std::string(names[i]) + "' given twice");
    given[i] = true;
    parse_one(i);
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", callee.text + "(", open);
  for (std::size_t i = 0; i < required; ++i)
    if (!given[i]) in_.fail(callee, callee.text + "() is missing argument '" + std::string(names[i]) + "'");
}

// alloc= above a CTA's 227 KB of shared memory fits no element type (the
// byte limit itself is checked with the element width, shared_layout.h).
constexpr std::int64_t kMaxAllocElements = 227 * 1024;

BufferDecl ProgramParser::buffer_call(const Token& name, const Token& callee) {
  Shape shape;
  DType dtype = DType::f32;
  MemScope scope = MemScope::global;  // TVM's default
  std::optional<TileLayout> layout;
  SourceLoc layout_loc, swizzle_loc, align_loc, alloc_loc;
  std::optional<Swizzle> swizzle;
  std::int64_t align = 16;
  std::optional<std::int64_t> alloc;
  call_args(callee, {"shape", "dtype", "scope", "layout", "swizzle", "align", "alloc"}, 2, [&](std::size_t i) {
    if (i == 0) shape = parse_shape(in_);
    if (i == 1) dtype = parse_dtype_word(in_);
    if (i == 2) scope = parse_scope_word(in_);
    if (i == 3) {
      layout_loc = in_.peek().loc;
      if (const Token* compose = accept_callee("ComposeLayout")) {
        if (swizzle) in_.fail(*compose, "a swizzle is already given (swizzle=)");
        auto [tile, swz] = compose_layout(*compose);
        layout = std::move(tile);
        swizzle = swz;
        swizzle_loc = compose->loc;
      } else {
        layout = layout_of(parse_layout(in_, names_));
      }
    }
    if (i == 4) {
      swizzle_loc = in_.peek().loc;
      if (swizzle) in_.fail(in_.peek(), "a swizzle is already given (ComposeLayout)");
      swizzle = optional_swizzle();
    }
    if (i == 5) {
      align_loc = in_.peek().loc;
      const Token& t = in_.peek();
      if (t.kind != TokenKind::integer) in_.fail(t, "expected an alignment in bytes, got " + describe(t));
      align = in_.next().int_value;
      if (align <= 0 || (align & (align - 1)) != 0 || align > 65536)
        in_.fail(t, "align must be a power of two from 1 to 65536 bytes, got " + t.text);
    }
    if (i == 6) {
      alloc_loc = in_.peek().loc;
      const Token& t = in_.peek();
      if (t.kind != TokenKind::integer) in_.fail(t, "expected the allocation's size in elements, got " + describe(t));
      if (t.int_value <= 0 || t.int_value > kMaxAllocElements)
        in_.fail(t, "alloc must be from 1 to " + std::to_string(kMaxAllocElements) + " elements, got " + t.text);
      alloc = in_.next().int_value;
    }
  });
  if ((swizzle || align_loc.known() || alloc_loc.known()) && scope != MemScope::shared)
    throw Error(swizzle             ? swizzle_loc
                : align_loc.known() ? align_loc
                                    : alloc_loc,
                std::string(swizzle             ? "a swizzle"
                            : align_loc.known() ? "align="
                                                : "alloc=") +
                    " needs a shared buffer; '" + name.text + "' is " + std::string(mem_scope_name(scope)));
  if (!layout) {
    try {
      layout = TileLayout::row_major(shape);
    } catch (const Error& e) {
      throw e.located(callee.loc);
    }
  } else if (elements(shape) != layout->size()) {
    throw Error(layout_loc, "buffer '" + name.text + "' has " + std::to_string(elements(shape)) +
                                " elements but its layout covers " + std::to_string(layout->size()));
  }
  return BufferDecl{name.text, shape, dtype, scope, *layout, name.loc, swizzle, align, alloc};
}

void ProgramParser::gemm_call(const Token& callee) {
  if (program_.gemm)
    in_.fail(callee, "second gemm call (the first is at line " + std::to_string(program_.gemm->loc.line) + ")");
  GemmCall g;
  g.loc = callee.loc;
  call_args(callee, {"D", "A", "B", "C", "transpose_A", "transpose_B", "alpha", "beta"}, 4, [&](std::size_t i) {
    switch (i) {
      case 0: g.d = operand(); break;
      case 1: g.a = operand(); break;
      case 2: g.b = operand(); break;
      case 3: g.c = operand(); break;
      case 4: g.transpose_a = parse_bool(in_); break;
      case 5: g.transpose_b = parse_bool(in_); break;
      case 6: g.alpha = parse_number(in_); break;
      default: g.beta = parse_number(in_); break;
    }
  });
  program_.gemm = g;
}

// NAME or NAME[START:END, ...]; an omitted START/END is the dimension's
// start/end, a single index i is i:i+1.
OperandRef ProgramParser::operand() {
  const Token& name = in_.expect_name("a buffer name");
  if (names_.layouts.contains(name.text)) in_.fail(name, "'" + name.text + "' is a layout, not a buffer");
  const BufferDecl& buf = program_.buffer(name.text, name.loc);
  OperandRef ref{name.text, std::nullopt, name.loc};
  if (!in_.peek().is_op("[")) return ref;
  const Token& open = in_.next();
  struct Range {
    std::optional<std::int64_t> lo, hi;
    bool single;
    const Token* at;
  };
  std::vector<Range> ranges;
  while (!in_.peek().is_op("]")) {
    Range r{std::nullopt, std::nullopt, false, &in_.peek()};
    if (in_.peek().kind == TokenKind::integer) r.lo = in_.next().int_value;
    if (in_.accept(":")) {
      if (in_.peek().kind == TokenKind::integer) r.hi = in_.next().int_value;
    } else if (r.lo) {
      r.single = true;
    } else {
      in_.fail(*r.at, "expected a range START:END, got " + describe(*r.at));
    }
    ranges.push_back(r);
    if (!in_.accept(",")) break;
  }
  in_.expect_close("]", name.text + "[", open);
  if (ranges.size() != buf.shape.size())
    in_.fail(open, "region has " + std::to_string(ranges.size()) + " ranges but buffer '" + buf.name + "' has rank " +
                       std::to_string(buf.shape.size()));
  Region region;
  for (std::size_t d = 0; d < ranges.size(); ++d) {
    const Range& r = ranges[d];
    const std::int64_t extent = buf.shape[d];
    const std::int64_t lo = r.lo.value_or(0);
    const bool lo_ok = lo < extent;
    const std::int64_t hi = r.single ? (lo_ok ? lo + 1 : lo) : r.hi.value_or(extent);
    if (!lo_ok || hi > extent || lo >= hi) {
      const std::string spelled = r.single ? std::to_string(lo) : std::to_string(lo) + ":" + std::to_string(hi);
      in_.fail(*r.at, "region " + spelled + " is out of range for dimension " + std::to_string(d) + " of '" + buf.name +
                          "' (extent " + std::to_string(extent) + ")");
    }
    region.emplace_back(lo, hi);
  }
  ref.region = std::move(region);
  return ref;
}

}  // namespace mmacheck

namespace mmacheck {

// NAME = T.match_buffer(PARAM, SHAPE, DTYPE[, scope=]): a global buffer bound
// to a T.handle parameter of the function (row-major, TVM's default).
void ProgramParser::match_buffer_binding(const Token& name, const Token& callee) {
  declare(name);
  Shape shape;
  DType dtype = DType::f32;  // TVM's default
  MemScope scope = MemScope::global;
  call_args(callee, {"param", "shape", "dtype", "scope"}, 2, [&](std::size_t i) {
    if (i == 0) {
      const Token& param = in_.expect_name("a T.handle parameter");
      const auto it = handles_.find(param.text);
      if (it == handles_.end()) in_.fail(param, "'" + param.text + "' is not a T.handle parameter of the function");
      if (it->second) in_.fail(param, "handle '" + param.text + "' is already matched to a buffer");
      it->second = true;
    }
    if (i == 1) shape = parse_shape(in_);
    if (i == 2) dtype = parse_dtype_word(in_);
    if (i == 3) scope = parse_scope_word(in_);
  });
  TileLayout layout = [&] {
    try {
      return TileLayout::row_major(shape);
    } catch (const Error& e) {
      throw e.located(callee.loc);
    }
  }();
  program_.buffers.push_back(BufferDecl{name.text, shape, dtype, scope, std::move(layout), name.loc, std::nullopt});
  names_.others.emplace(name.text, "buffer");
}

}  // namespace mmacheck
