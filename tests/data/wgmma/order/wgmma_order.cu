// One warpgroup's m64n8k16 f16 -> f32 wgmma, in straight-line code, for the
// order check (mmacheck wgmma FILE.ptx, docs/wgmma.md "Fence, commit, wait").
// Written for mmacheck's tests; scripts/wgmma-oracle/order_ptx.sh compiles it
// with nvcc -ptx for sm_90a once per variant:
//   (none)            correct: fence, mma, commit, wait 0, then D is read
//   MISSING_FENCE     no wgmma.fence before the mma
//   WRITE_THEN_MMA    the accumulator is written after the fence, before the mma
//   READ_BEFORE_WAIT  D is stored before wgmma.wait_group
//   NO_COMMIT         no wgmma.commit_group: the wait does not cover the mma
//   WRITE_IN_FLIGHT   the accumulator is written while the mma runs
//   WAIT_TOO_WEAK     two groups, wait_group 1, then the newest group's D is read
//   INIT_AFTER_FENCE  the accumulators' zeros left to the compiler, which writes
//                     them after the fence (ptxas then serializes the wgmma)
#include <cstdint>

__device__ __forceinline__ std::uint64_t descriptor(const void* smem, unsigned lbo, unsigned sbo) {
  const auto addr = static_cast<std::uint64_t>(__cvta_generic_to_shared(smem));
  return ((addr & 0x3FFFF) >> 4) | (static_cast<std::uint64_t>(lbo >> 4) << 16) |
         (static_cast<std::uint64_t>(sbo >> 4) << 32);
}

__device__ __forceinline__ void mma(float (&d)[4], std::uint64_t a, std::uint64_t b) {
  asm volatile(
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "l"(a), "l"(b));
}

extern "C" __global__ void __launch_bounds__(128) wgmma_order(const unsigned short* A, const unsigned short* B,
                                                               float* D) {
  __shared__ alignas(128) unsigned short sa[64 * 16];
  __shared__ alignas(128) unsigned short sb[8 * 16];
  const unsigned t = threadIdx.x;
#pragma unroll
  for (int j = 0; j < 8; ++j) sa[t + 128 * j] = A[t + 128 * j];
  sb[t] = B[t];
  asm volatile("bar.sync 0;\n" ::: "memory");
  float d[4] = {0, 0, 0, 0};
  float e[4] = {0, 0, 0, 0};
  const std::uint64_t da = descriptor(sa, 128, 256), db = descriptor(sb, 128, 256);
#ifndef INIT_AFTER_FENCE
  // Pin the accumulators' initial values before the fence (CUTLASS's
  // warpgroup_fence_operand): without it nvcc may write them after.
#pragma unroll
  for (int i = 0; i < 4; ++i) asm volatile("" : "+f"(d[i]), "+f"(e[i])::"memory");
#endif
#ifndef MISSING_FENCE
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
#ifdef WRITE_THEN_MMA
  asm volatile("mov.f32 %0, 0f00000000;\n" : "=f"(d[0]));
#endif
  mma(d, da, db);
#ifndef NO_COMMIT
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
#ifdef WRITE_IN_FLIGHT
  asm volatile("mov.f32 %0, 0f3F800000;\n" : "+f"(d[1]));
#endif
#ifdef WAIT_TOO_WEAK
  mma(e, da, db);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
  D[t * 8 + 4] = e[0];
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
#ifdef READ_BEFORE_WAIT
  D[t * 8] = d[0];
#endif
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
  for (int i = 0; i < 4; ++i) D[t * 8 + i] = d[i] + e[i];
}
