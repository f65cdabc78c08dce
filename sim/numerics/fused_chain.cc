#include "sim/numerics/fused_chain.h"

#include <algorithm>
#include <vector>

#include "sim/numerics/float_format.h"
#include "sim/numerics/fused_dot.h"

namespace mmacheck::sim {

int fused_block(DType in, const ArchParams& arith) {
  if (in == DType::tf32) return arith.block_tf32;
  if (is_f8f6f4(in)) return arith.block_fp8;
  return arith.block_16bit;
}

void fused_chain_tile(const FusedTileShape& s, const ArchParams& arith, std::span<const std::uint64_t> a,
                      std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  const int m = s.m, n = s.n, k = s.k;
  const FloatFormat& fa = float_format(s.a);
  const FloatFormat& fb = float_format(s.b);
  const FloatFormat& out = float_format(s.d);
  std::vector<FpValue> av(std::size_t(m) * k), bt(std::size_t(n) * k);  // B transposed: K runs contiguous
  for (std::size_t i = 0; i < av.size(); ++i) av[i] = decode(fa, a[i]);
  for (int kk = 0; kk < k; ++kk)
    for (int j = 0; j < n; ++j) bt[std::size_t(j) * k + kk] = decode(fb, b[std::size_t(kk) * n + j]);
  const FusedStep step = fused_step_for(s.a, out, arith);
  const int block = fused_block(s.a, arith);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      std::uint64_t bits = c[std::size_t(i) * n + j] & dtype_mask(s.d);
      for (int k0 = 0; k0 < k; k0 += block) {
        const int len = std::min(block, k - k0);
        bits = fused_dot(step, std::span(av).subspan(std::size_t(i) * k + k0, len),
                         std::span(bt).subspan(std::size_t(j) * k + k0, len), decode(out, bits));
      }
      d[std::size_t(i) * n + j] = bits;
    }
}

}  // namespace mmacheck::sim
