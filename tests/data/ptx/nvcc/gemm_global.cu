#include <cuda_fp16.h>
// A hand-written m16n8k16 gemm reading its fragments straight from global
// memory; scripts/ptx-oracle/nvcc_kernels.sh compiles it to PTX, once as
// written and once per planted mistake (-DPLANT_...).
// D[M][N] = A[M][K] @ B[K][N]; one warp per 16x8 tile of D, grid (N/8, M/16).
extern "C" __global__ void gemm_m16n8k16(const __half* A, const __half* B, float* D, int M, int N, int K) {
  int lane = threadIdx.x % 32;
  int g = lane / 4, t = lane % 4;
  int row0 = blockIdx.y * 16, col0 = blockIdx.x * 8;
  float d[4] = {0.f, 0.f, 0.f, 0.f};
#ifdef PLANT_STORE_FIRST
  D[(row0 + g) * N + col0 + 2 * t] = d[0];
  D[(row0 + g) * N + col0 + 2 * t + 1] = d[1];
  D[(row0 + g + 8) * N + col0 + 2 * t] = d[2];
  D[(row0 + g + 8) * N + col0 + 2 * t + 1] = d[3];
  return;
#endif
#ifdef PLANT_SKIP_K
  for (int k0 = 0; k0 < K; k0 += 32) {
#else
  for (int k0 = 0; k0 < K; k0 += 16) {
#endif
    unsigned a[4], b[2];
    const __half* a0 = A + (row0 + g) * K + k0 + 2 * t;
    const __half* a1 = A + (row0 + g + 8) * K + k0 + 2 * t;
    a[0] = *(const unsigned*)a0;
    a[1] = *(const unsigned*)a1;
    a[2] = *(const unsigned*)(a0 + 8);
    a[3] = *(const unsigned*)(a1 + 8);
#ifdef PLANT_B_FROM_A
    const __half* Bsrc = A;
#else
    const __half* Bsrc = B;
#endif
#ifdef PLANT_B_ROW
    __half b0 = Bsrc[(k0 + 2 * t) * N + col0 + g], b1 = Bsrc[(k0 + 2 * t) * N + col0 + g];
#else
    __half b0 = Bsrc[(k0 + 2 * t) * N + col0 + g], b1 = Bsrc[(k0 + 2 * t + 1) * N + col0 + g];
#endif
    __half b2 = Bsrc[(k0 + 2 * t + 8) * N + col0 + g], b3 = Bsrc[(k0 + 2 * t + 9) * N + col0 + g];
    b[0] = (unsigned)__half_as_ushort(b0) | ((unsigned)__half_as_ushort(b1) << 16);
    b[1] = (unsigned)__half_as_ushort(b2) | ((unsigned)__half_as_ushort(b3) << 16);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]),
#ifdef PLANT_SWAP
                   "r"(a[2]), "r"(a[1]),
#else
                   "r"(a[1]), "r"(a[2]),
#endif
                   "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
  D[(row0 + g) * N + col0 + 2 * t] = d[0];
#ifdef PLANT_EPILOGUE
  D[(row0 + g + 8) * N + col0 + 2 * t + 1] = d[1];
#else
  D[(row0 + g) * N + col0 + 2 * t + 1] = d[1];
#endif
  D[(row0 + g + 8) * N + col0 + 2 * t] = d[2];
  D[(row0 + g + 8) * N + col0 + 2 * t + 1] = d[3];
}
