#include "sim/vectors/vector_file.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "sim/machine/lane_mma.h"

namespace mmacheck::sim {

namespace {

struct Token {
  std::string_view text;
  int col;  // 1-based
};

std::vector<Token> split(std::string_view line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) tokens.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return tokens;
}

// 'text', control bytes escaped (a file's ESC or NUL must not reach the
// terminal), built by appending (GCC 12 warns falsely on "'" + std::string).
std::string quoted(std::string_view text) {
  std::string s(1, '\'');
  s.append(printable(text));
  s += '\'';
  return s;
}

bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

// Hex digit values, -1 for every other byte.
constexpr std::array<std::int8_t, 256> kHexDigit = [] {
  std::array<std::int8_t, 256> t{};
  t.fill(-1);
  for (int d = 0; d < 10; ++d) t['0' + d] = static_cast<std::int8_t>(d);
  for (int d = 0; d < 6; ++d) t['a' + d] = t['A' + d] = static_cast<std::int8_t>(10 + d);
  return t;
}();

// Eight ASCII bytes (the first in the low byte) as eight hex digits, all at
// once (SWAR); false unless every byte is 0-9, a-f or A-F.
constexpr std::uint64_t kOnes = 0x0101010101010101, kHigh = 0x8080808080808080, kLow7 = 0x7F7F7F7F7F7F7F7F;

// Per byte of v, the high bit set when lo < byte < hi (bytes below 0x80;
// no carry crosses a byte).
constexpr std::uint64_t bytes_between(std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  return (kOnes * (127 + hi) - (v & kLow7)) & ~v & ((v & kLow7) + kOnes * (127 - lo)) & kHigh;
}

inline bool hex8(std::uint64_t x, std::uint64_t* value) {
  if ((bytes_between(x, 0x2F, 0x3A) | bytes_between(x | kOnes * 0x20, 0x60, 0x67)) != kHigh) return false;
  std::uint64_t n = (x & kOnes * 0x0F) + 9 * ((x >> 6) & kOnes);  // each byte its digit's value
  n = ((n << 4) + (n >> 8)) & 0x00FF00FF00FF00FF;                 // first digit is the most significant
  n = ((n << 8) + (n >> 16)) & 0x0000FFFF0000FFFF;
  *value = ((n << 16) + (n >> 32)) & 0xFFFFFFFF;
  return true;
}

std::optional<std::uint64_t> parse_hex(std::string_view s) {
  std::uint64_t v = 0;
  for (const char ch : s) {
    int digit;
    if (ch >= '0' && ch <= '9') digit = ch - '0';
    else if (ch >= 'a' && ch <= 'f') digit = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'F') digit = ch - 'A' + 10;
    else return std::nullopt;
    v = (v << 4) | digit;
  }
  return v;
}

std::optional<int> parse_count(std::string_view s) {
  if (s.empty() || s.size() > 9) return std::nullopt;
  int v = 0;
  for (const char ch : s) {
    if (ch < '0' || ch > '9') return std::nullopt;
    v = v * 10 + (ch - '0');
  }
  return v;
}

// Operand lines of a case: which tile, its element count, the bits of a
// word and the type's name (for messages).
struct OperandShape {
  std::vector<std::uint64_t> VectorCase::*tile;
  int count;
  int bits;
  std::string_view type;

  int digits() const { return (bits + 3) / 4; }
  std::uint64_t mask() const { return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1; }
};

std::optional<OperandShape> operand_shape(const MmaInst& in, std::string_view name) {
  if (name == "A") return OperandShape{&VectorCase::a, in.a_elems(), in.elem_bits(Operand::A), dtype_info(in.a).ptx};
  if (name == "B") return OperandShape{&VectorCase::b, in.b_elems(), in.elem_bits(Operand::B), dtype_info(in.b).ptx};
  if (name == "C") return OperandShape{&VectorCase::c, in.c_elems(), dtype_bits(in.c), dtype_info(in.c).ptx};
  if (name == "D") return OperandShape{&VectorCase::d, in.c_elems(), dtype_bits(in.d), dtype_info(in.d).ptx};
  if (!in.block_scaled()) return std::nullopt;
  if (name == "SA") return OperandShape{&VectorCase::sa, in.m * in.scale_vec, 8, scale_type_name(in.stype)};
  if (name == "SB") return OperandShape{&VectorCase::sb, in.scale_vec * in.n, 8, scale_type_name(in.stype)};
  return std::nullopt;
}

