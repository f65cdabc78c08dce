#include "cuda/wgmma_gpu.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>

#include "core/base/error.h"
#include "cuda/wgmma_kernel.h"

namespace mmacheck::cuda {

WgmmaCaseInputs draw_wgmma_case(const sim::WgmmaRun& run, const WgmmaDiffOptions& options, int index) {
  const sim::WgmmaInst& inst = run.inst;
  const int k = inst.k();
  WgmmaCaseInputs in;
  in.dist = sim::case_distribution(index, options.inputs);
  const sim::GemmInputs g = sim::random_gemm_inputs({sim::WgmmaInst::kM, k, inst.a, 1}, {k, inst.n, inst.b, 0},
                                                    {sim::WgmmaInst::kM, inst.n, inst.d}, in.dist, options.seed, index);
  in.a = g.a.bits;
  in.b = g.b.bits;
  in.c = g.c.bits;
  in.image.assign(static_cast<std::size_t>((run.image_bytes + 15) / 16 * 16), std::byte{0});
  sim::stage_operand(run, 'A', in.a, in.image);
  sim::stage_operand(run, 'B', in.b, in.image);
  in.c_words = sim::accumulator_words(inst, in.c);
  return in;
}

std::vector<std::string> compile_wgmma_kernels(const Nvrtc& nvrtc, const std::vector<sim::WgmmaRun>& runs,
                                               int threads) {
  std::vector<std::string> cubins(runs.size());
  std::vector<std::string> errors(runs.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < runs.size(); i = next++) {
      try {
        cubins[i] = nvrtc.compile_for(wgmma_kernel(runs[i]).source, "sm_90a", "mmacheck_wgmma.cu");
      } catch (const Error& e) {
        errors[i] = e.what();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::max(threads, 1); ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!errors[i].empty()) throw Error(runs[i].inst.ptx() + ": " + errors[i]);
  return cubins;
}

WgmmaDiffReport wgmma_differential(const GpuSession& session, const sim::WgmmaRun& run, const sim::ArchParams& arith,
                                   const WgmmaDiffOptions& options) {
  return wgmma_differential(session, run, arith, options,
                            session.nvrtc.compile_for(wgmma_kernel(run).source, "sm_90a", "mmacheck_wgmma.cu"));
}

WgmmaDiffReport wgmma_differential(const GpuSession& session, const sim::WgmmaRun& run, const sim::ArchParams& arith,
                                   const WgmmaDiffOptions& options, const std::string& cubin) {
  const WgmmaKernel kernel = wgmma_kernel(run);
  if (session.gpu.info().sm != 90)
    throw Error(run.inst.ptx() + " needs sm_90a; " + session.gpu.info().name + " is sm_" +
                std::to_string(session.gpu.info().sm));
  const std::size_t cases = static_cast<std::size_t>(options.cases);
  const std::size_t words = std::size_t(128) * kernel.regs;
  std::vector<WgmmaCaseInputs> inputs;
  Bytes image(cases * kernel.image_bytes), c(cases * words * 4), d(cases * words * 4);
  for (std::size_t i = 0; i < cases; ++i) {
    inputs.push_back(draw_wgmma_case(run, options, static_cast<int>(i)));
    std::memcpy(image.data() + i * kernel.image_bytes, inputs.back().image.data(), kernel.image_bytes);
    std::memcpy(c.data() + i * words * 4, inputs.back().c_words.data(), words * 4);
  }
  const std::array<std::uint64_t, 2> desc = wgmma_descriptors(run);
  Bytes desc_bytes(sizeof desc);
  std::memcpy(desc_bytes.data(), desc.data(), sizeof desc);
  const std::vector<Bytes> out = session.gpu.run(
      cubin, kernel.entry, {static_cast<unsigned>(cases), static_cast<unsigned>(kernel.threads), kernel.shared_bytes},
      {std::move(image), std::move(desc_bytes), std::move(c), std::move(d)});

  WgmmaDiffReport report;
  report.cases = options.cases;
  for (std::size_t i = 0; i < cases; ++i) {
    const WgmmaCaseInputs& in = inputs[i];
    std::vector<std::uint32_t> got(words);
    std::memcpy(got.data(), out[3].data() + i * words * 4, words * 4);
    const std::vector<std::uint64_t> device = sim::accumulator_tile(run.inst, got);
    const std::vector<std::uint64_t> simulated =
        sim::accumulator_tile(run.inst, sim::run_wgmma(run, arith, in.image, in.c_words));
    int wrong = 0;
    for (std::size_t e = 0; e < device.size(); ++e) {
      ++report.outputs;
      if (device[e] == simulated[e]) continue;
      ++wrong;
      if (static_cast<int>(report.mismatches.size()) < options.show)
        report.mismatches.push_back({static_cast<int>(i), in.dist, static_cast<int>(e / run.inst.n),
                                     static_cast<int>(e % run.inst.n), simulated[e], device[e]});
    }
    report.mismatched_elements += wrong;
    report.failed_cases += wrong ? 1 : 0;
    report.vectors.push_back({.inst = run.inst,
                              .id = static_cast<int>(i),
                              .kind = std::string(sim::distribution_name(in.dist)),
                              .line = 0,
                              .a = in.a,
                              .b = in.b,
                              .c = in.c,
                              .d = device});
  }
  return report;
}

}  // namespace mmacheck::cuda
