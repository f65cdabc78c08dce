#include "sim/check/direct_eval.h"

#include <string>
#include <vector>

#include "core/base/error.h"
#include "sim/check/operand_index.h"

namespace mmacheck::sim {

Matrix direct_eval(const GemmGeometry& g, const MmaInst& inst, const ArchParams& arch, const GemmInputs& in) {
  if (g.m % inst.m || g.n % inst.n || g.k % inst.k)
    throw Error("M x N x K = " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " + std::to_string(g.k) +
                " does not tile into " + inst.shape());
  check_holds(in.a, g.a, "A");
  check_holds(in.b, g.b, "B");
  if (g.use_c) check_holds(in.c, g.c, "C");

  Matrix d{g.m, g.n, g.d.dtype(), std::vector<std::uint64_t>(g.m * g.n)};
  const OperandIndex at_a(g.a), at_b(g.b), at_c(g.c);
  std::vector<std::uint64_t> a(inst.m * inst.k), b(inst.k * inst.n), acc(inst.m * inst.n), next(acc.size());
  for (std::int64_t i0 = 0; i0 < g.m; i0 += inst.m)
    for (std::int64_t j0 = 0; j0 < g.n; j0 += inst.n) {
      for (int i = 0; i < inst.m; ++i)
        for (int j = 0; j < inst.n; ++j) acc[i * inst.n + j] = g.use_c ? in.c.bits[at_c(i0 + i, j0 + j)] : g.c_bits;
      for (std::int64_t k0 = 0; k0 < g.k; k0 += inst.k) {
        for (int i = 0; i < inst.m; ++i)
          for (int kk = 0; kk < inst.k; ++kk) a[i * inst.k + kk] = in.a.bits[at_a(i0 + i, k0 + kk)];
        for (int kk = 0; kk < inst.k; ++kk)
          for (int j = 0; j < inst.n; ++j) b[kk * inst.n + j] = in.b.bits[at_b(k0 + kk, j0 + j)];
        mma_tile(inst, arch, a, b, acc, next);
        acc.swap(next);
      }
      for (int i = 0; i < inst.m; ++i)
        for (int j = 0; j < inst.n; ++j) d.bits[(i0 + i) * g.n + j0 + j] = acc[i * inst.n + j];
    }
  return d;
}

}  // namespace mmacheck::sim
