#include "sim/sparse/sparse_file_sim.h"

#include "core/gemm/sparse_metadata.h"
#include "sim/numerics/sparse_inputs.h"
#include "sim/numerics/sparse_model.h"

namespace mmacheck::sim {

std::vector<std::uint32_t> kernel_meta_registers(const SparseCase& c, const MetaGrid& grid) {
  const SparseMmaInst& inst = *c.inst;
  std::vector<std::uint32_t> e(32, 0);
  for (int lane = 0; lane < 32; ++lane) {
    bool holder = false;
    for (const int t : c.holders) holder = holder || t == lane % 4;
    if (!holder) continue;
    for (int j = 0; j < kMetaNibbles; ++j) {
      const int row = c.row.at(lane, j), chunk = c.chunk.at(lane, j);
      if (row < 0 || row >= inst.m || chunk < 0 || chunk >= inst.chunks_per_row()) continue;
      e[lane] |= std::uint32_t{grid[static_cast<std::size_t>(row) * inst.chunks_per_row() + chunk]} << (4 * j);
    }
  }
  return e;
}

std::string first_undefined_nibble(const SparseMmaInst& inst, bool ordered, const MetaGrid& grid,
                                   const std::string& who) {
  for (std::size_t i = 0; i < grid.size(); ++i) {
    if (meta_valid(inst, grid[i], ordered)) continue;
    std::string bits = "0b";
    for (int b = 3; b >= 0; --b) bits += (grid[i] >> b) & 1 ? '1' : '0';
    return who + " A row " + std::to_string(i / inst.chunks_per_row()) + " chunk " +
           std::to_string(i % inst.chunks_per_row()) + " the nibble " + bits + ", no valid index pair" +
           (ordered ? " of ::ordered_metadata" : "") + " (undefined behaviour)";
  }
  return "";
}

SparseFileSim simulate_sparse_file(const SparseCase& c, const ArchParams& arch, const FileSimOptions& options) {
  const SparseMmaInst& inst = *c.inst;
  SparseFileSim out;
  for (int index = 0; index < options.cases; ++index) {
    const Distribution dist = case_distribution(index, options.inputs);
    SparseInputs in = random_sparse_inputs(inst, c.selector, dist, index % 3 == 2, options.seed, index);
    // The file's pattern, where it gives one, in place of the drawn one: the
    // compressed A's values stay, their logical columns are the pattern's.
    if (c.pattern) in.meta = *c.pattern;
    const std::vector<std::uint64_t> c_tile = in.c;
    std::vector<std::uint64_t> expected(c_tile.size()), got(c_tile.size());
    out.undefined = first_undefined_nibble(inst, c.ordered, in.meta, "the file's kept pattern gives");
    if (out.undefined.empty()) sparse_mma_tile(inst, arch, kDefaultSparseArith, in.a, in.meta, in.b, c_tile, expected);
    const MetaGrid read = meta_grid(inst, c.selector, kernel_meta_registers(c, in.meta));
    if (out.undefined.empty()) out.undefined = first_undefined_nibble(inst, c.ordered, read, "the instruction reads");
    if (!out.undefined.empty()) {
      out.undefined = "case " + std::to_string(index) + ": " + out.undefined;
      out.add_case(index, dist, inst.n, expected, got, 0, std::vector<std::uint8_t>(got.size(), 1));  // no D to show
      break;
    }
    sparse_mma_tile(inst, arch, kDefaultSparseArith, in.a, read, in.b, c_tile, got);
    out.add_case(index, dist, inst.n, expected, got, options.show);
  }
  return out;
}

}  // namespace mmacheck::sim
