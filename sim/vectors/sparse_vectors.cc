#include "sim/vectors/sparse_vectors.h"

#include <charconv>
#include <map>
#include <tuple>
#include <cstdio>

#include "core/base/error.h"
#include "core/base/file_io.h"

namespace mmacheck::sim {

namespace {

struct Token {
  std::string_view text;
  int col;
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

std::string hex_word(std::uint64_t v, int digits) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(v));
  return buf;
}

class Parser {
 public:
  Parser(const std::string& name) : name_(name) {}
  [[noreturn]] void fail(int line, int col, const std::string& m) const { throw Error(SourceLoc{name_, line, col}, m); }

  std::vector<std::uint64_t> words(int line, const std::vector<Token>& t, std::size_t want, int digits) const {
    if (t.size() - 1 != want)
      fail(line, t[0].col,
           std::string(t[0].text) + " has " + std::to_string(t.size() - 1) + " words, expected " +
               std::to_string(want));
    std::vector<std::uint64_t> out;
    for (std::size_t i = 1; i < t.size(); ++i) {
      std::uint64_t v = 0;
      const auto [p, ec] = std::from_chars(t[i].text.data(), t[i].text.data() + t[i].text.size(), v, 16);
      if (ec != std::errc() || p != t[i].text.data() + t[i].text.size() || static_cast<int>(t[i].text.size()) > digits)
        fail(line, t[i].col,
             "expected a hex word of at most " + std::to_string(digits) + " digits, got '" + printable(t[i].text) +
                 "'");
      out.push_back(v);
    }
    return out;
  }

 private:
  const std::string& name_;
};

}  // namespace

SparseVectorFile parse_sparse_vectors(std::string_view text, const std::string& name) {
  SparseVectorFile f{name, {}};
  const Parser p(name);
  const SparseMmaInst* inst = nullptr;
  bool ordered = true;
  SparseVectorCase* cur = nullptr;
  std::string seen;  // the fields the current case has, in order
  std::map<std::tuple<const SparseMmaInst*, bool, int, int>, int> case_lines;  // (instruction, selector, case) -> line
  const auto finish = [&](int line) {
    if (cur && seen != "FEABCD")
      p.fail(line ? line : cur->line, 0, "case " + std::to_string(cur->id) + " needs F, E, A, B, C, D in that order");
    // Cases are numbered per instruction and selector; a repeated number is a merge gone wrong.
    if (!cur) return;
    const auto [prior, fresh] = case_lines.try_emplace({cur->inst, cur->ordered, cur->selector, cur->id}, cur->line);
    if (!fresh)
      p.fail(cur->line, 0,
             "case " + std::to_string(cur->id) + " (selector " + std::to_string(cur->selector) +
                 ") repeats the case of line " + std::to_string(prior->second));
  };
  int line_no = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    const std::vector<Token> t = split(raw);
    if (t.empty() || t[0].text[0] == '#') continue;
    const std::string_view kw = t[0].text;
    if (kw == "instr") {
      finish(line_no);
      cur = nullptr;
      if (t.size() != 2) p.fail(line_no, t[0].col, "expected 'instr NAME'");
      inst = find_sparse_inst(t[1].text);
      if (!inst || t[1].text.rfind("mma.sp", 0) != 0)
        p.fail(line_no, t[1].col, "unknown mma.sp instruction '" + printable(t[1].text) + "'");
      ordered = t[1].text.rfind("mma.sp.", 0) != 0;
    } else if (kw == "case") {
      finish(line_no);
      if (!inst) p.fail(line_no, t[0].col, "case before any instr line");
      if (t.size() < 2 || t.size() > 3) p.fail(line_no, t[0].col, "expected 'case ID [KIND]'");
      int id = 0;
      const auto [q, ec] = std::from_chars(t[1].text.data(), t[1].text.data() + t[1].text.size(), id);
      if (ec != std::errc() || q != t[1].text.data() + t[1].text.size() || id < 0)
        p.fail(line_no, t[1].col, "case number '" + printable(t[1].text) + "' is not a non-negative integer");
      cur = &f.cases.emplace_back();
      cur->inst = inst;
      cur->ordered = ordered;
      cur->id = id;
      cur->kind = t.size() == 3 ? std::string(t[2].text) : std::string();
      cur->line = line_no;
      seen.clear();
    } else if (kw == "F" || kw == "E" || kw == "A" || kw == "B" || kw == "C" || kw == "D") {
      if (!cur) p.fail(line_no, t[0].col, std::string(kw) + " outside a case");
      const std::string want = std::string("FEABCD").substr(seen.size(), 1);
      if (kw != want) p.fail(line_no, t[0].col, "expected " + want + " here (F, E, A, B, C, D in that order)");
      seen += kw;
      const SparseMmaInst& s = *cur->inst;
      if (kw == "F") {
        const auto v = p.words(line_no, t, 1, 1);
        if (v[0] >= static_cast<std::uint64_t>(s.selectors()))
          p.fail(line_no, t[1].col, "selector " + std::to_string(v[0]) + " out of range for " + std::string(s.tag));
        cur->selector = static_cast<int>(v[0]);
      } else if (kw == "E") {
        for (std::uint64_t w : p.words(line_no, t, 32, 8)) cur->e.push_back(static_cast<std::uint32_t>(w));
      } else if (kw == "A") {
        cur->a = p.words(line_no, t, s.m * s.a_cols(), hex_digits(s.a));
      } else if (kw == "B") {
        cur->b = p.words(line_no, t, s.k * s.n, hex_digits(s.b));
      } else if (kw == "C") {
        cur->c = p.words(line_no, t, s.m * s.n, hex_digits(s.c));
      } else {
        cur->d = p.words(line_no, t, s.m * s.n, hex_digits(s.d));
      }
    } else {
      p.fail(line_no, t[0].col, "unknown line '" + printable(kw) + "' (instr, case, F, E, A, B, C, D)");
    }
  }
  finish(0);
  if (f.cases.empty()) p.fail(std::max(line_no, 1), 0, "no test cases (at the end of the file)");
  return f;
}

