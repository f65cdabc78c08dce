#include "core/sparse/sparse_reader.h"

#include <charconv>
#include <set>
#include <vector>

namespace mmacheck {

namespace {

struct Word {
  std::string text;
  int col = 0;  // 1-based
};

std::vector<Word> split(std::string_view raw) {
  const std::string_view s = raw.substr(0, std::min(raw.find('#'), raw.size()));
  std::vector<Word> words;
  std::size_t pos = 0;
  while (pos < s.size()) {
    if (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r') {
      ++pos;
      continue;
    }
    std::size_t end = s.find_first_of(" \t\r", pos);
    if (end == std::string_view::npos) end = s.size();
    words.push_back({std::string(s.substr(pos, end - pos)), static_cast<int>(pos) + 1});
    pos = end;
  }
  return words;
}

class SparseFileReader {
 public:
  SparseFileReader(const std::string& path) : path_(path) {}
  [[noreturn]] void fail(int line, int col, const std::string& message) const {
    throw Error(SourceLoc{path_, line, col}, message);
  }

  // Every number and every sum of terms stays within this: a fragment's
  // coordinates are small, and a bound keeps int arithmetic from wrapping
  // into a valid-looking layout.
  static constexpr int kBound = 1 << 20;

  int number(int line, const Word& w, std::string_view text, int col) const {
    int v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size() || text.empty())
      fail(line, col, "expected a number, got '" + printable(text) + "'");
    if (v > kBound || v < -kBound) fail(line, col, "the number " + printable(text) + " is out of range (at most 2^20)");
    (void)w;
    return v;
  }

  // c0 + cg g + ct t + t-bits + j-bits: terms [+|-][INT*]VAR or [+|-]INT.
  MetaAxis axis(int line, std::string_view text, int col) const {
    MetaAxis a;
    if (text.empty()) fail(line, col, "empty linear form");
    std::size_t pos = 0;
    while (pos < text.size()) {
      int sign = 1;
      if (text[pos] == '+' || text[pos] == '-') {
        sign = text[pos] == '-' ? -1 : 1;
        ++pos;
      } else if (pos != 0) {
        fail(line, col + static_cast<int>(pos), "expected + or -");
      }
      std::size_t end = text.find_first_of("+-", pos);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view term = text.substr(pos, end - pos);
      const int tcol = col + static_cast<int>(pos);
      if (term.empty()) fail(line, tcol, "empty term");
      const std::size_t star = term.find('*');
      int coef = 1;
      std::string_view var = term;
      if (star != std::string_view::npos) {
        coef = number(line, {}, term.substr(0, star), tcol);
        var = term.substr(star + 1);
      }
      coef *= sign;
      const auto add = [&](int& sum, int v) {
        sum += v;  // both within 2^20: no wrap
        if (sum > kBound || sum < -kBound) fail(line, tcol, "the coefficients add up past 2^20");
      };
      if (var == "g") add(a.g, coef);
      else if (var == "t") add(a.t, coef);
      else if (var == "t0") add(a.tbit[0], coef);
      else if (var == "t1") add(a.tbit[1], coef);
      else if (var == "j0") add(a.j[0], coef);
      else if (var == "j1") add(a.j[1], coef);
      else if (var == "j2") add(a.j[2], coef);
      else if (star == std::string_view::npos && !var.empty() && (var[0] >= '0' && var[0] <= '9'))
        add(a.c0, sign * number(line, {}, var, tcol));
      else fail(line, tcol, "unknown term '" + printable(term) + "' (terms: INT, g, t, t0, t1, j0, j1, j2, INT*VAR)");
      pos = end;
    }
    return a;
  }

 private:
  const std::string& path_;
};

}  // namespace

