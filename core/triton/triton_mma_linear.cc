#include "core/triton/triton_mma_linear.h"

#include <algorithm>
#include <array>
#include <bit>

namespace mmacheck {

namespace {

using Basis = std::array<std::int64_t, 2>;

// A 2-D linear layout under construction, as Triton's LinearLayout products
// build it: appending identity1D / zeros1D factors one by one is the product
// of them, each factor's bases shifted past what the layout already covers.
// `order` is the out dims' order, which decides where ensure_not_smaller()
// puts its registers (Triton iterates the out dims in the layout's order).
struct Builder {
  std::vector<std::pair<std::string, std::vector<Basis>>> in;
  std::vector<int> order;
  std::array<std::int64_t, 2> size{1, 1};

  std::vector<Basis>& dim(const std::string& name) {
    for (auto& [n, bases] : in)
      if (n == name) return bases;
    in.emplace_back(name, std::vector<Basis>{});
    return in.back().second;
  }
  void note(int out) {
    if (std::find(order.begin(), order.end(), out) == order.end()) order.push_back(out);
  }
  // LinearLayout::identity1D(n, name, out): input 2^j -> 2^j along out.
  void identity(std::int64_t n, const std::string& name, int out) {
    std::vector<Basis>& bases = dim(name);
    for (std::int64_t s = 1; s < n; s *= 2) {
      Basis b{};
      b[static_cast<std::size_t>(out)] = size[static_cast<std::size_t>(out)] * s;
      bases.push_back(b);
    }
    size[static_cast<std::size_t>(out)] *= std::max<std::int64_t>(n, 1);
    note(out);
  }
  // LinearLayout::zeros1D(n, name, out): n inputs on one point (broadcast).
  void zeros(std::int64_t n, const std::string& name, int out) {
    std::vector<Basis>& bases = dim(name);
    for (std::int64_t s = 1; s < n; s *= 2) bases.push_back(Basis{});
    note(out);
  }
  // ensureLayoutNotSmallerThan: registers repeat the layout over the shape.
  void ensure_not_smaller(const std::array<std::int64_t, 2>& shape) {
    const std::vector<int> dims = order;
    for (int d : dims) {
      const std::int64_t have = size[static_cast<std::size_t>(d)];
      if (shape[static_cast<std::size_t>(d)] > have) identity(shape[static_cast<std::size_t>(d)] / have, "register", d);
    }
  }
  // ensureLayoutNotLargerThan (registers broadcast too): per out dim, the
  // largest bases are zeroed until the dim fits; then the sizes are those of
  // the bases left (LinearLayout's constructor without sizes).
  void ensure_not_larger(const std::array<std::int64_t, 2>& shape) {
    for (int d : order) {
      const auto du = static_cast<std::size_t>(d);
      std::int64_t have = size[du];
      if (have <= shape[du]) continue;
      std::vector<Basis*> sorted;
      for (auto& [name, bases] : in)
        for (Basis& b : bases)
          if (b[du] != 0) sorted.push_back(&b);
      std::stable_sort(sorted.begin(), sorted.end(),
                       [du](const Basis* x, const Basis* y) { return (*x)[du] > (*y)[du]; });
      for (Basis* b : sorted) {
        if (have <= shape[du]) break;
        (*b)[du] = 0;
        have >>= 1;
      }
    }
    size = inferred_size();
  }
  std::array<std::int64_t, 2> inferred_size() const {
    std::array<std::int64_t, 2> s{1, 1};
    for (const auto& [name, bases] : in)
      for (const Basis& b : bases)
        for (std::size_t d = 0; d < 2; ++d)
          if (b[d] > 0)
            s[d] = std::max(s[d], static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(b[d]))) * 2);
    return s;
  }
};

// nvidiaMmaTile: the registers and lanes of one instruction's tile, `inner`
// the dim of the kWidth contiguous registers.
void mma_tile(Builder& b, std::int64_t m, std::int64_t n, int k_width, int inner, int outer) {
  b.identity(k_width, "register", inner);
  b.identity(4, "lane", inner);
  b.identity(8, "lane", outer);
  b.identity(m / 8, "register", outer);
  b.identity(n / (std::int64_t{k_width} * 4), "register", inner);
}

// The order the parent's warps take the dims: version 2 N first, version 3
// (wgmma) M first.
std::array<int, 2> warp_order(const NvidiaMmaEncoding& mma) {
  return mma.version_major == 3 ? std::array<int, 2>{0, 1} : std::array<int, 2>{1, 0};
}

