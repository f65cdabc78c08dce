// mmacheck gpu FILE [--cases N] [--seed S] [--inputs standard|edge|all] [--inst-set tvm|extended] [--show N]
//
// Dispatches the file's gemm, generates a CUDA kernel from its nest (staging
// from the file's stage/store statements or the buffers' layouts), compiles
// it with NVRTC for the device, runs N random cases (one CTA each) and
// compares D bit for bit with the lane-accurate simulator: the warp machine
// (sim/machine/warp_machine.h) staged through the same tables, with the arithmetic
// of the device's architecture.
//
// Exit status: 0 every case matches; 1 a mismatch or a dispatch failure;
// 2 bad input (also: no arithmetic model for the device's architecture);
// 3 no GPU (no driver, no device, no NVRTC).  Everything that needs no GPU
// (parse, dispatch, staging, kernel generation) is checked first, so bad
// input exits 2 on any machine.
#include <cstdio>
#include <iostream>
#include <optional>

#include "cli/command.h"
#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "cuda/differential.h"
#include "cuda/driver.h"
#include "cuda/gemm_runner.h"
#include "cuda/gpu_session.h"
#include "cuda/nvrtc.h"
#include "sim/numerics/element_value.h"
#include "sim/machine/warp_machine.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_gpu(const Args& args) {
  po::options_description options("mmacheck gpu");
  options.add_options()
      ("file", po::value<std::string>(), "layout file")
      ("cases", po::value<int>()->default_value(64), "random cases (one CTA each)")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("inputs", po::value<std::string>()->default_value("standard"),
       "random input kinds: standard (the shared vectors' eight), edge (threshold, zeroterm, underflow, ties, "
       "overflow, lowbits) or all")
      ("inst-set", po::value<std::string>()->default_value("tvm"), "instruction set: tvm or extended")
      ("show", po::value<int>()->default_value(10), "mismatching elements to print");
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("gpu: no layout file");
  const int cases = vm["cases"].as<int>();
  const int show = vm["show"].as<int>();
  if (cases < 1) throw Error("gpu: --cases must be >= 1");
  if (show < 0) throw Error("gpu: --show must be >= 0");
  const sim::InputSet inputs = sim::input_set(vm["inputs"].as<std::string>());

  const Program program = load_program(vm["file"].as<std::string>());
  const Plan plan = dispatch(program, parse_inst_set(vm["inst-set"].as<std::string>()));
  if (!plan.ok) {
    std::cout << "dispatch_failed\n";
    for (const std::string& r : plan.reasons) std::cout << "  " << r << "\n";
    return kFails;
  }
  const Staging staging = build_staging(program, plan.nest);
  const cuda::GemmKernel kernel = cuda::gemm_kernel(plan.nest, staging);  // bad input surfaces here

  std::string why;
  std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "gpu: no GPU: " << why << "\n";
    return kNoGpu;
  }
  cuda::Gpu& gpu = session->gpu;
  cuda::Nvrtc& nvrtc = session->nvrtc;
  const cuda::DeviceInfo& dev = gpu.info();
  std::cout << dev.name << " (sm_" << dev.sm << "), driver "
            << (dev.driver_release.empty() ? "unknown" : dev.driver_release) << ", NVRTC " << nvrtc.version()
            << "\n"
            << plan.nest.inst->ptx() << ": " << plan.nest.tiles_m << " x " << plan.nest.tiles_n << " x "
            << plan.nest.tiles_k << " tiles per warp, " << plan.nest.mma_count() << " mma, "
            << staging.threads << " threads\n";
  const cuda::GemmRunner runner(gpu, nvrtc, plan.nest, staging);

  sim::WarpMachine machine(plan.nest, staging, sim::arch_params("sm_" + std::to_string(dev.sm)));
  const cuda::Simulator simulate = [&machine](const Program&, const Nest&, const sim::GemmInputs& in) {
    return machine.run(in);
  };
  const cuda::DiffReport report = cuda::run_differential(
      runner, program, plan.nest, simulate,
      {.cases = cases, .seed = vm["seed"].as<std::uint64_t>(), .max_mismatches = static_cast<std::size_t>(show), .inputs = inputs});
  const DType d_type = staging.d.dtype;
  for (const cuda::DiffMismatch& m : report.mismatches)
    std::cout << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") " << staging.d.buffer
              << "[" << m.row << "][" << m.col << "]: expected " << sim::element_text(d_type, m.expected) << ", got "
              << sim::element_text(d_type, m.got) << "\n";
  std::cout << report.cases - report.failed_cases << " cases match, " << report.failed_cases << " differ ("
            << report.mismatched_elements << " elements)" << std::endl;
  return report.failed_cases ? kFails : kHolds;
}

}  // namespace mmacheck::cli
