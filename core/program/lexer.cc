#include "core/program/lexer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

namespace mmacheck {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// The length of the well-formed UTF-8 sequence of 2 to 4 bytes at `text[i]`,
// 0 if there is none.  Python 3 takes non-ASCII identifiers (`α = 2`); such a
// sequence is a name character, compared byte for byte.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0; };
  const unsigned char lead = byte(0);
  const std::size_t n = lead >= 0xC2 && lead <= 0xDF   ? 2
                        : lead >= 0xE0 && lead <= 0xEF ? 3
                        : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                       : 0;
  for (std::size_t k = 1; k < n; ++k)
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  // No overlong form, surrogate or code point past U+10FFFF (RFC 3629), as Python decodes.
  const unsigned char second = byte(1);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) || (lead == 0xF0 && second < 0x90) ||
      (lead == 0xF4 && second > 0x8F))
    return 0;
  return n;
}
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string quote_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7f) return "character '" + std::string(1, c) + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", byte);
  return std::string("byte ") + buf;
}

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<Token> run() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = line_start_ = 3;  // a UTF-8 byte order mark
    check_encoding();
    while (pos_ < text_.size()) step();
    tokens_.push_back(Token{TokenKind::end, "", 0, 0, here()});
    return std::move(tokens_);
  }

 private:
  char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }
  // Columns count as Python's indentation does: a tab advances to the next
  // multiple of 8, so a block indented with tabs nests as Python reads it.
  SourceLoc here() const {
    const std::size_t from = tab_end_ > line_start_ ? tab_end_ : line_start_;
    const int base = tab_end_ > line_start_ ? tab_col_ : 0;
    return SourceLoc{file_, line_, base + static_cast<int>(pos_ - from) + 1};
  }
  [[noreturn]] void fail(const SourceLoc& loc, const std::string& message) const { throw Error(loc, message); }

  // At a line break: "\n", "\r\n" or a lone "\r" (old Mac files), as Python.
  bool at_line_break(std::size_t i) const { return at(i) == '\n' || (at(i) == '\r' && i < text_.size()); }
  void newline() {
    if (at(pos_) == '\r' && at(pos_ + 1) == '\n') ++pos_;
    ++pos_;
    ++line_;
    line_start_ = pos_;
  }

  // A newline token ends a non-empty logical line outside brackets.
  void end_line(const SourceLoc& loc) {
    if (depth_ == 0 && !tokens_.empty() && tokens_.back().kind != TokenKind::newline)
      tokens_.push_back(Token{TokenKind::newline, "", 0, 0, loc});
  }

  // The place of byte `i`, counted as the tokens' places are (columns in bytes from the line's start).
  SourceLoc place_of(std::size_t i) const {
    int line = 1;
    std::size_t start = 0;
    for (std::size_t k = 0; k < i; ++k)
      if (text_[k] == '\n' || (text_[k] == '\r' && at(k + 1) != '\n')) ++line, start = k + 1;
    return SourceLoc{file_, line, static_cast<int>(i - start) + 1};
  }

  // Python reads a source as UTF-8 unless one of its first two lines
  // declares another encoding (PEP 263); a byte that is no part of a
  // well-formed sequence is its SyntaxError.  mmacheck reads UTF-8 (and
  // ASCII under any declaration) alone.
  void check_encoding() const {
    std::string declared;
    for (std::size_t i = pos_, lines = 0; i < text_.size() && lines < 2; ++lines) {
      const std::size_t end = std::min(text_.find_first_of("\r\n", i), text_.size());
      const std::string_view line = text_.substr(i, end - i);
      const std::size_t hash = line.find('#'), coding = line.find("coding");
      if (hash != std::string_view::npos && coding != std::string_view::npos && coding > hash &&
          coding + 6 < line.size() && (line[coding + 6] == ':' || line[coding + 6] == '=')) {
        std::size_t k = coding + 7;
        while (k < line.size() && (line[k] == ' ' || line[k] == '\t')) ++k;
        while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '-' ||
                                   line[k] == '_' || line[k] == '.'))
          declared += static_cast<char>(std::tolower(static_cast<unsigned char>(line[k++])));
        break;
      }
      i = end + (at(end) == '\r' && at(end + 1) == '\n' ? 2 : 1);
    }
    const bool utf8 =
        declared.empty() || declared == "utf-8" || declared == "utf8" || declared == "utf_8" || declared == "utf-8-sig";
    for (std::size_t i = pos_; i < text_.size(); ++i) {
      if (static_cast<unsigned char>(text_[i]) < 0x80) continue;
      const std::size_t n = utf8 ? utf8_length(text_, i) : 0;
      if (n == 0)
        fail(place_of(i), utf8 ? quote_byte(text_[i]) +
                                     " is not UTF-8 (Python refuses a source that is not UTF-8 "
                                     "unless it declares its encoding)"
                               : "the file declares the encoding '" + declared + "'; mmacheck reads UTF-8 sources");
      i += n - 1;
    }
  }

  // Python's indentation check (its tokenizer): a logical line's
  // indentation measured with tabs to the next multiple of 8 and with tabs
  // as one column must order alike against the enclosing blocks'; where the
  // two disagree the nesting depends on the tab width, and Python stops
  // with TabError.
  void indentation() {
    line_begins_ = false;
    if (depth_ != 0) return;
    int col = 0, alt = 0;
    for (std::size_t i = line_start_; i < pos_; ++i) {
      if (text_[i] == ' ') ++col, ++alt;
      else if (text_[i] == '\t') col = (col / 8 + 1) * 8, ++alt;
      else if (text_[i] == '\f') col = alt = 0;
    }
    const auto tab_error = [&] {
      fail(here(),
           "inconsistent use of tabs and spaces in indentation (Python's TabError: the nesting would "
           "depend on the tab width)");
    };
    if (col > cols_.back()) {
      if (alt <= alts_.back()) tab_error();
      cols_.push_back(col), alts_.push_back(alt);
      return;
    }
    while (cols_.size() > 1 && col < cols_.back()) cols_.pop_back(), alts_.pop_back();
    if (col == cols_.back()) {
      if (alt != alts_.back()) tab_error();
    } else {  // no enclosing level: the block reader says what is wrong; keep comparing from here
      cols_.push_back(col), alts_.push_back(alt);
    }
  }

  void step() {
    const char c = text_[pos_];
    if (line_begins_ && c != '\t' && c != ' ' && c != '\f' && c != '#' && c != '\\' && !at_line_break(pos_))
      indentation();
    if (c == '\t') {
      tab_col_ = ((here().col - 1) / 8 + 1) * 8;
      tab_end_ = ++pos_;
    } else if (c == ' ' || c == '\f') {
      ++pos_;
    } else if (at_line_break(pos_)) {
      end_line(here());
      newline();
      line_begins_ = depth_ == 0;
    } else if (c == '#') {
      while (pos_ < text_.size() && !at_line_break(pos_)) ++pos_;
    } else if (c == '\\') {
      continuation();
    } else if (is_name_start(c) || utf8_length(text_, pos_) > 0) {
      name();
    } else if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
      number();
    } else if (c == '\'' || c == '"') {
      string();
    } else {
      op();
    }
  }

  void continuation() {
    const SourceLoc loc = here();
    std::size_t i = pos_ + 1;
    while (at(i) == ' ' || at(i) == '\t') ++i;
    if (!at_line_break(i)) fail(loc, "'\\' continues a line only at its end");
    pos_ = i;
    newline();
  }

  void name() {
    const SourceLoc loc = here();
    const std::size_t start = pos_;
    while (true) {
      if (is_name_char(at(pos_))) ++pos_;
      else if (const std::size_t n = utf8_length(text_, pos_)) pos_ += n;
      else break;
    }
    tokens_.push_back(Token{TokenKind::identifier, std::string(text_.substr(start, pos_ - start)), 0, 0, loc});
  }

  // Digits (with '_' between them) in `base`, accumulated with overflow checks.
  std::int64_t digits(int base, const SourceLoc& loc, std::size_t start) {
    std::int64_t value = 0;
    bool any = false;
    while (true) {
      const char c = at(pos_);
      const int d = hex_value(c);
      if (c == '_' && any && hex_value(at(pos_ + 1)) >= 0 && hex_value(at(pos_ + 1)) < base) {
        ++pos_;
        continue;
      }
      if (d < 0 || d >= base) break;
      if (__builtin_mul_overflow(value, base, &value) || __builtin_add_overflow(value, d, &value)) {
        while (is_name_char(at(pos_))) ++pos_;
        fail(loc,
             "integer " + std::string(text_.substr(start, pos_ - start)) + " is too large (limit 9223372036854775807)");
      }
      any = true;
      ++pos_;
    }
    if (!any) fail(loc, "malformed number");
    return value;
  }

  void number() {
    const SourceLoc loc = here();
    const std::size_t start = pos_;
    if (at(pos_) == '0' && (at(pos_ + 1) == 'x' || at(pos_ + 1) == 'X')) {
      pos_ += 2;
      const std::int64_t value = digits(16, loc, start);
      finish_integer(loc, start, value);
      return;
    }
    bool is_float = false;
    while (is_digit(at(pos_)) || at(pos_) == '_') ++pos_;
    // `0..15` is a range, `1.` and `1.5` are floats.
    if (at(pos_) == '.' && at(pos_ + 1) != '.') {
      is_float = true;
      ++pos_;
      while (is_digit(at(pos_))) ++pos_;
    }
    if ((at(pos_) == 'e' || at(pos_) == 'E') &&
        (is_digit(at(pos_ + 1)) || ((at(pos_ + 1) == '+' || at(pos_ + 1) == '-') && is_digit(at(pos_ + 2))))) {
      is_float = true;
      pos_ += 2;
      while (is_digit(at(pos_))) ++pos_;
    }
    if (!is_float) {
      pos_ = start;
      finish_integer(loc, start, digits(10, loc, start));
      return;
    }
    std::string spelling;
    for (char c : text_.substr(start, pos_ - start))
      if (c != '_') spelling += c;
    double value = 0;
    const auto [end, ec] = std::from_chars(spelling.data(), spelling.data() + spelling.size(), value);
    if (ec != std::errc() || end != spelling.data() + spelling.size()) fail(loc, "malformed number '" + spelling + "'");
    tokens_.push_back(Token{TokenKind::floating, spelling, 0, value, loc});
  }

  void finish_integer(const SourceLoc& loc, std::size_t start, std::int64_t value) {
    if (is_name_char(at(pos_))) {
      while (is_name_char(at(pos_))) ++pos_;
      fail(loc, "malformed number '" + std::string(text_.substr(start, pos_ - start)) + "'");
    }
    tokens_.push_back(Token{TokenKind::integer, std::string(text_.substr(start, pos_ - start)), value, 0, loc});
  }

  // """...""" or '''...''' (a docstring), over any number of lines, kept raw.
  void long_string() {
    const SourceLoc loc = here();
    const std::string_view quotes = text_.substr(pos_, 3);
    pos_ += 3;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_.substr(pos_, 3) != quotes) {
      if (text_[pos_] == '\\') ++pos_;
      if (at_line_break(pos_)) newline();
      else ++pos_;
    }
    if (pos_ >= text_.size()) fail(loc, "unterminated string");
    tokens_.push_back(Token{TokenKind::string, std::string(text_.substr(start, pos_ - start)), 0, 0, loc});
    pos_ += 3;
  }

  void string() {
    if (text_.substr(pos_, 3) == "\"\"\"" || text_.substr(pos_, 3) == "'''") return long_string();
    const SourceLoc loc = here();
    const char quote = text_[pos_++];
    std::string value;
    while (true) {
      const char c = at(pos_);
      if (pos_ >= text_.size() || at_line_break(pos_)) fail(loc, "unterminated string");
      ++pos_;
      if (c == quote) break;
      if (c != '\\') {
        value += c;
        continue;
      }
      const char e = at(pos_);
      if (e == 'n') value += '\n';
      else if (e == 't') value += '\t';
      else if (e == '\\' || e == '\'' || e == '"') value += e;
      else fail(SourceLoc{file_, line_, static_cast<int>(pos_ - line_start_)}, "unknown escape in string");
      ++pos_;
    }
    tokens_.push_back(Token{TokenKind::string, value, 0, 0, loc});
  }

  // Python's operators, longest first, so that a whole .py file lexes (the
  // readers give the ones they do not read a located error, not the lexer).
  void op() {
    static constexpr std::string_view kLong[] = {"//=", ">>=", "<<=", "**=", "...", "//", "->", "..", ">>",
                                                 "<<",  "==",  "!=",  "<=",  ">=",  "**", ":=", "+=", "-=",
                                                 "*=",  "/=",  "%=",  "&=",  "|=",  "^=", "@="};
    static constexpr std::string_view kOne = "+-*/%@:,.;=()[]{}&<>|^~";
    const SourceLoc loc = here();
    for (std::string_view two : kLong)
      if (text_.substr(pos_, two.size()) == two) {
        pos_ += two.size();
        tokens_.push_back(Token{TokenKind::op, std::string(two), 0, 0, loc});
        return;
      }
    const char c = text_[pos_];
    if (kOne.find(c) == std::string_view::npos) fail(loc, "unexpected " + quote_byte(c));
    ++pos_;
    if (c == '(' || c == '[' || c == '{') ++depth_;
    if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
    tokens_.push_back(Token{TokenKind::op, std::string(1, c), 0, 0, loc});
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  std::size_t line_start_ = 0;
  std::size_t tab_end_ = 0;  // just after the line's last tab (when > line_start_)
  int tab_col_ = 0;          // the 0-based column there
  int line_ = 1;
  int depth_ = 0;
  bool line_begins_ = true;             // the next token starts a logical line
  std::vector<int> cols_{0}, alts_{0};  // the enclosing blocks' indentation, tabs as 8 and as 1
  std::vector<Token> tokens_;
};

