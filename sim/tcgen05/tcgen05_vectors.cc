#include "sim/tcgen05/tcgen05_vectors.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "sim/wgmma/vector_words.h"
#include "sim/tcgen05/tcgen05_arith.h"

namespace mmacheck::sim {

namespace {

// What TMEM holds before C is stored (an f32 NaN payload no recorded C
// has), so that C read from a lane or column it was not stored at differs.
constexpr std::uint32_t kTmemFill = 0x7FA5A5A5;

}  // namespace

std::vector<Tcgen05VectorCase> parse_tcgen05_vectors(std::string_view text, const std::string& name) {
  std::vector<Tcgen05VectorCase> cases;
  std::optional<Tcgen05Instr> instr;
  CaseRules rules;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::vector<std::string_view> w = words_of(line);
    const auto at = [&](std::size_t word) {
      return SourceLoc{name, line_no, word < w.size() ? static_cast<int>(w[word].data() - line.data()) + 1 : 1};
    };
    if (w.empty() || w[0][0] == '#') {
      if (end == text.size()) break;
      continue;
    }
    if (w[0] == "instr") {
      if (w.size() != 2) throw Error(at(0), "instr takes one tcgen05.mma instruction");
      instr = parse_tcgen05_name(w[1]);
      if (!instr) throw Error(at(1), "'" + std::string(w[1]) + "' is no tcgen05.mma instruction mmacheck simulates");
    } else if (w[0] == "case") {
      if (!instr) throw Error(at(0), "case before any instr line");
      if (w.size() < 2 || w.size() > 3) throw Error(at(0), "case takes a number and an optional kind");
      Tcgen05VectorCase c{.instr = *instr,
                          .id = 0,
                          .kind = w.size() == 3 ? std::string(w[2]) : "",
                          .line = line_no,
                          .a = {},
                          .b = {},
                          .c = {},
                          .d = {}};
      c.id = rules.case_number(tcgen05_name(c.instr), w[1], line_no, at(1));
      cases.push_back(std::move(c));
    } else if (w[0] == "A" || w[0] == "B" || w[0] == "C" || w[0] == "D") {
      if (cases.empty()) throw Error(at(0), std::string(w[0]) + " before any case line");
      Tcgen05VectorCase& c = cases.back();
      const std::size_t m = c.instr.m, n = c.instr.n, k = c.instr.k();
      const DType d = tcgen05_dtype(c.instr.d->name);
      const char letter = w[0][0];
      std::vector<std::uint64_t>& slot = CaseRules::operand_slot(letter, c.a, c.b, c.c, c.d, c.id, at(0));
      switch (letter) {
        case 'A': slot = hex_words(w, line, tcgen05_dtype(c.instr.a->name), m * k, at(0)); break;
        case 'B': slot = hex_words(w, line, tcgen05_dtype(c.instr.b->name), k * n, at(0)); break;
        case 'C': slot = hex_words(w, line, d, m * n, at(0)); break;
        default: slot = hex_words(w, line, d, m * n, at(0)); break;
      }
    } else {
      throw Error(at(0), "unknown line '" + std::string(w[0]) + "' (instr, case, A, B, C, D or #)");
    }
    if (end == text.size()) break;
  }
  rules.some_cases(cases.size(), SourceLoc{name, std::max(line_no, 1), 1});
  for (const Tcgen05VectorCase& c : cases)
    if (c.a.empty() || c.b.empty() || c.c.empty() || c.d.empty())
      throw Error(SourceLoc{name, c.line, 1}, "case " + std::to_string(c.id) + " lacks one of A, B, C, D");
  return cases;
}

std::vector<Tcgen05VectorCase> read_tcgen05_vectors(const std::string& path) {
  return parse_tcgen05_vectors(read_text_file(path), path);
}

