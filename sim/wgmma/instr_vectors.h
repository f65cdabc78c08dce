// The vector files of the whole-instruction families (wgmma, tcgen05): the
// .mmav text format (sim/vectors/vector_file.h) with one family's
// instruction names, read, written and tallied by one set of rules.  A
// family says how its instr lines name an instruction and what its operands
// are (VectorFamily); the file's lines are the same for every family:
//
//     instr NAME
//     case 0 uniform
//     A <M*K hex words>   B <K*N>   C <M*N>   D <M*N>   (logical, row-major; C has D's type)
//
// Malformed input throws Error at FILE:LINE:COL: an unknown line, an
// instruction the family does not model, a case before an instr line, a
// repeated or negative case number, an operand line twice in a case or
// with the wrong count or type of words, a case lacking one, no case.
//
//     const VectorFamily<WgmmaInst> rules{"wgmma", "models", parse_wgmma_inst, ...};
//     std::vector<InstrVectorCase<WgmmaInst>> cases = parse_instr_vectors(text, "x.mmav", rules);
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/program/dtype.h"
#include "sim/wgmma/vector_words.h"

namespace mmacheck::sim {

// One case: the instruction, its number, kind and line, the logical operands.
template <class Inst>
struct InstrVectorCase {
  Inst inst;
  int id = 0;
  std::string kind;
  int line = 0;
  std::vector<std::uint64_t> a, b, c, d;
};

// The types and sizes of an instruction's logical operands: A m x k, B k x
// n, C and D m x n of type d.
struct VectorOperands {
  DType a, b, d;
  std::size_t m, n, k;
};

// What a family puts in the common format.
template <class Inst>
struct VectorFamily {
  std::string_view what;                                // "wgmma", "tcgen05.mma": in messages
  std::optional<Inst> (*parse)(std::string_view name);  // nullopt: not an instruction the family models
  std::string (*name)(const Inst& inst);                // what an instr line says
  VectorOperands (*operands)(const Inst& inst);
};

template <class Inst>
std::vector<InstrVectorCase<Inst>> parse_instr_vectors(std::string_view text, const std::string& file,
                                                       const VectorFamily<Inst>& family) {
  std::vector<InstrVectorCase<Inst>> cases;
  std::optional<Inst> inst;
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
      return SourceLoc{file, line_no, word < w.size() ? static_cast<int>(w[word].data() - line.data()) + 1 : 1};
    };
    if (w.empty() || w[0][0] == '#') {
      if (end == text.size()) break;
      continue;
    }
    if (w[0] == "instr") {
      if (w.size() != 2) throw Error(at(0), "instr takes one " + std::string(family.what) + " instruction");
      inst = family.parse(w[1]);
      if (!inst)
        throw Error(at(1),
                    "'" + printable(w[1]) + "' is no " + std::string(family.what) + " instruction mmacheck simulates");
    } else if (w[0] == "case") {
      if (!inst) throw Error(at(0), "case before any instr line");
      if (w.size() < 2 || w.size() > 3) throw Error(at(0), "case takes a number and an optional kind");
      InstrVectorCase<Inst> c{.inst = *inst,
                              .id = 0,
                              .kind = w.size() == 3 ? std::string(w[2]) : "",
                              .line = line_no,
                              .a = {},
                              .b = {},
                              .c = {},
                              .d = {}};
      c.id = rules.case_number(family.name(c.inst), w[1], line_no, at(1));
      cases.push_back(std::move(c));
    } else if (w[0] == "A" || w[0] == "B" || w[0] == "C" || w[0] == "D") {
      if (cases.empty()) throw Error(at(0), std::string(w[0]) + " before any case line");
      InstrVectorCase<Inst>& c = cases.back();
      const VectorOperands o = family.operands(c.inst);
      const char letter = w[0][0];
      std::vector<std::uint64_t>& slot = CaseRules::operand_slot(letter, c.a, c.b, c.c, c.d, c.id, at(0));
      switch (letter) {
        case 'A': slot = hex_words(w, line, o.a, o.m * o.k, at(0)); break;
        case 'B': slot = hex_words(w, line, o.b, o.k * o.n, at(0)); break;
        default: slot = hex_words(w, line, o.d, o.m * o.n, at(0)); break;
      }
    } else {
      throw Error(at(0), "unknown line '" + printable(w[0]) + "' (instr, case, A, B, C, D or #)");
    }
    if (end == text.size()) break;
  }
  rules.some_cases(cases.size(), SourceLoc{file, std::max(line_no, 1), 1});
  for (const InstrVectorCase<Inst>& c : cases)
    if (c.a.empty() || c.b.empty() || c.c.empty() || c.d.empty())
      throw Error(SourceLoc{file, c.line, 1}, "case " + std::to_string(c.id) + " lacks one of A, B, C, D");
  return cases;
}

// The cases as text (what parse_instr_vectors reads); `comments` become # lines.
template <class Inst>
std::string instr_vectors_text(const std::vector<InstrVectorCase<Inst>>& cases,
                               const std::vector<std::string>& comments, const VectorFamily<Inst>& family) {
  std::ostringstream os;
  for (const std::string& c : comments) os << "# " << c << "\n";
  std::string last;
  for (const InstrVectorCase<Inst>& c : cases) {
    if (const std::string name = family.name(c.inst); name != last) {
      os << "instr " << name << "\n";
      last = name;
    }
    const VectorOperands o = family.operands(c.inst);
    os << "case " << c.id << (c.kind.empty() ? "" : " " + c.kind) << "\n"
       << hex_line('A', c.a, o.a) << "\n"
       << hex_line('B', c.b, o.b) << "\n"
       << hex_line('C', c.c, o.d) << "\n"
       << hex_line('D', c.d, o.d) << "\n";
  }
  return os.str();
}

struct InstrVectorMismatch {
  int case_id = 0;
  std::string instr;  // the family's name of the instruction
  int row = 0, col = 0;
  std::uint64_t expected = 0, got = 0;
};

// A replay's tally: cases passed and failed, D elements compared and wrong.
struct InstrVectorReport {
  int passed = 0;
  int failed = 0;
  std::int64_t outputs = 0;  // D elements compared
  std::int64_t mismatched_outputs = 0;
  std::vector<InstrVectorMismatch> mismatches;  // the first `show`

  // One case: the recorded D (`expected`, row-major, `cols` wide) against the replay's.
  void add_case(int case_id, const std::string& instr, int cols, std::span<const std::uint64_t> expected,
                std::span<const std::uint64_t> got, int show);
};

}  // namespace mmacheck::sim
