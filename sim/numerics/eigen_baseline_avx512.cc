// The float32 baseline compiled with AVX-512 F/DQ/VL and FMA
// (sim/CMakeLists.txt); only called when the processor has them
// (eigen_baseline.cc).
#define EIGEN_STRONG_INLINE inline __attribute__((always_inline))
#define MMACHECK_BASELINE_NS avx512
#define MMACHECK_BASELINE_NAME "Eigen float32 AVX-512"
#include "sim/numerics/eigen_baseline_kernels.h"

namespace mmacheck::sim {
const FloatTileKernel* eigen_avx512_kernel(int m, int n, int k) { return avx512::kernel(m, n, k); }
}  // namespace mmacheck::sim
