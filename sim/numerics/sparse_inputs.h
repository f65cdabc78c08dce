// Random inputs for one mma.sp (core/gemm/sparse_inst.h): a logical A, B and
// C drawn as the dense vectors are (sim/numerics/random_inputs.h, the logical
// shape), a random valid ordered metadata nibble per chunk (one of the six
// increasing index pairs), and A compressed to the kept elements.
//
// Every third case of kind `pruned_specials` (the `SparseKind` below) puts
// Inf or NaN in B at rows that some rows of A prune: the dense model of the
// decompressed A multiplies them by the pruned +0 (0 * Inf = NaN), the
// kept-only models never see them, so these cases decide between the
// hypotheses of sim/numerics/sparse_model.h.
//
//     SparseInputs in = random_sparse_inputs(inst, 0, Distribution::normal, false, 1, 7);
//     in.a.size() == 16 * inst.a_cols();  in.meta.size() == 16 * inst.chunks_per_row()
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gemm/sparse_metadata.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

struct SparseInputs {
  std::vector<std::uint64_t> a;  // compressed, m x k/2
  MetaGrid meta;                 // m x k/4 nibbles
  std::vector<std::uint64_t> b, c;
};

// `pruned_specials`: B also gets Inf/NaN at pruned rows (above).
SparseInputs random_sparse_inputs(const SparseMmaInst& inst, int selector, Distribution dist, bool pruned_specials,
                                  std::uint64_t seed, int case_index);

}  // namespace mmacheck::sim