// combineCtaCgaWithShape: the CTA layout fitted to the CTA's share of the
// tensor, then the CTAs of the cluster as the last (block) factor.
TritonLayout combine(Builder cta, const std::vector<std::vector<std::int64_t>>& cga_bases,
                     const std::vector<std::int64_t>& shape) {
  const std::array<std::int64_t, 2> full{shape.at(0), shape.at(1)};
  Builder cga;
  cga.order = {0, 1};
  std::vector<Basis>& block = cga.dim("block");
  for (const std::vector<std::int64_t>& c : cga_bases) block.push_back(Basis{c.at(0), c.at(1)});
  cga.size = cga.inferred_size();
  cga.ensure_not_larger(full);
  const std::array<std::int64_t, 2> cta_shape{std::max<std::int64_t>(1, full[0] / cga.size[0]),
                                              std::max<std::int64_t>(1, full[1] / cga.size[1])};
  cta.ensure_not_smaller(cta_shape);
  cta.ensure_not_larger(cta_shape);
  std::vector<Basis>& out_block = cta.dim("block");
  for (const Basis& c : cga.dim("block")) out_block.push_back(Basis{c[0] * cta.size[0], c[1] * cta.size[1]});
  TritonLayout layout;
  for (const char* name : {"register", "lane", "warp", "block"}) {
    TritonLayout::InDim d{name, {}};
    for (const Basis& b : cta.dim(name)) d.bases.push_back({b[0], b[1]});
    layout.in_dims.push_back(std::move(d));
  }
  layout.out_dims = {{"dim0", cta.size[0] * cga.size[0]}, {"dim1", cta.size[1] * cga.size[1]}};
  return layout;
}

}  // namespace

std::vector<std::vector<std::int64_t>> cga_bases_from_split(const std::vector<int>& ctas_per_cga,
                                                            const std::vector<int>& cta_split_num,
                                                            const std::vector<int>& cta_order) {
  std::vector<std::vector<std::int64_t>> bases;
  std::array<std::int64_t, 2> tiles{1, 1};
  for (int dim : cta_order) {
    const auto d = static_cast<std::size_t>(dim);
    const int split = cta_split_num.at(d), ctas = ctas_per_cga.at(d);
    for (int s = 1; s < split; s *= 2) {
      std::vector<std::int64_t> b(2, 0);
      b[d] = tiles[d] * s;
      bases.push_back(b);
    }
    tiles[d] *= split;
    for (int s = 1; s < ctas / split; s *= 2) bases.emplace_back(2, 0);
  }
  return bases;
}

TritonLayout nvidia_mma_to_linear(const NvidiaMmaEncoding& mma, const std::vector<std::int64_t>& shape) {
  Builder b;
  b.order = {1, 0};  // the accumulator's repOrder: N fastest
  // The accumulator's registers are those of an operand with kWidth 2.
  mma_tile(b, mma.instr_shape.at(0), mma.instr_shape.at(1), 2, 1, 0);
  // The warps: N-fastest for version 2, M-fastest for version 3 (Hopper's
  // warpgroups stack along M: warps 0..3 are rows 0..63 of one wgmma).
  for (int d : warp_order(mma)) b.identity(mma.warps_per_cta.at(static_cast<std::size_t>(d)), "warp", d);
  return combine(std::move(b), mma.cga_bases, shape);
}

TritonLayout nvidia_dot_to_linear(const DotOperandEncoding& dot, const std::vector<std::int64_t>& shape) {
  const bool a = dot.op_idx == 0;
  const int k = a ? 1 : 0, mn = a ? 0 : 1;  // K is dim1 of A, dim0 of B
  Builder b;
  b.order = {k, mn};  // repOrder: K fastest
  mma_tile(b, a ? 16 : 8, std::int64_t{8} * dot.k_width, dot.k_width, k, mn);
  // The parent's warps in its order; along K they broadcast.
  for (int d : warp_order(dot.parent)) {
    const int w = dot.parent.warps_per_cta.at(static_cast<std::size_t>(d));
    if (d == k) b.zeros(w, "warp", d);
    else b.identity(w, "warp", d);
  }
  std::vector<std::vector<std::int64_t>> cga = dot.parent.cga_bases;
  for (std::vector<std::int64_t>& c : cga) c.at(static_cast<std::size_t>(k)) = 0;
  return combine(std::move(b), cga, shape);
}

TritonLayout cta_layout(const TritonLayout& layout) {
  if (layout.in_size("block") == 1) return layout;
  TritonLayout out;
  std::array<std::int64_t, 2> size{1, 1};
  for (const TritonLayout::InDim& d : layout.in_dims) {
    if (d.name == "block") continue;
    out.in_dims.push_back(d);
    for (const std::vector<std::int64_t>& b : d.bases)
      for (std::size_t i = 0; i < 2 && i < b.size(); ++i)
        if (b[i] > 0)
          size[i] = std::max(size[i], static_cast<std::int64_t>(std::bit_floor(static_cast<std::uint64_t>(b[i]))) * 2);
  }
  out.out_dims = {{"dim0", size[0]}, {"dim1", size[1]}};
  return out;
}

}  // namespace mmacheck
