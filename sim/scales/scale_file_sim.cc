#include "sim/scales/scale_file_sim.h"

#include <random>
#include <vector>

#include "core/gemm/scale_frame.h"
#include "sim/numerics/block_scaled.h"

namespace mmacheck::sim {

namespace {

constexpr int kLanes = 32, kBytes = 4;

// A finite scale factor near 1: ue8m0 2^-8 .. 2^8 (bias 127); ue4m3 with
// exponent 6 .. 8 (0.5 .. 3.75), any mantissa.
std::uint64_t random_scale(ScaleType type, std::mt19937_64& rng) {
  if (type == ScaleType::ue8m0) return 119 + rng() % 17;
  return ((6 + rng() % 3) << 3) | (rng() % 8);
}

// The factors the instruction reads: for each (index, block) of the tile,
// the byte the program put at the (lane, byte) where the ISA reads it.
std::vector<std::uint64_t> read_by_instruction(const MmaInst& inst, const ScalePlacement& p,
                                               const std::vector<std::uint64_t>& tile, int extent) {
  const int vec = inst.scale_vec;
  const auto at = [&](std::int64_t index, std::int64_t block) {
    return p.op == Operand::A ? static_cast<std::size_t>(index * vec + block)
                              : static_cast<std::size_t>(block * extent + index);
  };
  // The program's scale words, byte by byte, by its place line.
  std::vector<std::uint64_t> words(kLanes * kBytes, 0);
  for (int lane = 0; lane < kLanes; ++lane)
    for (int byte = 0; byte < kBytes; ++byte) {
      const std::int64_t index = p.index.eval({.lane = lane, .slot = byte});
      const std::int64_t block = p.block.eval({.lane = lane, .slot = byte});
      if (index >= 0 && index < extent && block >= 0 && block < vec)
        words[static_cast<std::size_t>(lane * kBytes + byte)] = tile[at(index, block)];
    }
  std::vector<std::uint64_t> read(tile.size());
  for (int index = 0; index < extent; ++index)
    for (int block = 0; block < vec; ++block) {
      const ScalePlace where = scale_place(inst, p.op, p.sel, index, block);
      read[at(index, block)] = words[static_cast<std::size_t>(where.lane * kBytes + where.byte)];
    }
  return read;
}

}  // namespace

ScaleCaseSim simulate_scale_case(const ScaleCase& c, const ArchParams& arch, const FileSimOptions& options) {
  ScaleCaseSim out;
  const MmaInst& inst = *c.inst;
  if (!c.a || !c.b) {
    out.unchecked = std::string("no place line for ") + (!c.a ? "A" : "B") + ": its scale factors are not simulated";
    return out;
  }
  for (int index = 0; index < options.cases; ++index) {
    const Distribution dist = case_distribution(index, options.inputs);
    const GemmInputs g = random_gemm_inputs({inst.m, inst.k, inst.a, 1}, {inst.k, inst.n, inst.b, 0},
                                            {inst.m, inst.n, inst.c}, dist, options.seed, index);
    std::mt19937_64 rng(options.seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(index));
    std::vector<std::uint64_t> sa(static_cast<std::size_t>(inst.m * inst.scale_vec)),
        sb(static_cast<std::size_t>(inst.scale_vec * inst.n));
    for (std::uint64_t& s : sa) s = random_scale(inst.stype, rng);
    for (std::uint64_t& s : sb) s = random_scale(inst.stype, rng);
    std::vector<std::uint64_t> expected(static_cast<std::size_t>(inst.m * inst.n)), got(expected.size());
    block_scaled_tile(inst, arch, g.a.bits, g.b.bits, g.c.bits, sa, sb, expected);
    block_scaled_tile(inst, arch, g.a.bits, g.b.bits, g.c.bits, read_by_instruction(inst, *c.a, sa, inst.m),
                      read_by_instruction(inst, *c.b, sb, inst.n), got);
    out.add_case(index, dist, inst.n, expected, got, options.show);
  }
  return out;
}

}  // namespace mmacheck::sim
