// Layer core/base: errors, file I/O, JSON, allocator tuning. Uses nothing of the project.
//
// mmacheck::Error — the one exception type of the project.
//
// Every piece of bad input (a malformed layout expression, a shape the layout
// does not admit, an unknown buffer, a bad vector file) is reported by
// throwing an Error that carries *where* (a SourceLoc, possibly unknown) and
// *what* (a one-line message).  The CLI catches Errors once, prints them as
//
//     FILE:LINE:COL: error: MESSAGE
//
// and exits with status 2.  Library code never prints and never exits.  A
// message over about 660 bytes keeps its head and tail ("... (N bytes left
// out) ..."), so quoting a huge token stays a short message.
//
// Example:
//     throw Error(SourceLoc{"gemm.txt", 3, 17}, "unknown buffer 'Q'");
//     // what(): "gemm.txt:3:17: error: unknown buffer 'Q'"
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace mmacheck {

// A position in some input text.  line and col are 1-based; 0 means unknown
// (col 0: the whole line; line 0: the whole input).
struct SourceLoc {
  std::string file;  // "" when the input has no name
  int line = 0;
  int col = 0;

  bool known() const { return line > 0; }
  // "FILE:LINE:COL", "FILE:LINE", "FILE" or "" depending on what is known.
  std::string str() const;
};

// `text` safe to print in a message: bytes outside printable ASCII (ESC,
// NUL, non-UTF-8) as \xNN, a backslash as \\.  printable("a\x1b[2J") == "a\\x1b[2J".
std::string printable(std::string_view text);

class Error : public std::runtime_error {
 public:
  Error(SourceLoc loc, std::string message);
  explicit Error(std::string message) : Error(SourceLoc{}, std::move(message)) {}

  const SourceLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }

  // The same error, placed at `loc` unless it already has a location.  Used
  // when a layer without positions (the layout algebra) fails inside a
  // statement whose position the caller knows.
  Error located(const SourceLoc& loc) const;

 private:
  Error(SourceLoc loc, std::string message, int);  // message already bounded

  SourceLoc loc_;
  std::string message_;
};

}  // namespace mmacheck
