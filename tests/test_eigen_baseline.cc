// The float32 baseline of `bench`: both builds (default target and
// AVX2+FMA, when the processor has it) compute D = A·B + C for every tile
// shape, and the run-time choice prefers AVX2+FMA.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/eigen_baseline.h"

namespace test_eigen_baseline {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

void check_kernel(const FloatTileKernel& kernel, int m, int n, int k) {
  INFO(kernel.name << " m" << m << "n" << n << "k" << k);
  constexpr int kTiles = 3;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-2, 2);
  std::vector<float> a(kTiles * m * k), b(kTiles * k * n), c(kTiles * m * n), d(c.size(), NAN);
  for (std::vector<float>* v : {&a, &b, &c})
    for (float& x : *v) x = value(rng);
  kernel.run(a.data(), b.data(), c.data(), d.data(), kTiles);
  for (int t = 0; t < kTiles; ++t)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double want = c[t * m * n + i * n + j];
        for (int p = 0; p < k; ++p) want += double(a[t * m * k + i * k + p]) * b[t * k * n + p * n + j];
        CHECK(std::abs(d[t * m * n + i * n + j] - want) <= 1e-5 * (1 + std::abs(want)) * k);
      }
}

}  // namespace

TEST_CASE("the float32 baseline computes D = A*B + C in both builds", "[bench]") {
  for (const auto& [m, n, k] : {std::tuple{16, 8, 4}, {16, 8, 8}, {16, 8, 16}, {16, 8, 32}, {8, 8, 4}}) {
    const FloatTileKernel* generic = eigen_tile_kernel_generic(m, n, k);
    REQUIRE(generic);
    check_kernel(*generic, m, n, k);
    if (const FloatTileKernel* avx2 = eigen_tile_kernel_avx2(m, n, k)) {
      check_kernel(*avx2, m, n, k);
      CHECK(eigen_tile_kernel(m, n, k).name == avx2->name);
    } else {
      CHECK(eigen_tile_kernel(m, n, k).name == generic->name);
    }
  }
  CHECK_THROWS_AS(eigen_tile_kernel(16, 16, 16), Error);
}

}  // namespace test_eigen_baseline
