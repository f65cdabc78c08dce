#define EIGEN_STRONG_INLINE inline __attribute__((always_inline))
#define MMACHECK_BASELINE_NS generic
#define MMACHECK_BASELINE_NAME "Eigen float32 (default target)"
#include "sim/numerics/eigen_baseline_kernels.h"

#include <string>

#include "core/base/error.h"

namespace mmacheck::sim {

// In eigen_baseline_avx2.cc and eigen_baseline_avx512.cc.
const FloatTileKernel* eigen_avx2_kernel(int m, int n, int k);
const FloatTileKernel* eigen_avx512_kernel(int m, int n, int k);

const FloatTileKernel* eigen_tile_kernel_generic(int m, int n, int k) { return generic::kernel(m, n, k); }

const FloatTileKernel* eigen_tile_kernel_avx2(int m, int n, int k) {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (has) return eigen_avx2_kernel(m, n, k);
#endif
  return nullptr;
}

const FloatTileKernel* eigen_tile_kernel_avx512(int m, int n, int k) {
#if defined(__x86_64__)
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma");
  if (has) return eigen_avx512_kernel(m, n, k);
#endif
  return nullptr;
}

const FloatTileKernel& eigen_tile_kernel(int m, int n, int k) {
  if (const FloatTileKernel* fast = eigen_tile_kernel_avx2(m, n, k)) return *fast;
  if (const FloatTileKernel* plain = eigen_tile_kernel_generic(m, n, k)) return *plain;
  throw Error("no float32 baseline for an m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k) +
              " tile");
}

}  // namespace mmacheck::sim
