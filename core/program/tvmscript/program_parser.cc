// parse_program: the statements of a layout file (see program.h and
// README.md "Layout files").  Layout expressions go to layout_parser, index
// expressions to index_expr; the calls buffer(...) and gemm(...) are in
// program_calls.cc.
#include <algorithm>
#include <unordered_map>

#include "core/program/layout_parser.h"
#include "core/program/lexer.h"
#include "core/program/program.h"
#include "core/program/python_block.h"
#include "core/program/kernel_instance.h"
#include "core/program/tvmscript/program_parser.h"
#include "core/program/tvmscript/tvmscript.h"

namespace mmacheck {

namespace {

// Names a binding may not take: the layout builders (an expression could no
// longer reach them) and the statement keywords.
constexpr std::string_view kReserved[] = {
    "S",           "R",    "T",     "Tx",    "Axis",  "TileLayout", "buffer", "alloc_buffer",
    "decl_buffer", "gemm", "scope", "stage", "store", "fill",       "drain",  "ldmatrix",
    "stmatrix",    "True", "False", "None",  "from",  "import"};

int expect_int(TokenCursor& in, std::string_view what) {
  const Token& t = in.peek();
  if (t.kind != TokenKind::integer) in.fail(t, "expected " + std::string(what) + ", got " + describe(t));
  if (t.int_value > 1'000'000'000) in.fail(t, std::string(what) + " " + t.text + " is too large");
  return static_cast<int>(in.next().int_value);
}

}  // namespace

ProgramParser::ProgramParser(std::string_view text, const std::string& file) : in_(tokenize(text, file)) {
  program_.file = file;
  if (file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0) module_.emplace(in_.tokens());
}

ProgramParser::ProgramParser(std::vector<Token> kernel, const std::string& file,
                             const std::vector<std::pair<std::string, python::Value>>& layouts)
    : in_(std::move(kernel)) {
  program_.file = file;
  for (const auto& [name, value] : layouts) {
    const LayoutValue& layout = *value.get<LayoutValue>();
    program_.layouts.push_back(LayoutBinding{name, layout_of(layout), value.loc});
    names_.layouts.emplace(name, layout);
  }
}

std::vector<python::Instance> ProgramParser::instances(std::vector<std::string>& notes,
                                                       std::optional<SourceLoc>* uncalled) const {
  if (!module_) return {};
  return module_->instances(notes, uncalled);
}

Program parse_tvmscript(std::string_view text, const std::string& file, std::vector<std::string>* skipped,
                        std::vector<KernelInstance>* instances) {
  ProgramParser parser(text, file);
  Program program = parser.run();
  if (skipped) *skipped = parser.skipped();
  std::vector<std::string> notes;
  std::optional<SourceLoc> uncalled;
  const std::vector<python::Instance> built_kernels = parser.instances(notes, &uncalled);
  if (built_kernels.empty() && !program.gemm && uncalled)
    throw Error(*uncalled,
                "this kernel is built only when its factory is called, and no test of the file calls it: nothing "
                "here would be checked (mmacheck checks the kernels a file's tests build, docs/tvmscript.md, "
                "\"Test files\")");
  if (!instances) return program;
  *instances = read_instances(built_kernels, [&](const ClosedKernel& closed) {
    ProgramParser kernel(closed.tokens, file, closed.layouts);
    Program p = kernel.run();
    return ReadKernel{std::move(p), kernel.skipped()};
  });
  if (skipped) skipped->insert(skipped->end(), notes.begin(), notes.end());
  return program;
}

std::vector<std::string> ProgramParser::skipped() const {
  std::vector<std::string> out = foreign_.skipped();
  out.insert(out.end(), skipped_.begin(), skipped_.end());
  return out;
}

Program ProgramParser::run() {
  python::block(in_, 0, nullptr, [this] { statement(); });
  return std::move(program_);
}

void ProgramParser::statement() {
  if (python_statement()) return;
  const Token& t = in_.peek();
  const bool assignment = in_.peek(1).is_op("=");
  if (t.kind == TokenKind::identifier && !assignment) {
    if (python::skip_import(in_)) return;
    if (t.text == "scope") return scope_statement();
    if (t.text == "stage" || t.text == "store") return staging_statement();
    if (t.text == "fill" || t.text == "drain") return fill_statement();
    if (at_shared_copy()) return shared_copy_statement();
    if (t.text == "copy" && in_.peek(1).kind == TokenKind::identifier) return tile_copy_statement();
    if (const Token* callee = accept_callee("gemm")) return gemm_call(*callee);
  }
  if (t.kind == TokenKind::identifier && assignment) return binding();
  // A .py file is TVMScript: the layout-file dialect's statements would only mislead.
  const std::string& file = t.loc.file;
  if (file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0)
    in_.fail(t,
             "expected a statement mmacheck reads in a TVMScript file (a layout binding, an import, a "
             "@T.prim_func, a def or class it skips; docs/tvmscript.md lists them), got " +
                 describe(t));
  in_.fail(
      t,
      "expected a statement (NAME = ..., scope ..., gemm(...), stage ..., store ..., fill ..., ldmatrix ..., copy ...), got " +
          describe(t));
}

const Token* ProgramParser::accept_callee(std::string_view name) {
  std::size_t k = 0;
  if ((in_.peek().is_name("T") || in_.peek().is_name("Tx")) && in_.peek(1).is_op(".")) k += 2;
  if (in_.peek(k).is_name("warp") && in_.peek(k + 1).is_op(".")) k += 2;
  if (!in_.peek(k).is_name(name) || !in_.peek(k + 1).is_op("(")) return nullptr;
  while (k-- > 0) in_.next();
  return &in_.next();
}

void ProgramParser::declare(const Token& name) {
  if (std::find(std::begin(kReserved), std::end(kReserved), name.text) != std::end(kReserved))
    in_.fail(name, "'" + name.text + "' is reserved and cannot be defined");
  if (const auto it = defined_at_.find(name.text); it != defined_at_.end())
    in_.fail(name, "redefinition of '" + name.text + "' (first defined at line " + std::to_string(it->second) + ")");
  defined_at_.emplace(name.text, name.loc.line);
}

void ProgramParser::binding() {
  const Token& name = in_.next();
  in_.next();  // '='
  declare(name);
  const Token* callee = nullptr;
  for (std::string_view spelling : {"buffer", "alloc_buffer", "decl_buffer"})
    if (!callee) callee = accept_callee(spelling);
  if (callee) {
    program_.buffers.push_back(buffer_call(name, *callee));
    names_.others.emplace(name.text, "buffer");
    return;
  }
  if (in_.peek().ends_statement()) in_.fail(in_.peek(), "expected a layout or buffer(...) after '='");
  LayoutValue value = parse_layout(in_, names_);
  program_.layouts.push_back(LayoutBinding{name.text, layout_of(value), name.loc});
  names_.layouts.emplace(name.text, std::move(value));
}

void ProgramParser::scope_statement() {
  const Token& keyword = in_.next();
  if (program_.scope.loc.known())
    in_.fail(keyword, "second scope statement (the first is at line " + std::to_string(program_.scope.loc.line) + ")");
  ExecScope scope;
  scope.loc = keyword.loc;
  const Token& kind = in_.expect_name("'warp' or 'cta' after 'scope'");
  if (kind.text == "warp") {
    if (in_.peek().is_name("lanes")) {
      in_.next();
      const Token& lo_tok = in_.peek();
      scope.lane_lo = expect_int(in_, "the first lane");
      in_.expect("..", "between the first and last lane (lanes 0..15)");
      const Token& hi_tok = in_.peek();
      scope.lane_hi = expect_int(in_, "the last lane");
      if (scope.lane_lo > 31) in_.fail(lo_tok, "lane " + lo_tok.text + " is outside 0..31");
      if (scope.lane_hi > 31) in_.fail(hi_tok, "lane " + hi_tok.text + " is outside 0..31");
      if (scope.lane_lo > scope.lane_hi) in_.fail(hi_tok, "empty lane range " + lo_tok.text + ".." + hi_tok.text);
    }
  } else if (kind.text == "cta") {
    if (!in_.peek().is_name("threads")) in_.fail(in_.peek(), "expected 'threads N' after 'scope cta'");
    in_.next();
    const Token& n_tok = in_.peek();
    scope.kind = ExecScope::Kind::cta;
    scope.threads = expect_int(in_, "a thread count");
    if (scope.threads <= 0 || scope.threads % 32 != 0 || scope.threads > 1024)
      in_.fail(n_tok, "threads must be a positive multiple of 32 (at most 1024), got " + n_tok.text);
  } else {
    in_.fail(kind, "unknown scope '" + kind.text + "' (known: warp, cta)");
  }
  program_.scope = scope;
}

// `stage BUF[s] = G[ROW, COL]` and `store BUF[s] -> G[ROW, COL]`.
void ProgramParser::staging_statement() {
  const Token& keyword = in_.next();
  const bool stage = keyword.text == "stage";
  const Token& buf = in_.expect_name("a buffer name after '" + keyword.text + "'");
  if (names_.layouts.contains(buf.text)) in_.fail(buf, "'" + buf.text + "' is a layout, not a buffer");
  if (!program_.find_buffer(buf.text)) {
    std::string known;
    for (const BufferDecl& b : program_.buffers) known += (known.empty() ? "" : ", ") + b.name;
    in_.fail(buf, keyword.text + " on unknown buffer '" + buf.text + "' (" +
                      (known.empty() ? std::string("no buffers are declared") : "buffers: " + known) + ")");
  }
  const auto previous = [&](const auto& stmts) {
    for (const auto& s : stmts)
      if (s.buffer == buf.text)
        in_.fail(buf, "buffer '" + buf.text + "' already has a " + keyword.text + " statement (line " +
                          std::to_string(s.loc.line) + ")");
  };
  stage ? previous(program_.stages) : previous(program_.stores);

  const Token& open = in_.expect("[", "after the buffer name (" + buf.text + "[s])");
  const Token& slot = in_.peek();
  if (!slot.is_name("s")) in_.fail(slot, "expected 's' (the register slot), got " + describe(slot));
  in_.next();
  in_.expect_close("]", buf.text + "[", open);
  in_.expect(stage ? "=" : "->", stage ? "(stage BUF[s] = G[ROW, COL])" : "(store BUF[s] -> G[ROW, COL])");
  const Token& matrix = in_.expect_name(stage ? "the source matrix's name" : "the target matrix's name");
  const Token& index_open = in_.expect("[", "after '" + matrix.text + "' (" + matrix.text + "[ROW, COL])");
  IndexExpr row = parse_index_expr(in_);
  in_.expect(",", "between ROW and COL");
  IndexExpr col = parse_index_expr(in_);
  in_.expect_close("]", matrix.text + "[", index_open);
  if (stage) program_.stages.push_back(StageStmt{buf.text, matrix.text, std::move(row), std::move(col), keyword.loc});
  else program_.stores.push_back(StoreStmt{buf.text, matrix.text, std::move(row), std::move(col), keyword.loc});
}

}  // namespace mmacheck
