// The metadata operand `e` of mma.sp (PTX ISA §9.7.14.6.1
// "Sparse matrix storage" and the metadata figures of §9.7.14.6.2.1-2): where
// each chunk's two kept indices live, lane by lane, for a sparsity selector.
//
// A chunk is 4 consecutive elements of a row of the logical A; its metadata
// is one nibble: bits [1:0] the index (0..3) of its first kept element (the
// lower compressed column), bits [3:2] the second's.  Indices must differ
// (0b0000, 0b0101, 0b1010, 0b1111 are undefined behaviour), and with
// ::ordered_metadata be increasing (idx0 < idx1).
//
// In every quad (lanes 4g .. 4g+3, rows g and g+8 of A) meta_threads() lanes
// hold the metadata of the quad's two rows, the ones with
// t / meta_threads() == f (f the sparsity selector, t = lane % 4); the
// others' `e` is not read.  Nibble j (bits [4j+3:4j]) of such a lane
// describes
//     row   = g + 8 (j / 4)
//     chunk = 4 (t % meta_threads()) + j % 4
// so for m16n8k16 (one lane per quad, f = 0..3) lane 4g+f holds row g's
// four chunks in bits 0..15 and row g+8's in 16..31; for m16n8k32 (two, f =
// 0..1) lane 4g+2f holds chunks 0..3 of both rows, lane 4g+2f+1 chunks 4..7.
//
// 8-bit inputs (s8/u8) go otherwise: with u = t % meta_threads(), nibble j
// of a holder describes
//     row   = g + 8 (u % 2)
//     chunk = 8 (u / 2) + j
// one row's 8 consecutive chunks a lane: m16n8k32 lane 4g+2f holds row g,
// 4g+2f+1 row g+8; m16n8k64 lanes 4g, 4g+1 chunks 0..7 of rows g, g+8, and
// 4g+2, 4g+3 chunks 8..15.  Measured on the H200 (tests/data/mma_sp/: every
// output of 576 captured cases; the 16-bit placement above misses ~93% of
// them).
//
//     isa_meta_slot(sp_k32, 1, 7, 5) == MetaSlot{9, 5}   // lane 7 (g 1, t 3), nibble 5
//     isa_meta_slot(sp_k32, 0, 7, 5) == std::nullopt     // t 3 holds nothing under f = 0
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/gemm/sparse_inst.h"

namespace mmacheck {

struct MetaSlot {
  int row;
  int chunk;
  bool operator==(const MetaSlot&) const = default;
};

inline constexpr int kMetaNibbles = 8;  // nibbles in one 32-bit metadata register

// Where nibble `nibble` of lane `lane`'s e belongs under selector
// `selector`, as the ISA gives it; nullopt where that lane holds none.
std::optional<MetaSlot> isa_meta_slot(const SparseMmaInst& inst, int selector, int lane, int nibble);

// A chunk's metadata nibble from its two kept indices, and back.
inline std::uint8_t meta_nibble(int idx0, int idx1) { return static_cast<std::uint8_t>((idx0 & 3) | (idx1 & 3) << 2); }
inline int meta_index(std::uint8_t nibble, int kept) { return (nibble >> (2 * kept)) & 3; }
// The nibbles a chunk's metadata may hold: 2:4 the six increasing index
// pairs (ordered) or the twelve distinct ones; tf32 0b0100 and 0b1110 only.
std::span<const std::uint8_t> meta_nibbles(const SparseMmaInst& inst, bool ordered);
// Whether a nibble is one of them.
bool meta_valid(const SparseMmaInst& inst, std::uint8_t nibble, bool ordered);

// The metadata grid: nibble of (row, chunk) at row * chunks_per_row() + chunk.
using MetaGrid = std::vector<std::uint8_t>;

// The 32 lanes' e registers for a grid under `selector` (lanes holding
// none get 0), and the grid the instruction reads from 32 registers.
std::vector<std::uint32_t> meta_registers(const SparseMmaInst& inst, int selector, const MetaGrid& grid);
MetaGrid meta_grid(const SparseMmaInst& inst, int selector, std::span<const std::uint32_t> e);

// The logical column of compressed column q in a row whose grid entries are
// `row_meta` (chunks_per_row() nibbles): 2:4 chunk q / 2, its index of kept
// element q % 2; tf32 chunk q, its first index halved.
int logical_col(const SparseMmaInst& inst, std::span<const std::uint8_t> row_meta, int q);
// The chunk logical column `col` lies in.
inline int chunk_of(const SparseMmaInst& inst, int col) { return col / inst.chunk_elems(); }

}  // namespace mmacheck
