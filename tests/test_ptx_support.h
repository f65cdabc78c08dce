// What the PTX tests share: a launch's sim cases counted against the f64
// reference's bound, a folder's expected.tsv checked row by row, and the
// lines of a kernel's text (to find an instruction, plant a mistake).
#pragma once

#include <cstdint>
#include <string>

namespace mmacheck::test {

// The elements outside the f64 reference's rounding bound over `cases`
// sim cases (sm_90, standard inputs, seed 1) of the PTX kernel at `path`
// (repository-relative) with its launch file beside it; REQUIREs that no
// case is refuted.
std::int64_t sim_outside_bound(const std::string& path, int cases);

// Line `line` (1-based) of `text`, "" past its end.
std::string ptx_line(const std::string& text, int line);
// The opcode of that line, after a guard (`@%p1 bra ...`: "bra").
std::string ptx_opcode_at(const std::string& text, int line);
// The line holding `needle`, which REQUIREs it there once.
int ptx_line_of(const std::string& text, const std::string& needle);
// `text` with `from`, which REQUIREs it there once, replaced by `to`.
std::string ptx_edited(std::string text, const std::string& from, const std::string& to);

struct ManifestTally {
  int rows = 0, proved = 0, refuted = 0, unchecked = 0;
};
// Every row of DIR/expected.tsv (DIR repository-relative, ending in '/'):
// `file verdict opcode message`, tab-separated, '#' comments.  The file's
// `prove` verdict and a part of its message are CHECKed, and, unless the
// opcode is "-", that the reported line's opcode starts with it or the line
// holds it (an instruction in an inline-asm block).
ManifestTally check_ptx_manifest(const std::string& dir);

}  // namespace mmacheck::test