class Parser {
 public:
  explicit Parser(const std::string& name) : name_(name) {}

  void line(std::string_view text, int number) {
    line_ = number;
    if (fast_operand(text)) return;
    const std::vector<Token> tokens = split(text);
    if (tokens.empty() || tokens[0].text.front() == '#') return;
    const std::string_view key = tokens[0].text;
    if (key == "instr") return instr(tokens);
    if (key == "case") return start_case(tokens);
    if (!inst_) fail(tokens[0].col, quoted(key) + " line before any 'instr' line");
    if (key == "SEL" && inst_->block_scaled()) return selectors(tokens);
    const std::optional<OperandShape> shape = operand_shape(*inst_, key);
    if (!shape)
      fail(tokens[0].col, "unknown line kind " + quoted(key) + " (expected instr, case, A, B, C or D" +
                              (inst_->block_scaled() ? ", SA, SB or SEL)" : ")"));
    if (!open_) fail(tokens[0].col, quoted(key) + " line before any 'case' line");
    operand(tokens, *shape);
  }

  // `lines`: the file's line count, where whole-file errors point.
  VectorFile finish(int lines) {
    close_case();
    if (file_.cases.empty())
      throw Error(SourceLoc{name_, std::max(lines, 1), 0}, "no test cases (at the end of the file)");
    return std::move(file_);
  }

 private:
  [[noreturn]] void fail(int col, const std::string& message) const {
    throw Error(SourceLoc{name_, line_, col}, message);
  }

  void instr(const std::vector<Token>& tokens) {
    if (tokens.size() != 2) fail(tokens[0].col, "expected 'instr <ptx instruction>'");
    close_case();
    inst_ = find_mma_inst(tokens[1].text);
    if (!inst_) fail(tokens[1].col, "unknown instruction " + quoted(tokens[1].text));
  }

  void start_case(const std::vector<Token>& tokens) {
    if (!inst_) fail(tokens[0].col, "'case' line before any 'instr' line");
    if (tokens.size() < 2 || tokens.size() > 3) fail(tokens[0].col, "expected 'case <number> [<kind>]'");
    const std::optional<int> id = parse_count(tokens[1].text);
    if (!id) fail(tokens[1].col, "case number " + quoted(tokens[1].text) + " is not a non-negative integer");
    close_case();
    // Cases are numbered per instruction; a repeated number is a merge gone wrong.
    const auto [seen, fresh] = case_lines_.try_emplace({inst_, *id}, line_);
    if (!fresh)
      fail(tokens[1].col, "case " + std::to_string(*id) + " of " + std::string(inst_->ptx()) +
                              " repeats the case of line " + std::to_string(seen->second));
    file_.cases.push_back({inst_, *id, tokens.size() == 3 ? std::string(tokens[2].text) : "", line_, {}, {}, {}, {}});
    open_ = true;
  }

