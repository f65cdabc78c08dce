#include "sim/numerics/sparse_model.h"

#include <algorithm>
#include <string>

#include "core/base/error.h"
#include "sim/numerics/fused_dot.h"

namespace mmacheck::sim {

std::string_view sparse_arith_name(SparseArith h) {
  switch (h) {
    case SparseArith::zeros: return "zeros";
    case SparseArith::kept: return "kept";
    case SparseArith::kept_packed: return "kept-packed";
  }
  return "?";
}

std::optional<SparseArith> parse_sparse_arith(std::string_view name) {
  for (SparseArith h : kAllSparseArith)
    if (sparse_arith_name(h) == name) return h;
  return std::nullopt;
}

namespace {

void check_size(const SparseMmaInst& inst, std::string_view what, std::size_t got, int want) {
  if (got != static_cast<std::size_t>(want))
    throw Error(inst.ptx() + ": " + std::string(what) + " has " + std::to_string(got) + " elements, expected " +
                std::to_string(want));
}

void check_meta(const SparseMmaInst& inst, const MetaGrid& meta) {
  check_size(inst, "metadata grid", meta.size(), inst.m * inst.chunks_per_row());
  for (std::size_t i = 0; i < meta.size(); ++i)
    if (!meta_valid(inst, meta[i], false))
      throw Error(inst.ptx() + ": metadata of row " + std::to_string(i / inst.chunks_per_row()) + " chunk " +
                  std::to_string(i % inst.chunks_per_row()) +
                  (inst.chunk_elems() == 2
                       ? " is neither 0b0100 nor 0b1110 (tf32's only values; undefined behaviour)"
                       : " names index " + std::to_string(meta_index(meta[i], 0)) + " twice (undefined behaviour)"));
}

// Only the kept products are terms: per output, the kept (a, b) pairs in
// logical K order, in blocks of `block` logical positions (packed: of
// `block` kept products), chained as the dense model chains blocks.
void kept_mma(const SparseMmaInst& inst, const ArchParams& arch, bool packed, std::span<const std::uint64_t> a,
              const MetaGrid& meta, std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
              std::span<std::uint64_t> d) {
  const FloatFormat& fa = float_format(inst.a);
  const FloatFormat& fb = float_format(inst.b);
  const FloatFormat& acc = float_format(inst.c);
  const FloatFormat& out = float_format(inst.d);
  const int block = inst.a == DType::tf32 ? arch.block_tf32 : arch.block_16bit;
  const int per_block = packed ? block : block / 2;  // kept products per fused block
  const FusedStep step = fused_step_for(inst.a, out, arch);
  const int cols = inst.a_cols();
  for (int i = 0; i < inst.m; ++i) {
    const std::span<const std::uint8_t> row_meta(meta.data() + i * inst.chunks_per_row(), inst.chunks_per_row());
    for (int j = 0; j < inst.n; ++j) {
      std::vector<FpValue> xs, ys;
      for (int q = 0; q < cols; ++q) {
        xs.push_back(decode(fa, a[i * cols + q]));
        ys.push_back(decode(fb, b[logical_col(inst, row_meta, q) * inst.n + j]));
      }
      FpValue acc_v = decode(acc, c[i * inst.n + j]);
      std::uint64_t bits = 0;
      for (int q0 = 0; q0 < cols; q0 += per_block) {
        const int len = std::min(per_block, cols - q0);
        bits = fused_dot(step, std::span(xs).subspan(q0, len), std::span(ys).subspan(q0, len), acc_v);
        acc_v = decode(out, bits);
      }
      d[i * inst.n + j] = bits;
    }
  }
}

}  // namespace

std::vector<std::uint64_t> decompress_a(const SparseMmaInst& inst, std::span<const std::uint64_t> a_compressed,
                                        const MetaGrid& meta) {
  check_size(inst, "compressed A", a_compressed.size(), inst.m * inst.a_cols());
  check_meta(inst, meta);
  std::vector<std::uint64_t> a(inst.m * inst.k, 0);
  for (int i = 0; i < inst.m; ++i) {
    const std::span<const std::uint8_t> row_meta(meta.data() + i * inst.chunks_per_row(), inst.chunks_per_row());
    for (int q = 0; q < inst.a_cols(); ++q)
      a[i * inst.k + logical_col(inst, row_meta, q)] = a_compressed[i * inst.a_cols() + q];
  }
  return a;
}

void sparse_mma_tile(const SparseMmaInst& inst, const ArchParams& arch, SparseArith how,
                     std::span<const std::uint64_t> a_compressed, const MetaGrid& meta,
                     std::span<const std::uint64_t> b, std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
  const MmaInst logical = inst.logical();
  const std::vector<std::uint64_t> a = decompress_a(inst, a_compressed, meta);
  check_size(inst, "B", b.size(), inst.k * inst.n);
  check_size(inst, "C", c.size(), inst.m * inst.n);
  check_size(inst, "D", d.size(), inst.m * inst.n);
  check_has_model(logical, arch);
  // Integer sums are exact: a pruned zero adds nothing, so every hypothesis is the dense one.
  if (how == SparseArith::zeros || !dtype_info(inst.a).is_float) return mma_tile(logical, arch, a, b, c, d);
  kept_mma(inst, arch, how == SparseArith::kept_packed, a_compressed, meta, b, c, d);
}

}  // namespace mmacheck::sim
