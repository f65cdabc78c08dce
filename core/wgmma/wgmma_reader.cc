#include "core/wgmma/wgmma_reader.h"

#include <charconv>
#include <map>
#include <optional>
#include <variant>

#include "core/layout/compose_layout.h"
#include "core/layout/tile_layout.h"
#include "core/program/layout_parser.h"

namespace mmacheck {

namespace {

struct Word {
  std::string text;
  int col = 0;  // 1-based
};

struct Line {
  int number = 0;
  std::vector<Word> words;
  std::string raw;  // the line without its comment
};

// Words separated by blanks; `layout=` takes the rest of the line as one word.
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

class Statement {
 public:
  Statement(const Line& line, const std::string& path, std::size_t first_key) : line_(line), path_(path) {
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

  [[noreturn]] void fail(int col, const std::string& message) const {
    throw Error(SourceLoc{path_, line_.number, col}, message);
  }
  SourceLoc loc(int col = 1) const { return {path_, line_.number, col}; }

  // Refuses keys outside `allowed`.
  void only(std::initializer_list<std::string_view> allowed) const {
    for (const auto& [key, value] : keys_) {
      bool ok = false;
      for (std::string_view a : allowed) ok = ok || a == key;
      if (ok) continue;
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      fail(key_cols_.at(key), "unknown key '" + printable(key) + "' (known: " + list + ")");
    }
  }
  bool has(const std::string& key) const { return keys_.count(key) != 0; }
  const Word& value(const std::string& key) const {
    const auto it = keys_.find(key);
    if (it == keys_.end()) fail(0, "missing " + key + "=");
    return it->second;
  }
  std::int64_t integer(const std::string& key) const { return parse_integer(value(key)); }

  std::int64_t parse_integer(const Word& w) const { return parse_integer(w.text, w.col); }
  std::int64_t parse_integer(std::string_view text, int col) const {
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const std::string_view digits = hex ? text.substr(2) : text;
    std::uint64_t v = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
    if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size() ||
        v > static_cast<std::uint64_t>(INT64_MAX))
      fail(col, "expected a non-negative integer (decimal or 0x hex), got '" + printable(text) + "'");
    return static_cast<std::int64_t>(v);
  }
  // "64x16" -> {64, 16}; `sep` 'x' or ','.
  std::pair<std::int64_t, std::int64_t> pair(const std::string& key, char sep) const {
    const Word& w = value(key);
    const std::size_t at = w.text.find(sep);
    if (at == std::string::npos)
      fail(w.col,
           key + "= expects two integers separated by '" + std::string(1, sep) + "', got '" + printable(w.text) + "'");
    return {parse_integer(std::string_view(w.text).substr(0, at), w.col),
            parse_integer(std::string_view(w.text).substr(at + 1), w.col + static_cast<int>(at) + 1)};
  }

