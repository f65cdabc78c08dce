#include "cuda/capture.h"

#include "core/gemm/staging.h"
#include "cuda/gemm_runner.h"
#include "sim/numerics/random_inputs.h"

namespace mmacheck::cuda {

Capture capture_vectors(const Gpu& gpu, const Nvrtc& nvrtc, const MmaInst& inst, const CaptureOptions& options) {
  const GemmRunner runner(gpu, nvrtc, frame_nest(inst), frame_staging(inst));
  const sim::MatrixSpec a{inst.m, inst.k, inst.a, 1}, b{inst.k, inst.n, inst.b, 0}, c{inst.m, inst.n, inst.c, -1};
  std::vector<sim::GemmInputs> inputs;
  for (int i = 0; i < options.cases; ++i)
    inputs.push_back(sim::random_gemm_inputs(a, b, c, sim::case_distribution(i, options.inputs), options.seed, i));
  const std::vector<std::vector<std::uint64_t>> d = runner.run(inputs);

  const DeviceInfo& dev = gpu.info();
  Capture cap;
  cap.comments = {
      "mmacheck test vectors, format mmav-1 (see mmacheck's sim/vectors/vector_file.h)",
      "recorded on " + dev.name + " (sm_" + std::to_string(dev.sm) + "), driver " +
          (dev.driver_release.empty() ? "unknown" : dev.driver_release) + ", CUDA " + gpu.driver().cuda_version() +
          " (driver API), NVRTC " + nvrtc.version(),
      "mmacheck capture --instr " + inst.ptx() + " --cases " + std::to_string(options.cases) + " --seed " +
          std::to_string(options.seed) + " --inputs " + std::string(sim::input_set_name(options.inputs)),
  };
  for (int i = 0; i < options.cases; ++i) {
    const sim::Distribution kind = sim::case_distribution(i, options.inputs);
    cap.cases.push_back(sim::VectorCase{&inst, i, std::string(sim::distribution_name(kind)), 0, inputs[i].a.bits,
                                        inputs[i].b.bits, inputs[i].c.bits, d[i]});
  }
  return cap;
}

}  // namespace mmacheck::cuda
