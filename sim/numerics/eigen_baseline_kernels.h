// The body of the float32 baseline (eigen_baseline.h), included by the two
// files that build it: eigen_baseline.cc (the compiler's default target) and
// eigen_baseline_avx2.cc (-mavx2 -mfma).  Each defines
// MMACHECK_BASELINE_NS and MMACHECK_BASELINE_NAME first, so their kernels
// live in different namespaces and never share a symbol; each also forces
// Eigen's helpers inline (EIGEN_STRONG_INLINE), so that no AVX2-compiled
// copy of an Eigen function can stand in for the default one at link time.
// Deliberately without include guard: one inclusion per file.

#include <Eigen/Core>

#include "sim/numerics/eigen_baseline.h"

namespace mmacheck::sim::MMACHECK_BASELINE_NS {

template <int M, int N, int K>
void run_tiles(const float* a, const float* b, const float* c, float* d, int count) {
  using MatA = Eigen::Map<const Eigen::Matrix<float, M, K, Eigen::RowMajor>>;
  using MatB = Eigen::Map<const Eigen::Matrix<float, K, N, Eigen::RowMajor>>;
  using MatC = Eigen::Map<const Eigen::Matrix<float, M, N, Eigen::RowMajor>>;
  using MatD = Eigen::Map<Eigen::Matrix<float, M, N, Eigen::RowMajor>>;
  for (int t = 0; t < count; ++t)
    MatD(d + t * M * N).noalias() = MatA(a + t * M * K).lazyProduct(MatB(b + t * K * N)) + MatC(c + t * M * N);
}

const FloatTileKernel* kernel(int m, int n, int k) {
  static constexpr FloatTileKernel kernels[] = {{MMACHECK_BASELINE_NAME, run_tiles<16, 8, 4>},
                                                {MMACHECK_BASELINE_NAME, run_tiles<16, 8, 8>},
                                                {MMACHECK_BASELINE_NAME, run_tiles<16, 8, 16>},
                                                {MMACHECK_BASELINE_NAME, run_tiles<16, 8, 32>},
                                                {MMACHECK_BASELINE_NAME, run_tiles<8, 8, 4>}};
  if (m == 8 && n == 8 && k == 4) return &kernels[4];
  if (m != 16 || n != 8) return nullptr;
  switch (k) {
    case 4: return &kernels[0];
    case 8: return &kernels[1];
    case 16: return &kernels[2];
    case 32: return &kernels[3];
  }
  return nullptr;
}

}  // namespace mmacheck::sim::MMACHECK_BASELINE_NS
