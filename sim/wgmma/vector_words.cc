#include "sim/wgmma/vector_words.h"

#include <charconv>
#include <sstream>

namespace mmacheck::sim {

std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::vector<std::uint64_t> hex_words(const std::vector<std::string_view>& words, std::string_view line, DType type,
                                     std::size_t want, const SourceLoc& loc) {
  if (words.size() - 1 != want)
    throw Error(loc, std::string(words[0]) + " has " + std::to_string(words.size() - 1) + " words, expected " +
                         std::to_string(want));
  std::vector<std::uint64_t> out;
  out.reserve(want);
  for (std::size_t i = 1; i < words.size(); ++i) {
    std::uint64_t v = 0;
    const auto [p, ec] = std::from_chars(words[i].data(), words[i].data() + words[i].size(), v, 16);
    if (ec != std::errc{} || p != words[i].data() + words[i].size() || (v & ~dtype_mask(type))) {
      const int col = static_cast<int>(words[i].data() - line.data()) + 1;
      throw Error(SourceLoc{loc.file, loc.line, col},
                  "'" + std::string(words[i]) + "' is no " + std::string(dtype_info(type).ptx) + " hex word");
    }
    out.push_back(v);
  }
  return out;
}

std::string hex_line(char name, const std::vector<std::uint64_t>& words, DType type) {
  std::ostringstream os;
  os << name << std::hex;
  const int digits = hex_digits(type);
  for (std::uint64_t w : words) {
    os << ' ';
    os.width(digits);
    os.fill('0');
    os << w;
  }
  return os.str();
}

int CaseRules::case_number(const std::string& instr, std::string_view word, int line, const SourceLoc& at) {
  int id = 0;
  const auto [p, ec] = std::from_chars(word.data(), word.data() + word.size(), id);
  if (ec != std::errc{} || p != word.data() + word.size() || id < 0)
    throw Error(at, "case number '" + std::string(word) + "' is not a non-negative integer");
  const auto [seen, fresh] = lines_.try_emplace({instr, id}, line);
  if (!fresh)
    throw Error(at, "case " + std::to_string(id) + " of " + instr + " repeats the case of line " +
                        std::to_string(seen->second));
  return id;
}

std::vector<std::uint64_t>& CaseRules::operand_slot(char name, std::vector<std::uint64_t>& a,
                                                    std::vector<std::uint64_t>& b, std::vector<std::uint64_t>& c,
                                                    std::vector<std::uint64_t>& d, int id, const SourceLoc& at) {
  std::vector<std::uint64_t>& slot = name == 'A' ? a : name == 'B' ? b : name == 'C' ? c : d;
  if (!slot.empty()) throw Error(at, std::string("a second ") + name + " line for case " + std::to_string(id));
  return slot;
}

void CaseRules::some_cases(std::size_t cases, const SourceLoc& end) {
  if (cases == 0) throw Error(end, "no test cases (at the end of the file)");
}

}  // namespace mmacheck::sim
