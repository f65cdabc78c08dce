#include "core/ptx/ptx_reader.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_opcodes.h"

namespace mmacheck::ptx {

namespace {

constexpr std::size_t kMaxInstructions = 1'000'000;
constexpr std::int64_t kMaxRegisters = 1'000'000;
constexpr int kMaxScopeDepth = 64;
constexpr std::int64_t kMaxSharedBytes = 232448;     // sm_90's most per CTA (227 KB)
constexpr std::int64_t kConstantBankBytes = 65536;   // the .const bank a kernel's arrays share
constexpr std::int64_t kMaxLocalBytes = 512 * 1024;  // the most local memory a thread has (PTX ISA)

enum class Tok : std::uint8_t { word, number, string, punct, end };

struct Token {
  Tok kind;
  std::string_view text;
  int line;
  int col;
};

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '%' || c == '.';
}

// PTX's tokens: words (identifiers, directives and dotted opcodes, `::`
// inside them), numbers, strings and single punctuation characters.
std::vector<Token> tokenize(std::string_view text, const std::string& file) {
  std::vector<Token> out;
  int line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  const auto col = [&](std::size_t at) { return static_cast<int>(at - line_start) + 1; };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const int l = line;
      const int cl = col(i);
      i += 2;
      while (i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/')) {
        if (text[i] == '\n') {
          ++line;
          line_start = i + 1;
        }
        ++i;
      }
      if (i + 1 >= text.size()) throw Error(SourceLoc{file, l, cl}, "unterminated comment");
      i += 2;
      continue;
    }
    const std::size_t start = i;
    if (c == '"') {
      ++i;
      while (i < text.size() && text[i] != '"' && text[i] != '\n') ++i;
      if (i >= text.size() || text[i] != '"') throw Error(SourceLoc{file, line, col(start)}, "unterminated string");
      ++i;
      out.push_back({Tok::string, text.substr(start + 1, i - start - 2), line, col(start)});
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0) {
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) != 0 || text[i] == '.')) ++i;
      out.push_back({Tok::number, text.substr(start, i - start), line, col(start)});
      continue;
    }
    if (word_char(c)) {
      while (i < text.size()) {
        if (word_char(text[i])) {
          ++i;
        } else if (text[i] == ':' && i + 1 < text.size() && text[i + 1] == ':') {
          i += 2;
        } else {
          break;
        }
      }
      out.push_back({Tok::word, text.substr(start, i - start), line, col(start)});
      continue;
    }
    if (std::string_view("{}[]();,:+-!@<>|=").find(c) != std::string_view::npos) {
      ++i;
      out.push_back({Tok::punct, text.substr(start, 1), line, col(start)});
      continue;
    }
    throw Error(SourceLoc{file, line, col(start)},
                "unexpected character '" + printable(text.substr(start, 1)) + "' in PTX");
  }
  out.push_back({Tok::end, {}, line, col(i)});
  return out;
}

// A PTX integer: decimal, 0x hex, 0b binary, leading-0 octal, an optional U
// suffix; 0f/0d: a float's bits.  nullopt when `text` is none of these.
std::optional<std::int64_t> parse_integer(std::string_view text) {
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D')) {
    const std::size_t digits = (text[1] == 'f' || text[1] == 'F') ? 8 : 16;
    if (text.size() != 2 + digits) return std::nullopt;
    std::uint64_t v = 0;
    for (const char ch : text.substr(2)) {
      if (std::isxdigit(static_cast<unsigned char>(ch)) == 0) return std::nullopt;
      v = v * 16 + static_cast<std::uint64_t>(std::isdigit(static_cast<unsigned char>(ch)) != 0
                                                  ? ch - '0'
                                                  : (std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10));
    }
    return static_cast<std::int64_t>(v);
  }
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) text.remove_suffix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  std::uint64_t v = 0;
  for (const char ch : text) {
    int d = -1;
    if (std::isdigit(static_cast<unsigned char>(ch)) != 0) d = ch - '0';
    else if (std::isxdigit(static_cast<unsigned char>(ch)) != 0)
      d = std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10;
    if (d < 0 || d >= base) return std::nullopt;
    if (v > (~std::uint64_t{0} - static_cast<std::uint64_t>(d)) / static_cast<std::uint64_t>(base)) return std::nullopt;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return static_cast<std::int64_t>(v);  // PTX integers are 64-bit: wrap as it does
}

struct SpecialRow {
  std::string_view name;
  Special special;
};

