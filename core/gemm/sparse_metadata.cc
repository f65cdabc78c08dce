#include "core/gemm/sparse_metadata.h"

#include "core/base/error.h"

namespace mmacheck {

std::optional<MetaSlot> isa_meta_slot(const SparseMmaInst& inst, int selector, int lane, int nibble) {
  const int g = lane / 4, t = lane % 4, holders = inst.meta_threads();
  if (t / holders != selector) return std::nullopt;
  const int u = t % holders;  // which of the selected lanes
  // 8-bit: a holder carries 8 consecutive chunks of one row (the H200's captures).
  if (dtype_bits(inst.a) == 8) return MetaSlot{g + 8 * (u % 2), 8 * (u / 2) + nibble};
  return MetaSlot{g + 8 * (nibble / 4), 4 * u + nibble % 4};
}

namespace {
constexpr std::uint8_t kOrdered[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
constexpr std::uint8_t kDistinct[] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE, 0x1, 0x2, 0x3, 0x6, 0x7, 0xB};
constexpr std::uint8_t kTf32[] = {0x4, 0xE};
}  // namespace

std::span<const std::uint8_t> meta_nibbles(const SparseMmaInst& inst, bool ordered) {
  if (inst.chunk_elems() == 2) return kTf32;
  if (ordered) return kOrdered;
  return kDistinct;
}

bool meta_valid(const SparseMmaInst& inst, std::uint8_t nibble, bool ordered) {
  for (const std::uint8_t v : meta_nibbles(inst, ordered))
    if (v == nibble) return true;
  return false;
}

int logical_col(const SparseMmaInst& inst, std::span<const std::uint8_t> row_meta, int q) {
  if (inst.chunk_elems() == 2) return 2 * q + meta_index(row_meta[static_cast<std::size_t>(q)], 0) / 2;
  return 4 * (q / 2) + meta_index(row_meta[static_cast<std::size_t>(q / 2)], q % 2);
}

std::vector<std::uint32_t> meta_registers(const SparseMmaInst& inst, int selector, const MetaGrid& grid) {
  if (grid.size() != static_cast<std::size_t>(inst.m * inst.chunks_per_row()))
    throw Error(inst.ptx() + ": metadata grid has " + std::to_string(grid.size()) + " chunks, expected " +
                std::to_string(inst.m * inst.chunks_per_row()));
  std::vector<std::uint32_t> e(32, 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < kMetaNibbles; ++j)
      if (const auto s = isa_meta_slot(inst, selector, lane, j))
        e[lane] |= std::uint32_t{grid[s->row * inst.chunks_per_row() + s->chunk]} << (4 * j);
  return e;
}

MetaGrid meta_grid(const SparseMmaInst& inst, int selector, std::span<const std::uint32_t> e) {
  if (e.size() != 32) throw Error(inst.ptx() + ": metadata needs 32 lanes' registers");
  MetaGrid grid(inst.m * inst.chunks_per_row(), 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < kMetaNibbles; ++j)
      if (const auto s = isa_meta_slot(inst, selector, lane, j))
        grid[s->row * inst.chunks_per_row() + s->chunk] = (e[lane] >> (4 * j)) & 0xF;
  return grid;
}

}  // namespace mmacheck
