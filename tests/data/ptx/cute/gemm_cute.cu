// A CuTe gemm for sm_80 in the style of CUTLASS's cute tutorial
// sgemm_sm80.cu: D (M x N, f32, row-major) = A (M x K, f16, K-major) times
// B (given as N x K, K-major: the "TN" gemm).  Per CTA a 64 x 64 tile of D,
// 128 threads (a 2 x 2 tiled mma of SM80_16x8x16_F32F16F16F32_TN), a K loop
// over 32-wide k-tiles: cp.async (SM80_CP_ASYNC_CACHEALWAYS, 16 bytes) copies
// A's and B's tiles into swizzled shared memory, ldmatrix
// (SM75_U32x4_LDSM_N) loads the fragments, the mma accumulates in registers
// and the epilogue stores them.  scripts/ptx-oracle/cute_kernels.sh compiles
// it to PTX against CUTLASS's headers, once as written and once per planted
// mistake (-DPLANT_...).
#include <cute/tensor.hpp>

using namespace cute;

extern "C" __global__ void __launch_bounds__(128)
    gemm_cute(const half_t* A, const half_t* B, float* D, int M, int N, int K) {
  using BM = Int<64>;
  using BN = Int<64>;
  using BK = Int<32>;
  // Shared memory: 8 x 32 atoms of halves, swizzled so that ldmatrix's
  // eight rows fall in different banks; tiled to the 64 x 32 tile.
  auto swizzled = composition(Swizzle<2, 3, 3>{}, Layout<Shape<_8, BK>, Stride<BK, _1>>{});
  auto sA_layout = tile_to_shape(swizzled, make_shape(BM{}, BK{}));
  auto sB_layout = tile_to_shape(swizzled, make_shape(BN{}, BK{}));
#ifdef PLANT_SMEM_LAYOUT
  // The fragments read through the unswizzled layout the copies never wrote.
  auto sA_read = make_layout(make_shape(BM{}, BK{}), LayoutRight{});
#else
  auto sA_read = sA_layout;
#endif
  __shared__ alignas(128) half_t smem_a[cosize_v<decltype(sA_layout)>];
  __shared__ alignas(128) half_t smem_b[cosize_v<decltype(sB_layout)>];

  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(K, Int<1>{}));
#ifdef PLANT_B_FROM_A
  Tensor mB = make_tensor(make_gmem_ptr(A), make_shape(N, K), make_stride(K, Int<1>{}));
#else
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(K, Int<1>{}));
#endif
  Tensor mD = make_tensor(make_gmem_ptr(D), make_shape(M, N), make_stride(N, Int<1>{}));

  auto cta_tiler = make_shape(BM{}, BN{}, BK{});
  auto cta_coord = make_coord(blockIdx.y, blockIdx.x, _);
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BM, BK, k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BN, BK, k)
#ifdef PLANT_EPILOGUE
  // The output tile of the CTA at the transposed grid position.
  Tensor gD = local_tile(mD, cta_tiler, make_coord(blockIdx.x, blockIdx.y, _), Step<_1, _1, X>{});
#else
  Tensor gD = local_tile(mD, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BM, BN)
#endif
  Tensor sA = make_tensor(make_smem_ptr(smem_a), sA_layout);
  Tensor sA_r = make_tensor(make_smem_ptr(smem_a), sA_read);
  Tensor sB = make_tensor(make_smem_ptr(smem_b), sB_layout);

  // Global to shared: 16 bytes (8 halves) per thread and copy, 32 x 4 threads.
  auto g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                             Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
  ThrCopy g2s_thr = g2s.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr.partition_S(gA);  // (CPY, CPY_M, CPY_K, k)
  Tensor tAsA = g2s_thr.partition_D(sA);
  Tensor tBgB = g2s_thr.partition_S(gB);
  Tensor tBsB = g2s_thr.partition_D(sB);

  // The mma: 2 x 2 warps, each 16 x 16 of a 32 x 32 x 16 tile.
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgD = thr_mma.partition_C(gD);
  Tensor tCrA = thr_mma.partition_fragment_A(sA);
  Tensor tCrB = thr_mma.partition_fragment_B(sB);
  Tensor tCrD = thr_mma.make_fragment_C(tCgD);
  clear(tCrD);

  // Shared to registers through ldmatrix.
  TiledCopy s2r_a = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  ThrCopy s2r_a_thr = s2r_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_a_thr.partition_S(sA_r);
  Tensor tXrA = s2r_a_thr.retile_D(tCrA);
  TiledCopy s2r_b = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
  ThrCopy s2r_b_thr = s2r_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_b_thr.partition_S(sB);
  Tensor tXrB = s2r_b_thr.retile_D(tCrB);

  int k_tiles = size<2>(gA);
#ifdef PLANT_SKIP_K
  k_tiles -= 1;  // the last k-tile is never accumulated
#endif
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    copy(g2s, tAgA(_, _, _, k_tile), tAsA);
    copy(g2s, tBgB(_, _, _, k_tile), tBsB);
    cp_async_fence();
    cp_async_wait<0>();
#ifndef PLANT_NO_SYNC
    __syncthreads();
#endif
    CUTE_UNROLL
    for (int k_block = 0; k_block < size<2>(tCrA); ++k_block) {
      copy(s2r_a, tXsA(_, _, k_block), tXrA(_, _, k_block));
      copy(s2r_b, tXsB(_, _, k_block), tXrB(_, _, k_block));
      gemm(mma, tCrA(_, _, k_block), tCrB(_, _, k_block), tCrD);
    }
    __syncthreads();
  }
  copy(tCrD, tCgD);
}
