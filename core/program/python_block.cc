#include "core/program/python_block.h"

#include <string>

namespace mmacheck::python {

void block(TokenCursor& in, int indent, const Token* header, const Statement& statement) {
  bool same_line = false;  // the previous statement ended with ';'
  while (true) {
    std::size_t k = 0;
    while (!same_line && in.peek(k).kind == TokenKind::newline) ++k;
    const Token& t = in.peek(k);
    if (t.kind == TokenKind::end) return;
    if (!same_line && indent > 0 && t.loc.col < indent) return;  // the block ends (newline left for the caller)
    while (k-- > 0) in.next();
    if (!same_line && indent > 0 && t.loc.col > indent)
      in.fail(t, "unexpected indent (the block of '" + header->text + "' at line " + std::to_string(header->loc.line) +
                     " is indented to column " + std::to_string(indent) + ")");
    statement();
    if (in.accept(";")) {
      same_line = !in.peek().ends_statement();
      continue;
    }
    same_line = false;
    const Token& e = in.peek();
    if (!e.ends_statement()) in.fail(e, "unexpected " + describe(e) + " after the statement");
  }
}

void suite(TokenCursor& in, const Token& header, const Statement& statement) {
  in.expect(":", "at the end of the '" + header.text + "' line");
  if (!in.peek().ends_statement()) {  // `for s in T.unroll(4): A_reg[s] = ...; B_reg[s] = ...`
    while (true) {
      statement();
      if (!in.accept(";") || in.peek().ends_statement()) break;
    }
    if (!in.peek().ends_statement()) in.fail(in.peek(), "unexpected " + describe(in.peek()) + " after the statement");
    return;
  }
  std::size_t k = 0;
  while (in.peek(k).kind == TokenKind::newline) ++k;
  const Token& first = in.peek(k);
  if (first.kind == TokenKind::end || first.loc.col <= header.loc.col)
    in.fail(first, "expected an indented block after '" + header.text + "' at line " + std::to_string(header.loc.line) +
                       ", got " + describe(first));
  block(in, first.loc.col, &header, statement);
}

void skip_statement(TokenCursor& in) {
  const Token& first = in.peek();
  while (!in.peek().ends_statement() && !in.peek().is_op(";")) {
    if (in.peek().is_op(":") && in.peek(1).ends_statement()) return suite(in, first, [&] { skip_statement(in); });
    in.next();
  }
}

bool skip_import(TokenCursor& in) {
  if (!in.peek().is_name("from") && !in.peek().is_name("import")) return false;
  while (!in.peek().ends_statement() && !in.peek().is_op(";")) in.next();
  return true;
}

void expect_decorated(TokenCursor& in, const Token& at, std::string_view decorator, std::string_view keyword) {
  std::size_t k = 0;
  while (in.peek(k).kind == TokenKind::newline) ++k;
  if (!in.peek(k).is_name(keyword))
    in.fail(at, "@" + std::string(decorator) + " must be followed by a " + std::string(keyword));
  while (k-- > 0) in.next();
}

bool at_kernel_decorator(const TokenCursor& in, std::size_t k) {
  const Token& ns = in.peek(k + 1);
  const Token& fn = in.peek(k + 3);
  return in.peek(k).is_op("@") && (ns.is_name("T") || ns.is_name("Tx") || ns.is_name("I")) &&
         in.peek(k + 2).is_op(".") && (fn.is_name("prim_func") || fn.is_name("function") || fn.is_name("ir_module"));
}

std::optional<std::string> skip_inert_call(TokenCursor& in) {
  const Token& t = in.peek();
  if (!(t.is_name("T") && in.peek(1).is_op(".") && in.peek(3).is_op("("))) return std::nullopt;
  const Token& fn = in.peek(2);
  if (fn.is_name("evaluate")) {
    const Token& value = in.peek(4);
    if (!(value.kind == TokenKind::integer && in.peek(5).is_op(")")))
      in.fail(value,
              "T.evaluate of anything but an integer constant may change what the gemm reads; "
              "mmacheck does not read it");
    const std::string what = "T.evaluate(" + value.text + ")" + " (line " + std::to_string(t.loc.line) + ")";
    for (int i = 0; i < 6; ++i) in.next();
    return what;
  }
  if (!fn.is_name("func_attr")) return std::nullopt;
  for (int i = 0; i < 3; ++i) in.next();
  const Token& open = in.next();
  int depth = 0;
  while (depth > 0 || !in.peek().is_op(")")) {
    const Token& x = in.peek();
    if (x.kind == TokenKind::end) in.fail(open, "T.func_attr( is not closed");
    if (x.is_op("(") || x.is_op("[") || x.is_op("{")) ++depth;
    if (x.is_op(")") || x.is_op("]") || x.is_op("}")) --depth;
    in.next();
  }
  in.next();
  return "T.func_attr (line " + std::to_string(t.loc.line) + ")";
}

namespace {

// One statement of a skipped def or class, with the block of a compound one.
void skip_nested(TokenCursor& in, const std::string& owner) {
  if (at_kernel_decorator(in))
    in.fail(in.peek(), "a kernel inside " + owner +
                           " is not read: mmacheck reads kernels at the top level of a file or in an @I.ir_module "
                           "class (a kernel built inside a def depends on the def's arguments)");
  const Token& first = in.peek();
  while (!in.peek().ends_statement() && !in.peek().is_op(";")) {
    if (in.peek().is_op(":") && in.peek(1).ends_statement()) return suite(in, first, [&] { skip_nested(in, owner); });
    in.next();
  }
}

std::string at_line(const Token& t) { return " (line " + std::to_string(t.loc.line) + ")"; }

}  // namespace

bool ForeignStatements::skip(TokenCursor& in, const Forget& forget) {
  const Token& t = in.peek();
  const bool main_block = t.is_name("if") && in.peek(1).is_name("__name__") && in.peek(2).is_op("==") &&
                          in.peek(3).kind == TokenKind::string && in.peek(3).text == "__main__" &&
                          in.peek(4).is_op(":");
  const bool data =
      t.kind == TokenKind::identifier && in.peek(1).is_op("=") && (in.peek(2).is_op("[") || in.peek(2).is_op("{"));
  const bool def = (t.is_op("@") && !at_kernel_decorator(in)) || t.is_name("def") || t.is_name("class");
  if (main_block_line_ && !def && !data && !main_block)
    in.fail(t,
            "the if __name__ == \"__main__\" block at line " + std::to_string(*main_block_line_) +
                " comes before this: run as a script, the file runs that block first; mmacheck reads nothing after it");
  if (main_block) {
    for (int i = 0; i < 4; ++i) in.next();
    const std::string what = "if __name__ block" + at_line(t);
    suite(in, t, [&] { skip_nested(in, what); });
    skipped_.push_back(what);
    main_block_line_ = t.loc.line;
    return true;
  }
  if (data) {  // NAME = [...] | NAME = {...}: data (a test's parameters), not a layout
    const std::string value = in.peek(2).is_op("[") ? "[...]" : "{...}";
    while (!in.peek().ends_statement() && !in.peek().is_op(";")) in.next();
    skipped_.push_back(t.text + " = " + value + at_line(t));
    forget(t.text);
    return true;
  }
  if (!def) return false;
  std::string decorators;
  while (in.peek().is_op("@")) {
    if (at_kernel_decorator(in))
      in.fail(in.peek(),
              "a kernel under another decorator (" + decorators + ") is not read: the decorator may change the kernel");
    const Token& at = in.next();
    std::string name = "@";
    while (in.peek().kind == TokenKind::identifier || in.peek().is_op(".")) name += in.next().text;
    while (!in.peek().ends_statement()) in.next();  // the arguments (the lexer joins bracketed lines)
    decorators += (decorators.empty() ? "" : " ") + name;
    std::size_t k = 0;
    while (in.peek(k).kind == TokenKind::newline) ++k;
    if (!in.peek(k).is_op("@") && !in.peek(k).is_name("def") && !in.peek(k).is_name("class"))
      in.fail(at, "a decorator must be followed by a def or a class");
    while (k-- > 0) in.next();
  }
  const Token& keyword = in.next();
  const Token& name = in.peek();
  if (name.kind != TokenKind::identifier) in.fail(name, "expected a name after '" + keyword.text + "'");
  const std::string what = keyword.text + " " + name.text + at_line(keyword);
  for (int depth = 0; depth > 0 || !in.peek().is_op(":");) {  // the header: name, parameters, annotations
    const Token& x = in.peek();
    if (x.ends_statement()) in.fail(x, "expected ':' at the end of the '" + keyword.text + "' line");
    if (x.is_op("(") || x.is_op("[") || x.is_op("{")) ++depth;
    if (x.is_op(")") || x.is_op("]") || x.is_op("}")) --depth;
    in.next();
  }
  suite(in, keyword, [&] { skip_nested(in, what); });
  skipped_.push_back(decorators.empty() ? what : decorators + " " + what);
  forget(name.text);
  return true;
}

}  // namespace mmacheck::python
