// TVMScript staging: `for` loops over T.unroll / T.serial / range / T.grid
// and the register transfers in their bodies, turned into the same
// StageStmt / StoreStmt a layout file's `stage` / `store` gives.
//
//     A_reg = A_f.local(8)
//     for s in T.unroll(8):
//         kp, kHi, rM = s % 2, (s // 2) % 2, s // 4
//         A_reg[s] = A_g[lane // 4 + 8 * rM, 2 * (lane % 4) + kp + 8 * kHi]
//
// is `stage A_f[s] = A_g[lane // 4 + 8 * (s // 4), ...]`: the loop
// variables are expressions of the register slot (T.grid's row-major:
// for i, j in T.grid(2, 4), i = s // 4 and j = s % 4), the locals are
// replaced by their expressions.  A loop is read when its register index
// enumerates the view's registers in loop order, each exactly once (A_reg[s],
// A_reg[i, j], A_reg[4 * i + j]); anything else is an Error at the index.
#include "core/program/tvmscript/program_parser.h"

namespace mmacheck {

namespace {

constexpr std::int64_t kMaxIterations = 1 << 16;

std::int64_t product(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

}  // namespace

// for NAME[, NAME...] in (T.unroll | T.serial | T.vectorized | range | T.grid)(...):
void ProgramParser::for_loop() {
  const Token& keyword = in_.next();
  if (!in_function_) in_.fail(keyword, "a for loop outside a @T.prim_func is not supported");
  if (loop_)
    in_.fail(keyword,
             "nested loops are not supported; write one loop over T.grid(...) "
             "(for i, j in T.grid(2, 4): X_reg[i, j] = ...)");
  std::vector<const Token*> vars;
  while (true) {
    vars.push_back(&in_.expect_name("a loop variable"));
    if (!in_.accept(",")) break;
  }
  if (!in_.peek().is_name("in"))
    in_.fail(in_.peek(), "expected 'in' after the loop variables, got " + describe(in_.peek()));
  in_.next();
  const bool prefixed = in_.peek().is_name("T") && in_.peek(1).is_op(".");
  if (prefixed) {
    in_.next();
    in_.next();
  }
  const Token& fn = in_.expect_name("the loop's iterator (T.unroll, T.serial, range, T.grid)");
  const bool grid = prefixed && fn.text == "grid";
  const bool known =
      prefixed ? (grid || fn.text == "unroll" || fn.text == "serial" || fn.text == "vectorized") : fn.text == "range";
  if (!known)
    in_.fail(fn, std::string(prefixed ? "T." : "") + fn.text +
                     ": a staging loop iterates T.unroll(n), T.serial(n), T.vectorized(n), range(n) or T.grid(...)");
  const Token& open = in_.expect("(", "after " + fn.text);
  std::vector<std::int64_t> args;
  while (!in_.peek().is_op(")")) {
    const Token& at = in_.peek();
    if (at.kind == TokenKind::identifier && in_.peek(1).is_op("="))
      in_.fail(at, fn.text + "(" + at.text + "=...) is not supported");
    args.push_back(parse_index_expr(in_, IndexNames{}).eval({}));
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", fn.text + "(", open);
  Shape extents;
  if (grid) {
    extents = args;
  } else if (args.size() == 1) {
    extents = {args[0]};
  } else if (args.size() == 2 && args[0] == 0) {
    extents = {args[1]};
  } else {
    in_.fail(open, fn.text + "(...) must be " + fn.text + "(n) or " + fn.text + "(0, n)");
  }
  if (extents.size() != vars.size())
    in_.fail(open, std::to_string(vars.size()) + " loop variables but " + std::to_string(extents.size()) +
                       (grid ? " extents" : " range"));
  std::int64_t total = 1;
  for (std::int64_t e : extents) {
    if (e <= 0 || e > kMaxIterations || (total *= e) > kMaxIterations)
      in_.fail(open, "a staging loop runs 1.." + std::to_string(kMaxIterations) + " iterations");
  }

  // Loop variables as expressions of the slot s (row-major over extents).
  loop_names_ = index_names_;
  std::int64_t stride = total;
  Loop loop;
  for (std::size_t j = 0; j < vars.size(); ++j) {
    const Token& var = *vars[j];
    if (defined_at_.contains(var.text))
      in_.fail(var, "'" + var.text + "' is already defined at line " + std::to_string(defined_at_.at(var.text)));
    stride /= extents[j];
    IndexExpr e = IndexExpr::variable(IndexExpr::Kind::slot, var.loc);
    if (stride > 1) e = IndexExpr::binary(IndexExpr::Kind::floordiv, e, IndexExpr::literal(stride, var.loc), var.loc);
    if (j > 0) e = IndexExpr::binary(IndexExpr::Kind::floormod, e, IndexExpr::literal(extents[j], var.loc), var.loc);
    loop_names_.insert_or_assign(var.text, e);
    loop.vars.push_back(var.text);
  }
  loop.extents = extents;
  loop_ = loop;
  suite(keyword);
  loop_.reset();
  loop_names_.clear();
}

void ProgramParser::register_transfer() {
  const Token& name = in_.next();
  if (const auto view = views_.find(name.text); view != views_.end()) {  // VIEW[i] = G[ROW, COL]
    register_index(name, view->second);
    in_.expect("=", "after " + name.text + "[...] (X_reg[s] = X_g[ROW, COL])");
    const Token& source = in_.expect_name("the source buffer (X_g[ROW, COL])");
    if (views_.contains(source.text)) in_.fail(source, "a register-to-register copy is not a staging");
    auto [row, col] = matrix_index(source);
    const std::string& buf = view->second.buffer;
    program_.stages.push_back(StageStmt{buf, source.text, std::move(row), std::move(col), name.loc});
    return;
  }
  if (!program_.find_buffer(name.text)) {
    if (index_names().contains(name.text) || names_.layouts.contains(name.text))
      in_.fail(name, "'" + name.text + "' is not a buffer or a register view");
    in_.fail(name, "unknown name '" + name.text + "' (a register view X_reg = X.local(n) or a buffer)");
  }
  auto [row, col] = matrix_index(name);  // G[ROW, COL] = VIEW[i]
  in_.expect("=", "after " + name.text + "[ROW, COL] (X_g[ROW, COL] = X_reg[s])");
  const Token& source = in_.expect_name("a register view (X_reg[s])");
  const auto view = views_.find(source.text);
  if (view == views_.end())
    in_.fail(source,
             "expected a register view (X_reg = X.local(n)) on the right of the store, got " + describe(source));
  register_index(source, view->second);
  const std::string& buf = view->second.buffer;
  program_.stores.push_back(StoreStmt{buf, name.text, std::move(row), std::move(col), name.loc});
}

void ProgramParser::register_index(const Token& view_name, const RegisterView& view) {
  const Token& open = in_.expect("[", "after the register view '" + view_name.text + "'");
  std::vector<IndexExpr> index;
  while (!in_.peek().is_op("]")) {
    index.push_back(parse_index_expr(in_, index_names()));
    if (!in_.accept(",")) break;
  }
  in_.expect_close("]", view_name.text + "[", open);
  if (index.size() != view.shape.size())
    in_.fail(open, "'" + view_name.text + "' has " + std::to_string(view.shape.size()) +
                       " dimension(s), indexed with " + std::to_string(index.size()));
  const std::int64_t regs = product(view.shape);
  const std::int64_t iterations = loop_ ? product(loop_->extents) : 1;
  if (iterations != regs)
    in_.fail(open, "the loop runs " + std::to_string(iterations) + " iteration(s) but '" + view_name.text + "' has " +
                       std::to_string(regs) +
                       " registers per thread; mmacheck reads a staging that moves every "
                       "register exactly once");
  for (std::int64_t s = 0; s < iterations; ++s)
    for (std::int64_t lane = 0; lane < 32; ++lane) {
      const IndexEnv env{.lane = lane, .warp = 0, .tid = lane, .slot = s};
      std::int64_t flat = 0;
      bool inside = true;
      for (std::size_t d = 0; d < index.size(); ++d) {
        const std::int64_t v = index[d].eval(env);
        inside = inside && v >= 0 && v < view.shape[d];
        flat = flat * view.shape[d] + v;
      }
      if (!inside || flat != s)
        in_.fail(open, "iteration " + std::to_string(s) + " (lane " + std::to_string(lane) + ") moves " +
                           (inside ? "register " + std::to_string(flat) : std::string("a register outside the view")) +
                           " of '" + view_name.text +
                           "'; mmacheck reads loops whose register index "
                           "enumerates the registers in loop order (X_reg[s], X_reg[i, j] over T.grid)");
    }
}

std::pair<IndexExpr, IndexExpr> ProgramParser::matrix_index(const Token& matrix) {
  const BufferDecl& buf = program_.buffer(matrix.text, matrix.loc);
  const Token& open = in_.expect("[", "after '" + matrix.text + "' (" + matrix.text + "[ROW, COL])");
  if (buf.shape.size() != 2)
    in_.fail(open, "staging through '" + buf.name + "' needs a 2-D buffer (it has " + std::to_string(buf.shape.size()) +
                       " dimensions)");
  IndexExpr row = parse_index_expr(in_, index_names());
  in_.expect(",", "between ROW and COL");
  IndexExpr col = parse_index_expr(in_, index_names());
  in_.accept(",");  // Python allows X_g[row, col,]
  in_.expect_close("]", matrix.text + "[", open);
  return {std::move(row), std::move(col)};
}

}  // namespace mmacheck