SparseCase read_sparse_file(std::string_view text, const std::string& path) {
  SparseCase c;
  c.name = path;
  SparseFileReader rd(path);
  bool have_selector = false, have_meta = false;
  int selector_line = 0, selector_col = 0;
  std::set<int> rows_given;
  int line_no = 0, last_line = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line_no;
    const std::vector<Word> w = split(text.substr(start, end - start));
    start = end + 1;
    if (w.empty()) continue;
    last_line = line_no;
    const std::string& kw = w[0].text;
    if (kw != "instr" && !c.inst) rd.fail(line_no, w[0].col, "expected 'instr' first");
    if (kw == "instr") {
      if (c.inst) rd.fail(line_no, w[0].col, "'instr' given twice");
      if (w.size() != 2) rd.fail(line_no, w[0].col, "expected 'instr NAME'");
      c.inst = find_sparse_inst(w[1].text);
      if (!c.inst)
        rd.fail(line_no, w[1].col, "unknown mma.sp instruction '" + printable(w[1].text) + "' (see docs/mma-sp.md)");
      c.ordered = w[1].text.rfind("mma.sp.", 0) != 0;
    } else if (kw == "selector") {
      if (have_selector) rd.fail(line_no, w[0].col, "'selector' given twice");
      if (w.size() != 2) rd.fail(line_no, w[0].col, "expected 'selector N'");
      c.selector = rd.number(line_no, w[1], w[1].text, w[1].col);
      if (c.selector < 0 || c.selector >= c.inst->selectors())
        rd.fail(line_no, w[1].col,
                "selector " + std::to_string(c.selector) + " out of range: " + std::string(c.inst->tag) + " takes 0.." +
                    std::to_string(c.inst->selectors() - 1));
      have_selector = true;
      selector_line = line_no;
      selector_col = w[1].col;
    } else if (kw == "meta") {
      if (have_meta) rd.fail(line_no, w[0].col, "'meta' given twice");
      bool h = false, r = false, k = false;
      for (std::size_t i = 1; i < w.size(); ++i) {
        const std::size_t eq = w[i].text.find('=');
        if (eq == std::string::npos)
          rd.fail(line_no, w[i].col, "expected KEY=VALUE, got '" + printable(w[i].text) + "'");
        const std::string key = w[i].text.substr(0, eq);
        const std::string_view value = std::string_view(w[i].text).substr(eq + 1);
        const int vcol = w[i].col + static_cast<int>(eq) + 1;
        bool& seen = key == "holders" ? h : key == "row" ? r : key == "chunk" ? k : h;
        if (key != "holders" && key != "row" && key != "chunk")
          rd.fail(line_no, w[i].col, "unknown key '" + printable(key) + "' (known: holders, row, chunk)");
        if (seen) rd.fail(line_no, w[i].col, "'" + key + "' given twice");
        seen = true;
        if (key == "row") c.row = rd.axis(line_no, value, vcol);
        if (key == "chunk") c.chunk = rd.axis(line_no, value, vcol);
        if (key == "holders") {
          std::size_t p = 0;
          while (p <= value.size()) {
            std::size_t q = value.find(',', p);
            if (q == std::string_view::npos) q = value.size();
            const int t = rd.number(line_no, w[i], value.substr(p, q - p), vcol + static_cast<int>(p));
            if (t < 0 || t > 3) rd.fail(line_no, vcol + static_cast<int>(p), "holder t must be 0..3");
            c.holders.push_back(t);
            p = q + 1;
          }
        }
      }
      if (!h || !r || !k)
        rd.fail(line_no, w[0].col, std::string("missing ") + (!h ? "holders=" : !r ? "row=" : "chunk="));
      have_meta = true;
    } else if (kw == "kept") {
      const int cpr = c.inst->chunks_per_row();
      if (w.size() != static_cast<std::size_t>(cpr) + 2)
        rd.fail(line_no, w[0].col,
                "expected 'kept ROW' and " + std::to_string(cpr) + " chunks, got " + std::to_string(w.size() - 2));
      const int row = rd.number(line_no, w[1], w[1].text, w[1].col);
      if (row < 0 || row >= c.inst->m) rd.fail(line_no, w[1].col, "row " + std::to_string(row) + " outside A");
      if (!rows_given.insert(row).second) rd.fail(line_no, w[1].col, "row " + std::to_string(row) + " given twice");
      if (!c.pattern) c.pattern = MetaGrid(c.inst->m * cpr, 0);
      for (int k = 0; k < cpr; ++k) {
        const Word& tok = w[k + 2];
        if (tok.text.size() != 2 || tok.text[0] < '0' || tok.text[0] > '3' || tok.text[1] < '0' || tok.text[1] > '3')
          rd.fail(line_no, tok.col, "expected two indices 0..3, got '" + printable(tok.text) + "'");
        (*c.pattern)[row * cpr + k] = meta_nibble(tok.text[0] - '0', tok.text[1] - '0');
      }
    } else {
      rd.fail(line_no, w[0].col, "unknown statement '" + printable(kw) + "' (instr, selector, meta, kept)");
    }
  }
  if (!c.inst) rd.fail(0, 0, "no 'instr' line");
  if (!have_selector) rd.fail(last_line, 0, "no 'selector' line");
  if (!have_meta) rd.fail(last_line, 0, "no 'meta' line");
  if (c.pattern && rows_given.size() != static_cast<std::size_t>(c.inst->m))
    rd.fail(last_line, 0,
            "kept lines for " + std::to_string(rows_given.size()) + " rows, expected all " + std::to_string(c.inst->m));
  (void)selector_line;
  (void)selector_col;
  return c;
}

}  // namespace mmacheck