std::string where_opened(const Token& open, const Token& at) {
  if (open.loc.line == at.loc.line) return "column " + std::to_string(open.loc.col);
  return "line " + std::to_string(open.loc.line) + ", column " + std::to_string(open.loc.col);
}

constexpr int kMaxNesting = 200;

}  // namespace

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::newline: return "end of line";
    case TokenKind::end: return "end of input";
    case TokenKind::string: return "string '" + token.text + "'";
    default: return "'" + token.text + "'";
  }
}

std::vector<Token> tokenize(std::string_view text, const std::string& file) { return Lexer(text, file).run(); }

std::vector<Token> tokenize(std::string_view text, const SourceLoc& at) {
  const auto place = [&](SourceLoc loc) {
    if (!loc.known()) return loc;
    if (loc.line == 1) loc.col += at.col - 1;
    loc.line += at.line - 1;
    return loc;
  };
  std::vector<Token> tokens;
  try {
    tokens = Lexer(text, at.file).run();
  } catch (const Error& e) {
    throw Error(place(e.loc()), e.message());
  }
  for (Token& t : tokens) t.loc = place(t.loc);
  return tokens;
}

namespace {

TokenCursor::Tokens ended(std::vector<Token> tokens) {
  if (tokens.empty() || tokens.back().kind != TokenKind::end) tokens.push_back(Token{});
  return std::make_shared<const std::vector<Token>>(std::move(tokens));
}

}  // namespace

