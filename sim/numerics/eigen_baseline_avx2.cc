// The float32 baseline compiled with -mavx2 -mfma (sim/CMakeLists.txt); only
// called when the processor has both (eigen_baseline.cc).
#define EIGEN_STRONG_INLINE inline __attribute__((always_inline))
#define MMACHECK_BASELINE_NS avx2
#define MMACHECK_BASELINE_NAME "Eigen float32 AVX2"
#include "sim/numerics/eigen_baseline_kernels.h"

namespace mmacheck::sim {
const FloatTileKernel* eigen_avx2_kernel(int m, int n, int k) { return avx2::kernel(m, n, k); }
}  // namespace mmacheck::sim
