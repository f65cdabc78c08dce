// A hand-written Blackwell gemm (sm_100a) on tcgen05, for mmacheck's PTX
// machine: D (M x N, f32) = A (M x K, f16, row-major) * B (K x N, f16,
// given N x K: B's columns K-contiguous).  One CTA of 4 warps computes a
// 128 x 64 tile of D: per 64-wide K block the CTA copies A's 128 x 64 and B's
// 64 x 64 into shared memory in the canonical K-major 128B-swizzle layout
// (CUTLASS's SW128 K-major atom: row i at 128 i, 16-byte chunk c at c ^ (i % 8)),
// thread 0 issues four tcgen05.mma kind::f16 m128n64k16 (each descriptor's
// start advanced 32 bytes a K step) into a 64-column TMEM allocation and
// commits them to an mbarrier every thread waits on; then warp w loads D's
// rows 32w..32w+31 from its TMEM lane quarter (tcgen05.ld 32x32b) and stores
// them.  The inline PTX follows the PTX ISA's syntax (§9.7.16) as CUTLASS's
// cute/arch/*sm100* wrappers spell it.  -DPLANT_... plants one mistake
// (scripts/ptx-oracle/tcgen05_kernels.sh builds each).
#include <cstdint>

#include <cuda_fp16.h>

constexpr int BM = 128, BN = 64, BK = 64, COLS = 64;

__device__ inline std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// SW128 K-major shared-memory descriptor (tcgen05's encoding): start >> 4,
// LBO 16 >> 4 (unused when swizzled), SBO 1024 >> 4 (8 rows of 128 bytes),
// the constant 0b001 at bits 46-48, swizzle 128B (2) at bits 61-63.
__device__ inline std::uint64_t sw128_desc(std::uint32_t addr) {
#ifdef PLANT_SBO
  const std::uint64_t sbo = 512;
#else
  const std::uint64_t sbo = 1024;
#endif
  return (static_cast<std::uint64_t>((addr & 0x3FFFF) >> 4)) | (std::uint64_t{16 >> 4} << 16) |
         ((sbo >> 4) << 32) | (std::uint64_t{1} << 46) | (std::uint64_t{2} << 61);
}

// Instruction descriptor, kind::f16: D f32 (1 at bits 4-5), A and B f16 (0),
// both K-major, N >> 3 at bits 17-22, M >> 4 at bits 24-28.
__device__ inline std::uint32_t idesc_f16(int m, int n) {
  return (1u << 4) | (static_cast<std::uint32_t>(n >> 3) << 17) | (static_cast<std::uint32_t>(m >> 4) << 24);
}

__device__ inline void wait_phase(std::uint32_t bar, std::uint32_t phase) {
  std::uint32_t done = 0;
  while (!done) {
    asm volatile(
        "{\n\t.reg .pred p;\n\t"
        "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
        "selp.u32 %0, 1, 0, p;\n\t}"
        : "=r"(done)
        : "r"(bar), "r"(phase)
        : "memory");
  }
}

__device__ inline void tmem_ld32(std::uint32_t taddr, float* v) {
  std::uint32_t r[32];
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x32.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, [%32];"
      : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7]), "=r"(r[8]),
        "=r"(r[9]), "=r"(r[10]), "=r"(r[11]), "=r"(r[12]), "=r"(r[13]), "=r"(r[14]), "=r"(r[15]), "=r"(r[16]),
        "=r"(r[17]), "=r"(r[18]), "=r"(r[19]), "=r"(r[20]), "=r"(r[21]), "=r"(r[22]), "=r"(r[23]), "=r"(r[24]),
        "=r"(r[25]), "=r"(r[26]), "=r"(r[27]), "=r"(r[28]), "=r"(r[29]), "=r"(r[30]), "=r"(r[31])
      : "r"(taddr));
#ifndef PLANT_LD_NO_WAIT
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
#endif
  for (int i = 0; i < 32; ++i) v[i] = __uint_as_float(r[i]);
}

