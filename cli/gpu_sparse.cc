// The device's mma.sp runs: `gpu --inst mma.sp|TAG...` (cli/gpu_runs.h;
// cuda/sparse_gpu.h): for every instruction row the GPU has and every
// selector, --cases edge-heavy cases (every third with Inf/NaN in B at
// pruned rows), diffed bit for bit against each arithmetic hypothesis of
// sim/numerics/sparse_model.h.  One line per instruction and selector: "TAG
// f=S: N cases; zeros: C cases (O outputs) differ; kept: ...; kept-packed:
// ...".  --capture FILE writes every case with the GPU's D as a sparse
// vector file (sim/vectors/sparse_vectors.h) that `mmacheck replay`
// replays.  The report's JSON (docs/report.schema.json): {"file": null,
// "verdict": "match" | "differ" | "no_gpu", "device", "cases", "runs":
// [{"run": "TAG f=S", "cases", "hypotheses": {NAME: {"cases",
// "outputs"}}}]}, "differ" when the default hypothesis
// (sim::kDefaultSparseArith) misses a case.
#include <iostream>
#include <sstream>

#include "cli/command.h"
#include "cli/gpu_runs.h"
#include "cli/family_checks.h"
#include "cli/json_shape.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/gemm/sparse_metadata.h"
#include "core/sparse/sparse_reader.h"
#include "cuda/gpu_session.h"
#include "cuda/sparse_gpu.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/sparse_model.h"
#include "sim/sparse/sparse_file_sim.h"

