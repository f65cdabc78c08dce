#include "sim/tcgen05/tcgen05_file_sim.h"

#include <algorithm>
#include <optional>

#include "core/base/error.h"
#include "core/base/hex.h"
#include "core/tcgen05/tcgen05_tmem.h"
#include "sim/tcgen05/tcgen05_arith.h"
#include "sim/tcgen05/tcgen05_machine.h"

namespace mmacheck::sim {

bool Tcgen05FileSim::failed() const {
  return !problem.empty() ||
         std::any_of(operands.begin(), operands.end(), [](const Tcgen05OperandSim& o) { return o.failed_cases > 0; });
}

bool Tcgen05FileSim::unchecked_any() const {
  return !unchecked.empty() ||
         std::any_of(operands.begin(), operands.end(), [](const Tcgen05OperandSim& o) { return !o.unchecked.empty(); });
}

namespace {

constexpr std::int64_t kPatternBoundary = 1024;  // every swizzle mode repeats within it

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

void put(std::vector<std::byte>& image, std::int64_t address, std::uint64_t bits, int bytes) {
  for (int b = 0; b < bytes; ++b)
    image[static_cast<std::size_t>(address + b)] = static_cast<std::byte>((bits >> (8 * b)) & 0xff);
}

// D read where the program reads it: through the tmem line's layout, else
// the data path.  A position outside the CTA's TMEM reads nothing (`missing`).
std::vector<std::uint64_t> read_d(const Tcgen05Run& run, const std::optional<TmemCase>& tmem, const Tmem& words,
                                  std::vector<std::uint8_t>& missing) {
  if (!tmem) {
    std::vector<std::uint64_t> d = load_accumulator(run, words);
    missing.assign(d.size(), 0);
    return d;
  }
  std::vector<std::uint64_t> d;
  const bool half = run.instr.d->name == "f16";
  for (const TmemPosition& p : tmem_words(*tmem)) {
    const bool outside =
        p.cta != 0 || p.lane < 0 || p.lane >= Tmem::kLanes || p.column < 0 || p.column >= Tmem::kColumns;
    missing.push_back(outside);
    const std::uint32_t w = outside ? 0 : words.at(p.lane, p.column);
    d.push_back(half ? (w >> (16 * p.high)) & 0xFFFFu : w);
  }
  return d;
}

// One run: `op` through its descriptor and buffer, the partner dense; with
// no operand (a file of the instruction and D's layout alone), both dense,
// so that only where D is read is the program's.
Tcgen05OperandSim simulate_operand(const Tcgen05Case& c, const Tcgen05Instr& hw, const Tcgen05Operand* op,
                                   const ArchParams& arith, const FileSimOptions& options) {
  Tcgen05OperandSim out;
  out.name = op ? op->placement.name : c.tmem->name;
  if (op)
    if (const Tcgen05OperandReport r = check_tcgen05_operand(c.instr, *op); r.result == FrameVerdict::unchecked) {
      out.unchecked = r.message;
      return out;
    }
  const int d_lane = c.tmem ? c.tmem->base_lane : 0, d_col = c.tmem ? c.tmem->base_col : 0;
  const Tcgen05Run dense = dense_tcgen05_run(c.instr, SwizzleMode::b128, SwizzleMode::b128, d_lane, d_col);
  // The program's run: the idesc's instruction, the operand through its own
  // descriptor, the partner dense above everything the operand touches.
  Tcgen05Run run = dense_tcgen05_run(hw, SwizzleMode::b128, SwizzleMode::b128, d_lane, d_col);
  const char given = op ? op->placement.operand.operand : 0;
  if (op) {
    const WgmmaCase& placement = op->placement;
    const char partner = given == 'A' ? 'B' : 'A';
    (given == 'A' ? run.a : run.b) = op->descriptor;
    const WgmmaOperand read_as = tcgen05_operand(hw, given);
    std::int64_t end = 0;
    for (const std::int64_t a : placement.placed) end = std::max(end, a + placement.operand.type->bytes);
    for (int i = 0; i < read_as.rows; ++i)
      for (int k = 0; k < read_as.k; ++k) {
        const std::int64_t a = canonical_address(read_as, op->descriptor.as_wgmma(), i, k);
        if (a < 0) throw Error(placement.loc, "the descriptor reads below shared address 0");
        end = std::max(end, a + read_as.type->bytes);
      }
    const std::int64_t offset = round_up(end, kPatternBoundary);
    (partner == 'A' ? run.a : run.b).start += offset;
    run.image_bytes = offset + run.image_bytes;
  }
  out.layout = tcgen05_layout_name(run);

  const Tcgen05Instr& in = c.instr;
  const int m = in.m, n = in.n, k = in.k();
  for (int index = 0; index < options.cases; ++index) {
    const Distribution dist = case_distribution(index, options.inputs);
    const GemmInputs g = random_gemm_inputs({m, k, tcgen05_dtype(in.a->name), 1}, {k, n, tcgen05_dtype(in.b->name), 0},
                                            {m, n, tcgen05_dtype(in.d->name)}, dist, options.seed, index);
    std::vector<std::byte> reference_image(static_cast<std::size_t>(dense.image_bytes), std::byte{0});
    stage_tcgen05_operand(dense, 'A', g.a.bits, reference_image);
    stage_tcgen05_operand(dense, 'B', g.b.bits, reference_image);
    Tmem reference_tmem;
    store_accumulator(dense, g.c.bits, reference_tmem);
    run_tcgen05(dense, arith, reference_image, reference_tmem);
    const std::vector<std::uint64_t> expected = load_accumulator(dense, reference_tmem);

    std::vector<std::byte> image(static_cast<std::size_t>(run.image_bytes), std::byte{0});
    if (op) {
      // The operand's logical element (i, k): A's row i, B's column i.
      const WgmmaCase& placement = op->placement;
      const std::vector<std::uint64_t>& tile = given == 'A' ? g.a.bits : g.b.bits;
      for (int i = 0; i < placement.operand.rows; ++i)
        for (int kk = 0; kk < placement.operand.k; ++kk) {
          const std::size_t at =
              given == 'A' ? static_cast<std::size_t>(i) * k + kk : static_cast<std::size_t>(kk) * n + i;
          put(image, placement.placed[static_cast<std::size_t>(i) * placement.operand.k + kk], tile[at],
              placement.operand.type->bytes);
        }
    }
    for (const char staged : {'A', 'B'})
      if (staged != given) stage_tcgen05_operand(run, staged, staged == 'A' ? g.a.bits : g.b.bits, image);
    Tmem tmem;
    store_accumulator(run, g.c.bits, tmem);
    run_tcgen05(run, arith, image, tmem);
    std::vector<std::uint8_t> missing;
    const std::vector<std::uint64_t> got = read_d(run, c.tmem, tmem, missing);
    out.add_case(index, dist, n, expected, got, options.show, missing);
  }
  return out;
}

}  // namespace

Tcgen05FileSim simulate_tcgen05_file(const Tcgen05Case& c, const ArchParams& arith, const FileSimOptions& options) {
  Tcgen05FileSim out;
  out.instr = c.instr;
  if (const std::string why = tcgen05_sim_problem(c.instr); !why.empty()) {
    out.unchecked = tcgen05_name(c.instr) + ": " + why;
    return out;
  }
  if (c.k_loop) {
    out.unchecked = "a TIRx dump's K loop is not simulated ('mmacheck prove' checks its repeats)";
    return out;
  }
  const std::optional<Tcgen05Instr> hw = instr_of_idesc(c.instr.kind, c.instr.cta_group, c.idesc);
  if (!hw || hw->m != c.instr.m || hw->n != c.instr.n || !tcgen05_sim_problem(*hw).empty()) {
    out.problem = "the instruction descriptor " + hex(c.idesc) + " runs " +
                  (hw ? hw->str() + (tcgen05_sim_problem(*hw).empty() ? "" : " (" + tcgen05_sim_problem(*hw) + ")")
                      : "no tcgen05.mma of kind::" + std::string(tcgen05_kind_name(c.instr.kind))) +
                  ", not the program's " + c.instr.str();
    return out;
  }
  if (c.tmem) {
    const DataPathLayout* path = find_data_path(c.instr.cta_group, c.instr.m);
    if (const std::string why = path ? tmem_address_problem(*path, c.instr.n, c.tmem->base_lane, c.tmem->base_col)
                                     : "no data-path layout for its M";
        !why.empty()) {
      out.problem = "D at TMEM lane " + std::to_string(c.tmem->base_lane) + " column " +
                    std::to_string(c.tmem->base_col) + ": " + why;
      return out;
    }
  }
  for (const Tcgen05Operand& op : c.operands) out.operands.push_back(simulate_operand(c, *hw, &op, arith, options));
  if (c.operands.empty() && c.tmem) out.operands.push_back(simulate_operand(c, *hw, nullptr, arith, options));
  if (out.operands.empty()) out.unchecked = "the file has no operand and no tmem line: nothing to run";
  return out;
}

}  // namespace mmacheck::sim
