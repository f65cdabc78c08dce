// mmacheck sparse-gpu [--inst TAG|all] [--selector N|all] [--cases N] [--seed S] [--capture OUT] [--json]
//
// Runs mma.sp on the GPU (cuda/sparse_gpu.h): for every instruction row the
// GPU has and every selector, --cases edge-heavy cases (every third with
// Inf/NaN in B at pruned rows), diffed bit for bit against each arithmetic
// hypothesis of sim/numerics/sparse_model.h.  One line per instruction and
// selector: "TAG f=S: N cases; zeros: C cases (O outputs) differ; kept: ...;
// kept-packed: ...".  --capture writes every case with the GPU's D as a
// sparse vector file (sim/vectors/sparse_vectors.h) that `mmacheck replay`
// replays.  --json prints one object instead of the text
// (docs/report.schema.json): {"file": null, "verdict": "match" | "differ" |
// "no_gpu", "device", "cases", "runs": [{"run": "TAG f=S", "cases",
// "hypotheses": {NAME: {"cases", "outputs"}}}]}, "differ" when the default
// hypothesis misses a case.  Exit 0 when the default hypothesis
// (sim::kDefaultSparseArith) matches every case, 1 when it does not, 3 no GPU.
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "cli/json_shape.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "cuda/gpu_session.h"
#include "cuda/sparse_gpu.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_sparse_gpu(const Args& args) {
  po::options_description options("mmacheck sparse-gpu");
  // clang-format off
  options.add_options()
      ("inst", po::value<std::string>()->default_value("all"), "instruction tag or PTX name (sp.m16n8k16.f16 ...), or all")
      ("selector", po::value<std::string>()->default_value("all"), "sparsity selector, or all the instruction takes")
      ("cases", po::value<int>()->default_value(512), "cases per instruction and selector")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("unordered", po::bool_switch(), "spell the instruction mma.sp (default mma.sp::ordered_metadata)")
      ("capture", po::value<std::string>(), "write every case with the GPU's D to this sparse vector file")
      ("json", po::bool_switch(), "print one JSON object: the device and each run's differing cases per hypothesis");
  // clang-format on
  const po::variables_map vm = parse_options(args, options, {});
  const int cases = vm["cases"].as<int>();
  if (cases < 1 || cases > 1 << 20) throw Error("sparse-gpu: --cases must be 1..1048576");
  std::vector<const SparseMmaInst*> insts;
  const std::string name = vm["inst"].as<std::string>();
  if (name == "all")
    for (const SparseMmaInst& s : sparse_instructions()) insts.push_back(&s);
  else if (const SparseMmaInst* s = find_sparse_inst(name)) insts.push_back(s);
  else throw Error("sparse-gpu: unknown mma.sp instruction '" + printable(name) + "'");
  const std::string sel = vm["selector"].as<std::string>();
  int only_selector = -1;
  if (sel != "all") {
    try {
      only_selector = std::stoi(sel);
    } catch (const std::exception&) {
      throw Error("sparse-gpu: --selector takes a number or all, not '" + printable(sel) + "'");
    }
  }

  const bool json = vm["json"].as<bool>();
  std::ostringstream discard;
  std::ostream& out = json ? discard : std::cout;
  std::string why;
  std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "sparse-gpu: no GPU: " << why << "\n";
    if (json) std::cout << json_line(file_json("", {{"verdict", "no_gpu"}, {"message", why}})) << "\n";
    return kNoGpu;
  }
  const int sm = session->gpu.info().sm;
  const sim::ArchParams& arch = sim::arch_params("sm_" + std::to_string(sm));
  std::vector<sim::SparseVectorCase> captured;
  bool default_failed = false;
  Json run_reports = Json::array();
  std::int64_t all_cases = 0;
  for (const SparseMmaInst* inst : insts) {
    if (inst->min_sm > sm) continue;
    for (int f = 0; f < inst->selectors(); ++f) {
      if (only_selector >= 0 && f != only_selector) continue;
      std::vector<sim::SparseVectorCase> cs =
          cuda::sparse_gpu_cases(*inst, f, !vm["unordered"].as<bool>(), cases, vm["seed"].as<std::uint64_t>());
      cuda::run_sparse_on_gpu(session->gpu, session->nvrtc, cs);
      const cuda::SparseDiff diff = cuda::diff_sparse(cs, arch);
      const std::string run = std::string(inst->tag) + " f=" + std::to_string(f);
      out << run << ": " << diff.cases << " cases";
      Json hypotheses = Json::object();
      for (std::size_t h = 0; h < 3; ++h) {
        const std::string arith(sim::sparse_arith_name(sim::kAllSparseArith[h]));
        out << "; " << arith << ": " << diff.cases_differ[h] << " cases (" << diff.outputs_differ[h]
            << " outputs) differ";
        hypotheses[arith] = {{"cases", diff.cases_differ[h]}, {"outputs", diff.outputs_differ[h]}};
        if (sim::kAllSparseArith[h] == sim::kDefaultSparseArith && diff.cases_differ[h]) default_failed = true;
      }
      out << std::endl;
      run_reports.push_back({{"run", run}, {"cases", diff.cases}, {"hypotheses", std::move(hypotheses)}});
      all_cases += diff.cases;
      captured.insert(captured.end(), cs.begin(), cs.end());
    }
  }
  if (only_selector >= 0 && captured.empty())
    throw Error("sparse-gpu: no instruction takes selector " + std::to_string(only_selector));
  if (vm.count("capture")) {
    const cuda::DeviceInfo& dev = session->gpu.info();
    const std::vector<std::string> comments = {
        "mmacheck mma.sp vectors (sim/vectors/sparse_vectors.h)",
        "recorded on " + dev.name + " (sm_" + std::to_string(dev.sm) + "), driver " +
            (dev.driver_release.empty() ? "unknown" : dev.driver_release) + ", NVRTC " + session->nvrtc.version(),
        "mmacheck sparse-gpu --inst " + name + " --selector " + sel + " --cases " + std::to_string(cases) + " --seed " +
            std::to_string(vm["seed"].as<std::uint64_t>())};
    write_file_atomic(vm["capture"].as<std::string>(), sim::format_sparse_vectors(comments, captured));
    out << captured.size() << " cases written to " << vm["capture"].as<std::string>() << std::endl;
  }
  if (json) {
    const cuda::DeviceInfo& dev = session->gpu.info();
    std::cout << json_line(file_json("", {{"verdict", default_failed ? "differ" : "match"},
                                          {"device", {{"name", dev.name}, {"sm", dev.sm}}},
                                          {"cases", all_cases},
                                          {"runs", std::move(run_reports)}}))
              << "\n";
  }
  return default_failed ? kFails : kHolds;
}

}  // namespace mmacheck::cli
