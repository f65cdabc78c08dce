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
      in.fail(t, "unexpected indent (the block of '" + header->text + "' at line " +
                     std::to_string(header->loc.line) + " is indented to column " + std::to_string(indent) + ")");
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
    in.fail(first, "expected an indented block after '" + header.text + "' at line " +
                       std::to_string(header.loc.line) + ", got " + describe(first));
  block(in, first.loc.col, &header, statement);
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

}  // namespace mmacheck::python