extern "C" __global__ void __launch_bounds__(128) gemm_tcgen05(const half* __restrict__ A, const half* __restrict__ B,
                                                               float* __restrict__ D, int M, int N, int K) {
  __shared__ __align__(1024) half sa[BM * BK];
  __shared__ __align__(1024) half sb[BN * BK];
  __shared__ __align__(8) std::uint64_t mma_bar;
  __shared__ std::uint32_t tmem_slot;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int m0 = blockIdx.x * BM, n0 = blockIdx.y * BN;
  const std::uint32_t bar = smem_u32(&mma_bar);

  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smem_u32(&tmem_slot)),
                 "r"(COLS));
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
  }
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(1));
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;");
  const std::uint32_t tmem = tmem_slot;

  std::uint32_t phase = 0;
  for (int k0 = 0; k0 < K; k0 += BK) {
    // A's 128 x 64 and B's 64 x 64 (N x K) block, 16 bytes (8 halves) a copy,
    // to the SW128 K-major layout.
    for (int c = tid; c < BM * BK / 8; c += 128) {
      const int i = c / (BK / 8), chunk = c % (BK / 8);
      const uint4 v = *reinterpret_cast<const uint4*>(&A[(m0 + i) * K + k0 + chunk * 8]);
      *reinterpret_cast<uint4*>(reinterpret_cast<char*>(sa) + i * 128 + ((chunk ^ (i % 8)) * 16)) = v;
    }
    for (int c = tid; c < BN * BK / 8; c += 128) {
      const int j = c / (BK / 8), chunk = c % (BK / 8);
      const uint4 v = *reinterpret_cast<const uint4*>(&B[(n0 + j) * K + k0 + chunk * 8]);
      *reinterpret_cast<uint4*>(reinterpret_cast<char*>(sb) + j * 128 + ((chunk ^ (j % 8)) * 16)) = v;
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
      asm volatile("tcgen05.fence::after_thread_sync;");
#ifdef PLANT_IDESC_N
      const std::uint32_t idesc = idesc_f16(BM, 2 * BN);
#elif defined(PLANT_IDESC_M)
      const std::uint32_t idesc = idesc_f16(64, BN);
#else
      const std::uint32_t idesc = idesc_f16(BM, BN);
#endif
      for (int kk = 0; kk < BK / 16; ++kk) {
        const std::uint64_t da = sw128_desc(smem_u32(sa) + kk * 32);
#ifdef PLANT_B_FROM_A
        const std::uint64_t db = sw128_desc(smem_u32(sa) + kk * 32);
#else
        const std::uint64_t db = sw128_desc(smem_u32(sb) + kk * 32);
#endif
#ifdef PLANT_ACCUMULATE_FIRST
        const std::uint32_t accumulate = 1;
#else
        const std::uint32_t accumulate = (k0 > 0 || kk > 0) ? 1 : 0;
#endif
        asm volatile(
            "{\n\t.reg .pred p;\n\t"
            "setp.ne.b32 p, %4, 0;\n\t"
            "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;\n\t}" ::"r"(tmem),
            "l"(da), "l"(db), "r"(idesc), "r"(accumulate));
      }
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(bar)
                   : "memory");
    }
#ifdef PLANT_NO_COMMIT_WAIT
    if (k0 + BK < K) wait_phase(bar, phase);
#elif defined(PLANT_OVERWRITE)
    if (k0 + BK >= K) wait_phase(bar, phase);  // the next block overwrites what the mmas read
#else
    wait_phase(bar, phase);
#endif
    phase ^= 1;
  }
  asm volatile("tcgen05.fence::after_thread_sync;");

#ifdef PLANT_DEALLOC_EARLY
  __syncthreads();
  if (warp == 0) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(COLS));
#endif
  // Warp w: D's rows 32w + lane from TMEM lanes 32w.. (its lane quarter).
#ifdef PLANT_LANE_HALF
  const std::uint32_t row_lanes = static_cast<std::uint32_t>(32 * warp + 16) << 16;  // the quarter's second half
#else
  const std::uint32_t row_lanes = static_cast<std::uint32_t>(32 * warp) << 16;
#endif
  float v[32];
  for (int half_n = 0; half_n < 2; ++half_n) {
    tmem_ld32(tmem + row_lanes + half_n * 32, v);
    for (int j = 0; j < 32; ++j) D[(m0 + 32 * warp + lane) * N + n0 + half_n * 32 + j] = v[j];
  }
  asm volatile("tcgen05.fence::before_thread_sync;");
  __syncthreads();
#if !defined(PLANT_NO_DEALLOC) && !defined(PLANT_DEALLOC_EARLY)
  if (warp == 0) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(COLS));
#endif
}
