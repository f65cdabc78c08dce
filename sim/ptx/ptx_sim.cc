#include "sim/ptx/ptx_sim.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/base/worker_pool.h"
#include "core/ptx/ptx_check.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/wgmma_model.h"
#include "sim/tcgen05/tcgen05_arith.h"

namespace mmacheck::sim {

namespace {

// Writes logical matrix `m` (rows x cols, one element per word) into a
// tensor's storage through its strides.
void store_matrix(const ptx::TensorArg& t, const Matrix& m, std::span<std::uint8_t> bytes) {
  const int eb = t.element_bytes();
  for (std::int64_t r = 0; r < m.rows; ++r)
    for (std::int64_t c = 0; c < m.cols; ++c) {
      const std::int64_t off = (r * t.strides[0] + c * t.strides[1]) * eb;
      const std::uint64_t w = m.at(r, c);
      for (int b = 0; b < eb; ++b) bytes[static_cast<std::size_t>(off + b)] = static_cast<std::uint8_t>(w >> (8 * b));
    }
}

std::uint64_t load_element(const ptx::TensorArg& t, std::span<const std::uint8_t> bytes, std::int64_t r,
                           std::int64_t c) {
  const int eb = t.element_bytes();
  const std::int64_t off = (r * t.strides[0] + c * t.strides[1]) * eb;
  std::uint64_t w = 0;
  for (int b = 0; b < eb; ++b) w |= std::uint64_t{bytes[static_cast<std::size_t>(off + b)]} << (8 * b);
  return w;
}

// The largest finite value of D's type: beyond it (less half an ulp) a
// correct kernel's conversion overflows to infinity.
double max_finite(DType t) {
  switch (t) {
    case DType::f16: return 65504.0;
    case DType::bf16: return 3.3895313892515355e38;
    case DType::f64: return 1.7976931348623157e308;
    default: return 3.4028234663852886e38;
  }
}

double unit_roundoff(DType t) {
  switch (t) {
    case DType::f64: return std::ldexp(1.0, -53);
    case DType::f16: return std::ldexp(1.0, -11);
    case DType::bf16: return std::ldexp(1.0, -8);
    default: return std::ldexp(1.0, -24);
  }
}

}  // namespace

PtxCase simulate_ptx_case(const ptx::PtxKernel& kernel, const ptx::PtxLaunch& launch, const ArchParams& arch,
                          std::uint64_t seed, int index, InputSet inputs, ptx::RunOptions base) {
  const auto& A = launch.tensors[static_cast<std::size_t>(launch.a)];
  const auto& B = launch.tensors[static_cast<std::size_t>(launch.b)];
  const auto& D = launch.tensors[static_cast<std::size_t>(launch.d)];
  const std::int64_t M = D.shape[0], N = D.shape[1], K = A.shape[1];
  PtxCase out;
  out.dist = case_distribution(index, inputs);
  const MatrixSpec c_spec = launch.c >= 0
                                ? MatrixSpec{M, N, launch.tensors[static_cast<std::size_t>(launch.c)].dtype, -1}
                                : MatrixSpec{M, N, D.dtype, -1};
  const GemmInputs drawn = random_gemm_inputs({M, K, A.dtype, 1}, {K, N, B.dtype, 0}, c_spec, out.dist, seed, index);
  ptx::GlobalMemory memory;
  ptx::Provenance provenance(kernel.code.size());
  const ptx::TensorFill fill = [&](int t, const ptx::TensorArg& arg, std::span<std::uint8_t> bytes) {
    if (t == launch.a) store_matrix(arg, drawn.a, bytes);
    else if (t == launch.b) store_matrix(arg, drawn.b, bytes);
    else if (t == launch.c) store_matrix(arg, drawn.c, bytes);
  };
  const ptx::PlacedLaunch placed = ptx::place_launch(launch, memory, provenance, fill);
  for (const auto& r : memory.regions()) out.tensors.push_back(r.bytes);
  const int threads = base.threads;
  ptx::RunOptions options = std::move(base);
  options.tensor_maps = placed.tensor_maps;
  options.sums = false;  // the numbers alone: the machine's own refutations stand, the proof is prove's
  options.arithmetic = [&arch](const MmaInst& inst, std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                               std::span<const std::uint64_t> c,
                               std::span<std::uint64_t> d) { mma_tile(inst, arch, a, b, c, d); };
  // wgmma.mma_async: the architecture's wgmma row (an Error for one without wgmma).
  if (std::any_of(kernel.code.begin(), kernel.code.end(),
                  [](const ptx::Instruction& i) { return i.collective == ptx::Collective::warpgroup; })) {
    const ArchParams* row = nullptr;
    for (const ArchParams& p : all_wgmma_arith())
      if (p.name == arch.name) row = &p;
    if (row == nullptr)
      throw Error(kernel.loc, "kernel " + kernel.name + " executes wgmma.mma_async, which " + std::string(arch.name) +
                                  " does not have (--arch sm_90)");
    const ArchParams& wgmma = *row;
    options.wgmma_arithmetic = [&wgmma](const ptx::WgmmaForm& f, std::span<const std::uint64_t> a,
                                        std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                                        std::span<std::uint64_t> d) {
      wgmma_tile(WgmmaInst{f.n, f.d, f.a, f.b, false}, wgmma, a, b, c, d);
    };
  }
  // tcgen05.mma: sim/tcgen05's arithmetic (MMA-Sim's Blackwell model; no
  // Blackwell GPU checked it here), sm_100's whatever --arch is.
  if (std::any_of(kernel.code.begin(), kernel.code.end(),
                  [](const ptx::Instruction& i) { return i.opcode.starts_with("tcgen05.mma"); })) {
    const ArchParams& tc = tcgen05_arith("sm_100");
    options.tcgen05_arithmetic = [&tc](const Tcgen05Instr& instr, std::span<const std::uint64_t> a,
                                       std::span<const std::uint64_t> b, std::span<const std::uint64_t> c,
                                       std::span<std::uint64_t> d) {
      if (const std::string p = tcgen05_sim_problem(instr); !p.empty())
        throw Error("tcgen05.mma " + instr.str() + " is not simulated: " + p);
      tcgen05_tile(instr, tc, a, b, c, d);
    };
  }
  const ptx::RunResult run = ptx::run_grid(kernel, launch.shape, placed.params, memory, provenance, options);
  out.refutation = run.refutation;
  out.unfollowed = run.unfollowed;
  out.steps = run.steps;
  out.d = memory.regions()[static_cast<std::size_t>(launch.d)].bytes;
  if (run.refutation || run.unfollowed) return out;
  const double u = std::max(unit_roundoff(D.dtype), std::ldexp(1.0, -24));
  // The inputs' values once (decoding each M·N·K times would cost more than the run).
  std::vector<long double> av(static_cast<std::size_t>(M * K)), bv(static_cast<std::size_t>(K * N));
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t k = 0; k < K; ++k)
      av[static_cast<std::size_t>(i * K + k)] = element_value(A.dtype, drawn.a.at(i, k));
  for (std::int64_t k = 0; k < K; ++k)
    for (std::int64_t j = 0; j < N; ++j)
      bv[static_cast<std::size_t>(j * K + k)] = element_value(B.dtype, drawn.b.at(k, j));
  // Rows of D at once, each row's counts its own, added in row order.
  std::vector<std::int64_t> outside(static_cast<std::size_t>(M), 0);
  std::vector<double> worst(static_cast<std::size_t>(M), 0);
  const auto check_row = [&](std::int64_t i) {
    for (std::int64_t j = 0; j < N; ++j) {
      long double ref = 0, mag = 0;
      for (std::int64_t k = 0; k < K; ++k) {
        const long double p = av[static_cast<std::size_t>(i * K + k)] * bv[static_cast<std::size_t>(j * K + k)];
        ref += p;
        mag += std::fabs(p);
      }
      if (launch.c >= 0) {
        const long double c = element_value(c_spec.dtype, drawn.c.at(i, j));
        ref += c;
        mag += std::fabs(c);
      }
      const long double got = element_value(D.dtype, load_element(D, out.d, i, j));
      const long double bound = static_cast<long double>((static_cast<double>(K) + 2) * u) * mag + 1e-300L;
      const long double err = std::fabs(got - ref);
      if (mag >= static_cast<long double>(max_finite(DType::f32)))
        continue;  // the f32 accumulator itself may overflow: no bound to hold
      if (std::isinf(static_cast<double>(got)) &&
          std::signbit(static_cast<double>(got)) == std::signbit(static_cast<double>(ref)) &&
          std::fabs(ref) + bound >= static_cast<long double>(max_finite(D.dtype)))
        continue;  // overflow of D's type, as the hardware's conversion does
      if (!std::isfinite(static_cast<double>(ref)) || !std::isfinite(static_cast<double>(mag)))
        continue;  // NaN, Inf: no bound
      if (!(err <= bound)) ++outside[static_cast<std::size_t>(i)];
      else
        worst[static_cast<std::size_t>(i)] =
            std::max(worst[static_cast<std::size_t>(i)], static_cast<double>(err / bound));
    }
  };
  if (threads > 1 && M > 1) {
    WorkerPool pool(static_cast<int>(std::min<std::int64_t>(threads, M)));
    pool.for_each(M, [&](int, std::int64_t i) { check_row(i); });
  } else {
    for (std::int64_t i = 0; i < M; ++i) check_row(i);
  }
  for (std::int64_t i = 0; i < M; ++i) {
    out.outside_bound += outside[static_cast<std::size_t>(i)];
    out.max_error = std::max(out.max_error, worst[static_cast<std::size_t>(i)]);
  }
  return out;
}

}  // namespace mmacheck::sim
