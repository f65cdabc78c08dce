// The words of one .mmav line (sim/vectors/vector_file.h's text format), as
// the whole-instruction vector files (wgmma, tcgen05) read and write them:
// whitespace-separated words, and operand lines "X w0 w1 ..." of hex element
// words, each zero-padded to its type's digits.
//
//     words_of("A 3c00 0001")  == {"A", "3c00", "0001"}
//     hex_words(words_of(line), line, DType::f16, 2, loc) == {0x3c00, 0x0001}
//     hex_line('A', {0x3c00, 1}, DType::f16) == "A 3c00 0001"
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/program/dtype.h"

namespace mmacheck::sim {

// The words of `line` (views into it), split at spaces, tabs and '\r'.
std::vector<std::string_view> words_of(std::string_view line);

// words[1..] as `want` hex words of `type`.  Throws Error at `loc` (its
// column 1) when the count differs, or at the bad word's column of `line`
// when one is no hex word or has bits outside the type.
std::vector<std::uint64_t> hex_words(const std::vector<std::string_view>& words, std::string_view line, DType type,
                                     std::size_t want, const SourceLoc& loc);

// "X w0 w1 ...": `name`, then each word in the type's hex digits.
std::string hex_line(char name, const std::vector<std::uint64_t>& words, DType type);

// What every whole-instruction vector file must hold, checked line by line
// as it is read: each case number a non-negative integer, none repeated
// under one instruction (a repeat is a merge gone wrong); each operand line
// once per case (a second A would replace the first); at least one case (an
// empty file checks nothing and must not pass).
//
//     CaseRules rules;
//     c.id = rules.case_number(instr, w[1], line_no, at(1));
//     CaseRules::operand_slot('A', c.a, c.b, c.c, c.d, c.id, at(0)) = hex_words(...);
//     rules.some_cases(cases.size(), SourceLoc{file, line_no, 1});
class CaseRules {
 public:
  int case_number(const std::string& instr, std::string_view word, int line, const SourceLoc& at);
  // The slot of operand line `name` (A, B, C or D) among a case's four;
  // an Error when that line came already.
  static std::vector<std::uint64_t>& operand_slot(char name, std::vector<std::uint64_t>& a,
                                                  std::vector<std::uint64_t>& b, std::vector<std::uint64_t>& c,
                                                  std::vector<std::uint64_t>& d, int id, const SourceLoc& at);
  static void some_cases(std::size_t cases, const SourceLoc& end);

 private:
  std::map<std::pair<std::string, int>, int> lines_;  // (instruction, case number) -> its line
};

}  // namespace mmacheck::sim