TokenCursor::TokenCursor(std::vector<Token> tokens) : tokens_(ended(std::move(tokens))) {}

TokenCursor::TokenCursor(Tokens tokens, std::size_t position) : tokens_(std::move(tokens)), pos_(position) {
  if (tokens_->empty() || tokens_->back().kind != TokenKind::end || pos_ >= tokens_->size())
    throw Error("internal: a token cursor needs a list ending in `end` and a position inside it");
}

void TokenCursor::seek(std::size_t position) {
  if (position >= tokens_->size()) throw Error("internal: a token cursor moved past the end of its list");
  pos_ = position;
}

const Token& TokenCursor::peek(std::size_t ahead) const {
  return (*tokens_)[std::min(pos_ + ahead, tokens_->size() - 1)];
}

const Token& TokenCursor::next() {
  const Token& t = (*tokens_)[pos_];
  if (pos_ + 1 < tokens_->size()) ++pos_;
  return t;
}

bool TokenCursor::accept(std::string_view op) {
  if (!peek().is_op(op)) return false;
  next();
  return true;
}

const Token& TokenCursor::expect(std::string_view op, std::string_view context) {
  if (!peek().is_op(op)) {
    std::string message = "expected '" + std::string(op) + "'";
    if (!context.empty()) message.append(" ").append(context);
    fail(peek(), message + ", got " + describe(peek()));
  }
  return next();
}

const Token& TokenCursor::expect_close(std::string_view close, std::string_view opener, const Token& open) {
  if (!peek().is_op(close))
    fail(peek(), "expected '" + std::string(close) + "' to close '" + std::string(opener) + "' opened at " +
                     where_opened(open, peek()) + ", got " + describe(peek()));
  return next();
}

const Token& TokenCursor::expect_name(std::string_view what) {
  if (peek().kind != TokenKind::identifier) fail(peek(), "expected " + std::string(what) + ", got " + describe(peek()));
  return next();
}

void TokenCursor::fail(const Token& at, const std::string& message) const { throw Error(at.loc, message); }

TokenCursor::Nesting::Nesting(TokenCursor& in) : in_(in) {
  if (++in_.depth_ > kMaxNesting) {
    --in_.depth_;
    in_.fail(in_.peek(), "expression nested too deeply (limit " + std::to_string(kMaxNesting) + ")");
  }
}

}  // namespace mmacheck
