// The f64 NaN payload order, measured on the H200 for every f64 shape
// (docs/numerics.md, "f64"): tests/data/capture.f64_nan.mmav holds the H200's
// cases with the most fmas whose operands hold two or more NaNs
// (scripts/f64_nan_orders.py --subset).  The model's order (b, then c, then
// a) gives every output; each other order gives some output wrong — the
// vectors decide the order, they do not merely allow it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>

#include "sim/numerics/f64_fma.h"
#include "sim/vectors/vector_file.h"
#include "tests/support.h"

namespace test_f64_nan_order {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

bool is_nan(std::uint64_t x) { return (x & 0x7FF0000000000000) == 0x7FF0000000000000 && (x & 0x000FFFFFFFFFFFFF); }

// One fma whose NaN operands resolve in `order` (a permutation of "abc").
std::uint64_t fma_in_order(std::uint64_t a, std::uint64_t b, std::uint64_t c, const std::string& order) {
  const int nans = is_nan(a) + is_nan(b) + is_nan(c);
  if (nans < 2) return f64_fma(a, b, c);
  for (char o : order) {
    const std::uint64_t x = o == 'a' ? a : o == 'b' ? b : c;
    if (is_nan(x)) return x | (std::uint64_t{1} << 51);
  }
  return 0;
}

// Outputs of `file` the chain d = fma(a[k-1], b[k-1], ... fma(a[0], b[0], c)) gets wrong under `order`.
int wrong_outputs(const VectorFile& file, const std::string& order) {
  int wrong = 0;
  for (const VectorCase& v : file.cases) {
    const int m = v.inst->m, n = v.inst->n, k = v.inst->k;
    for (int r = 0; r < m; ++r)
      for (int c = 0; c < n; ++c) {
        std::uint64_t acc = v.c[static_cast<std::size_t>(r * n + c)];
        for (int kk = 0; kk < k; ++kk)
          acc = fma_in_order(v.a[static_cast<std::size_t>(r * k + kk)], v.b[static_cast<std::size_t>(kk * n + c)], acc,
                             order);
        wrong += acc != v.d[static_cast<std::size_t>(r * n + c)];
      }
  }
  return wrong;
}

}  // namespace

TEST_CASE("the H200's f64 NaN payload order is b, c, a on every f64 shape, and the vectors tell it apart",
          "[numerics][f64][vectors]") {
  const VectorFile file = read_vector_file(test::source_path("tests/data/capture.f64_nan.mmav"));
  std::array<int, 4> shapes{};  // m8n8k4, m16n8k4, k8, k16
  for (const VectorCase& v : file.cases) ++shapes[v.inst->m == 8 ? 0 : v.inst->k == 4 ? 1 : v.inst->k == 8 ? 2 : 3];
  CHECK(shapes == std::array<int, 4>{24, 24, 24, 24});
  CHECK(run_vector_file(file, arch_params("sm_90"), 10).failed == 0);
  CHECK(wrong_outputs(file, "bca") == 0);  // this test's own chain is the model's
  for (const char* other : {"abc", "acb", "bac", "cab", "cba"}) {
    INFO(other);
    CHECK(wrong_outputs(file, other) > 100);
  }
}

}  // namespace test_f64_nan_order
