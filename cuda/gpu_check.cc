#include "cuda/gpu_check.h"

#include <chrono>
#include <memory>

#include "core/base/error.h"
#include "core/base/worker_pool.h"
#include "cuda/case_batches.h"
#include "cuda/case_words.h"
#include "cuda/gemm_kernel.h"
#include "cuda/gemm_runner.h"
#include "cuda/gemm_stream.h"
#include "sim/check/input_specs.h"
#include "sim/machine/warp_machine.h"

namespace mmacheck::cuda {

namespace {

// The chosen devices, all of the first one's architecture.
std::vector<Gpu> open_devices(const GpuSession& session, const DeviceSelection& selection) {
  const Gpu& first = session.gpu;
  std::vector<Gpu> gpus;
  for (int ordinal : resolve_devices(selection, first.driver().device_count())) {
    gpus.push_back(ordinal == first.ordinal() ? first : Gpu(first.driver(), ordinal));
    if (gpus.back().info().sm != gpus.front().info().sm)
      throw Error("gpu: --devices mixes sm_" + std::to_string(gpus.front().info().sm) + " and sm_" +
                  std::to_string(gpus.back().info().sm) +
                  " (one arithmetic model per run): choose devices of one "
                  "architecture");
  }
  return gpus;
}

}  // namespace

GpuCheckReport run_gpu_check(const Program& program, LazyGpuSession& lazy, const GpuCheckOptions& o) {
  GpuCheckReport report;
  Plan plan = dispatch(program, o.inst_set, o.limits);
  if (!plan.ok) {
    report.result = GpuCheckResult::dispatch_failed;
    report.dispatch_reasons = plan.reasons;
    return report;
  }
  const Staging staging = build_staging(program, plan.nest);
  // The device and the warp machine each load an operand from its own matrix:
  // a statement that stages it from another tensor is not what they would run.
  for (const LoadSource from : {staging.a_from, staging.b_from, staging.c_from})
    if (from != LoadSource::own)
      throw Error(program.gemm->loc,
                  "an operand is staged from another operand's tensor or the output: gpu loads each from its own "
                  "matrix, so it would not run this program as written; `mmacheck prove` and `mmacheck sim` do");
  (void)gemm_kernel(plan.nest, staging);  // bad input surfaces here, before any GPU is asked for

  GpuSession* session = lazy.get();
  if (!session) {
    report.result = GpuCheckResult::no_gpu;
    report.no_gpu_reason = lazy.why();
    return report;
  }
  const auto setup_start = std::chrono::steady_clock::now();
  const std::vector<Gpu> gpus = open_devices(*session, o.devices);
  const DeviceInfo& dev = gpus.front().info();
  for (const Gpu& g : gpus) report.devices.push_back({g.info().name, g.info().sm, g.ordinal()});
  report.driver = dev.driver_release.empty() ? "unknown" : dev.driver_release;
  report.nvrtc = session->nvrtc.version();
  report.d_buffer = staging.d.buffer;
  report.d_type = staging.d.dtype;
  report.cta_threads = staging.threads;
  const GemmRunner compiled(gpus.front(), session->nvrtc, plan.nest, staging);

  WorkerPool pool(sim::case_threads(o.cases));
  report.sim_threads = pool.size();
  const CaseWords words = case_words(staging);
  const std::int64_t batch =
      o.batch > 0
          ? std::min<std::int64_t>(o.batch, o.cases.cases)
          : default_batch_cases(o.cases.cases, static_cast<std::int64_t>(words.case_bytes() + words.d.case_bytes()),
                                static_cast<int>(gpus.size()), kSlotsPerDevice, kBatchBytes);
  std::vector<std::unique_ptr<GemmStream>> streams;
  std::vector<BatchDevice*> devices;
  for (const Gpu& g : gpus) {
    streams.push_back(std::make_unique<GemmStream>(g, compiled, batch, kSlotsPerDevice));
    devices.push_back(streams.back().get());
  }
  // One warp machine per worker, copies of one (they keep scratch registers).
  const sim::WarpMachine machine(plan.nest, staging, sim::arch_params("sm_" + std::to_string(dev.sm)));
  std::vector<sim::WarpMachine> machines(static_cast<std::size_t>(pool.size()), machine);
  std::vector<CaseSimulator> simulators;
  for (sim::WarpMachine& m : machines) simulators.emplace_back([&m](const sim::GemmInputs& in) { return m.run(in); });
  report.setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();

  report.diff = run_differential(devices, staging, sim::input_specs(program), pool, simulators,
                                 {.cases = o.cases.cases,
                                  .seed = o.cases.seed,
                                  .max_mismatches = static_cast<std::size_t>(o.cases.show),
                                  .inputs = o.cases.inputs,
                                  .progress = o.cases.progress});
  report.result = report.diff.failed_cases == 0 ? GpuCheckResult::match : GpuCheckResult::differ;
  report.plan = std::move(plan);
  return report;
}

}  // namespace mmacheck::cuda