constexpr std::array kSpecials{
    SpecialRow{"%tid.x", Special::tid_x},
    SpecialRow{"%tid.y", Special::tid_y},
    SpecialRow{"%tid.z", Special::tid_z},
    SpecialRow{"%ntid.x", Special::ntid_x},
    SpecialRow{"%ntid.y", Special::ntid_y},
    SpecialRow{"%ntid.z", Special::ntid_z},
    SpecialRow{"%ctaid.x", Special::ctaid_x},
    SpecialRow{"%ctaid.y", Special::ctaid_y},
    SpecialRow{"%ctaid.z", Special::ctaid_z},
    SpecialRow{"%nctaid.x", Special::nctaid_x},
    SpecialRow{"%nctaid.y", Special::nctaid_y},
    SpecialRow{"%nctaid.z", Special::nctaid_z},
    SpecialRow{"%laneid", Special::laneid},
    SpecialRow{"%warpid", Special::warpid},
    SpecialRow{"%nwarpid", Special::nwarpid},
    SpecialRow{"%lanemask_lt", Special::lanemask_lt},
    SpecialRow{"%lanemask_le", Special::lanemask_le},
    SpecialRow{"%lanemask_eq", Special::lanemask_eq},
    SpecialRow{"%lanemask_ge", Special::lanemask_ge},
    SpecialRow{"%lanemask_gt", Special::lanemask_gt},
};

std::optional<Special> find_special(std::string_view name) {
  for (const SpecialRow& row : kSpecials)
    if (row.name == name) return row.special;
  return std::nullopt;
}

// The registers of one kernel, in nested scopes: `%r<89>` declares %r0 ..
// %r88 as one range, without a name per register.
class RegisterScopes {
 public:
  explicit RegisterScopes(PtxKernel& kernel) : kernel_(kernel) {}
  void open(const SourceLoc& at) {
    if (scopes_.size() >= kMaxScopeDepth) throw Error(at, "blocks nested more than 64 deep");
    scopes_.emplace_back();
  }
  void close() { scopes_.pop_back(); }
  bool empty() const { return scopes_.empty(); }

  void declare(const std::string& name, std::int64_t count, int bits, const SourceLoc& at) {
    Scope& s = scopes_.back();
    if (s.single.contains(name) || s.ranges.contains(name))
      throw Error(at, "register '" + printable(name) + "' declared twice in one block");
    if (count < 0 || total_ + std::max<std::int64_t>(count, 1) > kMaxRegisters)
      throw Error(at, "more than 1,000,000 registers in one kernel");
    const int base = static_cast<int>(kernel_.reg_bits.size());
    const std::int64_t n = count == 0 ? 1 : count;
    for (std::int64_t i = 0; i < n; ++i) {
      kernel_.reg_bits.push_back(bits);
      kernel_.reg_names.push_back(count == 0 ? name : name + std::to_string(i));
    }
    total_ += n;
    if (count == 0) s.single.emplace(name, base);
    else s.ranges.emplace(name, std::pair{base, static_cast<int>(count)});
  }

