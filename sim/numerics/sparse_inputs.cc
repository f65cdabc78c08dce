#include "sim/numerics/sparse_inputs.h"

#include "sim/numerics/float_format.h"
#include "sim/numerics/fused_dot.h"

namespace mmacheck::sim {

namespace {

// splitmix64: the metadata and special placement draws (independent of the
// Philox streams of the operands).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

SparseInputs random_sparse_inputs(const SparseMmaInst& inst, int selector, Distribution dist, bool pruned_specials,
                                  std::uint64_t seed, int case_index) {
  (void)selector;  // the grid is the same whichever lanes carry it
  const MatrixSpec a{inst.m, inst.k, inst.a, 1}, b{inst.k, inst.n, inst.b, 0}, c{inst.m, inst.n, inst.c, -1};
  GemmInputs g = random_gemm_inputs(a, b, c, dist, seed, case_index);
  SparseInputs in;
  std::uint64_t state = mix(seed * 0x100000001b3ull + static_cast<std::uint64_t>(case_index));
  const auto draw = [&] { return state = mix(state); };
  in.meta.resize(inst.m * inst.chunks_per_row());
  const std::span<const std::uint8_t> valid = meta_nibbles(inst, true);
  for (std::uint8_t& nibble : in.meta) nibble = valid[draw() % valid.size()];
  in.a.reserve(inst.m * inst.a_cols());
  for (int i = 0; i < inst.m; ++i)
    for (int q = 0; q < inst.a_cols(); ++q) {
      const std::span<const std::uint8_t> row(in.meta.data() + i * inst.chunks_per_row(), inst.chunks_per_row());
      in.a.push_back(g.a.at(i, logical_col(inst, row, q)));
    }
  in.b = std::move(g.b.bits);
  in.c = std::move(g.c.bits);
  if (pruned_specials && dtype_info(inst.b).is_float) {  // integers have no Inf or NaN
    // A row pruned by A's row 0 (some chunk's unkept index) in a few columns.
    const FloatFormat& fb = float_format(inst.b);
    for (int s = 0; s < 3; ++s) {
      const int chunk = static_cast<int>(draw() % inst.chunks_per_row());
      const std::span<const std::uint8_t> row0(in.meta.data(), static_cast<std::size_t>(inst.chunks_per_row()));
      const auto named = [&](int col) {
        for (int q = 0; q < inst.a_cols(); ++q)
          if (logical_col(inst, row0, q) == col) return true;
        return false;
      };
      int krow = chunk * inst.chunk_elems();  // the chunk's first column row 0 prunes
      while (named(krow)) ++krow;
      const int col = static_cast<int>(draw() % inst.n);
      in.b[krow * inst.n + col] = s == 2 ? canonical_nan(fb) : fb.inf_bits(draw() & 1);
    }
  }
  return in;
}

}  // namespace mmacheck::sim
