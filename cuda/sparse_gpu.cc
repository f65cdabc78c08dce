#include "cuda/sparse_gpu.h"

#include <cstring>

#include "core/base/error.h"
#include "cuda/sparse_kernel.h"
#include "sim/numerics/sparse_inputs.h"

namespace mmacheck::cuda {

namespace {

// Each lane's registers of `frame`, lane after lane, from a logical tile.
std::vector<std::uint32_t> pack(const Frame& f, std::span<const std::uint64_t> tile) {
  std::vector<std::uint32_t> regs(32 * f.regs, 0);
  const std::uint64_t mask = f.elem_bits >= 32 ? 0xFFFFFFFFull : (1ull << f.elem_bits) - 1;
  for (int lane = 0; lane < 32; ++lane)
    for (int el = 0; el < f.elems(); ++el) {
      const TileCoord at = f.at(lane, el);
      regs[lane * f.regs + el / f.per_reg()] |=
          static_cast<std::uint32_t>((tile[at.row * f.cols + at.col] & mask) << (el % f.per_reg() * f.elem_bits));
    }
  return regs;
}

std::vector<std::uint64_t> unpack(const Frame& f, std::span<const std::uint32_t> regs) {
  std::vector<std::uint64_t> tile(f.rows * f.cols, 0);
  const std::uint64_t mask = f.elem_bits >= 32 ? 0xFFFFFFFFull : (1ull << f.elem_bits) - 1;
  for (int lane = 0; lane < 32; ++lane)
    for (int el = 0; el < f.elems(); ++el) {
      const TileCoord at = f.at(lane, el);
      tile[at.row * f.cols + at.col] =
          (regs[lane * f.regs + el / f.per_reg()] >> (el % f.per_reg() * f.elem_bits)) & mask;
    }
  return tile;
}

Bytes bytes_of(const std::vector<std::uint32_t>& v) {
  Bytes b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

}  // namespace

std::vector<sim::SparseVectorCase> sparse_gpu_cases(const SparseMmaInst& inst, int selector, bool ordered, int count,
                                                    std::uint64_t seed) {
  std::vector<sim::SparseVectorCase> cases;
  for (int i = 0; i < count; ++i) {
    const sim::Distribution kind = sim::case_distribution(i, sim::InputSet::all);
    const bool specials = i % 3 == 2;
    const sim::SparseInputs in = sim::random_sparse_inputs(inst, selector, kind, specials, seed, i);
    sim::SparseVectorCase c;
    c.inst = &inst;
    c.ordered = ordered;
    c.id = i;
    c.kind = std::string(sim::distribution_name(kind)) + (specials ? "+pruned" : "");
    c.selector = selector;
    c.e = meta_registers(inst, selector, in.meta);
    c.a = in.a;
    c.b = in.b;
    c.c = in.c;
    cases.push_back(std::move(c));
  }
  return cases;
}

void run_sparse_on_gpu(const Gpu& gpu, const Nvrtc& nvrtc, std::vector<sim::SparseVectorCase>& cases) {
  if (cases.empty()) return;
  const SparseMmaInst& inst = *cases[0].inst;
  const int selector = cases[0].selector;
  const bool ordered = cases[0].ordered;
  if (gpu.info().sm < inst.min_sm)
    throw Error(inst.ptx(ordered) + " needs sm_" + std::to_string(inst.min_sm) + ", the GPU is sm_" +
                std::to_string(gpu.info().sm));
  const Frame &fa = inst.a_frame(), &fb = inst.b_frame(), &fc = inst.c_frame();
  std::vector<std::uint32_t> a, b, c, e;
  for (const sim::SparseVectorCase& k : cases) {
    if (k.inst != &inst || k.selector != selector || k.ordered != ordered)
      throw Error("run_sparse_on_gpu: cases of one instruction and selector only");
    const auto pa = pack(fa, k.a), pb = pack(fb, k.b), pc = pack(fc, k.c);
    a.insert(a.end(), pa.begin(), pa.end());
    b.insert(b.end(), pb.begin(), pb.end());
    c.insert(c.end(), pc.begin(), pc.end());
    e.insert(e.end(), k.e.begin(), k.e.end());
  }
  const std::vector<std::uint32_t> d(cases.size() * 32 * fc.regs, 0);
  const std::string cubin = nvrtc.compile(sparse_kernel_source(inst, selector, ordered), gpu.info().sm, "mma_sp.cu");
  const std::vector<Bytes> out = gpu.run(cubin, kSparseEntry, {static_cast<unsigned>(cases.size()), 32},
                                         {bytes_of(a), bytes_of(b), bytes_of(c), bytes_of(e), bytes_of(d)});
  std::vector<std::uint32_t> got(d.size());
  std::memcpy(got.data(), out[4].data(), got.size() * 4);
  const std::size_t per = 32 * fc.regs;
  for (std::size_t i = 0; i < cases.size(); ++i) cases[i].d = unpack(fc, std::span(got).subspan(i * per, per));
}

SparseDiff diff_sparse(const std::vector<sim::SparseVectorCase>& cases, const sim::ArchParams& arch) {
  SparseDiff diff;
  diff.cases = static_cast<int>(cases.size());
  for (const sim::SparseVectorCase& c : cases)
    for (std::size_t h = 0; h < 3; ++h) {
      const std::vector<std::uint64_t> d = sim::sparse_case_d(c, arch, sim::kAllSparseArith[h]);
      long n = 0;
      for (std::size_t i = 0; i < d.size(); ++i) n += d[i] != c.d[i];
      diff.outputs_differ[h] += n;
      diff.cases_differ[h] += n != 0;
    }
  return diff;
}

}  // namespace mmacheck::cuda