namespace mmacheck::cli {

FileOutcome gpu_sparse_instructions(const std::vector<std::string>& names, const InstRunOptions& options,
                                    std::ostream& out) {
  const int cases = options.cases;
  if (cases < 1 || cases > 1 << 20) throw Error("gpu: --cases must be 1..1048576 for mma.sp");
  std::vector<const SparseMmaInst*> insts;
  for (const std::string& name : names) {
    if (name == "mma.sp") {
      for (const SparseMmaInst& s : sparse_instructions()) insts.push_back(&s);
    } else if (const SparseMmaInst* s = find_sparse_inst(name)) {
      insts.push_back(s);
    } else {
      throw Error("gpu: unknown mma.sp instruction '" + printable(name) + "'");
    }
  }
  const std::string& sel = options.selector;
  int only_selector = -1;
  if (sel != "all") {
    if (sel.empty() || sel.size() > 2 || sel.find_first_not_of("0123456789") != std::string::npos)
      throw Error("gpu: --selector takes a number or all, not '" + printable(sel) + "'");
    only_selector = std::stoi(sel);
  }

  std::string why;
  std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "gpu: no GPU: " << why << "\n";
    return {kNoGpu, "no GPU", {{"verdict", "no_gpu"}, {"message", why}}};
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
      std::vector<sim::SparseVectorCase> cs = cuda::sparse_gpu_cases(*inst, f, !options.unordered, cases, options.seed);
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
    throw Error("gpu: no instruction takes selector " + std::to_string(only_selector));
  const cuda::DeviceInfo& dev = session->gpu.info();
  if (!options.capture.empty()) {
    std::string made_by = "mmacheck gpu";
    for (const std::string& name : names) made_by += " --inst " + name;
    const std::vector<std::string> comments = {
        "mmacheck mma.sp vectors (sim/vectors/sparse_vectors.h)",
        "recorded on " + dev.name + " (sm_" + std::to_string(dev.sm) + "), driver " +
            (dev.driver_release.empty() ? "unknown" : dev.driver_release) + ", NVRTC " + session->nvrtc.version(),
        made_by + " --selector " + sel + " --cases " + std::to_string(cases) + " --seed " +
            std::to_string(options.seed)};
    write_file_atomic(options.capture, sim::format_sparse_vectors(comments, captured));
    out << captured.size() << " cases written to " << options.capture << std::endl;
  }
  const std::string verdict = default_failed ? "differ" : "match";
  return {default_failed ? kFails : kHolds, verdict,
          Json{{"verdict", verdict},
               {"device", {{"name", dev.name}, {"sm", dev.sm}}},
               {"cases", all_cases},
               {"runs", std::move(run_reports)}}};
}

FileOutcome gpu_sparse_file(const std::string& path, const std::string& text, const KindOptions& options,
                            std::ostream& out) {
  const SparseCase file = read_sparse_file(text, input_name(path));
  const SparseMmaInst& inst = *file.inst;
  if (options.cases < 1 || options.cases > 1 << 20) throw Error("gpu: --cases must be 1..1048576 for mma.sp");
  // The cases as the ISA places their metadata, then as the kernel writes it.
  std::vector<sim::SparseVectorCase> cases =
      cuda::sparse_gpu_cases(inst, file.selector, file.ordered, options.cases, options.seed);
  std::vector<MetaGrid> meant;
  for (sim::SparseVectorCase& c : cases) {
    meant.push_back(file.pattern ? *file.pattern : meta_grid(inst, file.selector, c.e));
    c.e = sim::kernel_meta_registers(file, meant.back());
    // Undefined behaviour is not run on the device: prove and sim name it.
    const std::string undefined =
        sim::first_undefined_nibble(inst, file.ordered, meta_grid(inst, file.selector, c.e), "the instruction reads");
    if (!undefined.empty())
      throw Error(SourceLoc{input_name(path), 0, 0},
                  undefined + "; 'mmacheck prove " + path + "' refutes the metadata, nothing to run");
  }
  std::string why;
  std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "gpu: no GPU: " << why << "\n";
    return {kNoGpu, "no GPU", {{"verdict", "no_gpu"}, {"message", why}}};
  }
  const cuda::DeviceInfo& dev = session->gpu.info();
  const std::string arch_name = "sm_" + std::to_string(dev.sm);
  const sim::ArchParams& arch = sim::arch_params(arch_name);
  cuda::run_sparse_on_gpu(session->gpu, session->nvrtc, cases);
  // The device against the simulator through the same e (the simulator's
  // fidelity), and against the metadata where the ISA reads it (the kernel's).
  int differ = 0, wrong = 0;
  Json mismatches = Json::array();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const sim::SparseVectorCase& c = cases[i];
    std::vector<std::uint64_t> simulated(c.d.size()), reference(c.d.size());
    sim::sparse_mma_tile(inst, arch, sim::kDefaultSparseArith, c.a, meta_grid(inst, file.selector, c.e), c.b, c.c,
                         simulated);
    sim::sparse_mma_tile(inst, arch, sim::kDefaultSparseArith, c.a, meant[i], c.b, c.c, reference);
    differ += simulated != c.d ? 1 : 0;
    wrong += reference != c.d ? 1 : 0;
    for (std::size_t e = 0; e < c.d.size() && static_cast<int>(mismatches.size()) < options.show; ++e)
      if (simulated[e] != c.d[e]) {
        const std::string expected = sim::element_text(inst.d, simulated[e]), got = sim::element_text(inst.d, c.d[e]);
        const int row = static_cast<int>(e) / inst.n, col = static_cast<int>(e) % inst.n;
        out << "  case " << i << " D[" << row << "][" << col << "]: simulator " << expected << ", GPU " << got << "\n";
        mismatches.push_back(mismatch_json(static_cast<std::int64_t>(i), c.kind, row, col, expected, got));
      }
  }
  out << dev.name << " (" << arch_name << "), NVRTC " << session->nvrtc.version() << "\n"
      << inst.ptx(file.ordered) << " selector " << file.selector << ", the kernel's metadata: " << cases.size()
      << " cases, " << cases.size() - static_cast<std::size_t>(differ) << " match the simulator, " << differ
      << " differ; " << wrong << " differ from the metadata where the ISA reads it"
      << (wrong ? " (the kernel's layout is wrong: 'mmacheck prove' names the lane)" : "") << std::endl;
  const std::string verdict = differ ? "differ" : "match";
  return {
      differ ? kFails : kHolds, verdict,
      Json{{"verdict", verdict},
           {"device", {{"name", dev.name}, {"sm", dev.sm}}},
           {"cases", static_cast<std::int64_t>(cases.size())},
           {"runs", Json::array({{{"run", std::string(inst.tag) + " f=" + std::to_string(file.selector) + " " + path},
                                  {"cases", static_cast<std::int64_t>(cases.size())},
                                  {"differ", differ},
                                  {"program_differs", wrong},
                                  {"mismatches", std::move(mismatches)}}})}}};
}

}  // namespace mmacheck::cli
