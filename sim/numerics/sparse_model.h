// The arithmetic of one mma.sp instruction (core/gemm/sparse_inst.h) on
// logical tiles: the compressed A (m x k/2, row-major bit patterns), its
// metadata grid (core/gemm/sparse_metadata.h: one nibble per row and chunk),
// B (k x n), C and D (m x n), as in sim/numerics/mma_model.h.
//
// What the tensor core does with the pruned positions is not in the ISA; the
// hypotheses below differ only in how the fused model (sim/numerics/
// fused_dot.h) sees them, and an H200 run (scripts/device/mma_sp.sh) decides
// between them (docs/mma-sp.md):
//   zeros        the dense mma of the logical shape on A decompressed with
//                +0 in the pruned positions: every logical K position is a
//                term (a pruned one a zero term at zero_term_exp), in fused
//                blocks of the arch's block size over logical K (m16n8k32 on
//                sm_90: two chained blocks of 16 positions);
//   kept         only the kept products are terms, in the same blocks (the
//                kept products of each block of logical positions): no zero
//                term for a pruned position;
//   kept_packed  only the kept products, packed: blocks of the arch's block
//                size counted in kept products (m16n8k32 on sm_90: one block
//                of 16 products, no intermediate rounding).
// For integer rows the three are one (exact sums: a pruned zero adds
// nothing).  For m16n8k16 kept and kept_packed agree (one block either way); zeros and
// kept differ only when the zero-term exponent exceeds every term's (tiny
// products, C = 0).
//
//     sparse_mma_tile(inst, arch_params("sm_90"), SparseArith::zeros, a, meta, b, c, d);
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/gemm/sparse_metadata.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

enum class SparseArith : std::uint8_t { zeros, kept, kept_packed };
inline constexpr SparseArith kAllSparseArith[] = {SparseArith::zeros, SparseArith::kept, SparseArith::kept_packed};
// The default: the hypothesis the H200 confirms (docs/mma-sp.md: only the
// kept products, packed; zeros and kept each differ on its captures).
inline constexpr SparseArith kDefaultSparseArith = SparseArith::kept_packed;
std::string_view sparse_arith_name(SparseArith h);  // "zeros", "kept", "kept-packed"
std::optional<SparseArith> parse_sparse_arith(std::string_view name);

// The logical A (m x k): kept elements at their metadata's columns, +0
// elsewhere.  Throws Error for a nibble whose indices are equal.
std::vector<std::uint64_t> decompress_a(const SparseMmaInst& inst, std::span<const std::uint64_t> a_compressed,
                                        const MetaGrid& meta);

// D = A * B + C.  Throws Error when a span has the wrong size, a metadata
// nibble repeats an index, or the arch lacks the instruction.
void sparse_mma_tile(const SparseMmaInst& inst, const ArchParams& arch, SparseArith how,
                     std::span<const std::uint64_t> a_compressed, const MetaGrid& meta,
                     std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d);

}  // namespace mmacheck::sim
