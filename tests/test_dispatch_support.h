// Programs for the dispatch tests, built in C++ from the layout algebra (so
// the dispatch tests do not depend on the layout-file parser), and an
// independent semantic check of a plan's nest.
//
// The fragments are TVM's test_gemm_mma_m16n8k_.py: D_FRAG, A_FRAG_K8,
// B_FRAG_K8, and everything else derived by tile_to / group +
// permute_by_groups.
#pragma once

#include <optional>
#include <string>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/layout/tile_layout.h"

namespace mmacheck::test {

TileLayout d_frag();     // S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]
TileLayout a_frag_k8();  // the same map for A (16 x 8)
TileLayout b_frag_k8();  // S[(4, 2, 8) : (1@laneid, 1, 4@laneid)]
TileLayout a_frag();     // a_frag_k8().tile_to([16, 16], [16, 8])
TileLayout b_frag();     // b_frag_k8().tile_to([16, 8], [8, 8])
// The PTX frame of `inst`'s operand as a TIRx layout over the operand's
// tile (A: m x k, B: k x n, C/D: m x n), written from the register-view
// formulas of core/gemm/mma_inst.h: A slot = kp + k_pack (rM + m_regs kHi),
// B slot = kp + k_pack kHi, C slot = rN + n_regs rM.  For m16n8k16 f16 these
// are TVM's A_FRAG, B_FRAG and D_FRAG.
TileLayout frame_layout(const MmaInst& inst, mmacheck::Operand op);
// The two logical axes of a 2-D layout exchanged (TVM's _transpose_frag).
TileLayout transpose_frag(const TileLayout& layout, const Shape& shape);

struct Operand {
  Shape shape;
  DType dtype;
  TileLayout layout;
  MemScope scope = MemScope::local;
  std::optional<Region> region = std::nullopt;
};

// A program with buffers D, A, B, C and `gemm(D, A, B, C, ...)`.
struct GemmSpec {
  Operand d, a, b, c;
  bool transpose_a = false, transpose_b = false;
  double alpha = 1.0, beta = 0.0;
  ExecScope scope = {};
};
Program make_program(const GemmSpec& spec);

// TVM's _build_tiled(Mt, Nt, Kt, kinst): an Mt x Nt x Kt tiling of
// m16n8k{kinst} with `dtype` inputs and f32 accumulators, C a separate buffer.
GemmSpec tiled(int mt, int nt, int kt, int kinst, DType dtype = DType::f16, double beta = 0.0);
// TVM's _build_gemm / _build_dtypes: one m16n8k16 tile.
GemmSpec single(DType a, DType b, DType c, DType d);

// Checks, independently of the dispatch's own bookkeeping, that the nest
// computes the gemm: for every mma, warp, lane and frame element, the
// storage the nest names holds (through the buffers' layouts) elements whose
// logical M, N, K agree between D, A, B and C, and every product
// D[M, N] += A[M, K] * B[K, N] is formed exactly once (per warp group of
// the scope).  Returns "" when it holds, else the first problem.
std::string nest_semantics_problem(const Program& program, const Plan& plan);

// The first (thread-major, then slot) place where a `stage` or `store`
// statement of the program disagrees with its buffer's layout: the layout
// holds logical element `expected` at (thread, slot), the statement moves
// `actual`.  Slots the layout leaves empty are not checked.
struct StagingMismatch {
  std::string statement;  // "stage A", "store D"
  int thread = 0;         // 32 * warp + lane
  int slot = 0;
  std::pair<std::int64_t, std::int64_t> expected, actual;
};
std::optional<StagingMismatch> staging_mismatch(const Program& program);

}  // namespace mmacheck::test
