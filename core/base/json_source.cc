#include "core/base/json_source.h"

#include <iterator>
#include <unordered_set>
#include <vector>

namespace mmacheck {

namespace {

// A char iterator that publishes how far the parser has read, so that a SAX
// callback knows where the token it is told about ends.
struct TrackedChar {
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char* p = nullptr;
  const char** read_to = nullptr;

  reference operator*() const { return *p; }
  TrackedChar& operator++() {
    *read_to = ++p;
    return *this;
  }
  TrackedChar operator++(int) {
    TrackedChar before = *this;
    ++*this;
    return before;
  }
  bool operator==(const TrackedChar& o) const { return p == o.p; }
  bool operator!=(const TrackedChar& o) const { return p != o.p; }
};

bool number_char(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

// Records each value's start under its JSON pointer; throws on a repeated
// key or too deep a nesting.  Returns false (stopping the parse) on a syntax
// error, which parse_json() then reports with its position.
class Locator : public nlohmann::json_sax<Json> {
 public:
  Locator(std::string_view text, const std::string& file, int max_depth,
          std::unordered_map<std::string, JsonSource::Position>& out, const char** read_to)
      : text_(text), file_(file), max_depth_(max_depth), out_(out), read_to_(read_to) {}

  bool null() override { return scalar(4); }
  bool boolean(bool v) override { return scalar(v ? 4 : 5); }
  bool number_integer(number_integer_t) override { return number(); }
  bool number_unsigned(number_unsigned_t) override { return number(); }
  bool number_float(number_float_t, const string_t&) override { return number(); }
  bool string(string_t&) override { return record(string_start()); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(true); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Frame& f = frames_.back();
    const std::size_t start = string_start();
    if (!f.keys.insert(k).second) throw Error(loc(start), "key \"" + printable(k) + "\" given twice in one object");
    f.pending = JsonSource::child(f.pointer, k);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Frame {
    std::string pointer;
    bool array = false;
    std::size_t next = 0;  // arrays: the next element's index
    std::string pending;   // objects: the pointer of the value after the last key
    std::unordered_set<std::string> keys;
  };

  std::size_t read() const { return static_cast<std::size_t>(*read_to_ - text_.data()); }
  // The string token just read ends with its closing quote at read() - 1.
  std::size_t string_start() const {
    std::size_t i = read() - 1;
    while (i > 0) {
      --i;
      if (text_[i] != '"') continue;
      std::size_t slashes = 0;
      while (i >= slashes + 1 && text_[i - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) return i;
    }
    return 0;
  }
  bool number() {
    std::size_t end = read();
    if (end > 0 && !number_char(text_[end - 1])) --end;  // the lexer read one character past the number
    std::size_t start = end;
    while (start > 0 && number_char(text_[start - 1])) --start;
    return record(start);
  }
  bool scalar(std::size_t length) { return record(read() >= length ? read() - length : 0); }
  bool open(bool array) {
    const std::size_t start = read() - 1;
    if (static_cast<int>(frames_.size()) >= max_depth_)
      throw Error(loc(start), "JSON nested deeper than " + std::to_string(max_depth_) + " levels");
    const std::string pointer = record_pointer(start);
    frames_.push_back(Frame{pointer, array, 0, {}, {}});
    return true;
  }
  bool close() {
    frames_.pop_back();
    return true;
  }
  bool record(std::size_t start) {
    record_pointer(start);
    return true;
  }
  std::string record_pointer(std::size_t start) {
    std::string pointer;
    if (!frames_.empty()) {
      Frame& f = frames_.back();
      pointer = f.array ? JsonSource::child(f.pointer, f.next++) : f.pending;
    }
    const SourceLoc l = loc(start);
    out_.emplace(pointer, JsonSource::Position{l.line, l.col, start});
    return pointer;
  }
  // Positions only move forward, so lines are counted once over the text.
  SourceLoc loc(std::size_t offset) {
    for (; scanned_ < offset && scanned_ < text_.size(); ++scanned_)
      if (text_[scanned_] == '\n') {
        ++line_;
        line_start_ = scanned_ + 1;
      }
    return SourceLoc{file_, line_, static_cast<int>(offset - line_start_) + 1};
  }

  std::string_view text_;
  const std::string& file_;
  int max_depth_;
  std::unordered_map<std::string, JsonSource::Position>& out_;
  const char** read_to_;
  std::vector<Frame> frames_;
  std::size_t scanned_ = 0, line_start_ = 0;
  int line_ = 1;
};

}  // namespace

JsonSource::JsonSource(std::string_view text, std::string file, int max_depth) : file_(std::move(file)), text_(text) {
  const char* read_to = text.data();
  Locator locator(text, file_, max_depth, positions_, &read_to);
  const TrackedChar first{text.data(), &read_to}, last{text.data() + text.size(), &read_to};
  if (!Json::sax_parse(first, last, &locator)) parse_json(text, file_);  // throws the located syntax error
  value_ = parse_json(text, file_);
}

SourceLoc JsonSource::at(std::string pointer) const {
  for (;;) {
    const auto it = positions_.find(pointer);
    if (it != positions_.end()) return SourceLoc{file_, it->second.line, it->second.col};
    if (pointer.empty()) return SourceLoc{file_, 0, 0};
    pointer.resize(pointer.rfind('/'));
  }
}

SourceLoc JsonSource::in_string(const std::string& pointer, int line, int col) const {
  const auto it = positions_.find(pointer);
  if (it == positions_.end() || it->second.offset >= text_.size() || text_[it->second.offset] != '"')
    return at(pointer);
  const Position& quote = it->second;
  const auto hex = [&](std::size_t i) {
    unsigned v = 0;
    for (std::size_t k = i; k < i + 4 && k < text_.size(); ++k) {
      const char c = text_[k];
      v = v * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
  };
  // Walk the raw string, counting decoded bytes, until (line, col).
  int at_line = 1, at_col = 1;
  std::size_t raw = quote.offset + 1;
  while (raw < text_.size() && text_[raw] != '"' && (at_line < line || (at_line == line && at_col < col))) {
    std::size_t width = 1, bytes = 1;
    bool newline = false;
    if (text_[raw] == '\\' && raw + 1 < text_.size()) {
      width = 2;
      newline = text_[raw + 1] == 'n';
      if (text_[raw + 1] == 'u') {
        const unsigned cp = hex(raw + 2);
        width = 6;
        bytes = cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
        if (cp >= 0xD800 && cp < 0xDC00 && raw + 7 < text_.size() && text_[raw + 6] == '\\') width = 12, bytes = 4;
      }
    }
    if (newline) {
      ++at_line;
      at_col = 1;
    } else {
      at_col += static_cast<int>(bytes);
    }
    raw += width;
  }
  return SourceLoc{file_, quote.line, quote.col + static_cast<int>(raw - quote.offset)};
}

std::string JsonSource::child(const std::string& parent, std::string_view key) {
  std::string out = parent + "/";
  for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

std::string JsonSource::child(const std::string& parent, std::size_t index) {
  return parent + "/" + std::to_string(index);
}

}  // namespace mmacheck
