// Statement lines — the line syntax the wgmma, tcgen05 and TMA inputs share
// (core/wgmma/wgmma_reader.h, core/tcgen05/tcgen05_reader.h,
// core/tma/tma_reader.h; the operand lines they share are
// core/wgmma/operand_lines.h), in their own namespace (the names are common
// ones): one statement a line,
// `#` to the end of the line a comment, blank lines skipped; a line is words
// separated by blanks, the first the statement's name, then KEY=VALUE
// words (`layout=` takes the rest of the line as one word).  Statement
// reads the keys and fails at FILE:LINE:COL on a repeated, unknown or
// missing key or a bad number.
//
//     Line line = split("descriptor start=0x400 lbo=16", 3);
//     Statement st(line, "f.txt", 1);
//     st.integer("start") == 0x400;   // st.integer("sbo") throws f.txt:3:0: error: missing sbo=
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/error.h"

namespace mmacheck::descriptor_lines {

struct Word {
  std::string text;
  int col = 0;  // 1-based
};

struct Line {
  int number = 0;
  std::vector<Word> words;
  std::string raw;  // the line without its comment
};

// One line's words; `layout=` takes the rest of the line as one word.
Line split(std::string_view raw, int number);
// The lines of `text` that have a word, numbered from 1.
std::vector<Line> split_lines(std::string_view text);

class Statement {
 public:
  // The KEY=VALUE words of `line` from word `first_key` on.
  Statement(const Line& line, const std::string& path, std::size_t first_key);

  [[noreturn]] void fail(int col, const std::string& message) const;
  SourceLoc loc(int col = 1) const { return {path_, line_.number, col}; }

  // Refuses keys outside `allowed`.
  void only(std::initializer_list<std::string_view> allowed) const;
  bool has(const std::string& key) const { return keys_.count(key) != 0; }
  const Word& value(const std::string& key) const;
  std::int64_t integer(const std::string& key) const { return parse_integer(value(key)); }
  std::int64_t parse_integer(const Word& w) const { return parse_integer(w.text, w.col); }
  // Decimal or 0x hex, at most INT64_MAX.
  std::int64_t parse_integer(std::string_view text, int col) const;
  // "64x16" -> {64, 16}; `sep` 'x' or ','.
  std::pair<std::int64_t, std::int64_t> pair(const std::string& key, char sep) const;
  // "64x64x2" or "64,64,2" -> {64, 64, 2}: one to `most` integers.
  std::vector<std::int64_t> list(const std::string& key, std::size_t most) const;

 private:
  const Line& line_;
  const std::string& path_;
  std::map<std::string, Word> keys_;
  std::map<std::string, int> key_cols_;
};

}  // namespace mmacheck::descriptor_lines
