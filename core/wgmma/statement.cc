#include "core/wgmma/statement.h"

#include <algorithm>
#include <charconv>

namespace mmacheck::descriptor_lines {

Line split(std::string_view raw, int number) {
  Line line{number, {}, std::string(raw.substr(0, std::min(raw.find('#'), raw.size())))};
  std::size_t pos = 0;
  const std::string& s = line.raw;
  while (pos < s.size()) {
    if (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r') {
      ++pos;
      continue;
    }
    std::size_t end = s.compare(pos, 7, "layout=") == 0 ? s.size() : s.find_first_of(" \t\r", pos);
    if (end == std::string::npos) end = s.size();
    std::string word = s.substr(pos, end - pos);
    while (!word.empty() && (word.back() == ' ' || word.back() == '\t' || word.back() == '\r')) word.pop_back();
    line.words.push_back({word, static_cast<int>(pos) + 1});
    pos = end;
  }
  return line;
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    ++number;
    Line line = split(text.substr(pos, end - pos), number);
    if (!line.words.empty()) lines.push_back(std::move(line));
    pos = end + 1;
  }
  return lines;
}

Statement::Statement(const Line& line, const std::string& path, std::size_t first_key) : line_(line), path_(path) {
  for (std::size_t w = first_key; w < line.words.size(); ++w) {
    const Word& word = line.words[w];
    const std::size_t eq = word.text.find('=');
    if (eq == std::string::npos || eq == 0) fail(word.col, "expected KEY=VALUE, got '" + printable(word.text) + "'");
    const std::string key = word.text.substr(0, eq);
    if (keys_.count(key)) fail(word.col, "'" + key + "' given twice");
    keys_[key] = {word.text.substr(eq + 1), word.col + static_cast<int>(eq) + 1};
    key_cols_[key] = word.col;
  }
}

void Statement::fail(int col, const std::string& message) const {
  throw Error(SourceLoc{path_, line_.number, col}, message);
}

void Statement::only(std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, value] : keys_) {
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || a == key;
    if (ok) continue;
    std::string known;
    for (std::string_view a : allowed) known += (known.empty() ? "" : ", ") + std::string(a);
    fail(key_cols_.at(key), "unknown key '" + printable(key) + "' (known: " + known + ")");
  }
}

const Word& Statement::value(const std::string& key) const {
  const auto it = keys_.find(key);
  if (it == keys_.end()) fail(0, "missing " + key + "=");
  return it->second;
}

std::int64_t Statement::parse_integer(std::string_view text, int col) const {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string_view digits = hex ? text.substr(2) : text;
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() ||
      v > static_cast<std::uint64_t>(INT64_MAX))
    fail(col, "expected a non-negative integer (decimal or 0x hex), got '" + printable(text) + "'");
  return static_cast<std::int64_t>(v);
}

std::pair<std::int64_t, std::int64_t> Statement::pair(const std::string& key, char sep) const {
  const Word& w = value(key);
  const std::size_t at = w.text.find(sep);
  if (at == std::string::npos)
    fail(w.col,
         key + "= expects two integers separated by '" + std::string(1, sep) + "', got '" + printable(w.text) + "'");
  return {parse_integer(std::string_view(w.text).substr(0, at), w.col),
          parse_integer(std::string_view(w.text).substr(at + 1), w.col + static_cast<int>(at) + 1)};
}

std::vector<std::int64_t> Statement::list(const std::string& key, std::size_t most) const {
  const Word& w = value(key);
  std::vector<std::int64_t> out;
  std::size_t from = 0;
  while (true) {
    const std::size_t at = w.text.find_first_of("x,", from);
    const std::size_t end = at == std::string::npos ? w.text.size() : at;
    out.push_back(parse_integer(std::string_view(w.text).substr(from, end - from), w.col + static_cast<int>(from)));
    if (out.size() > most)
      fail(w.col, key + "= takes at most " + std::to_string(most) + " values, got '" + printable(w.text) + "'");
    if (at == std::string::npos) break;
    from = at + 1;
  }
  return out;
}

}  // namespace mmacheck::descriptor_lines
