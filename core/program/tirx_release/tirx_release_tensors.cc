// ReleaseReader, the tensors: tensor types (T.Tensor(shape, dtype, scope=,
// layout=)), register images (T.alloc_local, T.alloc_tensor), register
// views (T.decl_tensor), integer lets and the top-level layout bindings.
#include "core/layout/shape_text.h"
#include "core/program/python_values.h"
#include "core/program/tirx_release/tirx_release_reader.h"

namespace mmacheck {

// NAME = T.alloc_local(...) | T.alloc_tensor(...) | T.decl_tensor(...) | INDEX_EXPR
// NAME: T.let[T.int32] = INDEX_EXPR                                     (TVM's print)
// NAME = Axis.get("NAME")                                              (top level)
// NAME = LAYOUT_EXPR                                                   (top level)
void ReleaseReader::assignment() {
  const Token& name = in_.next();
  if (in_.accept(":")) {  // a type annotation: T.let[T.int32]
    while (!in_.peek().is_op("=") && !in_.peek().ends_statement()) in_.next();
  }
  in_.expect("=", "after '" + name.text + "'");
  const Token& rhs = in_.peek();
  if (!in_function_) {
    if (rhs.is_name("Axis") && in_.peek(1).is_op(".") && in_.peek(2).is_name("get")) {
      in_.next();
      in_.next();
      in_.next();
      const Token& open = in_.expect("(", "after Axis.get");
      const Token& axis = in_.peek();
      if (axis.kind != TokenKind::string) in_.fail(axis, "Axis.get takes an axis name string");
      in_.next();
      in_.expect_close(")", "Axis.get(", open);
      if (axis.text != name.text)
        in_.fail(name,
                 "'" + name.text + " = Axis.get(\"" + axis.text + "\")': mmacheck reads an axis bound to its own name");
      return;
    }
    in_.fail(name, "a top-level annotated assignment is not read (write " + name.text + " = ...)");
  }
  if (!launched_) in_.fail(name, "statements before the device entry are not read");
  if (names_tirx(rhs) && in_.peek(1).is_op(".") && in_.peek(3).is_op("(")) {
    const Token& fn = in_.peek(2);
    if (fn.text == "alloc_local" || fn.text == "alloc_shared" || fn.text == "alloc_tensor" ||
        fn.text == "decl_tensor") {
      declare(name);
      in_.next();
      in_.next();
      in_.next();
      const Token& open = in_.next();
      Shape shape;
      std::pair<std::string, int> dtype;
      std::optional<MemScope> scope;
      TileLayout layout{std::vector<Iter>{}};
      std::string data;
      if (fn.text == "decl_tensor") {
        const Token& src = in_.expect_name("the viewed allocation (X.data)");
        in_.expect(".", "after '" + src.text + "' (X.data)");
        if (!in_.peek().is_name("data")) in_.fail(in_.peek(), "a view takes X.data, got " + describe(in_.peek()));
        in_.next();
        // A view of a view's data (TVM's print: tile_dst over a_ld.data) views the same allocation.
        data = src.text;
        if (const auto v = views_.find(data); v != views_.end()) data = v->second.alloc;
        if (const auto v = matrix_views_.find(data); v != matrix_views_.end()) data = v->second.alloc;
        if (!allocs_.contains(data) && !shared_.contains(data))
          in_.fail(src, "'" + src.text + "' is not an allocation (T.alloc_local, T.alloc_shared) of this kernel");
        in_.expect(",", "after X.data");
      }
      if (fn.text == "alloc_shared") {
        shape = shape_value();
        in_.expect(",", "after the shape");
        dtype = dtype_value();
        scope = MemScope::shared;
        layout = TileLayout::row_major(shape);
        if (in_.accept(",") && !in_.peek().is_op(")"))
          in_.fail(in_.peek(), "T.alloc_shared takes a shape and a dtype; mmacheck reads row-major shared tensors");
      } else if (fn.text == "alloc_local") {
        shape = shape_value();
        in_.expect(",", "after the shape");
        dtype = dtype_value();
        scope = MemScope::local;
        bool has_layout = false;
        while (in_.accept(",")) {
          if (in_.peek().is_op(")")) break;
          const Token& key = in_.expect_name("layout=");
          if (key.text != "layout") in_.fail(key, "T.alloc_local keyword '" + key.text + "' is not read (layout)");
          in_.expect("=", "after 'layout'");
          layout = layout_of(parse_layout(in_, layout_names_));
          has_layout = true;
        }
        if (!has_layout) in_.fail(fn, "a register image needs its layout (layout=...)");
      } else {  // ty_args=[T.Tensor(...)]
        const Token& key = in_.expect_name("ty_args=");
        if (key.text != "ty_args") in_.fail(key, "expected ty_args=[T.Tensor(...)], got '" + key.text + "'");
        in_.expect("=", "after 'ty_args'");
        const Token& list = in_.expect("[", "ty_args=[T.Tensor(...)]");
        layout = tensor_type(shape, dtype, scope);
        in_.expect_close("]", "[", list);
      }
      in_.expect_close(")", fn.text + "(", open);
      if (!scope) scope = MemScope::global;
      const bool flat = shape.size() == 1 && layout == TileLayout(std::vector<Iter>{Iter{shape[0], 1, Axis::m()}});
      if (fn.text == "decl_tensor" && (!flat || shared_.contains(data))) {
        // A view the ldmatrix pattern reads: 32-bit words of a shared tensor or of a register image.
        std::int64_t elements = 1;
        for (const std::int64_t d : shape) elements *= d;
        if (layout.size() != elements)
          in_.fail(name, "'" + name.text + "': its layout has " + std::to_string(layout.size()) +
                             " elements but its shape " + tuple_text(shape) + " has " + std::to_string(elements));
        matrix_views_.emplace(
            name.text, ReleaseMatrixOperand{name.text, data, shape, dtype.second, *scope, layout, {}, {}, name.loc});
        layout_names_.others.emplace(name.text, "view");
      } else if (fn.text == "decl_tensor") {
        views_.emplace(name.text, View{data, dtype.first, dtype.second, layout.size(), name.loc});
        layout_names_.others.emplace(name.text, "view");
      } else if (*scope == MemScope::shared && layout == TileLayout::row_major(shape)) {
        // A shared tensor with a layout stays an image: the mma pattern refuses it in TVM's words.
        shared_.emplace(name.text, ReleaseShared{shape, dtype.first, name.loc});
        layout_names_.others.emplace(name.text, "shared tensor");
      } else {
        const ReleaseImage image{name.text, shape, dtype.first, dtype.second, *scope, layout, name.loc};
        check_release_image(image);
        allocs_.emplace(name.text, image);
        layout_names_.others.emplace(name.text, "allocation");
      }
      return;
    }
  }
  declare(name);
  if (names_tirx(rhs) && in_.peek(1).is_op(".") && in_.peek(2).is_name("gpu_warp_shuffle"))
    return void(index_names_.emplace(name.text, warp_shuffle()));
  index_names_.emplace(name.text, index_expr(names_for_loops()));
}

// T.gpu_warp_shuffle(T.uint32(4294967295), EXPR, SRC, 32, 32) (TVM's print of
// T.cuda.warp_id(): tid // 32 broadcast from lane 0): every lane of the warp
// gets EXPR as lane SRC of its warp computes it.
IndexExpr ReleaseReader::warp_shuffle() {
  using K = IndexExpr::Kind;
  for (int i = 0; i < 3; ++i) in_.next();  // T . gpu_warp_shuffle
  const Token& open = in_.expect("(", "after T.gpu_warp_shuffle");
  const Token& mask = in_.peek();
  const bool full = mask.is_name("T") && in_.peek(1).is_op(".") && in_.peek(2).is_name("uint32") &&
                    in_.peek(3).is_op("(") && in_.peek(4).kind == TokenKind::integer &&
                    in_.peek(4).int_value == 0xffffffff && in_.peek(5).is_op(")");
  if (!full)
    in_.fail(mask, "a warp shuffle over part of the warp is not read (mmacheck reads the mask T.uint32(4294967295))");
  for (int i = 0; i < 6; ++i) in_.next();
  in_.expect(",", "after the shuffle's mask");
  const IndexExpr value = index_expr(names_for_loops());
  in_.expect(",", "after the shuffled value");
  const Token& src = in_.peek();
  const std::int64_t lane = small_int("the source lane");
  if (lane > 31) in_.fail(src, "source lane " + std::to_string(lane) + " is outside the warp (0..31)");
  for (const char* what : {"the shuffle's width", "the warp size"}) {
    in_.expect(",", std::string("before ") + what);
    const Token& w = in_.peek();
    if (small_int(what) != 32) in_.fail(w, std::string(what) + " must be 32 (a whole warp), got " + w.text);
  }
  in_.expect_close(")", "T.gpu_warp_shuffle(", open);
  const IndexExpr l = IndexExpr::literal(lane, src.loc);
  const IndexExpr tid =
      IndexExpr::binary(K::add, IndexExpr::binary(K::mul, IndexExpr::literal(32), IndexExpr::variable(K::warp)), l);
  if (value.eval(IndexEnv{0, 0, 0, 1}) != value.eval(IndexEnv{0, 0, 0, 0}))
    in_.fail(src, "a shuffled value that depends on a loop variable is not read");
  return value.substitute(K::lane, l).substitute(K::tid, tid);
}

// 16 | (16, 8) | [16, 8] | (8,)
Shape ReleaseReader::shape_value() {
  if (in_.peek().kind == TokenKind::integer || layout_names_.integers.contains(in_.peek().text))
    return Shape{small_int("a dimension")};
  const Token& open = in_.peek();
  if (!open.is_op("(") && !open.is_op("[")) in_.fail(open, "expected a shape ((16, 8)), got " + describe(open));
  in_.next();
  const std::string_view close = open.text == "(" ? ")" : "]";
  Shape shape;
  while (!in_.peek().is_op(close)) {
    const Token& d = in_.peek();
    const std::int64_t v = small_int("a dimension");
    if (v <= 0) in_.fail(d, "a dimension must be positive, got " + d.text);
    shape.push_back(v);
    if (shape.size() > 8) in_.fail(d, "more than 8 dimensions");
    if (!in_.accept(",")) break;
  }
  in_.expect_close(close, open.text, open);
  if (shape.empty()) in_.fail(open, "an empty shape");
  return shape;
}

std::pair<std::string, int> ReleaseReader::dtype_value() {
  const Token& t = python::word(in_, "a dtype (\"float16\")");
  if (const std::optional<int> bits = release_dtype_bits(t.text)) return {t.text, *bits};
  in_.fail(t, "unknown dtype '" + t.text + "' (float16, bfloat16, float32, uint32, int32, ...)");
}

TileLayout ReleaseReader::tensor_type(Shape& shape, std::pair<std::string, int>& dtype,
                                      std::optional<MemScope>& scope) {
  for (int i = 0; i < 2; ++i) in_.next();  // T .
  const Token& tensor = in_.next();
  if (!tensor.is_name("Tensor")) in_.fail(tensor, "expected T.Tensor(shape, dtype, ...), got " + describe(tensor));
  const Token& open = in_.expect("(", "after T.Tensor");
  shape = shape_value();
  in_.expect(",", "after the shape");
  dtype = dtype_value();
  std::optional<TileLayout> layout;
  while (in_.accept(",")) {
    if (in_.peek().is_op(")")) break;
    const Token& key = in_.expect_name("scope= or layout=");
    in_.expect("=", "after '" + key.text + "'");
    if (key.text == "scope") {
      scope = python::parse_scope_word(in_);
    } else if (key.text == "layout") {
      if (in_.peek().kind == TokenKind::string) {
        if (in_.peek().text != "default")
          in_.fail(in_.peek(), "layout=\"" + in_.peek().text + "\": only \"default\" is read");
        in_.next();
      } else {
        layout = layout_of(parse_layout(in_, layout_names_));
      }
    } else {
      in_.fail(key, "T.Tensor keyword '" + key.text + "' is not read (scope, layout)");
    }
  }
  in_.expect_close(")", "T.Tensor(", open);
  return layout ? *layout : TileLayout::row_major(shape);
}

}  // namespace mmacheck
