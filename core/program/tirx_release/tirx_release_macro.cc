// ReleaseReader, macros: `@T.macro` / `@T.inline` helpers (tvm_tirx's
// make_macro_decorator) defined at the top level and called as statements
// in a kernel, their body read where the call stands with the arguments in
// place of the parameters, as TVM's parser inlines them; and plain Python
// helpers (`def row(lane, s): return lane // 4 + 8 * (s // 2 % 2)`) called
// in index expressions, which TVMScript's parser runs on the expressions.
#include "core/program/tirx_release/tirx_release_reader.h"

#include <set>

namespace mmacheck {

namespace {

// Macros calling macros: deeper is a located error (a macro calling itself).
constexpr int kMaxMacroDepth = 16;
// Helpers calling helpers, the same.
constexpr int kMaxHelperDepth = 16;

}  // namespace

// @T.macro[(hygienic=...)] def NAME(P, Q: type, ...): BODY   (also @T.inline)
bool ReleaseReader::macro_def() {
  if (!(in_.peek().is_op("@") && names_tirx(in_.peek(1)) && in_.peek(2).is_op(".") &&
        (in_.peek(3).is_name("macro") || in_.peek(3).is_name("inline"))))
    return false;
  const Token& at = in_.next();
  in_.next();
  in_.next();
  const Token& kind = in_.next();
  if (in_.peek().is_op("(")) {
    const Token& open = in_.next();
    skip_balanced();
    in_.expect_close(")", "@T." + kind.text + "(", open);
  }
  python::expect_decorated(in_, at, "T." + kind.text, "def");
  const std::size_t def_at = in_.position();
  in_.next();
  const Token& name = in_.expect_name("the macro's name");
  declare(name);
  Macro macro;
  macro.loc = name.loc;
  const Token& open = in_.expect("(", "after the macro's name");
  while (!in_.peek().is_op(")")) {
    const Token& param = in_.expect_name("a parameter");
    if (std::find(macro.params.begin(), macro.params.end(), param.text) != macro.params.end())
      in_.fail(param, "duplicate parameter '" + param.text + "'");
    macro.params.push_back(param.text);
    if (in_.accept(":")) skip_balanced();  // an annotation
    if (in_.peek().is_op("=")) in_.fail(in_.peek(), "a macro parameter's default value is not read");
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", name.text + "(", open);
  in_.expect(":", "after the macro's parameters");
  while (in_.peek().kind == TokenKind::newline) in_.next();
  if (in_.peek().loc.line == name.loc.line)
    in_.fail(in_.peek(), "a macro's body is an indented block on the lines after its def");
  macro.body_begin = in_.position();
  macro.column = in_.peek().loc.col;
  in_.seek(def_at);
  python::skip_statement(in_);
  macro.body_end = in_.position();
  macro.tokens = in_.tokens();
  require_hygiene(macro, name.text);
  layout_names_.others.insert_or_assign(name.text, "macro");
  macros_.insert_or_assign(name.text, std::move(macro));
  return true;
}

// TVM's macros are hygienic: the body sees its parameters, its own names and
// the module's names where the macro is defined, never the calling kernel's
// (a kernel's `A` in the body of a macro without an `A` is TVM's NameError).
void ReleaseReader::require_hygiene(const Macro& macro, const std::string& name) const {
  const std::vector<Token>& t = *macro.tokens;
  std::set<std::string, std::less<>> own(macro.params.begin(), macro.params.end());
  for (std::size_t i = macro.body_begin; i + 1 < macro.body_end; ++i)
    if (t[i].kind == TokenKind::identifier && (t[i + 1].is_op("=") || t[i + 1].is_op(":") || t[i + 1].is_name("in")) &&
        (i == macro.body_begin || t[i - 1].ends_statement() || t[i - 1].is_name("for") ||
         t[i - 1].loc.line != t[i].loc.line))
      own.insert(t[i].text);
  static const std::set<std::string, std::less<>> kBuiltins{
      "T",  "I",    "range", "len", "int", "list", "tuple", "True", "False", "None",       "in",  "for",
      "if", "else", "not",   "and", "or",  "pass", "def",   "S",    "R",     "TileLayout", "Axis"};
  for (std::size_t i = macro.body_begin; i < macro.body_end; ++i) {
    const Token& n = t[i];
    if (n.kind != TokenKind::identifier || (i > 0 && t[i - 1].is_op(".")) || own.contains(n.text) ||
        kBuiltins.contains(n.text))
      continue;
    const bool keyword =
        i + 1 < macro.body_end && t[i + 1].is_op("=") && i > 0 && (t[i - 1].is_op("(") || t[i - 1].is_op(","));
    if (keyword || layout_names_.layouts.contains(n.text) || layout_names_.integers.contains(n.text) ||
        layout_names_.lists.contains(n.text) || index_names_.contains(n.text) || macros_.contains(n.text) ||
        helpers_.contains(n.text) || defined_at_.contains(n.text) || n.text.rfind("T.cuda.", 0) == 0)
      continue;
    throw Error(n.loc, "'" + n.text + "' is not defined where macro '" + name +
                           "' is: a T.macro sees its parameters and the module's names, not the calling kernel's "
                           "(TVM raises NameError); pass it as an argument");
  }
}

// NAME(ARG, ...) in a kernel, NAME a macro: its body, read here.  The
// statements it adds run where the call stands: they are placed at the call
// (line, and columns in their order), which is also where messages about
// them point.
void ReleaseReader::macro_call() {
  const Token& name = in_.next();
  const Macro& macro = macros_.at(name.text);
  if (macro_depth_ >= kMaxMacroDepth)
    in_.fail(name, "macros nested more than " + std::to_string(kMaxMacroDepth) + " deep (a macro calling itself?)");
  // The arguments, as token runs.
  std::map<std::string, std::vector<Token>> args;
  const Token& open = in_.expect("(", "after the macro's name");
  std::size_t next_param = 0;
  while (!in_.peek().is_op(")")) {
    std::string param;
    if (in_.peek().kind == TokenKind::identifier && in_.peek(1).is_op("=")) {
      param = in_.next().text;
      in_.next();
      if (std::find(macro.params.begin(), macro.params.end(), param) == macro.params.end())
        in_.fail(in_.peek(), "macro '" + name.text + "' has no parameter '" + param + "'");
    } else {
      if (next_param >= macro.params.size())
        in_.fail(in_.peek(), "macro '" + name.text + "' takes " + std::to_string(macro.params.size()) + " arguments");
      param = macro.params[next_param++];
    }
    std::vector<Token> run;
    int depth = 0;
    while (true) {
      const Token& t = in_.peek();
      if (t.kind == TokenKind::end) in_.fail(t, "unexpected end of input in the macro call");
      if (depth == 0 && (t.is_op(",") || t.is_op(")"))) break;
      depth += t.opens() ? 1 : t.closes() ? -1 : 0;
      run.push_back(in_.next());
    }
    if (run.empty()) in_.fail(in_.peek(), "an empty argument");
    if (!args.emplace(param, std::move(run)).second) in_.fail(name, "parameter '" + param + "' given twice");
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", name.text + "(", open);
  for (const std::string& p : macro.params)
    if (!args.contains(p)) in_.fail(name, "macro '" + name.text + "' needs its argument '" + p + "'");

  // The body with the arguments in place (each at the place of the
  // parameter it replaces, so that the body's lines and columns stand).
  std::vector<Token> body;
  for (std::size_t i = macro.body_begin; i < macro.body_end; ++i) {
    const Token& t = (*macro.tokens)[i];
    const bool attribute = i > 0 && (*macro.tokens)[i - 1].is_op(".");
    const auto arg = t.kind == TokenKind::identifier && !attribute ? args.find(t.text) : args.end();
    if (arg == args.end()) {
      body.push_back(t);
      continue;
    }
    const bool wrap = arg->second.size() > 1;
    const auto placed = [&](Token copy, std::string_view text = {}) {
      if (!text.empty()) {
        copy = Token{TokenKind::op, std::string(text), 0, 0, {}};
      }
      copy.loc = t.loc;
      return copy;
    };
    if (wrap) body.push_back(placed(Token{}, "("));
    for (const Token& a : arg->second) body.push_back(placed(a));
    if (wrap) body.push_back(placed(Token{}, ")"));
  }
  body.push_back(Token{TokenKind::end, "", 0, 0, (*macro.tokens)[macro.body_end - 1].loc});

  const std::size_t transfers_before = transfers_.size();
  const std::size_t applies_before = mma_ ? mma_->statements.size() : 0;
  TokenCursor saved = in_;
  in_ = TokenCursor(std::move(body));
  ++macro_depth_;
  try {
    python::block(in_, macro.column, &name, [this] { statement(); });
  } catch (...) {
    --macro_depth_;
    in_ = saved;
    throw;
  }
  --macro_depth_;
  in_ = saved;
  // What the body added runs at the call, in the body's order.
  int col = name.loc.col;
  for (std::size_t i = transfers_before; i < transfers_.size(); ++i)
    transfers_[i].loc = SourceLoc{name.loc.file, name.loc.line, col++};
  if (mma_)
    for (std::size_t i = applies_before; i < mma_->statements.size(); ++i)
      mma_->statements[i].loc = SourceLoc{name.loc.file, name.loc.line, col++};
}

IndexExpr ReleaseReader::index_expr(const IndexNames& names) {
  IndexFunctions functions;
  for (const auto& [name, def] : helpers_)
    functions.emplace(name, [this, def = def](const std::vector<IndexExpr>& args, const Token& at) {
      return helper_call(*def, args, at);
    });
  return parse_index_expr(in_, names, functions);
}

// NAME(ARG, ...) in an index expression, NAME a top-level def: TVMScript's
// parser calls the Python function with the arguments' expressions, so its
// value is what the body returns with the parameters bound to them.  The
// body may assign index expressions to names and return one (docstrings and
// `pass` aside); it sees its parameters, its own names, the module's integers
// as they stand at the kernel's def and the thread ids (T.cuda.lane_id()),
// never the kernel's names (Python's NameError).  Anything else in it is an
// error at its line.
IndexExpr ReleaseReader::helper_call(const python::Function& f, const std::vector<IndexExpr>& args, const Token& name) {
  if (helper_depth_ >= kMaxHelperDepth)
    throw Error(name.loc,
                "helpers nested more than " + std::to_string(kMaxHelperDepth) + " deep (a helper calling itself?)");
  if (!f.decorators.empty())
    throw Error(name.loc, "'" + f.name + "' is a decorated def (@" + f.decorators.front().name +
                              "); mmacheck calls plain helper defs in index expressions");
  helpers_called_.insert(f.name);
  IndexNames names = module_index_names_;
  for (const auto& [id, expr] : index_names_)
    if (id.rfind("T.cuda.", 0) == 0) names.insert_or_assign(id, expr);
  std::size_t given = 0;
  for (const python::Param& p : f.params) {
    if (p.keyword_only)
      throw Error(name.loc, "'" + f.name + "' has the keyword-only parameter '" + p.name +
                                "'; mmacheck passes a helper's arguments by position");
    if (given < args.size()) {
      names.insert_or_assign(p.name, args[given++]);
    } else if (const auto* v = p.default_value ? p.default_value->get<std::int64_t>() : nullptr) {
      names.insert_or_assign(p.name, IndexExpr::literal(*v, name.loc));
    } else {
      throw Error(name.loc, "'" + f.name + "' needs its argument '" + p.name + "'");
    }
  }
  if (args.size() > f.params.size())
    throw Error(name.loc, "'" + f.name + "' takes " + std::to_string(f.params.size()) + " arguments, got " +
                              std::to_string(args.size()));
  std::optional<IndexExpr> result;
  TokenCursor saved = in_;
  in_ = TokenCursor(f.tokens, f.colon);
  ++helper_depth_;
  const auto restore = [&] {
    --helper_depth_;
    in_ = saved;
  };
  try {
    python::suite(in_, (*f.tokens)[f.keyword], [&] {
      const Token& t = in_.peek();
      if (result) return python::skip_statement(in_);            // after the return: never run
      if (t.kind == TokenKind::string) return void(in_.next());  // a docstring
      if (t.is_name("pass")) return void(in_.next());
      if (t.is_name("return")) {
        in_.next();
        if (in_.peek().ends_statement()) in_.fail(t, "'" + f.name + "' returns None here, not an index expression");
        result = index_expr(names);
        return;
      }
      if (t.kind == TokenKind::identifier && in_.peek(1).is_op("=")) {
        in_.next();
        in_.next();
        names.insert_or_assign(t.text, index_expr(names));
        return;
      }
      in_.fail(t,
               "mmacheck reads a helper that assigns index expressions to names and returns one (k = ..., "
               "return ...), called in an index expression; got " +
                   describe(t) + " in '" + f.name + "'");
    });
  } catch (...) {
    restore();
    throw;
  }
  restore();
  if (!result) throw Error(name.loc, "'" + f.name + "' returns nothing (None), not an index expression");
  return *result;
}

}  // namespace mmacheck
