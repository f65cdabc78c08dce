#include "core/cute/cute_text.h"

#include <cctype>
#include <charconv>

namespace mmacheck {

namespace {

constexpr std::string_view kDirectives[] = {"include", "pragma", "define", "undef", "if",    "ifdef",
                                            "ifndef",  "else",   "elif",   "endif", "error", "line"};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// C++'s punctuators, one character each (`::` is joined by the scanner).
constexpr std::string_view kPunct = "<>(){}[],;:=*&+-/!~?.%^|#\\";

std::string byte_text(char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("0x") + kHex[u >> 4] + kHex[u & 15];
}

class Scanner {
 public:
  Scanner(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  std::vector<CppToken> run() {
    if (const std::size_t nul = text_.find('\0'); nul != std::string_view::npos) {
      while (pos_ < nul) advance();
      throw Error(here(), "a NUL byte (0x00): not C++ text");
    }
    std::vector<CppToken> out;
    while (true) {
      skip_space_and_comments();
      if (pos_ >= text_.size()) break;
      out.push_back(token());
    }
    out.push_back({CppKind::end, "", 0, here()});
    return out;
  }

 private:
  SourceLoc here() const { return {file_, line_, col_}; }
  char at(std::size_t i) const { return i < text_.size() ? text_[i] : '\0'; }
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  void skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') advance();
  }

  // `#` then a directive name: a directive token; `#` otherwise: a comment.
  bool directive_ahead() const {
    std::size_t i = pos_ + 1;
    while (at(i) == ' ' || at(i) == '\t') ++i;
    std::size_t j = i;
    while (ident_char(at(j))) ++j;
    const std::string_view word = text_.substr(i, j - i);
    for (std::string_view d : kDirectives)
      if (word == d) return true;
    return false;
  }

  void skip_space_and_comments() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        advance();
      } else if (c == '/' && at(pos_ + 1) == '/') {
        skip_line();
      } else if (c == '/' && at(pos_ + 1) == '*') {
        const SourceLoc start = here();
        advance();
        advance();
        while (pos_ < text_.size() && !(text_[pos_] == '*' && at(pos_ + 1) == '/')) advance();
        if (pos_ >= text_.size()) throw Error(start, "unterminated /* comment");
        advance();
        advance();
      } else if (c == '#' && !directive_ahead()) {
        skip_line();
      } else {
        return;
      }
    }
  }

  CppToken token() {
    const SourceLoc loc = here();
    const std::size_t start = pos_;
    const char c = text_[pos_];
    if (c == '#') {
      skip_line();
      return {CppKind::directive, std::string(text_.substr(start, pos_ - start)), 0, loc};
    }
    if (ident_start(c)) {
      while (ident_char(at(pos_))) advance();
      return {CppKind::identifier, std::string(text_.substr(start, pos_ - start)), 0, loc};
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (ident_char(at(pos_))) advance();  // digits and suffixes (4u) alike
      const std::string spelled(text_.substr(start, pos_ - start));
      std::size_t digits = 0;
      while (digits < spelled.size() && std::isdigit(static_cast<unsigned char>(spelled[digits]))) ++digits;
      std::int64_t v = 0;
      const auto [ptr, ec] = std::from_chars(spelled.data(), spelled.data() + digits, v);
      if (ec != std::errc{}) throw Error(loc, "integer '" + spelled + "' does not fit in 64 bits");
      (void)ptr;
      return {CppKind::integer, spelled, v, loc};
    }
    if (c == '"' || c == '\'') {
      advance();
      while (pos_ < text_.size() && text_[pos_] != c && text_[pos_] != '\n') {
        if (text_[pos_] == '\\') advance();
        if (pos_ < text_.size()) advance();
      }
      if (pos_ >= text_.size() || text_[pos_] != c) throw Error(loc, "unterminated literal");
      advance();
      return {CppKind::literal, std::string(text_.substr(start, pos_ - start)), 0, loc};
    }
    if (c == ':' && at(pos_ + 1) == ':') {
      advance();
      advance();
      return {CppKind::punct, "::", 0, loc};
    }
    if (kPunct.find(c) == std::string_view::npos)
      throw Error(loc, "unexpected byte " + byte_text(c) +
                           (std::isprint(static_cast<unsigned char>(c)) ? " '" + std::string(1, c) + "'" : "") +
                           ": not part of a C++ token");
    advance();
    return {CppKind::punct, std::string(1, c), 0, loc};
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

std::vector<CppToken> tokenize_cpp(std::string_view text, const std::string& file) { return Scanner(text, file).run(); }

std::string describe(const CppToken& token) {
  if (token.kind == CppKind::end) return "end of input";
  return "'" + token.text + "'";
}

const CppToken& CppCursor::peek(std::size_t ahead) const {
  const std::size_t i = pos_ + ahead;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const CppToken& CppCursor::next() {
  const CppToken& t = peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool CppCursor::accept(std::string_view punct) {
  if (!peek().is(punct)) return false;
  next();
  return true;
}

const CppToken& CppCursor::expect(std::string_view punct, std::string_view context) {
  if (!peek().is(punct))
    throw Error(peek().loc,
                "expected '" + std::string(punct) + "' " + std::string(context) + ", got " + describe(peek()));
  return next();
}

const CppToken& CppCursor::expect_name(std::string_view context) {
  if (peek().kind != CppKind::identifier)
    throw Error(peek().loc, "expected a name " + std::string(context) + ", got " + describe(peek()));
  return next();
}

CppCursor::Level::Level(CppCursor& c) : c_(c) {
  if (++c_.depth_ > c_.max_depth_) {
    --c_.depth_;
    Limits limits;
    limits.set(Resource::depth, c_.max_depth_);
    limits.check(Resource::depth, c_.max_depth_ + 1, c_.peek().loc, "the nesting here");
  }
}

void CppCursor::skip_balanced(std::string_view open, std::string_view close) {
  int depth = 1;
  while (depth > 0) {
    if (at_end()) throw Error(peek().loc, "unbalanced '" + std::string(open) + "'");
    const CppToken& t = next();
    if (t.is(open)) ++depth;
    if (t.is(close)) --depth;
  }
}

}  // namespace mmacheck
