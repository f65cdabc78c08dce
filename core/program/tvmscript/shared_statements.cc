// The shared-memory statements of a layout file (program.h, README.md
// "Layout files", docs/shared-memory.md): fill/drain, ldmatrix/stmatrix,
// ld.shared/st.shared, and the swizzle values a shared buffer takes
// (CuTe's Swizzle(B, M, S), TIRx's SwizzleLayout(...) and ComposeLayout(...)).
#include <algorithm>

#include "core/layout/shape_text.h"
#include "core/program/python_values.h"
#include "core/program/tvmscript/program_parser.h"

namespace mmacheck {

using namespace program_detail;
using namespace python;

namespace {

bool uses_slot(const IndexExpr& e) {
  switch (e.kind()) {
    case IndexExpr::Kind::slot: return true;
    case IndexExpr::Kind::literal:
    case IndexExpr::Kind::lane:
    case IndexExpr::Kind::warp:
    case IndexExpr::Kind::tid: return false;
    case IndexExpr::Kind::neg: return uses_slot(e.lhs());
    default: return uses_slot(e.lhs()) || uses_slot(e.rhs());
  }
}

int small_int(TokenCursor& in, std::string_view what) {
  const Token& t = in.peek();
  if (t.kind != TokenKind::integer) in.fail(t, "expected " + std::string(what) + " (an integer), got " + describe(t));
  if (t.int_value > 16) in.fail(t, std::string(what) + " " + t.text + " is too large (at most 16)");
  return static_cast<int>(in.next().int_value);
}

// CuTe's rules for Swizzle<B, M, S> (cute/swizzle.hpp's static_asserts: B,
// M >= 0, |S| >= B; TIRx: atom_len at least swizzle_len): with |S| < B the
// bits XOR-ed in overlap the bits they come from, and the "swizzle" is no
// permutation CuTe or TVM would build.  The parser reads no negative S.
void check_swizzle(TokenCursor& in, const Token& at, const Swizzle& s) {
  if (s.shift < s.bits)
    in.fail(at, "swizzle " + s.str() +
                    " breaks CuTe's rule |S| >= B (cute/swizzle.hpp: \"abs(SShift) must be more "
                    "than BBits\"; TIRx: atom_len must be at least swizzle_len): the " +
                    std::to_string(s.bits) + " bits it XORs in overlap the bits they come from");
  if (s.bits + s.base + s.shift > 20)
    in.fail(at, "swizzle " + s.str() + " spans 2^" + std::to_string(s.bits + s.base + s.shift) +
                    " elements; at most 2^20 are supported");
}

}  // namespace

Swizzle ProgramParser::swizzle_value() {
  Swizzle s;
  const Token& at = in_.peek();
  if (const Token* c = accept_callee("Swizzle")) {
    call_args(*c, {"B", "M", "S"}, 3, [&](std::size_t i) {
      int& field = i == 0 ? s.bits : i == 1 ? s.base : s.shift;
      field = small_int(in_, i == 0 ? "B" : i == 1 ? "M" : "S");
    });
  } else if (const Token* c = accept_callee("SwizzleLayout")) {
    s.tirx = true;
    call_args(*c, {"per_element", "swizzle_len", "atom_len", "swizzle_inner"}, 3, [&](std::size_t i) {
      if (i == 0) s.base = small_int(in_, "per_element");
      if (i == 1) s.bits = small_int(in_, "swizzle_len");
      if (i == 2) s.shift = small_int(in_, "atom_len");
      if (i == 3) s.inner = parse_bool(in_);
    });
  } else {
    in_.fail(at,
             "expected a swizzle: Swizzle(B, M, S) or SwizzleLayout(per_element=M, swizzle_len=B, atom_len=S), got " +
                 describe(at));
  }
  check_swizzle(in_, at, s);
  return s;
}

std::optional<Swizzle> ProgramParser::optional_swizzle() {
  if (in_.peek().is_name("None")) {
    in_.next();
    return std::nullopt;
  }
  return swizzle_value();
}

std::pair<TileLayout, Swizzle> ProgramParser::compose_layout(const Token& callee) {
  const Token& open = in_.expect("(", "after 'ComposeLayout'");
  Swizzle s;
  if (in_.peek().kind == TokenKind::integer) {  // ComposeLayout(per_element, swizzle_len, atom_len, layout[, inner])
    s.tirx = true;
    s.base = small_int(in_, "per_element");
    in_.expect(",", "after per_element");
    s.bits = small_int(in_, "swizzle_len");
    in_.expect(",", "after swizzle_len");
    s.shift = small_int(in_, "atom_len");
    in_.expect(",", "after atom_len (ComposeLayout(per_element, swizzle_len, atom_len, LAYOUT))");
    check_swizzle(in_, callee, s);
  } else {
    s = swizzle_value();
    in_.expect(",", "after the swizzle (ComposeLayout(SWIZZLE, LAYOUT))");
  }
  TileLayout layout = layout_of(parse_layout(in_, names_));
  if (in_.accept(",")) {
    if (in_.peek().is_name("swizzle_inner") && in_.peek(1).is_op("=")) {
      in_.next();
      in_.next();
    }
    s.inner = parse_bool(in_);
  }
  in_.expect_close(")", "ComposeLayout(", open);
  return {std::move(layout), s};
}

// `fill S = G[.T] [swizzle=SWZ]` and `drain S -> G[.T] [swizzle=SWZ]`.
void ProgramParser::fill_statement() {
  const Token& keyword = in_.next();
  SharedFillStmt f;
  f.drain = keyword.text == "drain";
  f.loc = keyword.loc;
  const Token& name = in_.expect_name("a shared buffer after '" + keyword.text + "'");
  const BufferDecl& shared = program_.buffer(name.text, name.loc);
  if (shared.scope != MemScope::shared)
    in_.fail(name, keyword.text + " needs a shared buffer; '" + name.text + "' is " +
                       std::string(mem_scope_name(shared.scope)));
  if (shared.shape.size() != 2)
    in_.fail(name, keyword.text + " needs a 2-D buffer; '" + name.text + "' has shape " + tuple_text(shared.shape));
  for (const SharedFillStmt& g : program_.fills)
    if (g.shared == name.text && g.drain == f.drain)
      in_.fail(name, "shared buffer '" + name.text + "' already has a " + keyword.text + " statement (line " +
                         std::to_string(g.loc.line) + ")");
  f.shared = name.text;
  in_.expect(f.drain ? "->" : "=", f.drain ? "(drain S -> G)" : "(fill S = G)");
  const Token& matrix = in_.expect_name(f.drain ? "the target matrix's name" : "the source matrix's name");
  f.matrix = matrix.text;
  if (in_.peek().is_op(".") && in_.peek(1).is_name("T")) {
    in_.next();
    in_.next();
    f.transposed = true;
  }
  if (matrix.text == name.text)
    in_.fail(matrix, keyword.text + " " + name.text + (f.drain ? " -> " : " = ") + matrix.text +
                         " names the shared buffer on both sides; the " + (f.drain ? "target" : "source") +
                         " is a global matrix (e.g. " + name.text + (f.drain ? " -> D_g)" : " = A_g)"));
  if (const BufferDecl* m = program_.find_buffer(matrix.text)) {
    if (m->scope != MemScope::global)
      in_.fail(matrix, keyword.text + " moves between shared memory and a global matrix; '" + matrix.text + "' is " +
                           std::string(mem_scope_name(m->scope)));
    Shape want = shared.shape;
    if (f.transposed) std::swap(want[0], want[1]);
    if (m->shape != want)
      in_.fail(matrix, "'" + matrix.text + "' has shape " + tuple_text(m->shape) + " but " + keyword.text + " " +
                           name.text + " = " + matrix.text + (f.transposed ? ".T" : "") + " needs " + tuple_text(want));
  }
  if (in_.peek().is_name("swizzle")) {
    in_.next();
    in_.expect("=", "after 'swizzle'");
    f.swizzle = optional_swizzle();
    if (!f.swizzle) f.swizzle = Swizzle{};  // swizzle=None: the writer does not swizzle
  }
  program_.fills.push_back(std::move(f));
}

bool ProgramParser::at_shared_copy() const {
  const Token& t = in_.peek();
  if ((t.is_name("ldmatrix") || t.is_name("stmatrix")) && in_.peek(1).is_op(".")) return true;
  return (t.is_name("ld") || t.is_name("st")) && in_.peek(1).is_op(".") && in_.peek(2).is_name("shared");
}

// `ldmatrix[.sync.aligned.m8n8].xN[.trans][.shared.b16] R[FIRST] = S[ROW, COL]`,
// `stmatrix... R[FIRST] -> S[ROW, COL]`, `ld.shared R[s] = S[ROW, COL]`,
// `st.shared R[s] -> S[ROW, COL]`.
void ProgramParser::shared_copy_statement() {
  const Token& keyword = in_.next();
  SharedCopyStmt c;
  c.loc = keyword.loc;
  const bool matrix = keyword.text == "ldmatrix" || keyword.text == "stmatrix";
  if (matrix) {
    c.op = keyword.text == "ldmatrix" ? SharedOp::ldmatrix : SharedOp::stmatrix;
    const Token* count = nullptr;
    while (in_.accept(".")) {
      const Token& q = in_.expect_name("an ldmatrix qualifier (x1, x2, x4, trans)");
      if (q.text == "x1" || q.text == "x2" || q.text == "x4") {
        if (count) in_.fail(q, "second matrix count ." + q.text + " (the first is ." + count->text + ")");
        count = &q;
        c.num = q.text[1] - '0';
      } else if (q.text == "trans") {
        c.trans = true;
      } else if (q.text != "sync" && q.text != "aligned" && q.text != "m8n8" && q.text != "shared" && q.text != "b16") {
        in_.fail(q, "unknown " + keyword.text + " qualifier '." + q.text +
                        "' (known: .x1, .x2, .x4, .trans; .sync.aligned.m8n8.shared.b16 may be written)");
      }
    }
    if (!count) in_.fail(in_.peek(), keyword.text + " needs its matrix count: " + keyword.text + ".x1, .x2 or .x4");
  } else {
    c.op = keyword.text == "ld" ? SharedOp::ld_shared : SharedOp::st_shared;
    in_.next();  // '.'
    in_.next();  // shared
  }
  const Token& reg = in_.expect_name("a register (local) buffer");
  const BufferDecl& r = program_.buffer(reg.text, reg.loc);
  if (r.scope != MemScope::local)
    in_.fail(reg, keyword.text + " moves between shared memory and registers; '" + reg.text + "' is " +
                      std::string(mem_scope_name(r.scope)));
  c.reg = reg.text;
  const Token& open = in_.expect("[", "after the register buffer (" + reg.text + (matrix ? "[0])" : "[s])"));
  if (matrix) {
    const Token& first = in_.peek();
    if (first.kind != TokenKind::integer)
      in_.fail(first, "expected the first register slot (" + reg.text + "[0]), got " + describe(first));
    if (first.int_value > 1'000'000) in_.fail(first, "slot " + first.text + " is too large");
    c.first_slot = static_cast<int>(in_.next().int_value);
  } else {
    const Token& slot = in_.peek();
    if (!slot.is_name("s")) in_.fail(slot, "expected 's' (the register slot), got " + describe(slot));
    in_.next();
  }
  in_.expect_close("]", reg.text + "[", open);
  in_.expect(c.store() ? "->" : "=", c.store() ? "(a store: R[...] -> S[ROW, COL])" : "(a load: R[...] = S[ROW, COL])");
  const Token& sh = in_.expect_name("a shared buffer");
  const BufferDecl& s = program_.buffer(sh.text, sh.loc);
  if (s.scope != MemScope::shared)
    in_.fail(sh,
             keyword.text + " addresses shared memory; '" + sh.text + "' is " + std::string(mem_scope_name(s.scope)));
  if (s.shape.size() != 2) in_.fail(sh, "'" + sh.text + "' must be 2-D, it has shape " + tuple_text(s.shape));
  if (s.dtype != r.dtype)
    in_.fail(sh, "'" + reg.text + "' holds " + std::string(dtype_info(r.dtype).tvm) + " but '" + sh.text + "' " +
                     std::string(dtype_info(s.dtype).tvm));
  const int width = dtype_info(s.dtype).bits / 8;
  if (matrix && width > 4)
    in_.fail(keyword, keyword.text + " moves 32-bit registers; " + std::string(dtype_info(s.dtype).tvm) +
                          " elements do not fit one");
  if (matrix && c.trans && width == 4)
    in_.fail(keyword, keyword.text + ".trans moves 16-bit units; it would split every " +
                          std::string(dtype_info(s.dtype).tvm) + " element in two");
  c.shared = sh.text;
  const Token& index_open = in_.expect("[", "after '" + sh.text + "' (" + sh.text + "[ROW, COL])");
  const Token& row_at = in_.peek();
  c.row = parse_index_expr(in_);
  in_.expect(",", "between ROW and COL");
  const Token& col_at = in_.peek();
  c.col = parse_index_expr(in_);
  in_.expect_close("]", sh.text + "[", index_open);
  if (matrix)
    for (const auto& [e, at] : {std::pair{&c.row, &row_at}, std::pair{&c.col, &col_at}})
      if (uses_slot(*e))
        in_.fail(*at, "a row address depends on the lane only; " + keyword.text + " moves whole registers (no 's')");
  program_.copies.push_back(std::move(c));
}

// `copy DST = SRC`: one side a register (local) buffer, the other a shared
// buffer, optionally `.T` (TIRx's Tx.copy(dst, src) of whole buffers).
void ProgramParser::tile_copy_statement() {
  const Token& keyword = in_.next();
  TileCopyStmt c;
  c.loc = keyword.loc;
  struct Side {
    const Token* name;
    const BufferDecl* buffer;
    bool transposed;
  };
  const auto side = [&](std::string_view what) {
    const Token& name = in_.expect_name(what);
    const BufferDecl& b = program_.buffer(name.text, name.loc);
    bool t = false;
    if (in_.peek().is_op(".") && in_.peek(1).is_name("T")) {
      in_.next();
      in_.next();
      t = true;
    }
    return Side{&name, &b, t};
  };
  const Side dst = side("the copy's destination buffer");
  in_.expect("=", "(copy DST = SRC)");
  const Side src = side("the copy's source buffer");
  const bool load = dst.buffer->scope == MemScope::local && src.buffer->scope == MemScope::shared;
  const bool store = dst.buffer->scope == MemScope::shared && src.buffer->scope == MemScope::local;
  if (!load && !store)
    in_.fail(keyword, "copy moves between a register (local) and a shared buffer; '" + dst.name->text + "' is " +
                          std::string(mem_scope_name(dst.buffer->scope)) + " and '" + src.name->text + "' " +
                          std::string(mem_scope_name(src.buffer->scope)));
  const Side& reg = load ? dst : src;
  const Side& sh = load ? src : dst;
  if (reg.transposed)
    in_.fail(*reg.name, "only the shared side of a copy may be transposed ('" + sh.name->text + ".T')");
  if (sh.buffer->shape.size() != 2 || reg.buffer->shape.size() != 2) in_.fail(keyword, "copy needs 2-D buffers");
  Shape want = sh.buffer->shape;
  if (sh.transposed) std::swap(want[0], want[1]);
  if (want != reg.buffer->shape)
    in_.fail(keyword, "copy of '" + reg.name->text + "' " + tuple_text(reg.buffer->shape) + " and '" + sh.name->text +
                          (sh.transposed ? ".T' " : "' ") + tuple_text(want) + ": the shapes differ");
  if (sh.buffer->dtype != reg.buffer->dtype)
    in_.fail(keyword, "'" + reg.name->text + "' holds " + std::string(dtype_info(reg.buffer->dtype).tvm) + " but '" +
                          sh.name->text + "' " + std::string(dtype_info(sh.buffer->dtype).tvm));
  c.reg = reg.name->text;
  c.shared = sh.name->text;
  c.store = store;
  c.transposed = sh.transposed;
  program_.tile_copies.push_back(std::move(c));
}

}  // namespace mmacheck
