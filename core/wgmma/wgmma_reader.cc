#include "core/wgmma/wgmma_reader.h"

#include "core/wgmma/operand_lines.h"
#include "core/wgmma/statement.h"

namespace mmacheck {

using descriptor_lines::Line;
using descriptor_lines::split_lines;

std::vector<WgmmaCase> read_wgmma_file(std::string_view text, const std::string& path) {
  const std::vector<Line> lines = split_lines(text);
  std::vector<WgmmaCase> cases;
  for (std::size_t l = 0; l < lines.size();) {
    const Line& head = lines[l];
    if (head.words[0].text != "operand")
      throw Error(SourceLoc{path, head.number, head.words[0].col},
                  head.words[0].text == "descriptor" || head.words[0].text == "smem"
                      ? "'" + head.words[0].text + "' before its 'operand' line"
                      : "unknown statement '" + printable(head.words[0].text) +
                            "' (expected operand, descriptor, smem)");
    WgmmaCase c;
    c.operand = read_wgmma_operand(head, path);
    c.loc = SourceLoc{path, head.number, head.words[0].col};
    c.name = std::string(1, c.operand.operand) + " (line " + std::to_string(head.number) + ")";
    const char* expected[] = {"descriptor", "smem"};
    for (int part = 0; part < 2; ++part) {
      const std::size_t at = l + 1 + static_cast<std::size_t>(part);
      if (at >= lines.size() || lines[at].words[0].text != expected[part]) {
        const SourceLoc where = at >= lines.size() ? c.loc : SourceLoc{path, lines[at].number, lines[at].words[0].col};
        throw Error(where, "expected a '" + std::string(expected[part]) + "' line after line " +
                               std::to_string(at >= lines.size() ? lines.back().number : lines[at - 1].number) +
                               " (each operand is: operand, descriptor, smem)");
      }
      if (part == 0) c.descriptor = read_wgmma_descriptor(lines[at], path);
      else c.placed = read_smem_placement(lines[at], path, c.operand, c);
    }
    cases.push_back(std::move(c));
    l += 3;
  }
  if (cases.empty()) throw Error(SourceLoc{path, 0, 0}, "no operand in the file (expected 'operand A|B ...')");
  return cases;
}

}  // namespace mmacheck