  std::optional<int> find(std::string_view name) const {
    std::size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1])) != 0) --digits;
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s) {
      if (const auto it = s->single.find(std::string(name)); it != s->single.end()) return it->second;
      if (digits < name.size() && name.size() - digits <= 9) {
        if (const auto it = s->ranges.find(std::string(name.substr(0, digits))); it != s->ranges.end()) {
          const int index = std::stoi(std::string(name.substr(digits)));
          // PTX numbers a range from 0 without leading zeros: %r012 is not %r12.
          if (index < it->second.second && (name.size() - digits == 1 || name[digits] != '0'))
            return it->second.first + index;
        }
      }
    }
    return std::nullopt;
  }

 private:
  struct Scope {
    std::unordered_map<std::string, int> single;
    std::unordered_map<std::string, std::pair<int, int>> ranges;
  };
  PtxKernel& kernel_;
  std::vector<Scope> scopes_;
  std::int64_t total_ = 0;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : file_(file), toks_(tokenize(text, file)) {}

  PtxModule module() {
    PtxModule m;
    m.file = file_;
    while (peek().kind != Tok::end) {
      const Token t = next();
      if (t.kind != Tok::word) throw error(t, "expected a directive, found '" + printable(t.text) + "'");
      if (t.text == ".version") {
        const Token v = expect(Tok::number, "a version such as 8.0");
        const std::size_t dot = v.text.find('.');
        const auto major = parse_integer(v.text.substr(0, dot));
        const auto minor =
            dot == std::string_view::npos ? std::optional<std::int64_t>{} : parse_integer(v.text.substr(dot + 1));
        if (!major || !minor || *major < 1 || *major > 99 || *minor < 0 || *minor > 99)
          throw error(v, "malformed .version '" + printable(v.text) + "'");
        m.version_major = static_cast<int>(*major);
        m.version_minor = static_cast<int>(*minor);
      } else if (t.text == ".target") {
        m.target = std::string(expect(Tok::word, "a target such as sm_80").text);
        while (is_punct(",")) {
          next();
          expect(Tok::word, "a target option");
        }
      } else if (t.text == ".address_size") {
        const Token n = expect(Tok::number, "64");
        if (n.text != "64") throw error(n, "only .address_size 64 is modelled");
      } else if (t.text == ".file") {
        source_file(t);
      } else if (t.text == ".visible" || t.text == ".weak" || t.text == ".extern") {
        extern_ = t.text == ".extern";
        continue;
      } else if (t.text == ".entry") {
        entry(m, t);
      } else if (t.text == ".func") {
        skip_function(t);
      } else if (t.text == ".shared") {
        module_shared_.push_back(shared_variable(t, extern_));
      } else if (t.text == ".const") {
        module_const_.push_back(const_variable(t));
      } else if (t.text == ".global") {  // a __device__ variable: read past; a use is an unknown symbol
        skip_through(";");
      } else if (t.text == ".section") {  // DWARF data (Triton, nvcc -lineinfo): read past, never run
        expect(Tok::word, "a section name");
        if (is_punct("{")) skip_block(t);
      } else {
        throw error(t, "unknown directive '" + printable(t.text) + "'");
      }
      extern_ = false;
    }
    if (m.version_major == 0) throw Error(SourceLoc{file_, 1, 1}, "no .version directive: not a PTX module");
    resolve_sources(m);
    return m;
  }

 private:
  const Token& peek(std::size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  Token next() {
    const Token t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool is_punct(std::string_view p, std::size_t ahead = 0) const {
    return peek(ahead).kind == Tok::punct && peek(ahead).text == p;
  }
  Error error(const Token& t, std::string message) const {
    return {SourceLoc{file_, t.line, t.col}, std::move(message)};
  }
  SourceLoc loc(const Token& t) const { return SourceLoc{file_, t.line, t.col}; }
  Token expect(Tok kind, std::string_view what) {
    const Token t = next();
    if (t.kind != kind)
      throw error(t, "expected " + std::string(what) + ", found " +
                         (t.kind == Tok::end ? std::string("the end of the file") : "'" + printable(t.text) + "'"));
    return t;
  }
  void expect_punct(std::string_view p) {
    const Token t = next();
    if (t.kind != Tok::punct || t.text != p)
      throw error(t, "expected '" + std::string(p) + "', found " +
                         (t.kind == Tok::end ? std::string("the end of the file") : "'" + printable(t.text) + "'"));
  }
  // `.file 1 "k.cu"` (nvcc and NVRTC add a timestamp and a size).
  void source_file(const Token& at) {
    const Token n = expect(Tok::number, "a file number");
    const Token name = expect(Tok::string, "a file name");
    files_[integer(n)] = std::string(name.text);
    skip_line(at.line);
  }
  // `.loc 1 42 7` (and `, function_name ..., inlined_at ...`): the source
  // line of the instructions after it, its file by number until the module's
  // `.file`s are all read (resolve_sources); none for line 0.
  SourceLoc source_line(const Token& at) {
    const Token f = expect(Tok::number, "a file number");
    const Token l = expect(Tok::number, "a line number");
    std::int64_t column = 0;
    if (peek().kind == Tok::number && peek().line == at.line) column = integer(next());
    skip_line(at.line);
    const std::int64_t line = integer(l);
    if (line <= 0 || line > (1 << 30) || column < 0 || column > (1 << 20)) return {};
    return SourceLoc{std::to_string(integer(f)), static_cast<int>(line), static_cast<int>(column)};
  }
  // nvcc writes a kernel's `.file`s after it: the numbers become names at
  // the end; a number no `.file` names is no source.
  void resolve_sources(PtxModule& m) const {
    for (PtxKernel& k : m.kernels)
      for (Instruction& inst : k.code) {
        if (inst.source.file.empty()) continue;
        const auto it = files_.find(std::stoll(inst.source.file));
        inst.source = it == files_.end() ? SourceLoc{} : SourceLoc{it->second, inst.source.line, inst.source.col};
      }
  }
  void skip_line(int line) {
    while (peek().kind != Tok::end && peek().line == line) next();
  }
  void skip_through(std::string_view p) {
    while (peek().kind != Tok::end && !is_punct(p)) next();
    expect_punct(p);
  }
  // A constant, `-` before it negating it (two's complement, as PTX's
  // 64-bit integers wrap); 0f/0d floats are their bits.
  std::uint64_t number() {
    bool negative = false;
    if (is_punct("-")) {
      next();
      negative = true;
    }
    const Token n = expect(Tok::number, "a number");
    const auto v = parse_integer(n.text);
    if (!v)
      throw error(n, "malformed constant '" + printable(n.text) + "' (decimal floats are not read; PTX writes 0f/0d)");
    return negative ? 0 - static_cast<std::uint64_t>(*v) : static_cast<std::uint64_t>(*v);
  }
  std::int64_t integer(const Token& t) {
    const auto v = parse_integer(t.text);
    if (!v) throw error(t, "malformed integer '" + printable(t.text) + "'");
    return *v;
  }

  // `.shared .align 16 .b8 name[4096];` (`name[]` when external), or a
  // kernel's `.local .align 8 .b8 __local_depot0[32];`.
  Symbol shared_variable(const Token& at, bool external, Space space = Space::shared, PtxType* element = nullptr) {
    const std::string decl = "a ." + std::string(space_name(space)) + " declaration";
    Symbol s;
    s.space = space;
    s.external = external;
    std::int64_t align = 1;
    int elem_bytes = 0;
    while (peek().kind == Tok::word && peek().text.starts_with(".")) {
      const Token d = next();
      if (d.text == ".align") {
        align = integer(expect(Tok::number, "an alignment"));
        if (align < 1 || align > 4096 || (align & (align - 1)) != 0) throw error(d, "malformed .align");
      } else if (const auto type = parse_type(d.text.substr(1)); type && type->kind != TypeKind::pred) {
        elem_bytes = std::max(1, type->bits / 8);
        if (element != nullptr) *element = *type;
      } else {
        throw error(d, "unexpected '" + printable(d.text) + "' in " + decl);
      }
    }
    if (elem_bytes == 0) throw error(at, decl + " needs an element type");
    s.name = std::string(expect(Tok::word, "the array's name").text);
    std::int64_t count = 1;
    for (int dim = 0; is_punct("["); ++dim) {  // name[N] or name[N][M]...; name[] when external
      next();
      if (is_punct("]") && dim == 0) {
        if (!external) throw error(peek(), "an array without a size must be .extern");
        count = 0;
      } else {
        const std::int64_t n = integer(expect(Tok::number, "the array's size"));
        if (n < 0 || n > (std::int64_t{1} << 30) || count * n > (std::int64_t{1} << 30))
          throw error(peek(), "an array larger than 1 GiB");
        count *= n;
      }
      expect_punct("]");
    }
    if (is_punct("=") && element == nullptr)
      throw error(peek(), "initialised ." + std::string(space_name(space)) + " arrays are not modelled");
    if (!is_punct("=")) expect_punct(";");
    s.bytes = static_cast<int>(count * elem_bytes);
    s.offset = align;  // the alignment, until the kernel places it
    return s;
  }

  // `.const .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};` (or `.u32
  // table[2] = {1, 2}`, nested braces for more dimensions, a scalar `= 7`):
  // the array and its bytes, little-endian, zeros past the initialiser.
  struct ModuleConst {
    Symbol symbol;
    std::vector<std::uint8_t> bytes;
    Token at;
  };
  ModuleConst const_variable(const Token& at) {
    PtxType element{};
    ModuleConst c{shared_variable(at, false, Space::constant, &element), {}, at};
    if (c.symbol.bytes > kConstantBankBytes)
      throw error(at,
                  "a .const array larger than the constant bank (" + std::to_string(kConstantBankBytes) + " bytes)");
    c.bytes.assign(static_cast<std::size_t>(c.symbol.bytes), 0);
    if (is_punct("=")) {
      next();
      const int bytes = std::max(1, element.bits / 8);
      std::size_t at_byte = 0;
      const auto value = [&] {
        const Token n = peek();
        const std::uint64_t bits = number();
        if (at_byte + static_cast<std::size_t>(bytes) > c.bytes.size())
          throw error(n, "more initial values than the array holds");
        for (int b = 0; b < bytes; ++b) c.bytes[at_byte++] = static_cast<std::uint8_t>(bits >> (8 * b));
      };
      if (is_punct("{")) {
        int depth = 0;
        do {
          if (is_punct("{")) {
            next();
            ++depth;
          } else if (is_punct("}")) {
            next();
            --depth;
            if (depth > 0 && is_punct(",")) next();
          } else {
            value();
            if (is_punct(",")) next();
            else if (!is_punct("}")) throw error(peek(), "expected ',' or '}' in an initialiser");
          }
        } while (depth > 0 && peek().kind != Tok::end);
        if (depth != 0) throw error(at, "unterminated initialiser");
      } else {
        value();
      }
      expect_punct(";");
    }
    return c;
  }

  // A .const array: at its alignment in the kernel's constant bank.
  void place_const(PtxKernel& k, const ModuleConst& c) {
    declare_once(k, c.symbol.name, c.at);
    Symbol s = c.symbol;
    const auto align = static_cast<std::size_t>(s.offset);
    const std::size_t start = (k.constant.size() + align - 1) / align * align;
    if (start + c.bytes.size() > static_cast<std::size_t>(kConstantBankBytes))
      throw error(c.at, "the module's .const arrays exceed the constant bank (" + std::to_string(kConstantBankBytes) +
                            " bytes)");
    k.constant.resize(start, 0);
    k.constant.insert(k.constant.end(), c.bytes.begin(), c.bytes.end());
    s.offset = static_cast<std::int64_t>(start);
    k.symbols.push_back(std::move(s));
  }

  void skip_block(const Token& at) {
    int depth = 0;
    while (peek().kind != Tok::end) {
      const Token b = next();
      if (b.kind == Tok::punct && b.text == "{") ++depth;
      if (b.kind == Tok::punct && b.text == "}" && --depth == 0) return;
    }
    throw error(at, "unterminated " + std::string(at.text));
  }

  void skip_function(const Token& at) {
    int depth = 0;
    while (peek().kind != Tok::end) {
      const Token t = next();
      if (t.kind == Tok::punct && t.text == ";" && depth == 0) return;  // a declaration
      if (t.kind == Tok::punct && t.text == "{") ++depth;
      if (t.kind == Tok::punct && t.text == "}" && --depth == 0) return;
    }
    throw error(at, "unterminated .func");
  }

  void entry(PtxModule& m, const Token& at) {
    source_ = {};
    PtxKernel k;
    const Token name = expect(Tok::word, "the kernel's name");
    k.name = std::string(name.text);
    k.loc = loc(name);
    for (const PtxKernel& other : m.kernels)
      if (other.name == k.name) throw error(name, "kernel '" + printable(k.name) + "' defined twice");
    if (is_punct("(")) {
      next();
      while (!is_punct(")")) {
        param(k);
        if (is_punct(",")) next();
        else if (!is_punct(")")) throw error(peek(), "expected ',' or ')' in the parameter list");
      }
      next();
    }
    while (peek().kind == Tok::word && peek().text.starts_with(".")) {
      const Token d = next();
      if (d.text == ".maxntid" || d.text == ".reqntid") {
        std::array<int, 3>& dims = d.text == ".maxntid" ? k.maxntid : k.reqntid;
        dims = {1, 1, 1};
        for (int i = 0; i < 3; ++i) {
          const Token n = expect(Tok::number, "a thread count");
          const std::int64_t v = integer(n);
          if (v < 1 || v > 1024) throw error(n, "thread count outside 1..1024");
          dims[static_cast<std::size_t>(i)] = static_cast<int>(v);
          if (!is_punct(",")) break;
          next();
        }
      } else if (d.text == ".maxnreg") {
        const Token n = expect(Tok::number, "a register count");
        const std::int64_t v = integer(n);
        if (v < 1 || v > 255) throw error(n, "register count outside 1..255");
        k.maxnreg = static_cast<int>(v);
      } else if (d.text == ".minnctapersm" || d.text == ".maxnctapersm") {
        integer(expect(Tok::number, "a count"));
      } else if (d.text == ".noreturn" || d.text == ".pragma") {
        if (peek().kind == Tok::string) next();
        if (is_punct(";")) next();
      } else {
        throw error(d, "unknown kernel directive '" + printable(d.text) + "'");
      }
    }
    if (is_punct(";")) {  // a declaration without a body
      next();
      return;
    }
    // Module-level shared arrays are the kernel's too.
    for (const Symbol& s : module_shared_) place_shared(k, s, at);
    for (const ModuleConst& c : module_const_) place_const(k, c);
    body(k);
    m.kernels.push_back(std::move(k));
  }

  // `.param .u64 name`, `.param .u64 .ptr .global .align 1 name`,
  // `.param .align 8 .b8 name[16]`.
  void param(PtxKernel& k) {
    const Token p = expect(Tok::word, "'.param'");
    if (p.text != ".param") throw error(p, "expected '.param', found '" + printable(p.text) + "'");
    Symbol s;
    s.space = Space::param;
    std::optional<PtxType> type;
    while (peek().kind == Tok::word && peek().text.starts_with(".")) {
      const Token d = next();
      if (d.text == ".align") {
        integer(expect(Tok::number, "an alignment"));
      } else if (d.text == ".ptr" || d.text == ".global" || d.text == ".shared" || d.text == ".const" ||
                 d.text == ".local") {
        continue;
      } else if (const auto t = parse_type(d.text.substr(1)); t && t->kind != TypeKind::pred) {
        type = t;
      } else {
        throw error(d, "unexpected '" + printable(d.text) + "' in a parameter");
      }
    }
    if (!type) throw error(p, "a parameter needs a type");
    const Token name = expect(Tok::word, "the parameter's name");
    s.name = std::string(name.text);
    s.type = *type;
    std::int64_t count = 1;
    if (is_punct("[")) {
      next();
      count = integer(expect(Tok::number, "the array's size"));
      if (count < 1 || count > 4096) throw error(name, "parameter array size outside 1..4096");
      expect_punct("]");
    }
    s.bytes = static_cast<int>(count * std::max(1, type->bits / 8));
    s.offset = static_cast<std::int64_t>(k.params.size());
    for (const Symbol& other : k.symbols)
      if (other.name == s.name) throw error(name, "parameter '" + printable(s.name) + "' declared twice");
    k.params.push_back(static_cast<int>(k.symbols.size()));
    k.symbols.push_back(std::move(s));
  }

  void place_shared(PtxKernel& k, Symbol s, const Token& at) {
    declare_once(k, s.name, at);
    const std::int64_t align = s.offset;
    if (s.external) {
      s.offset = -align;  // placed by the launch, after the static arrays
    } else {
      k.static_shared = (k.static_shared + align - 1) / align * align;
      s.offset = k.static_shared;
      k.static_shared += s.bytes;
      if (k.static_shared > kMaxSharedBytes)
        throw error(at, "more shared memory than a CTA has (" + std::to_string(kMaxSharedBytes) + " bytes on sm_90)");
    }
    k.symbols.push_back(std::move(s));
  }

  void declare_once(const PtxKernel& k, const std::string& name, const Token& at) const {
    for (const Symbol& other : k.symbols)
      if (other.name == name) throw error(at, "'" + printable(name) + "' declared twice");
  }

  // A `.local` array: at its offset in every thread's local memory.
  void place_local(PtxKernel& k, Symbol s, const Token& at) {
    declare_once(k, s.name, at);
    const std::int64_t align = s.offset;
    k.local_bytes = (k.local_bytes + align - 1) / align * align;
    s.offset = k.local_bytes;
    k.local_bytes += s.bytes;
    if (k.local_bytes > kMaxLocalBytes)
      throw error(at, "more local memory than a thread has (" + std::to_string(kMaxLocalBytes) + " bytes)");
    k.symbols.push_back(std::move(s));
  }

  void body(PtxKernel& k) {
    RegisterScopes regs(k);
    // Labels are scoped by blocks as registers are (PTX ISA: a label inside
    // `{ }` is local to it; inline asm repeats CUTLASS's `LAB_WAIT:` in each
    // block): each block has a number, a label is keyed by its name and its
    // block's, and a use resolves to the innermost enclosing block that
    // defines it (after the body: uses may come before the label).
    std::unordered_map<std::string, int> labels;
    std::vector<std::pair<std::size_t, Token>> label_uses;  // (instruction, label token)
    std::vector<std::vector<int>> use_blocks;               // per use: the blocks around it, outermost first
    std::vector<int> blocks;
    int next_block = 0;
    const auto label_key = [](std::string_view name, int block) {
      return std::string(name) + '\n' + std::to_string(block);
    };
    const Token open = peek();
    expect_punct("{");
    regs.open(loc(open));
    blocks.push_back(next_block++);
    while (!regs.empty()) {
      const Token t = peek();
      if (t.kind == Tok::end) throw error(open, "unterminated kernel body");
      if (t.kind == Tok::punct && t.text == "{") {
        next();
        regs.open(loc(t));
        blocks.push_back(next_block++);
        continue;
      }
      if (t.kind == Tok::punct && t.text == "}") {
        next();
        regs.close();
        blocks.pop_back();
        continue;
      }
      if (t.kind == Tok::word && is_punct(":", 1)) {
        next();
        next();
        if (!labels.emplace(label_key(t.text, blocks.back()), static_cast<int>(k.code.size())).second)
          throw error(t, "label '" + printable(t.text) + "' defined twice");
        continue;
      }
      if (t.kind == Tok::word && t.text == ".reg") {
        next();
        reg_declaration(regs, t);
        continue;
      }
      if (t.kind == Tok::word && (t.text == ".shared")) {
        next();
        place_shared(k, shared_variable(t, false), t);
        continue;
      }
      if (t.kind == Tok::word && t.text == ".local") {
        next();
        place_local(k, shared_variable(t, false, Space::local), t);
        continue;
      }
      if (t.kind == Tok::word && t.text == ".pragma") {
        next();
        expect(Tok::string, "a pragma string");
        expect_punct(";");
        continue;
      }
      if (t.kind == Tok::word && t.text == ".loc") {
        next();
        source_ = source_line(t);
        continue;
      }
      if (k.code.size() >= kMaxInstructions) throw error(t, "more than 1,000,000 instructions in one kernel");
      k.code.push_back(instruction(k, regs, label_uses));
      use_blocks.resize(label_uses.size(), blocks);
    }
    for (std::size_t u = 0; u < label_uses.size(); ++u) {
      const auto& [index, tok] = label_uses[u];
      auto it = labels.end();
      for (auto b = use_blocks[u].rbegin(); b != use_blocks[u].rend() && it == labels.end(); ++b)
        it = labels.find(label_key(tok.text, *b));
      if (it == labels.end()) throw error(tok, "undefined label '" + printable(tok.text) + "'");
      for (Operand& op : k.code[index].ops)
        if (op.kind == Operand::Kind::label && op.loc.line == tok.line && op.loc.col == tok.col) op.target = it->second;
    }
  }

  void reg_declaration(RegisterScopes& regs, const Token& at) {
    const Token type_tok = expect(Tok::word, "a register type");
    if (type_tok.text == ".v2" || type_tok.text == ".v4") throw error(type_tok, "vector registers are not modelled");
    const auto type = parse_type(type_tok.text.substr(1));
    if (!type_tok.text.starts_with(".") || !type)
      throw error(type_tok, "unknown register type '" + printable(type_tok.text) + "'");
    for (;;) {
      const Token name = expect(Tok::word, "a register name");
      std::int64_t count = 0;
      if (is_punct("<")) {
        next();
        const Token n = expect(Tok::number, "a register count");
        count = integer(n);
        if (count < 1) throw error(n, "register count must be positive");
        expect_punct(">");
      }
      regs.declare(std::string(name.text), count, type->bits, loc(name));
      if (!is_punct(",")) break;
      next();
    }
    (void)at;
    expect_punct(";");
  }

  Instruction instruction(const PtxKernel& k, const RegisterScopes& regs,
                          std::vector<std::pair<std::size_t, Token>>& label_uses) {
    Instruction inst;
    Token head = peek();
    inst.loc = loc(head);
    inst.source = source_;
    if (is_punct("@")) {
      next();
      if (is_punct("!")) {
        next();
        inst.guard_negated = true;
      }
      const Token p = expect(Tok::word, "a predicate register");
      const auto r = regs.find(p.text);
      if (!r || k.reg_bits[static_cast<std::size_t>(*r)] != 1)
        throw error(p, "'" + printable(p.text) + "' is not a predicate register");
      inst.guard = *r;
      head = peek();
    }
    const Token op = expect(Tok::word, "an instruction");
    if (op.text.starts_with(".")) throw error(op, "unknown directive '" + printable(op.text) + "' in a kernel body");
    inst.opcode = std::string(op.text);
    const SourceLoc opcode_loc = loc(op);
    while (!is_punct(";")) {
      if (peek().kind == Tok::end) throw error(op, "missing ';' after '" + printable(op.text) + "'");
      inst.ops.push_back(operand(k, regs, label_uses));
      if (is_punct(",")) {
        next();
        if (is_punct(";")) throw error(peek(), "expected an operand after ','");
      } else if (!is_punct(";")) {
        throw error(peek(), "expected ',' or ';', found '" + printable(peek().text) + "'");
      }
    }
    next();
    // Record which instruction each label operand belongs to.
    for (auto& use : label_uses)
      if (use.first == kPending) use.first = k.code.size();
    decode_instruction(inst, k, opcode_loc);
    return inst;
  }

  static constexpr std::size_t kPending = ~std::size_t{0};

  Operand operand(const PtxKernel& k, const RegisterScopes& regs,
                  std::vector<std::pair<std::size_t, Token>>& label_uses) {
    const Token t = peek();
    Operand o;
    o.loc = loc(t);
    if (is_punct("{")) {
      next();
      o.kind = Operand::Kind::vec;
      while (!is_punct("}")) {
        if (peek().kind == Tok::number) {  // a constant element (st's source: `{0, 16843009}`)
          o.imms.resize(o.regs.size(), 0);
          o.imms.push_back(integer(next()));
          o.regs.push_back(kVecConstant);
          if (is_punct(",")) next();
          else if (!is_punct("}")) throw error(peek(), "expected ',' or '}' in a vector");
          continue;
        }
        const Token r = expect(Tok::word, "a register");
        if (r.text == "_") {
          o.regs.push_back(-1);
        } else {
          const auto index = regs.find(r.text);
          if (!index) throw error(r, "unknown register '" + printable(r.text) + "'");
          o.regs.push_back(*index);
        }
        if (is_punct(",")) next();
        else if (!is_punct("}")) throw error(peek(), "expected ',' or '}' in a vector");
      }
      next();
      // wgmma.mma_async m64n256 with an f32 D takes 128 registers.
      if (o.regs.empty() || o.regs.size() > 128) throw error(t, "a vector of 1 to 128 registers");
      return o;
    }
    if (is_punct("[")) {
      next();
      o.kind = Operand::Kind::address;
      if (peek().kind == Tok::word) {
        const Token base = next();
        if (const auto r = regs.find(base.text)) o.reg = *r;
        else if (const int s = symbol(k, base.text); s >= 0) o.symbol = s;
        else throw error(base, "unknown register or variable '" + printable(base.text) + "'");
        if (is_punct("+") || is_punct("-")) {
          const bool negative = next().text == "-";
          bool neg2 = false;
          if (is_punct("-")) {
            next();
            neg2 = true;
          }
          const std::int64_t v = integer(expect(Tok::number, "an offset"));
          o.imm = (negative != neg2) ? -v : v;
        }
      } else {
        o.imm = integer(expect(Tok::number, "an address"));
      }
      if (is_punct(",")) {  // [tensorMap, {c0, c1, ..}]: cp.async.bulk.tensor's coordinates
        next();
        const Token open = peek();
        expect_punct("{");
        while (!is_punct("}")) {
          const Token r = expect(Tok::word, "a register");
          const auto index = regs.find(r.text);
          if (!index) throw error(r, "unknown register '" + printable(r.text) + "'");
          o.regs.push_back(*index);
          if (is_punct(",")) next();
          else if (!is_punct("}")) throw error(peek(), "expected ',' or '}' in a vector");
        }
        next();
        if (o.regs.empty() || o.regs.size() > 5) throw error(open, "a tensor's coordinates: 1 to 5 registers");
      }
      expect_punct("]");
      return o;
    }
    if (is_punct("-") || peek().kind == Tok::number) {
      o.kind = Operand::Kind::imm;
      o.imm = static_cast<std::int64_t>(number());
      return o;
    }
    if (is_punct("!")) {  // !%p: vote's source predicate (other opcodes refuse it)
      next();
      const Token w = expect(Tok::word, "a predicate register");
      const auto r = regs.find(w.text);
      if (!r) throw error(w, "unknown register '" + printable(w.text) + "'");
      o.reg = *r;
      o.negated = true;
      return o;
    }
    const Token w = expect(Tok::word, "an operand");
    const auto r = w.text == "_" ? std::optional<int>(-1) : regs.find(w.text);
    if (r) {
      o.kind = Operand::Kind::reg;
      o.reg = *r;
      if (is_punct("|")) {  // d|p: shfl's and setp's second destination
        next();
        const Token p = expect(Tok::word, "a predicate register");
        const auto pr = regs.find(p.text);
        if (!pr) throw error(p, "unknown register '" + printable(p.text) + "'");
        o.regs.push_back(*pr);
      }
      return o;
    }
    if (const auto s = find_special(w.text)) {
      o.kind = Operand::Kind::special;
      o.special = *s;
      return o;
    }
    if (const int s = symbol(k, w.text); s >= 0) {
      o.kind = Operand::Kind::symbol;
      o.symbol = s;
      return o;
    }
    if (w.text.starts_with("%")) throw error(w, "unknown register '" + printable(w.text) + "'");
    o.kind = Operand::Kind::label;
    label_uses.emplace_back(kPending, w);
    return o;
  }

  static int symbol(const PtxKernel& k, std::string_view name) {
    for (std::size_t i = 0; i < k.symbols.size(); ++i)
      if (k.symbols[i].name == name) return static_cast<int>(i);
    return -1;
  }

  std::string file_;
  std::unordered_map<std::int64_t, std::string> files_;  // .file number -> name
  SourceLoc source_;                                     // the last .loc's line (file: its number)
  std::vector<Token> toks_;
  std::size_t pos_ = 0;
  bool extern_ = false;
  std::vector<Symbol> module_shared_;
  std::vector<ModuleConst> module_const_;
};

}  // namespace

PtxModule read_ptx(std::string_view text, const std::string& file) { return Reader(text, file).module(); }

bool looks_like_ptx(std::string_view text) {
  return text.find(".version") != std::string_view::npos && text.find(".entry") != std::string_view::npos;
}

}  // namespace mmacheck::ptx
