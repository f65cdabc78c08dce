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

namespace {
VectorOperands tcgen05_operands(const Tcgen05Instr& instr) {
  return {tcgen05_dtype(instr.a->name), tcgen05_dtype(instr.b->name), tcgen05_dtype(instr.d->name),
          std::size_t(instr.m),         std::size_t(instr.n),         std::size_t(instr.k())};
}
}  // namespace

const VectorFamily<Tcgen05Instr>& tcgen05_vector_family() {
  static const VectorFamily<Tcgen05Instr> family{"tcgen05.mma", parse_tcgen05_name, tcgen05_name, tcgen05_operands};
  return family;
}

std::vector<Tcgen05VectorCase> parse_tcgen05_vectors(std::string_view text, const std::string& name) {
  return parse_instr_vectors(text, name, tcgen05_vector_family());
}

std::vector<Tcgen05VectorCase> read_tcgen05_vectors(const std::string& path) {
  return parse_tcgen05_vectors(read_text_file(path), path);
}

std::string tcgen05_vectors_text(const std::vector<Tcgen05VectorCase>& cases,
                                 const std::vector<std::string>& comments) {
  return instr_vectors_text(cases, comments, tcgen05_vector_family());
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

InstrVectorReport replay_tcgen05_vectors(const std::vector<Tcgen05VectorCase>& cases, const ArchParams& arith,
                                         int show) {
  InstrVectorReport report;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Tcgen05VectorCase& c = cases[i];
    const std::vector<Tcgen05LayoutChoice> layouts = tcgen05_replay_layouts(c.inst);
    const Tcgen05Run run = tcgen05_replay_run(c.inst, layouts[i % layouts.size()]);
    std::vector<std::byte> image(static_cast<std::size_t>(run.image_bytes));
    stage_tcgen05_operand(run, 'A', c.a, image);
    stage_tcgen05_operand(run, 'B', c.b, image);
    Tmem tmem;
    for (int lane = 0; lane < Tmem::kLanes; ++lane)
      for (int col = 0; col < Tmem::kColumns; ++col) tmem.at(lane, col) = kTmemFill;
    store_accumulator(run, c.c, tmem);
    run_tcgen05(run, arith, image, tmem);
    report.add_case(c.id, tcgen05_name(c.inst), c.inst.n, c.d, load_accumulator(run, tmem), show);
  }
  return report;
}

}  // namespace mmacheck::sim
