// mmacheck capture --instr PTX... [--cases N] [--seed S] [--inputs standard|edge|all] -o OUT.mmav
//
// Runs single mma.sync instructions on the GPU (one per warp, operands on
// their PTX frames) on random inputs drawn as the shared vectors were, and
// writes the inputs and result bits as test vectors (format mmav-1), with the
// GPU, driver, CUDA and NVRTC versions in the header comments.  --instr
// takes a full PTX name ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"),
// a table tag ("m16n8k16.f16"), or `all` (every instruction the device has);
// it may be repeated.  The output is written atomically.
//
// Exit status: 0 written; 2 bad input; 3 no GPU (no driver, no device, no
// NVRTC).  Check the new vectors with `mmacheck mma --vectors OUT.mmav`.
#include <iostream>

#include "cli/json_shape.h"
#include "cli/command.h"
#include "cli/progress.h"
#include "core/base/json.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "cuda/gpu_session.h"
#include "cuda/capture.h"
#include "cuda/driver.h"
#include "cuda/mmav_writer.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

const MmaInst& find_instruction(const std::string& name) {
  if (const MmaInst* inst = find_mma_inst(name)) {
    // The capture kernel is a one-product frame nest (core/gemm/staging.h).
    if (inst->products > 1)
      throw Error("capture: " + inst->ptx() +
                  " computes four quad-pair products per warp; the capture kernel takes one (docs/numerics.md)");
    return *inst;
  }
  for (const MmaInst& inst : mma_instructions())
    if (inst.tag == name) return inst;
  throw Error("capture: unknown instruction '" + name + "' (a full PTX name, a tag such as m16n8k16.f16, or all)");
}

}  // namespace

int run_capture(const Args& args) {
  po::options_description options("mmacheck capture");
  // clang-format off
  options.add_options()
      ("instr", po::value<std::vector<std::string>>(), "instruction (PTX name, tag or all); repeatable")
      ("cases", po::value<int>()->default_value(384), "cases per instruction")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("inputs", po::value<std::string>()->default_value("standard"),
       "random input kinds: standard (the shared vectors' eight), edge (threshold, zeroterm, underflow, ties, "
       "overflow, lowbits) or all")
      ("output,o", po::value<std::string>(), "vector file to write")
      ("json", po::bool_switch(), "print one JSON object: cases per instruction, the file written");
  // clang-format on
  const po::variables_map vm = parse_options(args, options, {});
  if (!vm.count("instr")) throw Error("capture: no instruction (use --instr PTX, a tag, or all)");
  if (!vm.count("output")) throw Error("capture: no output file (use -o OUT.mmav)");
  const int cases = vm["cases"].as<int>();
  if (cases < 1) throw Error("capture: --cases must be >= 1");
  const sim::InputSet input_set = sim::input_set(vm["inputs"].as<std::string>());
  bool all = false;
  std::vector<const MmaInst*> wanted;
  for (const std::string& name : vm["instr"].as<std::vector<std::string>>()) {
    if (name == "all") all = true;
    else wanted.push_back(&find_instruction(name));
  }

  std::string why;
  std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "capture: no GPU: " << why << "\n";
    if (vm["json"].as<bool>()) std::cout << json_line(file_json("", {{"verdict", "no_gpu"}, {"message", why}})) << "\n";
    return kNoGpu;
  }
  cuda::Gpu& gpu = session->gpu;
  cuda::Nvrtc& nvrtc = session->nvrtc;
  if (all)
    for (const MmaInst& inst : mma_instructions())
      if (inst.min_sm <= gpu.info().sm) wanted.push_back(&inst);

  const bool as_json = vm["json"].as<bool>();
  std::vector<std::string> comments;
  std::vector<sim::VectorCase> vectors;
  Json captured = Json::array();
  Progress progress(static_cast<std::int64_t>(wanted.size()), "instructions");
  for (const MmaInst* inst : wanted) {
    cuda::Capture cap = cuda::capture_vectors(
        gpu, nvrtc, *inst, {.cases = cases, .seed = vm["seed"].as<std::uint64_t>(), .inputs = input_set});
    if (comments.empty()) comments.assign(cap.comments.begin(), cap.comments.end() - 1);
    comments.push_back(cap.comments.back());
    vectors.insert(vectors.end(), cap.cases.begin(), cap.cases.end());
    captured.push_back({{"instruction", inst->ptx()}, {"cases", cases}});
    if (!as_json) std::cout << inst->ptx() << ": " << cases << " cases\n";
    progress.update(static_cast<std::int64_t>(captured.size()));
  }
  write_file_atomic(vm["output"].as<std::string>(), cuda::format_mmav(comments, vectors));
  if (as_json)
    std::cout << json_line(file_json("", {{"verdict", "captured"},
                                          {"output", vm["output"].as<std::string>()},
                                          {"cases", vectors.size()},
                                          {"device", gpu.info().name},
                                          {"sm", gpu.info().sm},
                                          {"instructions", std::move(captured)}}))
              << std::endl;
  else std::cout << vectors.size() << " cases written to " << vm["output"].as<std::string>() << std::endl;
  return kHolds;
}

}  // namespace mmacheck::cli
