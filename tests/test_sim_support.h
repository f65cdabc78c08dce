// Programs and inputs shared by the [sim] tests: the seed demonstration
// (with its wrong A staging, README.md "First example: the seed's erratum", or corrected),
// a few more layout files written inline so the tests do not depend on
// examples/, and single-instruction set-ups on the PTX frames.
#pragma once

#include <string>

#include "core/gemm/mma_inst.h"
#include "core/program/program.h"
#include "core/gemm/geometry.h"
#include "core/program/read/read_program.h"
#include "sim/numerics/gemm_inputs.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::test {

inline const std::string kFragments = R"(
D_FRAG    = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
A_FRAG    = A_FRAG_K8.tile_to([16, 16], [16, 8])
B_FRAG    = B_FRAG_K8.tile_to([16, 8], [8, 8])
)";

// The seed demonstration; `corrected` uses TVM's A staging (slot = kp + 2 rM + 4 kHi).
inline std::string seed_text(bool corrected) {
  return kFragments + R"(
A = buffer((16, 16), "float16", "local", A_FRAG)
B = buffer((16, 8),  "float16", "local", B_FRAG)
D = buffer((16, 8),  "float32", "local", D_FRAG)
scope warp
gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
)" +
         (corrected ? "stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]\n"
                    : "stage A[s] = A_g[lane // 4 + 8 * (s // 4), 2 * (lane % 4) + s % 2 + 8 * ((s // 2) % 2)]\n") +
         R"(stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // 4]
store D[s] -> D_g[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2]
)";
}

// 2 x 2 x 2 tiles of m16n8k16 in one warp, staged by statements.
inline const std::string kTiledText = kFragments + R"(
A = buffer((32, 32), "float16", "local", A_FRAG.tile_to([32, 32], [16, 16]))
B = buffer((32, 16), "float16", "local", B_FRAG.tile_to([32, 16], [16, 8]))
D = buffer((32, 16), "float32", "local", D_FRAG.tile_to([32, 16], [16, 8]))
scope warp
gemm(D, A, B, D)
stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2) + 16 * (s // 16), 2 * (lane % 4) + s % 2 + 8 * ((s // 4) % 2) + 16 * ((s // 8) % 2)]
stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * ((s // 2) % 2) + 16 * (s // 8), lane // 4 + 8 * ((s // 4) % 2)]
)";

// beta = 1 with a separate C, K = 32 (two chained mma), bf16.
inline const std::string kBetaOneText = kFragments + R"(
A = buffer((16, 32), "bfloat16", "local", A_FRAG.tile_to([16, 32], [16, 16]))
B = buffer((32, 8), "bfloat16", "local", B_FRAG.tile_to([32, 8], [16, 8]))
C = buffer((16, 8), "float32", "local", D_FRAG)
D = buffer((16, 8), "float32", "local", D_FRAG)
scope warp
gemm(D, A, B, C, transpose_A=False, transpose_B=False, alpha=1.0, beta=1.0)
)";

// Four warps along M.
inline const std::string kFourWarpsText = kFragments + R"(
A = buffer((64, 16), "float16", "local", S[(4, 2, 8, 2, 4, 2) : (1 @ warpid, 2, 4 @ laneid, 4, 1 @ laneid, 1)])
B = buffer((16, 8), "float16", "local", B_FRAG)
D = buffer((64, 8), "float32", "local", S[(4, 2, 8, 4, 2) : (1 @ warpid, 2, 4 @ laneid, 1 @ laneid, 1)])
scope cta threads 128
gemm(D, A, B, D)
stage B[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), lane // 4]
)";

// A region of a wider A, transposed B.
inline const std::string kRegionTransposeText = kFragments + R"(
A_big = buffer((16, 32), "float16", "local", A_FRAG.tile_to([16, 32], [16, 16]))
Bt = buffer((8, 16), "float16", "local", B_FRAG.group([16, 8]).permute_by_groups([1, 0]))
D = buffer((16, 8), "float32", "local", D_FRAG)
scope warp
gemm(D, A_big[0:16, 16:32], Bt, D, transpose_B=True)
)";

inline Program program(const std::string& text) { return parse_program(text, "<test>"); }

// One instruction on its frames: A m x k, B k x n, C and D m x n, beta = 1.
inline GemmGeometry frame_geometry(const MmaInst& inst) {
  const auto place = [](std::int64_t rows, std::int64_t cols, DType t) { return OperandPlace::whole(rows, cols, t); };
  return {inst.m,
          inst.n,
          inst.k,
          place(inst.m, inst.k, inst.a),
          place(inst.k, inst.n, inst.b),
          place(inst.m, inst.n, inst.c),
          place(inst.m, inst.n, inst.d),
          true};
}

inline sim::GemmInputs frame_inputs(const MmaInst& inst, int index, std::uint64_t seed = 11) {
  return sim::random_gemm_inputs({inst.m, inst.k, inst.a, 1}, {inst.k, inst.n, inst.b, 0}, {inst.m, inst.n, inst.c, -1},
                                 sim::case_distribution(index), seed, index);
}

}  // namespace mmacheck::test