  // An operand line of the open case, well formed, parsed in place (the
  // common line, most of a file's bytes).  False, with nothing changed,
  // for every other line and for any flaw: the general path then parses it
  // again and names the error.
  bool fast_operand(std::string_view text) {
    if (!open_ || text.size() < 2 || !is_blank(text[1])) return false;
    const std::optional<OperandShape> shape = operand_shape(*inst_, text.substr(0, 1));
    if (!shape) return false;
    std::vector<std::uint64_t>& tile = file_.cases.back().*shape->tile;
    if (!tile.empty()) return false;
    const std::size_t digits = static_cast<std::size_t>(shape->digits());
    const std::uint64_t widest = shape->mask();
    tile.resize(static_cast<std::size_t>(shape->count));
    const char* p = text.data() + 1;
    const char* const end = text.data() + text.size();
    int words = 0;
    for (;;) {
      while (p < end && is_blank(*p)) ++p;
      if (p == end) break;
      // A word is exactly `digits` hex digits, then a blank or the end: the
      // digits are looked up independently (no chain through the loop).
      if (static_cast<std::size_t>(end - p) < digits || words == shape->count) {
        tile.clear();
        return false;
      }
      std::uint64_t v = 0;
      bool ok = true;
      if (digits == 8 && end - p >= 8) {  // f32, tf32, s32 words
        std::uint64_t x;
        std::memcpy(&x, p, 8);
        ok = hex8(x, &v);
      } else if (digits == 4 && end - p >= 4) {  // f16, bf16: "0000" in front, for hex8
        std::uint32_t x;
        std::memcpy(&x, p, 4);
        ok = hex8(std::uint64_t{x} << 32 | 0x30303030, &v);
      } else {
        int bad = 0;
        for (std::size_t n = 0; n < digits; ++n) {
          // NOLINTNEXTLINE(bugprone-signed-char-misuse): the table's -1 marks a non-digit
          const int d = kHexDigit[static_cast<unsigned char>(p[n])];
          bad |= d;  // negative once any byte is not a digit
          v |= static_cast<std::uint64_t>(d & 15) << (4 * (digits - 1 - n));
        }
        ok = bad >= 0;
      }
      p += digits;
      if (!ok || v > widest || (p < end && !is_blank(*p))) {
        tile.clear();
        return false;
      }
      tile[static_cast<std::size_t>(words++)] = v;
    }
    if (words != shape->count) {
      tile.clear();
      return false;
    }
    return true;
  }

  void operand(const std::vector<Token>& tokens, const OperandShape& shape) {
    VectorCase& vc = file_.cases.back();
    std::vector<std::uint64_t>& tile = vc.*shape.tile;
    const std::string key(tokens[0].text);
    if (!tile.empty()) fail(tokens[0].col, "case " + std::to_string(vc.id) + " has a second " + key + " line");
    const int words = static_cast<int>(tokens.size()) - 1;
    if (words != shape.count)
      fail(tokens[0].col, key + " has " + std::to_string(words) + " words, " + inst_->shape() + " needs " +
                              std::to_string(shape.count));
    const std::size_t digits = static_cast<std::size_t>(shape.digits());
    const std::uint64_t widest = shape.mask();
    tile.reserve(shape.count);
    for (std::size_t i = 1; i < tokens.size(); ++i) {
      const Token& t = tokens[i];
      const std::optional<std::uint64_t> v = parse_hex(t.text);
      if (!v) fail(t.col, quoted(t.text) + " is not a hex word");
      if (t.text.size() != digits)
        fail(t.col, quoted(t.text) + " has " + std::to_string(t.text.size()) + " hex digits, " +
                        std::string(shape.type) + " words have " + std::to_string(digits));
      if (*v > widest)
        fail(t.col, quoted(t.text) + " does not fit a " + std::string(shape.type) + " element (" +
                        std::to_string(shape.bits) + " bits)");
      tile.push_back(*v);
    }
  }

  // SEL <byte-id-a> <thread-id-a> <byte-id-b> <thread-id-b>, each checked
  // against the instruction (core/gemm/scale_frame.h).
  void selectors(const std::vector<Token>& tokens) {
    if (!open_) fail(tokens[0].col, "'SEL' line before any 'case' line");
    if (tokens.size() != 5) fail(tokens[0].col, "expected 'SEL <byte-id-a> <thread-id-a> <byte-id-b> <thread-id-b>'");
    if (sel_seen_) fail(tokens[0].col, "case " + std::to_string(file_.cases.back().id) + " has a second SEL line");
    int v[4];
    for (int i = 0; i < 4; ++i) {
      const std::optional<int> n = parse_count(tokens[i + 1].text);
      if (!n) fail(tokens[i + 1].col, quoted(tokens[i + 1].text) + " is not a non-negative integer");
      v[i] = *n;
    }
    VectorCase& vc = file_.cases.back();
    vc.sel_a = {v[0], v[1]};
    vc.sel_b = {v[2], v[3]};
    for (const auto& [op, sel, col] :
         {std::tuple{Operand::A, vc.sel_a, tokens[1].col}, std::tuple{Operand::B, vc.sel_b, tokens[3].col}}) {
      try {
        check_selector(*inst_, op, sel);
      } catch (const Error& e) {
        fail(col, e.message());
      }
    }
    sel_seen_ = true;
  }

