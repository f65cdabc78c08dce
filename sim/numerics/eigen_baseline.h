// The float32 baseline that `bench` holds the bit-exact simulator against:
// D = A·B + C over consecutive row-major float tiles (A m×k, B k×n, C and D
// m×n) with Eigen at fixed sizes, in the product form that is fastest for
// tiles this small (`lazyProduct`: no packing, unrolled).  The AVX2+FMA
// build is chosen at run time when the processor has both, so the program
// still runs without them.
//
//     const FloatTileKernel& k = eigen_tile_kernel(16, 8, 16);
//     k.run(a.data(), b.data(), c.data(), d.data(), 64);   // 64 tiles
//     k.name == "Eigen float32 AVX2"
#pragma once

#include <string_view>

namespace mmacheck::sim {

struct FloatTileKernel {
  std::string_view name;
  void (*run)(const float* a, const float* b, const float* c, float* d, int count);
};

// The kernel for an m×n×k tile (16×8×{4,8,16,32}, 8×8×4); throws Error for
// another shape.
const FloatTileKernel& eigen_tile_kernel(int m, int n, int k);

// Both builds, for tests and for bench's line about the SSE2 one; the AVX2
// one is null when the processor or the compiler lacks it.
const FloatTileKernel* eigen_tile_kernel_avx2(int m, int n, int k);
// The AVX-512 F/DQ/VL build, null likewise.  bench times it beside the AVX2
// one; which is the faster at these tile sizes: docs/performance.md.
const FloatTileKernel* eigen_tile_kernel_avx512(int m, int n, int k);
const FloatTileKernel* eigen_tile_kernel_generic(int m, int n, int k);

}  // namespace mmacheck::sim