SparseVectorFile read_sparse_vectors(const std::string& path) {
  return parse_sparse_vectors(read_text_file(path), path);
}

std::string format_sparse_vectors(std::span<const std::string> comments, std::span<const SparseVectorCase> cases) {
  std::string out;
  for (const std::string& c : comments) out += "# " + c + "\n";
  const SparseMmaInst* last = nullptr;
  bool last_ordered = true;
  const auto row = [&](const char* name, const auto& words, int digits) {
    out += name;
    for (const auto w : words) out += " " + hex_word(w, digits);
    out += "\n";
  };
  for (const SparseVectorCase& c : cases) {
    if (!c.inst) throw Error("sparse vector case " + std::to_string(c.id) + " has no instruction");
    if (c.inst != last || c.ordered != last_ordered) out += "instr " + c.inst->ptx(c.ordered) + "\n";
    last = c.inst;
    last_ordered = c.ordered;
    out += "case " + std::to_string(c.id) + (c.kind.empty() ? "" : " " + c.kind) + "\n";
    out += "F " + std::to_string(c.selector) + "\n";
    row("E", c.e, 8);
    row("A", c.a, hex_digits(c.inst->a));
    row("B", c.b, hex_digits(c.inst->b));
    row("C", c.c, hex_digits(c.inst->c));
    row("D", c.d, hex_digits(c.inst->d));
  }
  return out;
}

std::vector<std::uint64_t> sparse_case_d(const SparseVectorCase& c, const ArchParams& arch, SparseArith how) {
  std::vector<std::uint64_t> d(c.inst->m * c.inst->n, 0);
  sparse_mma_tile(*c.inst, arch, how, c.a, meta_grid(*c.inst, c.selector, c.e), c.b, c.c, d);
  return d;
}

SparseVectorReport run_sparse_vectors(const SparseVectorFile& file, const ArchParams& arch, SparseArith how) {
  SparseVectorReport r;
  for (const SparseVectorCase& c : file.cases) {
    std::vector<std::uint64_t> d;
    try {
      d = sparse_case_d(c, arch, how);
    } catch (const Error& e) {
      throw Error(SourceLoc{file.name, c.line, 0}, e.message());
    }
    bool ok = true;
    for (int i = 0; i < c.inst->m * c.inst->n; ++i)
      if (d[i] != c.d[i]) {
        ok = false;
        if (r.mismatches.size() < 20)
          r.mismatches.push_back({c.id, c.line, i / c.inst->n, i % c.inst->n, c.d[i], d[i]});
      }
    ++(ok ? r.passed : r.failed);
  }
  return r;
}

}  // namespace mmacheck::sim
