#include <cuda_fp16.h>
// A hand-written m16n8k16 gemm staged through shared memory: cp.async
// copies a 32x16 tile of A and a 16x8 tile of B per K step, ldmatrix.x4
// and ldmatrix.x2.trans load the fragments.  Two warps per CTA (32 rows of
// D), grid (N/8, M/32).  scripts/ptx-oracle/nvcc_kernels.sh compiles it to
// PTX, once as written and once per planted mistake (-DPLANT_...).
extern "C" __global__ void gemm_shared(const __half* A, const __half* B, float* D, int M, int N, int K) {
  __shared__ __align__(16) __half As[32][16];
  __shared__ __align__(16) __half Bs[16][8];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int g = lane / 4, t = lane % 4;
  const int row0 = blockIdx.y * 32, col0 = blockIdx.x * 8;
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += 16) {
    {
      const int r = tid / 2, c = (tid % 2) * 8;
      const unsigned dst = (unsigned)__cvta_generic_to_shared(&As[r][c]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(A + (row0 + r) * K + k0 + c));
    }
    if (tid < 16) {
      const unsigned dst = (unsigned)__cvta_generic_to_shared(&Bs[tid][0]);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(B + (k0 + tid) * N + col0));
    }
    asm volatile("cp.async.commit_group;");
#ifndef PLANT_NO_WAIT
    asm volatile("cp.async.wait_group 0;");
#endif
#ifndef PLANT_NO_SYNC
    __syncthreads();
#endif
    unsigned a[4], b[2];
    {
#ifdef PLANT_LDMATRIX_ROW
      const int r = warp * 16 + (lane % 8), c = (lane / 16) * 8;
#else
      const int r = warp * 16 + (lane % 16), c = (lane / 16) * 8;
#endif
      const unsigned addr = (unsigned)__cvta_generic_to_shared(&As[r][c]);
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                   : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                   : "r"(addr));
    }
    {
#ifdef PLANT_B_FROM_A
      const unsigned addr = (unsigned)__cvta_generic_to_shared(&As[lane % 16][0]);
#else
      const unsigned addr = (unsigned)__cvta_generic_to_shared(&Bs[lane % 16][0]);
#endif
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(addr));
    }
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
#ifndef PLANT_NO_SYNC_AFTER
    __syncthreads();
#endif
  }
  const int row = row0 + warp * 16 + g;
  D[row * N + col0 + 2 * t] = d[0];
  D[row * N + col0 + 2 * t + 1] = d[1];
  D[(row + 8) * N + col0 + 2 * t] = d[2];
  D[(row + 8) * N + col0 + 2 * t + 1] = d[3];
}
