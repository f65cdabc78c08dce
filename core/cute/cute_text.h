// CppTokens — the tokens of a CUTLASS trait header or of a CuTe atom list,
// and a cursor over them.
//
// Only as much C++ as the trait headers use: identifiers (`_4` is one),
// decimal integers, string and character literals (kept whole, never read),
// single-character punctuation except `::`, and preprocessor lines, each one
// `directive` token holding the line (`#include <cute/layout.hpp>`).  `//`
// and `/* */` comments are skipped, and so is `#` followed by anything that
// is not a directive name, so that atom lists may use `# comment` lines.
// Strict: a NUL byte anywhere, or a byte outside comments and literals that
// is no C++ token (a control character, non-ASCII, `@`, `$`, a backtick) is a
// located Error, never a token.
//
//     tokenize_cpp("using X = Layout<_32>;  // t", "f.hpp")
//       -> using  X  =  Layout  <  _32  >  ;  <end>
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/base/limits.h"

namespace mmacheck {

enum class CppKind { identifier, integer, literal, punct, directive, end };

struct CppToken {
  CppKind kind = CppKind::end;
  std::string text;
  std::int64_t value = 0;  // integer
  SourceLoc loc;

  bool is(std::string_view punct) const { return kind == CppKind::punct && text == punct; }
  bool is_name(std::string_view name) const { return kind == CppKind::identifier && text == name; }
};

// Every token of `text`, ending with one `end` token.  Throws Error at an
// unterminated comment or literal, or an integer that does not fit.
std::vector<CppToken> tokenize_cpp(std::string_view text, const std::string& file);

// A read position in a token list; the helpers throw located Errors.
// Recursive readers enter() each bracket level they descend into; past
// `max_depth` levels (Resource::depth) that is the limit's located Error, so
// no input can overflow the stack.
class CppCursor {
 public:
  explicit CppCursor(std::vector<CppToken> tokens,
                     std::int64_t max_depth = resource_info(Resource::depth).default_limit)
      : tokens_(std::move(tokens)), max_depth_(max_depth) {}

  // One level deeper for the guard's lifetime.
  class Level {
   public:
    explicit Level(CppCursor& c);
    ~Level() { --c_.depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

   private:
    CppCursor& c_;
  };

  const CppToken& peek(std::size_t ahead = 0) const;
  const CppToken& next();
  bool at_end() const { return peek().kind == CppKind::end; }
  bool accept(std::string_view punct);
  const CppToken& expect(std::string_view punct, std::string_view context);
  const CppToken& expect_name(std::string_view context);
  std::size_t position() const { return pos_; }
  void seek(std::size_t pos) { pos_ = pos; }
  // Skip past the `close` that matches an `open` already consumed.
  void skip_balanced(std::string_view open, std::string_view close);

 private:
  std::vector<CppToken> tokens_;
  std::size_t pos_ = 0;
  std::int64_t max_depth_;
  std::int64_t depth_ = 0;
};

// For messages: 'Layout', '32', end of input.
std::string describe(const CppToken& token);

}  // namespace mmacheck
