#include "core/base/error.h"

namespace mmacheck {

std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\') {
      out += "\\\\";
    } else if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

std::string SourceLoc::str() const {
  std::string s = file;
  if (line > 0) {
    s += (s.empty() ? "" : ":") + std::to_string(line);
    if (col > 0) s += ":" + std::to_string(col);
  }
  return s;
}

// A message quotes the input, whose bytes would drive a terminal (ESC, OSC,
// BEL, a C1 control in UTF-8) or cut the message (NUL): shown as \xNN, the
// way printable() does; line breaks, tabs and other UTF-8 stay.
static std::string controls_escaped(std::string message) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto control = [&](std::size_t i) {
    const auto b = static_cast<unsigned char>(message[i]);
    if (b == '\n' || b == '\t') return std::size_t{0};
    if (b < 0x20 || b == 0x7f) return std::size_t{1};
    if (b == 0xc2 && i + 1 < message.size() && static_cast<unsigned char>(message[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(message[i + 1]) <= 0x9f)
      return std::size_t{2};
    return std::size_t{0};
  };
  std::size_t i = 0;
  while (i < message.size() && control(i) == 0) ++i;
  if (i == message.size()) return message;
  std::string out = message.substr(0, i);
  while (i < message.size()) {
    const std::size_t n = control(i);
    if (n == 0) {
      out += message[i++];
      continue;
    }
    for (std::size_t j = 0; j < n; ++j, ++i) {
      const auto b = static_cast<unsigned char>(message[i]);
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

static std::string render(const SourceLoc& loc, const std::string& message) {
  const std::string where = controls_escaped(loc.str());  // a file name is input too
  return (where.empty() ? "" : where + ": ") + "error: " + message;
}

// A message quotes the input (a token, a name): a 40 MB one-line file must
// not come back as a 40 MB message.
static std::string bounded(std::string message) {
  constexpr std::size_t kHead = 480, kTail = 120;
  if (message.size() <= kHead + kTail + 64) return message;
  const std::size_t dropped = message.size() - kHead - kTail;
  return message.substr(0, kHead) + "... (" + std::to_string(dropped) + " bytes left out) ..." +
         message.substr(message.size() - kTail);
}

Error::Error(SourceLoc loc, std::string message)
    : Error(std::move(loc), controls_escaped(bounded(std::move(message))), 0) {}

Error::Error(SourceLoc loc, std::string message, int)
    : std::runtime_error(render(loc, message)), loc_(std::move(loc)), message_(std::move(message)) {}

Error Error::located(const SourceLoc& loc) const {
  if (loc_.known() || !loc.known()) return *this;
  SourceLoc merged = loc;
  if (merged.file.empty()) merged.file = loc_.file;
  return Error(merged, message_);
}

}  // namespace mmacheck
