#include "core/tma/tma_reader.h"

#include <map>

#include "core/tma/tensor_map.h"
#include "core/wgmma/operand_lines.h"
#include "core/wgmma/statement.h"

namespace mmacheck {

using descriptor_lines::Line;
using descriptor_lines::split_lines;
using descriptor_lines::Statement;
using descriptor_lines::Word;

namespace {

constexpr auto kMaxRank = static_cast<std::size_t>(kTensorMapMaxRank);
// Bounds that keep the model's sums in 64 bits; the driver's own limits are checked as its rules.
constexpr std::int64_t kMaxValue = std::int64_t{1} << 48;

std::vector<std::int64_t> bounded_list(const Statement& st, const std::string& key) {
  std::vector<std::int64_t> v = st.list(key, kMaxRank);
  for (std::int64_t x : v)
    if (x > kMaxValue) st.fail(st.value(key).col, key + "= values must be below 2^48");
  return v;
}

SwizzleMode read_swizzle(const Statement& st) {
  const Word& w = st.value("swizzle");
  const SwizzleModeRow* row = find_swizzle_mode(w.text);
  if (!row || w.text == "interleave")
    st.fail(w.col, "swizzle= expects none, 32B, 64B or 128B, got '" + printable(w.text) + "'");
  return row->mode;
}

TmaCopy read_tma(const Line& line, const std::string& path) {
  const Statement st(line, path, 2);
  if (line.words.size() < 2 || line.words[1].text.find('=') != std::string::npos)
    st.fail(line.words.size() < 2 ? 0 : line.words[1].col, "expected the copy's NAME after 'tma'");
  st.only({"dtype", "dims", "strides", "box", "swizzle", "smem", "coords", "element_strides", "interleave", "oob",
           "address"});
  TmaCopy c;
  c.name = line.words[1].text;
  c.loc = st.loc(line.words[0].col);
  TensorMap& m = c.map;
  const Word& dtype = st.value("dtype");
  m.dtype = find_tma_type(dtype.text);
  if (!m.dtype)
    st.fail(dtype.col, "unknown dtype '" + printable(dtype.text) +
                           "' (a CUtensorMapDataType: uint8, uint16, uint32, int32, uint64, int64, float16, float32, "
                           "float64, bfloat16, float32_ftz, tfloat32, tfloat32_ftz, or f16, bf16, tf32, u8, ...)");
  m.dims = bounded_list(st, "dims");
  m.box = bounded_list(st, "box");
  if (st.has("strides")) m.strides = bounded_list(st, "strides");
  if (st.has("element_strides")) m.element_strides = bounded_list(st, "element_strides");
  m.swizzle = read_swizzle(st);
  if (st.has("interleave")) {
    const Word& w = st.value("interleave");
    if (w.text == "none") m.interleave = TmaInterleave::none;
    else if (w.text == "16B") m.interleave = TmaInterleave::b16;
    else if (w.text == "32B") m.interleave = TmaInterleave::b32;
    else st.fail(w.col, "interleave= expects none, 16B or 32B, got '" + printable(w.text) + "'");
  }
  if (st.has("oob")) {
    const Word& w = st.value("oob");
    if (w.text != "zero" && w.text != "nan")
      st.fail(w.col, "oob= expects zero or nan, got '" + printable(w.text) + "'");
    m.oob_nan = w.text == "nan";
  }
  if (st.has("address")) m.address = st.integer("address");
  c.smem = st.integer("smem");
  if (c.smem > kMaxValue) st.fail(st.value("smem").col, "smem= must be below 2^48");
  c.coords = st.has("coords") ? bounded_list(st, "coords") : std::vector<std::int64_t>(m.dims.size(), 0);
  if (c.coords.size() != m.dims.size())
    st.fail(st.value("coords").col,
            "coords= has " + std::to_string(c.coords.size()) + " values, dims= " + std::to_string(m.dims.size()));
  // The box's element count must be enumerable before the driver's rules say more.
  // (1024^5 elements of 8 bytes still fit 64 bits.)
  for (std::int64_t b : m.box)
    if (b > 1024) st.fail(st.value("box").col, "box= values above 1024 cannot be a box (the driver allows 256)");
  return c;
}

// "k", "i/8", "k%8", "k/8%2", "3"
BoxAxis read_axis(const Statement& st, std::string_view text, int col) {
  BoxAxis a;
  if (!text.empty() && text[0] >= '0' && text[0] <= '9') {
    a.var = 0;
    a.constant = st.parse_integer(text, col);
    if (a.constant > 4096) st.fail(col, "a constant box coordinate above 4096 is past any box");
    return a;
  }
  if (text.empty() || (text[0] != 'i' && text[0] != 'k'))
    st.fail(col, "a box coordinate is i or k, optionally /N and %N, or a constant; got '" + printable(text) + "'");
  a.var = text[0];
  std::size_t pos = 1;
  for (char op : {'/', '%'}) {
    if (pos >= text.size() || text[pos] != op) continue;
    std::size_t end = text.find_first_of("/%", pos + 1);
    if (end == std::string_view::npos) end = text.size();
    const std::int64_t n = st.parse_integer(text.substr(pos + 1, end - pos - 1), col + static_cast<int>(pos) + 1);
    if (n < 1 || n > 4096) st.fail(col + static_cast<int>(pos) + 1, "a box coordinate's divisor or modulus is 1..4096");
    (op == '/' ? a.div : a.mod) = n;
    pos = end;
  }
  if (pos != text.size())
    st.fail(col + static_cast<int>(pos), "unexpected '" + printable(text.substr(pos)) + "' in a box coordinate");
  return a;
}

void read_smem(const Line& line, const std::string& path, const std::map<std::string, TmaCopy>& copies, TmaCase& c) {
  const Statement st(line, path, 1);
  st.only({"tma", "at", "box"});
  const Word& name = st.value("tma");
  const auto it = copies.find(name.text);
  if (it == copies.end()) st.fail(name.col, "no 'tma " + printable(name.text) + "' line above");
  c.copy = it->second;
  if (st.has("at")) {
    std::tie(c.at_row, c.at_k) = st.pair("at", ',');
    if (c.at_row > 4096 || c.at_k > 4096) st.fail(st.value("at").col, "at= values must be at most 4096");
  }
  if (!st.has("box")) {
    c.axes = default_box_axes(c.operand, c.copy.map.rank());
    return;
  }
  const Word& w = st.value("box");
  std::size_t from = 0;
  while (true) {
    const std::size_t at = w.text.find(',', from);
    const std::size_t end = at == std::string::npos ? w.text.size() : at;
    c.axes.push_back(read_axis(st, std::string_view(w.text).substr(from, end - from), w.col + static_cast<int>(from)));
    if (c.axes.size() > kMaxRank) st.fail(w.col, "box= names at most 5 coordinates");
    if (at == std::string::npos) break;
    from = at + 1;
  }
}

}  // namespace

std::vector<TmaCase> read_tma_file(std::string_view text, const std::string& path) {
  const std::vector<Line> lines = split_lines(text);
  std::map<std::string, TmaCopy> copies;
  std::vector<TmaCase> cases;
  for (std::size_t l = 0; l < lines.size();) {
    const Line& head = lines[l];
    const std::string& word = head.words[0].text;
    if (word == "tma") {
      TmaCopy copy = read_tma(head, path);
      if (copies.count(copy.name))
        throw Error(SourceLoc{path, head.number, head.words[1].col}, "tma '" + printable(copy.name) + "' given twice");
      copies.emplace(copy.name, std::move(copy));
      ++l;
      continue;
    }
    if (word != "operand")
      throw Error(SourceLoc{path, head.number, head.words[0].col},
                  word == "descriptor" || word == "smem"
                      ? "'" + word + "' before its 'operand' line"
                      : "unknown statement '" + printable(word) + "' (expected tma, operand, descriptor, smem)");
    TmaCase c;
    c.operand = read_wgmma_operand(head, path);
    c.loc = SourceLoc{path, head.number, head.words[0].col};
    c.name = std::string(1, c.operand.operand) + " (line " + std::to_string(head.number) + ")";
    const char* expected[] = {"descriptor", "smem"};
    for (int part = 0; part < 2; ++part) {
      const std::size_t at = l + 1 + static_cast<std::size_t>(part);
      if (at >= lines.size() || lines[at].words[0].text != expected[part]) {
        const SourceLoc where = at >= lines.size() ? c.loc : SourceLoc{path, lines[at].number, lines[at].words[0].col};
        throw Error(where, "expected a '" + std::string(expected[part]) + "' line after line " +
                               std::to_string(lines[at - 1].number) + " (each operand is: operand, descriptor, smem)");
      }
      if (part == 0) c.descriptor = read_wgmma_descriptor(lines[at], path);
      else read_smem(lines[at], path, copies, c);
    }
    cases.push_back(std::move(c));
    l += 3;
  }
  if (cases.empty()) throw Error(SourceLoc{path, 0, 0}, "no operand in the file (expected 'operand A|B ...')");
  return cases;
}

}  // namespace mmacheck
