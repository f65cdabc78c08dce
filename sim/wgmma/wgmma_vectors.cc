#include "sim/wgmma/wgmma_vectors.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <sstream>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "sim/wgmma/vector_words.h"

namespace mmacheck::sim {

namespace {
VectorOperands wgmma_operands(const WgmmaInst& inst) {
  return {inst.a, inst.b, inst.d, std::size_t{WgmmaInst::kM}, std::size_t(inst.n), std::size_t(inst.k())};
}
std::string wgmma_name(const WgmmaInst& inst) { return inst.ptx(); }
}  // namespace

const VectorFamily<WgmmaInst>& wgmma_vector_family() {
  static const VectorFamily<WgmmaInst> family{"wgmma", parse_wgmma_inst, wgmma_name, wgmma_operands};
  return family;
}

std::vector<WgmmaVectorCase> parse_wgmma_vectors(std::string_view text, const std::string& name) {
  return parse_instr_vectors(text, name, wgmma_vector_family());
}

std::vector<WgmmaVectorCase> read_wgmma_vectors(const std::string& path) {
  return parse_wgmma_vectors(read_text_file(path), path);
}

std::string wgmma_vectors_text(const std::vector<WgmmaVectorCase>& cases, const std::vector<std::string>& comments) {
  return instr_vectors_text(cases, comments, wgmma_vector_family());
}

std::vector<WgmmaLayoutChoice> wgmma_replay_layouts(const WgmmaInst& inst) {
  std::vector<WgmmaLayoutChoice> out;
  const SwizzleMode modes[] = {SwizzleMode::b128, SwizzleMode::none, SwizzleMode::b64, SwizzleMode::b32};
  for (std::size_t i = 0; i < 4; ++i) out.push_back({Major::k, modes[i], Major::k, modes[(i + 1) % 4]});
  if (inst.a == DType::f16 || inst.a == DType::bf16)
    for (std::size_t i = 0; i < 4; ++i) out.push_back({Major::mn, modes[i], Major::mn, modes[(i + 3) % 4]});
  return out;
}

InstrVectorReport replay_wgmma_vectors(const std::vector<WgmmaVectorCase>& cases, const ArchParams& arith, int show) {
  InstrVectorReport report;
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
    report.add_case(c.id, c.inst.ptx(), c.inst.n, c.d, d, show);
  }
  return report;
}

}  // namespace mmacheck::sim
