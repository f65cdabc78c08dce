// TileModel — the nest as its register views describe it, for the z3
// method's tile-symbolic checks (z3_tile_frames.cc, z3_tile_accumulation.cc).
// Private to core/prove*.cc.
//
// The dispatch builds the nest from the register views (core/gemm/dispatch.h):
// per output tile (tm, tn), in order, an init of the D view's slots of the
// tile, then per K tile tk one mma whose registers are the views' registers
// at tile (tm, tk) for A, (tk, tn) for B and (tm, tn) for C and D.  When the
// nest is exactly that unrolling and the tile origins ProofSetup reads off
// the layouts are affine in the tile indices (per warp: the origin of tile
// (0, 0, 0) plus the index times the instruction's extent), each check over
// the statements is a statement over the views and the tile indices, which
// Z3 decides for all tile indices at once, at a cost that does not grow with
// the tile count.  Whether that holds is checked here, concretely and
// statement by statement (integer comparisons against a per-tile table:
// cheap next to any query); where it does not, the gap says why and the check
// falls back to the per-tile encoding (z3_frames.cc, z3_accumulation.cc).
//
//     TileModel model(setup);
//     model.frames_gap(GemmOperand::A).empty()   // the A frame check may go symbolic
//     model.mma_index(1, 0, 3)                  // setup.mmas index of tile (1, 0, 3)
//
// Under the canonical order the first statement using an A tile (tm, tk) is
// (tm, 0, tk), a B tile (tk, tn) is (0, tn, tk), a D tile (tm, tn) is
// (tm, tn, 0): the per-tile encoding's groups (numbered by first statement)
// are ordered lexicographically by (tm, tk), (tn, tk) and (tm, tn), so both
// encodings find the same first violation.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

class TileModel {
 public:
  explicit TileModel(const ProofSetup& setup);

  int tiles_m = 0, tiles_n = 0, tiles_k = 0;

  // Why the check cannot use the model; empty when it can.
  const std::string& frames_gap(GemmOperand op) const { return frames_gap_[static_cast<int>(op)]; }
  const std::string& accumulation_gap() const { return accumulation_gap_; }

  // Per warp: the origin of tile (0, 0, 0) (meaningful where a gap is empty).
  const std::vector<std::int64_t>& base_m() const { return base_m_; }
  const std::vector<std::int64_t>& base_n() const { return base_n_; }
  const std::vector<std::int64_t>& base_k() const { return base_k_; }

  // The register view whose registers the frame of `op` passes (C: D's).
  const RegisterView& frame_view(GemmOperand op) const;
  // Tile counts along the frame view's two tile dims: A (M, K), B (K, N), C/D (M, N).
  std::array<int, 2> frame_tiles(GemmOperand op) const;
  // Index into setup.mmas of the statement of tile (tm, tn, tk).
  int mma_index(std::int64_t tm, std::int64_t tn, std::int64_t tk) const;

 private:
  const ProofSetup& setup_;
  std::array<std::string, 4> frames_gap_;
  std::string accumulation_gap_;
  std::vector<std::int64_t> base_m_, base_n_, base_k_;
};

}  // namespace mmacheck::prove_detail
