// Lexer — Python-like tokens for layout expressions and layout files, and a
// cursor that parsers walk them with.
//
// Tokens carry a 1-based line and column (columns count bytes).  Newlines end
// statements, except inside open brackets, so a statement may continue over
// several lines while a ( or [ is open; a backslash at the end of a line also
// continues it.  `#` starts a comment.  Blank lines give no token.
//
//     tokenize("S[8 : 4@laneid]  # acc\n", "f.txt")
//       -> S  [  8  :  4  @  laneid  ]  <newline>  <end>
//
// Operators: + - * // / % @ : , . ; = ( ) [ ] { } -> .. >> << &   (`/` exists only
// so that parsers can say "use '//'"; the shifts and `&` serve index
// expressions).  Integers are decimal or 0x hex, `_` allowed
// between digits, and must fit in int64; `0..15` is 0, `..`, 15.  Strings are
// '...' or "..." on one line, with \\ \' \" \n \t escapes; a triple-quoted
// string (a docstring) may span lines and is kept raw.  Any other byte
// (a stray character, non-ASCII, non-UTF-8) is an Error at its position.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace mmacheck {

enum class TokenKind { identifier, integer, floating, string, op, newline, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string text;            // name, operator, unescaped string contents, or literal spelling
  std::int64_t int_value = 0;  // integer
  double float_value = 0;      // floating
  SourceLoc loc;

  bool is_op(std::string_view op) const { return kind == TokenKind::op && text == op; }
  bool is_name(std::string_view name) const { return kind == TokenKind::identifier && text == name; }
  bool ends_statement() const { return kind == TokenKind::newline || kind == TokenKind::end; }
  bool opens() const { return is_op("(") || is_op("[") || is_op("{"); }   // a bracket
  bool closes() const { return is_op(")") || is_op("]") || is_op("}"); }  // its partner
};

// For messages: 'foo', '12', string 'abc', end of line, end of input.
std::string describe(const Token& token);

// All tokens of `text`, ending with one `end` token.  Throws Error at the
// first character that cannot start a token, an unterminated string, or an
// integer that does not fit in int64.
std::vector<Token> tokenize(std::string_view text, const std::string& file);
// The same for `text` that starts at `at` (line, column) of at.file, a piece
// of a larger line-based file (a layout after `layout=`): its tokens and
// errors are placed in the file, without reading the lines before it.
std::vector<Token> tokenize(std::string_view text, const SourceLoc& at);

// A read position in a token list (which ends with an `end` token).  The
// helpers throw Error at the offending token, so parsers read like grammar.
// Cursors may share one token list: the Python evaluator
// (core/program/python_eval.h) reads a def's body again at each call.
class TokenCursor {
 public:
  using Tokens = std::shared_ptr<const std::vector<Token>>;
  explicit TokenCursor(std::vector<Token> tokens);
  // A cursor at token `position` of a shared list (which ends with `end`).
  TokenCursor(Tokens tokens, std::size_t position);

  const Tokens& tokens() const { return tokens_; }
  std::size_t position() const { return pos_; }
  // Moves to token `position` of the same list (a Python def's body read
  // again, the untaken side of a conditional passed over).
  void seek(std::size_t position);

  const Token& peek(std::size_t ahead = 0) const;
  const Token& next();
  // Consume the next token when it is the operator `op`.
  bool accept(std::string_view op);
  // Consume the operator `op` or throw "expected 'op' <context>, got ...".
  const Token& expect(std::string_view op, std::string_view context = "");
  // Consume the bracket `close` or throw
  // "expected ']' to close 'S[' opened at column 3, got ...".
  const Token& expect_close(std::string_view close, std::string_view opener, const Token& open);
  const Token& expect_name(std::string_view what);
  [[noreturn]] void fail(const Token& at, const std::string& message) const;

  // Bounds the recursion of parsers on deeply nested input: construct one
  // per nested construct; throws "expression nested too deeply" past the limit.
  class Nesting {
   public:
    explicit Nesting(TokenCursor& in);
    ~Nesting() { --in_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    TokenCursor& in_;
  };

 private:
  Tokens tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace mmacheck
