#include "sim/wgmma/wgmma_vectors.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "sim/wgmma/vector_words.h"

namespace mmacheck::sim {

std::vector<WgmmaVectorCase> parse_wgmma_vectors(std::string_view text, const std::string& name) {
  std::vector<WgmmaVectorCase> cases;
  std::optional<WgmmaInst> inst;
  CaseRules rules;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const SourceLoc loc{name, line_no, 1};
    const std::vector<std::string_view> w = words_of(line);
    if (w.empty() || w[0][0] == '#') {
      if (end == text.size()) break;
      continue;
    }
    if (w[0] == "instr") {
      if (w.size() != 2) throw Error(loc, "instr takes one wgmma instruction");
      inst = parse_wgmma_inst(w[1]);
      if (!inst) throw Error(loc, "'" + std::string(w[1]) + "' is no wgmma instruction mmacheck models");
    } else if (w[0] == "case") {
      if (!inst) throw Error(loc, "case before any instr line");
      if (w.size() < 2 || w.size() > 3) throw Error(loc, "case takes a number and an optional kind");
      WgmmaVectorCase c{.inst = *inst,
                        .id = 0,
                        .kind = w.size() == 3 ? std::string(w[2]) : "",
                        .line = line_no,
                        .a = {},
                        .b = {},
                        .c = {},
                        .d = {}};
      c.id = rules.case_number(c.inst.ptx(), w[1], line_no, loc);
      cases.push_back(std::move(c));
    } else if (w[0] == "A" || w[0] == "B" || w[0] == "C" || w[0] == "D") {
      if (cases.empty()) throw Error(loc, std::string(w[0]) + " before any case line");
      WgmmaVectorCase& c = cases.back();
      const int m = WgmmaInst::kM, n = c.inst.n, k = c.inst.k();
      const char letter = w[0][0];
      std::vector<std::uint64_t>& slot = CaseRules::operand_slot(letter, c.a, c.b, c.c, c.d, c.id, loc);
      switch (letter) {
        case 'A': slot = hex_words(w, line, c.inst.a, std::size_t(m) * k, loc); break;
        case 'B': slot = hex_words(w, line, c.inst.b, std::size_t(k) * n, loc); break;
        case 'C': slot = hex_words(w, line, c.inst.d, std::size_t(m) * n, loc); break;
        default: slot = hex_words(w, line, c.inst.d, std::size_t(m) * n, loc); break;
      }
    } else {
      throw Error(loc, "unknown line '" + std::string(w[0]) + "' (instr, case, A, B, C, D or #)");
    }
    if (end == text.size()) break;
  }
  rules.some_cases(cases.size(), SourceLoc{name, std::max(line_no, 1), 1});
  for (const WgmmaVectorCase& c : cases)
    if (c.a.empty() || c.b.empty() || c.c.empty() || c.d.empty())
      throw Error(SourceLoc{name, c.line, 1}, "case " + std::to_string(c.id) + " lacks one of A, B, C, D");
  return cases;
}

std::vector<WgmmaVectorCase> read_wgmma_vectors(const std::string& path) {
  return parse_wgmma_vectors(read_text_file(path), path);
}

std::string wgmma_vectors_text(const std::vector<WgmmaVectorCase>& cases, const std::vector<std::string>& comments) {
  std::ostringstream os;
  for (const std::string& c : comments) os << "# " << c << "\n";
  std::string last;
  for (const WgmmaVectorCase& c : cases) {
    if (const std::string ptx = c.inst.ptx(); ptx != last) {
      os << "instr " << ptx << "\n";
      last = ptx;
    }
    os << "case " << c.id << (c.kind.empty() ? "" : " " + c.kind) << "\n"
       << hex_line('A', c.a, c.inst.a) << "\n"
       << hex_line('B', c.b, c.inst.b) << "\n"
       << hex_line('C', c.c, c.inst.d) << "\n"
       << hex_line('D', c.d, c.inst.d) << "\n";
  }
  return os.str();
}

std::vector<WgmmaLayoutChoice> wgmma_replay_layouts(const WgmmaInst& inst) {
  std::vector<WgmmaLayoutChoice> out;
  const SwizzleMode modes[] = {SwizzleMode::b128, SwizzleMode::none, SwizzleMode::b64, SwizzleMode::b32};
  for (std::size_t i = 0; i < 4; ++i) out.push_back({Major::k, modes[i], Major::k, modes[(i + 1) % 4]});
  if (inst.a == DType::f16 || inst.a == DType::bf16)
    for (std::size_t i = 0; i < 4; ++i) out.push_back({Major::mn, modes[i], Major::mn, modes[(i + 3) % 4]});
  return out;
}

WgmmaVectorReport replay_wgmma_vectors(const std::vector<WgmmaVectorCase>& cases, const ArchParams& arith, int show) {
  WgmmaVectorReport report;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const WgmmaVectorCase& c = cases[i];
    const std::vector<WgmmaLayoutChoice> layouts = wgmma_replay_layouts(c.inst);
    const WgmmaLayoutChoice& l = layouts[i % layouts.size()];
    const WgmmaRun run = dense_wgmma_run(c.inst, l.a_major, l.a_mode, l.b_major, l.b_mode);
    std::vector<std::byte> image(static_cast<std::size_t>(run.image_bytes));
    stage_operand(run, 'A', c.a, image);
    stage_operand(run, 'B', c.b, image);
    const std::vector<std::uint64_t> d =
        accumulator_tile(c.inst, run_wgmma(run, arith, image, accumulator_words(c.inst, c.c)));
    int wrong = 0;
    for (std::size_t e = 0; e < d.size(); ++e) {
      ++report.outputs;
      if (d[e] == c.d[e]) continue;
      ++wrong;
      if (static_cast<int>(report.mismatches.size()) < show)
        report.mismatches.push_back(
            {c.id, c.inst.ptx(), static_cast<int>(e / c.inst.n), static_cast<int>(e % c.inst.n), c.d[e], d[e]});
    }
    report.mismatched_outputs += wrong;
    (wrong ? report.failed : report.passed) += 1;
  }
  return report;
}

}  // namespace mmacheck::sim
