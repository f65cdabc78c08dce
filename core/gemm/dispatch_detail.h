// The pieces of the gemm dispatch (core/dispatch*.cc), private to it.  Each
// is named after the helper of TVM's mma_m16n8k_.py it mirrors, so the two
// can be read side by side.
//
// Terms: an operand's layout is grouped into its two logical dims; each dim
// is a shard-only sub-layout (a "dim layout").  Per dim, the anchor (D for M
// and N, A for K) fixes how the dim splits into iters; the followers (A's M,
// C's M and N, B's N and K) are regrouped to the anchor's extents and put in
// the anchor's canonical order: thread iters first, then memory iters, each
// by descending stride.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/gemm/mma_inst.h"
#include "core/program/program.h"
#include "core/layout/tile_layout.h"

namespace mmacheck::dispatch_detail {

// TVM's fail(reason): the variant declines the gemm.  Thrown inside the
// dispatch only; dispatch() turns it into the row "declined — <reason>".
struct Declined {
  std::string reason;
};
[[noreturn]] void decline(std::string reason);

// One operand after TVM's _slice_group + _split: its layout sliced to the
// region (CUDA target), canonicalized, grouped by the 2-D buffer-order
// shape and split into one dim layout per buffer dim.  The offset (thread
// and memory axes) is kept apart, as TVM keeps it.
struct SplitOperand {
  std::vector<TileLayout> dims;  // buffer order, two entries
  Offset offset;
};
// `name` is "A", "B", "C" or "D" for the decline messages.
SplitOperand slice_and_split(const BufferDecl& buffer, const Region& region, const Shape& shape2d,
                             std::string_view name);

// _canon_perm: thread iters first, then memory iters, each stably by
// descending stride.
std::vector<int> canon_perm(std::span<const Iter> iters);
// _canon: the dim layout in canonical order.
TileLayout canon(const TileLayout& dim);
// _align: `follower` regrouped by the anchor's iter extents and its groups
// put in the anchor's canonical order.  Declines when it cannot be grouped.
TileLayout align(const TileLayout& anchor, const TileLayout& follower, std::string_view name);

// _region_totals: (product of thread-iter extents, product of memory-iter
// extents) of an anchor dim.
struct RegionTotals {
  std::int64_t thread = 1;
  std::int64_t mem = 1;
};
RegionTotals region_totals(const TileLayout& anchor);

// Every dim of the gemm after alignment, in canonical order, with each
// dim's totals from its anchor.
struct AlignedDims {
  TileLayout dm, dn, cm, cn, am, ak, bk, bn;
  RegionTotals m, n, k;
};
// The four split operands aligned to their anchors: D's M for A and C, D's
// N for B and C, A's K for B (in TVM's order: A.M, C.M, B.N, C.N, B.K).
// The transpose flags say which buffer dim of A and B is M, K or N.
AlignedDims align_dims(const SplitOperand& d, const SplitOperand& a, const SplitOperand& b, const SplitOperand& c,
                       bool transpose_a, bool transpose_b);

// _frag_group of every dim for one instruction.  Groups of each dim:
// M (D, C, A): [warp tiling, g (8 lanes, stride 4), Mo, rM]
// N (D, C):    [warp tiling, t (4 lanes, stride 1), No, rN (stride 1)]
// K (A, B):    [warp tiling, t (4 lanes, stride 1), Ko, kHi, k_pack (stride 1)]
// N (B):       [warp tiling, g_hi (lanes), No, g_lo (lanes)]
struct Fragments {
  GroupedLayout dm, dn, cm, cn, am, ak, bk, bn;
};
// nullopt when the instruction does not fit: some dim cannot be grouped
// into the fragment or fails its checks, or the warp tilings (group 0)
// differ between the operands sharing a dim (_same_iters).
std::optional<Fragments> match_fragments(const AlignedDims& dims, const MmaInst& inst);

// _reg_layout: the view whose dims are the given groups (extent-1 iters
// dropped, thread-axis offsets dropped).
RegisterView register_view(std::string buffer, std::span<const std::span<const Iter>> groups, const Offset& offset);

// The unrolled nest over the register views (TVM's impl body).
Nest build_nest(const MmaInst& inst, const Program& program, const GemmCall& call, const RegisterView& d,
                const RegisterView& a, const RegisterView& b, const RegisterView& c);

}  // namespace mmacheck::dispatch_detail