std::string tcgen05_vectors_text(const std::vector<Tcgen05VectorCase>& cases,
                                 const std::vector<std::string>& comments) {
  std::ostringstream os;
  for (const std::string& c : comments) os << "# " << c << "\n";
  std::string last;
  for (const Tcgen05VectorCase& c : cases) {
    if (const std::string name = tcgen05_name(c.instr); name != last) {
      os << "instr " << name << "\n";
      last = name;
    }
    const DType d = tcgen05_dtype(c.instr.d->name);
    os << "case " << c.id << (c.kind.empty() ? "" : " " + c.kind) << "\n"
       << hex_line('A', c.a, tcgen05_dtype(c.instr.a->name)) << "\n"
       << hex_line('B', c.b, tcgen05_dtype(c.instr.b->name)) << "\n"
       << hex_line('C', c.c, d) << "\n"
       << hex_line('D', c.d, d) << "\n";
  }
  return os.str();
}

std::vector<Tcgen05LayoutChoice> tcgen05_replay_layouts(const Tcgen05Instr& instr) {
  std::vector<Tcgen05LayoutChoice> out;
  const SwizzleMode modes[] = {SwizzleMode::b128, SwizzleMode::none, SwizzleMode::b64, SwizzleMode::b32};
  const int lanes = instr.m == 64 ? 2 : 1;  // M = 64: the lower or the upper half of each subpartition
  const int last_col = 512 - instr.n;       // D's first column, at most
  int choice = 0;
  const auto add = [&](Major am, SwizzleMode a, Major bm, SwizzleMode b) {
    const int col = (choice * 136) % (last_col + 1);
    out.push_back({am, a, bm, b, 16 * (choice % lanes), col});
    ++choice;
  };
  for (std::size_t i = 0; i < 4; ++i) add(Major::k, modes[i], Major::k, modes[(i + 1) % 4]);
  if (instr.a->operand.transposable && instr.b->operand.transposable)
    for (std::size_t i = 0; i < 4; ++i) add(Major::mn, modes[i], Major::mn, modes[(i + 3) % 4]);
  return out;
}

Tcgen05Run tcgen05_replay_run(const Tcgen05Instr& instr, const Tcgen05LayoutChoice& l) {
  Tcgen05Instr placed = instr;
  placed.a_major = l.a_major;
  placed.b_major = l.b_major;
  return dense_tcgen05_run(placed, l.a_mode, l.b_mode, l.d_lane, l.d_col);
}

Tcgen05VectorReport replay_tcgen05_vectors(const std::vector<Tcgen05VectorCase>& cases, const ArchParams& arith,
                                           int show) {
  Tcgen05VectorReport report;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Tcgen05VectorCase& c = cases[i];
    const std::vector<Tcgen05LayoutChoice> layouts = tcgen05_replay_layouts(c.instr);
    const Tcgen05Run run = tcgen05_replay_run(c.instr, layouts[i % layouts.size()]);
    std::vector<std::byte> image(static_cast<std::size_t>(run.image_bytes));
    stage_tcgen05_operand(run, 'A', c.a, image);
    stage_tcgen05_operand(run, 'B', c.b, image);
    Tmem tmem;
    for (int lane = 0; lane < Tmem::kLanes; ++lane)
      for (int col = 0; col < Tmem::kColumns; ++col) tmem.at(lane, col) = kTmemFill;
    store_accumulator(run, c.c, tmem);
    run_tcgen05(run, arith, image, tmem);
    const std::vector<std::uint64_t> d = load_accumulator(run, tmem);
    int wrong = 0;
    for (std::size_t e = 0; e < d.size(); ++e) {
      ++report.outputs;
      if (d[e] == c.d[e]) continue;
      ++wrong;
      if (static_cast<int>(report.mismatches.size()) < show)
        report.mismatches.push_back({c.id, tcgen05_name(c.instr), static_cast<int>(e / c.instr.n),
                                     static_cast<int>(e % c.instr.n), c.d[e], d[e]});
    }
    report.mismatched_outputs += wrong;
    (wrong ? report.failed : report.passed) += 1;
  }
  return report;
}

}  // namespace mmacheck::sim