 private:
  const Line& line_;
  const std::string& path_;
  std::map<std::string, Word> keys_;
  std::map<std::string, int> key_cols_;
};

WgmmaOperand read_operand(const Line& line, const std::string& path) {
  const Statement st(line, path, 2);
  if (line.words.size() < 2 || (line.words[1].text != "A" && line.words[1].text != "B"))
    st.fail(line.words.size() < 2 ? 0 : line.words[1].col, "expected the operand, A or B, after 'operand'");
  st.only({"dtype", "tile", "major"});
  WgmmaOperand op;
  op.operand = line.words[1].text[0];
  const Word& dtype = st.value("dtype");
  op.type = find_wgmma_type(dtype.text);
  if (!op.type)
    st.fail(dtype.col, "unknown dtype '" + printable(dtype.text) + "' (f16, bf16, tf32, e4m3, e5m2, s8, u8)");
  const auto [rows, k] = st.pair("tile", 'x');
  if (rows > 256 || k > 256) st.fail(st.value("tile").col, "tile too large for a wgmma operand");
  op.rows = static_cast<int>(rows);
  op.k = static_cast<int>(k);
  const Word& major = st.value("major");
  if (major.text == "K") op.major = Major::k;
  else if (major.text == "MN") op.major = Major::mn;
  else st.fail(major.col, "major= expects K or MN, got '" + printable(major.text) + "'");
  if (const std::string why = op.problem(); !why.empty()) st.fail(line.words[1].col, why);
  return op;
}

MatrixDescriptor read_descriptor(const Line& line, const std::string& path) {
  if (line.words.size() == 2 && line.words[1].text.find('=') == std::string::npos) {
    const Statement st(line, path, 2);
    const std::int64_t raw = st.parse_integer(line.words[1]);
    try {
      return MatrixDescriptor::decode(static_cast<std::uint64_t>(raw));
    } catch (const Error& e) {
      st.fail(line.words[1].col, e.message());
    }
  }
  const Statement st(line, path, 1);
  st.only({"start", "lbo", "sbo", "swizzle", "base_offset"});
  MatrixDescriptor d;
  d.start = st.integer("start");
  d.lbo = st.integer("lbo");
  d.sbo = st.integer("sbo");
  const Word& mode = st.value("swizzle");
  const SwizzleModeRow* row = find_swizzle_mode(mode.text);
  if (!row)
    st.fail(mode.col, "swizzle= expects none, interleave, 32B, 64B or 128B, got '" + printable(mode.text) + "'");
  d.swizzle = row->mode;
  if (st.has("base_offset")) d.base_offset = static_cast<int>(std::min<std::int64_t>(st.integer("base_offset"), 8));
  try {
    d.encode();  // the fields' ranges
  } catch (const Error& e) {
    st.fail(line.words[0].col, e.message());
  }
  return d;
}

// The placed byte address of every tile element.
std::vector<std::int64_t> read_smem(const Line& line, const std::string& path, const WgmmaOperand& op, WgmmaCase& c) {
  const Statement st(line, path, 1);
  st.only({"base", "layout", "shape", "at"});
  const std::int64_t base = st.integer("base");
  // Shared memory is 2^18 bytes at most (the descriptor's window); the bound keeps the sums below in range.
  constexpr std::int64_t kMaxAddress = std::int64_t{1} << 32;
  if (base >= kMaxAddress) st.fail(st.value("base").col, "base= must be below 2^32");
  std::int64_t rows = op.rows, cols = op.k, r0 = 0, c0 = 0;
  if (st.has("shape")) std::tie(rows, cols) = st.pair("shape", 'x');
  if (st.has("at")) std::tie(r0, c0) = st.pair("at", ',');
  if (rows <= 0 || cols <= 0 || rows > 4096 || cols > 4096)
    st.fail(st.value("shape").col, "shape= must be positive and at most 4096 x 4096");
  if (r0 + op.rows > rows || c0 + op.k > cols)
    st.fail(st.has("at") ? st.value("at").col : 0, "the " + std::to_string(op.rows) + " x " + std::to_string(op.k) +
                                                       " tile at " + std::to_string(r0) + "," + std::to_string(c0) +
                                                       " does not fit the buffer's shape " + std::to_string(rows) +
                                                       " x " + std::to_string(cols));
  const Word& expr = st.value("layout");
  c.placement = expr.text;
  c.buffer_base = base;
  // Padding puts the parser's positions on this line and column.
  const std::string padded = std::string(line.number - 1, '\n') + std::string(expr.col - 1, ' ') + expr.text;
  const AnyLayout layout = parse_any_layout(padded, path);
  const auto* compose = std::get_if<ComposeLayout>(&layout);
  const TileLayout* tile = compose                            ? nullptr
                           : std::get_if<TileLayout>(&layout) ? &std::get<TileLayout>(layout)
                                                              : &std::get<GroupedLayout>(layout).layout();
  const std::int64_t size = compose ? compose->size() : tile->size();
  if (size != rows * cols)
    st.fail(expr.col, "the layout has " + std::to_string(size) + " elements, the buffer's shape " +
                          std::to_string(rows) + " x " + std::to_string(cols) + " has " + std::to_string(rows * cols));
  if (compose && !compose->applies()) st.fail(expr.col, "the layout's tile layout must use axis m alone");
  if (compose && compose->swizzle().inner) {
    // The same swizzle on bytes: the element's log2(width) low bits below the chunk.
    Swizzle bytes = compose->swizzle();
    for (int w = op.type->bytes; w > 1; w /= 2) ++bytes.base;
    c.buffer_swizzle = bytes;
  }
  const auto offset_of = [&](std::int64_t flat) -> std::int64_t {
    std::int64_t offset = 0;
    if (compose) {
      offset = compose->apply_flat(flat);
    } else {
      const Owner owner = tile->apply_flat(flat);
      for (const auto& [axis, v] : owner)
        if (!(axis == Axis::m()) && v != 0)
          st.fail(expr.col, "a shared buffer's layout is on m alone; this one names " + axis.name());
      offset = owner_coord(owner, Axis::m());
    }
    if (offset < -kMaxAddress || offset > kMaxAddress)
      st.fail(expr.col, "the layout puts element " + std::to_string(flat) + " at offset " + std::to_string(offset) +
                            ", outside any shared memory");
    return offset;
  };
  std::vector<std::int64_t> placed;
  placed.reserve(static_cast<std::size_t>(op.rows) * op.k);
  try {
    for (int i = 0; i < op.rows; ++i)
      for (int k = 0; k < op.k; ++k) placed.push_back(base + op.type->bytes * offset_of((r0 + i) * cols + c0 + k));
  } catch (const Error& e) {
    throw e.located(st.loc(expr.col));
  }
  return placed;
}

}  // namespace

std::vector<WgmmaCase> read_wgmma_file(std::string_view text, const std::string& path) {
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
  std::vector<WgmmaCase> cases;
  for (std::size_t l = 0; l < lines.size();) {
    const Line& head = lines[l];
    if (head.words[0].text != "operand")
      throw Error(SourceLoc{path, head.number, head.words[0].col},
                  head.words[0].text == "descriptor" || head.words[0].text == "smem"
                      ? "'" + head.words[0].text + "' before its 'operand' line"
                      : "unknown statement '" + printable(head.words[0].text) +
                            "' (expected operand, descriptor, smem)");
    WgmmaCase c;
    c.operand = read_operand(head, path);
    c.loc = SourceLoc{path, head.number, head.words[0].col};
    c.name = std::string(1, c.operand.operand) + " (line " + std::to_string(head.number) + ")";
    const char* expected[] = {"descriptor", "smem"};
    for (int part = 0; part < 2; ++part) {
      const std::size_t at = l + 1 + static_cast<std::size_t>(part);
      if (at >= lines.size() || lines[at].words[0].text != expected[part]) {
        const SourceLoc where = at >= lines.size() ? c.loc : SourceLoc{path, lines[at].number, lines[at].words[0].col};
        throw Error(where, "expected a '" + std::string(expected[part]) + "' line after line " +
                               std::to_string(at >= lines.size() ? lines.back().number : lines[at - 1].number) +
                               " (each operand is: operand, descriptor, smem)");
      }
      if (part == 0) c.descriptor = read_descriptor(lines[at], path);
      else c.placed = read_smem(lines[at], path, c.operand, c);
    }
    cases.push_back(std::move(c));
    l += 3;
  }
  if (cases.empty()) throw Error(SourceLoc{path, 0, 0}, "no operand in the file (expected 'operand A|B ...')");
  return cases;
}

}  // namespace mmacheck