  // A case is complete once it has all four tiles (and a block-scaled
  // instruction's two scale tiles).
  void close_case() {
    if (!open_) return;
    open_ = false;
    sel_seen_ = false;
    const VectorCase& vc = file_.cases.back();
    if (vc.inst->block_scaled())
      for (const auto& [key, tile] : {std::pair{"SA", &vc.sa}, std::pair{"SB", &vc.sb}})
        if (tile->empty())
          throw Error(SourceLoc{name_, vc.line, 0}, "case " + std::to_string(vc.id) + " has no " + key + " line");
    const std::array<std::pair<const char*, const std::vector<std::uint64_t>*>, 4> tiles = {
        {{"A", &vc.a}, {"B", &vc.b}, {"C", &vc.c}, {"D", &vc.d}}};
    for (const auto& [key, tile] : tiles)
      if (tile->empty())
        throw Error(SourceLoc{name_, vc.line, 0}, "case " + std::to_string(vc.id) + " has no " + key + " line");
  }

  std::string name_;
  int line_ = 0;
  const MmaInst* inst_ = nullptr;
  bool open_ = false;
  bool sel_seen_ = false;
  std::map<std::pair<const MmaInst*, int>, int> case_lines_;  // (instruction, case number) -> line
  VectorFile file_;
};

}  // namespace

VectorFile parse_vector_file(std::string_view text, const std::string& name) {
  Parser parser(name);
  int number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    parser.line(text.substr(pos, end - pos), ++number);
    pos = end + 1;
  }
  VectorFile file = parser.finish(number);
  file.name = name;
  return file;
}

VectorFile read_vector_file(const std::string& path) {
  return parse_vector_file(read_text_file(path), input_name(path));
}

namespace {

// The D elements of `vc` that `lanes` (its instruction's) computes
// differently; `got` is scratch of D's size.
std::vector<Mismatch> case_mismatches(const VectorCase& vc, LaneMma& lanes, std::vector<std::uint64_t>& got) {
  const MmaInst& in = *vc.inst;
  got.resize(vc.d.size());
  if (in.block_scaled()) lanes.run_scaled(vc.a, vc.b, vc.c, vc.sa, vc.sb, vc.sel_a, vc.sel_b, got);
  else lanes.run(vc.a, vc.b, vc.c, got);
  std::vector<Mismatch> out;
  for (int i = 0; i < in.c_elems(); ++i)
    if (got[i] != vc.d[i]) out.push_back({&vc, i / in.n, i % in.n, vc.d[i], got[i]});
  return out;
}

InstrTally& tally_of(std::vector<InstrTally>& tallies, const MmaInst* inst) {
  for (InstrTally& t : tallies)
    if (t.inst == inst) return t;
  return tallies.emplace_back(InstrTally{inst});
}

}  // namespace

std::vector<Mismatch> run_vector_case(const VectorCase& vc, const ArchParams& arch) {
  LaneMma lanes(*vc.inst, arch);
  std::vector<std::uint64_t> got;
  return case_mismatches(vc, lanes, got);
}

VectorReport run_vector_file(const VectorFile& file, const ArchParams& arch, std::size_t max_mismatches) {
  VectorReport report;
  std::vector<LaneMma> lanes;  // one per instruction of the file, its frames resolved once
  std::vector<std::uint64_t> got;
  for (const VectorCase& vc : file.cases) {
    InstrTally& tally = tally_of(report.tallies, vc.inst);
    std::vector<Mismatch> bad;
    try {
      auto it = std::find_if(lanes.begin(), lanes.end(), [&](const LaneMma& l) { return &l.inst() == vc.inst; });
      if (it == lanes.end()) it = lanes.emplace(lanes.end(), *vc.inst, arch);
      bad = case_mismatches(vc, *it, got);
    } catch (const Error& e) {  // the model's refusal (fp8 on sm_80) belongs to the case's line
      throw e.located(SourceLoc{file.name, vc.line, 0});
    }
    ++(bad.empty() ? tally.passed : tally.failed);
    ++(bad.empty() ? report.passed : report.failed);
    for (const Mismatch& m : bad)
      if (report.mismatches.size() < max_mismatches) report.mismatches.push_back(m);
  }
  return report;
}

}  // namespace mmacheck::sim
