// The device's wgmma runs (sm_90a: H100, H200): `gpu FILE` on a wgmma
// operand file, `gpu --inst wgmma...` (cli/gpu_runs.h).  Each run is one
// instruction with one shared-memory layout of A and B, every D element
// diffed bit for bit against the simulator (sim/wgmma/wgmma_machine.h with
// sim/numerics/wgmma_model.h's arithmetic):
//   FILE           the operands of a wgmma operand file that prove, each read
//                  through its own descriptor from its own buffer layout, the
//                  other operand packed densely K-major beside it (A: N = 64;
//                  f32 or s32 D);
//   --inst PTX     that instruction in every layout of wgmma_replay_layouts
//                  (K-major in each swizzle mode; MN-major for f16/bf16);
//   --inst wgmma   every type row (sim/numerics/wgmma_model.h) at N = 8, 16,
//                  24, 64, 128, 256 (s32: 8, 16, 24, 32, 64, 256), or the --n
//                  list (N,N,... or every: each N the row has), the layouts in turn.
// The kernels are compiled first, on every hardware thread at once.  The
// kernel (cuda/wgmma_kernel.h) stages the case's shared-memory image in
// dynamic shared memory (up to the device's 227 KB), fences, issues wgmma
// with the descriptors, commits, waits and stores D.  Prints per run "PTX,
// LAYOUT: C cases match, F differ (E elements)" and the first --show
// mismatches by case and element, then a summary line.  --capture DIR
// writes each run's cases with the device's D as wgmma vectors
// (DIR/wgmma.RUN.mmav; `mmacheck replay` replays them).  The report's JSON
// (docs/report.schema.json): {"file", "verdict": "match" | "differ" |
// "no_gpu", "device", "cases" (all runs'), "runs": [{"run", "cases",
// "differ", "elements", "mismatches": [{"case", "distribution", "row",
// "col", "expected", "got"}]}]}.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/gpu_runs.h"
#include "cli/json_shape.h"
#include "cli/options.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_reader.h"
#include "cuda/gpu_session.h"
#include "cuda/wgmma_gpu.h"
#include "cuda/wgmma_kernel.h"
#include "sim/numerics/element_value.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

struct NamedRun {
  std::string name;  // "PTX, LAYOUT" or "FILE: A (line 3)"
  sim::WgmmaRun run;
};

DType accumulator_for(DType in) {
  if (in == DType::s8 || in == DType::u8) return DType::s32;
  return DType::f32;
}

// The proved operands of a wgmma example file, each with a dense partner.
std::vector<NamedRun> example_runs(const std::string& text, const std::string& path) {
  std::vector<NamedRun> runs;
  for (const WgmmaCase& c : read_wgmma_file(text, path)) {
    if (check_wgmma(c).result != FrameVerdict::proved) continue;
    const std::optional<DType> t = parse_dtype(c.operand.type->name);
    sim::WgmmaInst inst{.n = c.operand.operand == 'B' ? c.operand.rows : 64,
                        .d = accumulator_for(*t),
                        .a = *t,
                        .b = *t,
                        .satfinite = false};
    std::int64_t end = 0;
    for (std::int64_t addr : c.placed) end = std::max(end, addr + c.operand.type->bytes);
    const sim::WgmmaSmemOperand given{c.descriptor, c.operand.major};
    sim::WgmmaRun run = sim::partnered_wgmma_run(inst, c.operand.operand, given, end, SwizzleMode::b128);
    runs.push_back({path + ": " + c.name + ", " + inst.ptx() + ", " + sim::layout_name(run), run});
  }
  return runs;
}

// "8,24" or "every"; empty: the default list of the accumulator type.
std::vector<int> n_list(const std::string& text, DType d) {
  std::vector<int> ns;
  if (text == "every") {  // instruction_runs leaves out those a row lacks (s32: above 32, odd multiples of 8)
    for (int n = 8; n <= 256; n += 8) ns.push_back(n);
    return ns;
  }
  if (text.empty())
    return d == DType::s32 ? std::vector<int>{8, 16, 24, 32, 64, 256} : std::vector<int>{8, 16, 24, 64, 128, 256};
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 3)
      throw Error("gpu: --n takes N,N,... or every, got '" + text + "'");
    ns.push_back(std::stoi(item));
    pos = comma + 1;
  }
  return ns;
}

std::vector<NamedRun> instruction_runs(const std::string& which, const std::string& n_text) {
  std::vector<NamedRun> runs;
  const auto add = [&](const sim::WgmmaInst& inst, const sim::WgmmaLayoutChoice& l) {
    const sim::WgmmaRun run = sim::dense_wgmma_run(inst, l.a_major, l.a_mode, l.b_major, l.b_mode);
    runs.push_back({inst.ptx() + ", " + sim::layout_name(run), run});
  };
  if (which != "wgmma") {
    const std::optional<sim::WgmmaInst> inst = sim::parse_wgmma_inst(which);
    if (!inst) throw Error("gpu: '" + printable(which) + "' is no wgmma instruction mmacheck models");
    for (const sim::WgmmaLayoutChoice& l : sim::wgmma_replay_layouts(*inst)) add(*inst, l);
    return runs;
  }
  int turn = 0;
  for (const sim::WgmmaTypes& t : sim::wgmma_type_rows()) {
    for (int n : n_list(n_text, t.d)) {
      const sim::WgmmaInst inst{.n = n, .d = t.d, .a = t.a, .b = t.b, .satfinite = false};
      if (!inst.problem().empty()) {
        if (n_text == "every") continue;  // s32's N above 32 step 16
        throw Error("gpu: " + inst.ptx() + ": " + inst.problem());
      }
      const std::vector<sim::WgmmaLayoutChoice> layouts = sim::wgmma_replay_layouts(inst);
      add(inst, layouts[static_cast<std::size_t>(turn++) % layouts.size()]);
    }
  }
  return runs;
}

std::string file_tag(const NamedRun& r, std::size_t index) {
  std::string tag = r.run.inst.ptx().substr(std::string("wgmma.mma_async.sync.aligned.").size());
  return "wgmma." + tag + "." + std::to_string(index) + ".mmav";
}

// Runs each on the device against the simulator; the outcome's JSON is the
// report's body (verdict match, differ or no_gpu).
FileOutcome run_on_device(const std::vector<NamedRun>& runs, const cuda::WgmmaDiffOptions& diff,
                          const std::string& capture, std::ostream& out) {
  std::string why;
  const std::optional<cuda::GpuSession> session = cuda::open_gpu_session(why);
  if (!session) {
    std::cerr << "gpu: no GPU: " << why << "\n";
    return {kNoGpu, "no GPU", {{"verdict", "no_gpu"}, {"message", why}}};
  }
  out << session->gpu.info().name << " (sm_" << session->gpu.info().sm << "), driver "
      << session->gpu.driver().cuda_version() << ", NVRTC " << session->nvrtc.version() << "\n";
  if (!capture.empty()) std::filesystem::create_directories(capture);
  const sim::ArchParams& arith = sim::wgmma_arith("sm_90");
  std::vector<sim::WgmmaRun> plain;
  for (const NamedRun& r : runs) plain.push_back(r.run);
  const std::vector<std::string> cubins = cuda::compile_wgmma_kernels(
      session->nvrtc, plain, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  int matched = 0, differ = 0;
  std::int64_t outputs = 0, wrong = 0, all_cases = 0;
  Json run_reports = Json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const NamedRun& r = runs[i];
    const cuda::WgmmaDiffReport rep = cuda::wgmma_differential(*session, r.run, arith, diff, cubins[i]);
    out << r.name << ": " << rep.cases - rep.failed_cases << " cases match, " << rep.failed_cases << " differ ("
        << rep.mismatched_elements << " elements)\n";
    Json mismatches = Json::array();
    for (const cuda::WgmmaDiffMismatch& m : rep.mismatches) {
      const std::string expected = sim::element_text(r.run.inst.d, m.expected);
      const std::string got = sim::element_text(r.run.inst.d, m.got);
      out << "  case " << m.case_index << " (" << sim::distribution_name(m.dist) << ") D[" << m.row << "][" << m.col
          << "]: simulator " << expected << ", GPU " << got << "\n";
      mismatches.push_back(mismatch_json(m.case_index, sim::distribution_name(m.dist), m.row, m.col, expected, got));
    }
    run_reports.push_back({{"run", r.name},
                           {"cases", rep.cases},
                           {"differ", rep.failed_cases},
                           {"elements", rep.mismatched_elements},
                           {"mismatches", std::move(mismatches)}});
    all_cases += rep.cases;
    (rep.failed_cases ? differ : matched) += 1;
    outputs += rep.outputs;
    wrong += rep.mismatched_elements;
    if (!capture.empty())
      write_file_atomic(
          (std::filesystem::path(capture) / file_tag(r, i)).string(),
          sim::wgmma_vectors_text(rep.vectors, {"mmacheck wgmma vectors, D captured on " + session->gpu.info().name +
                                                    " (NVRTC " + session->nvrtc.version() + ")",
                                                r.name, "made by: mmacheck gpu --inst wgmma... --capture"}));
  }
  out << runs.size() << " runs: " << matched << " match, " << differ << " differ; " << outputs << " outputs compared, "
      << wrong << " differ\n";
  const std::string verdict = differ ? "differ" : "match";
  return {differ ? kFails : kHolds, verdict,
          Json{{"verdict", verdict},
               {"device",
                {{"name", session->gpu.info().name},
                 {"sm", session->gpu.info().sm},
                 {"driver", session->gpu.driver().cuda_version()},
                 {"nvrtc", session->nvrtc.version()}}},
               {"cases", all_cases},
               {"runs", std::move(run_reports)}}};
}

std::vector<NamedRun> named_runs(const std::vector<std::pair<std::string, std::string>>& files,
                                 const std::vector<std::string>& names, const std::string& n) {
  std::vector<NamedRun> runs;
  for (const auto& [path, text] : files) {
    std::vector<NamedRun> more = example_runs(text, path);
    runs.insert(runs.end(), more.begin(), more.end());
  }
  for (const std::string& name : names) {
    std::vector<NamedRun> more = instruction_runs(name, n);
    runs.insert(runs.end(), more.begin(), more.end());
  }
  return runs;
}

}  // namespace

std::string wgmma_kernel_source(const std::vector<std::pair<std::string, std::string>>& wgmma_files,
                                const std::vector<std::string>& names, const std::string& n) {
  const std::vector<NamedRun> runs = named_runs(wgmma_files, names, n);
  if (runs.empty())
    throw Error("gpu --print-kernel: no wgmma run (give a wgmma file with a proved operand, or --inst wgmma...)");
  return cuda::wgmma_kernel(runs.front().run).source;
}

FileOutcome gpu_wgmma_instructions(const std::vector<std::string>& names, const InstRunOptions& options,
                                   std::ostream& out) {
  const std::vector<NamedRun> runs = named_runs({}, names, options.n);
  // Everything that needs no GPU first: bad input exits 2 anywhere.
  for (const NamedRun& r : runs) (void)cuda::wgmma_kernel(r.run);
  const cuda::WgmmaDiffOptions diff{
      .cases = options.cases, .seed = options.seed, .inputs = sim::input_set(options.inputs), .show = options.show};
  return run_on_device(runs, diff, options.capture, out);
}

FileOutcome gpu_wgmma_file(const std::string& path, const std::string& text, const KindOptions& options,
                           std::ostream& out) {
  const std::vector<NamedRun> runs = example_runs(text, path);
  if (runs.empty()) throw Error(SourceLoc{input_name(path), 0, 0}, "no operand of the file proves: nothing to run");
  for (const NamedRun& r : runs) (void)cuda::wgmma_kernel(r.run);  // bad input first, on any machine
  const cuda::WgmmaDiffOptions diff{
      .cases = options.cases, .seed = options.seed, .inputs = sim::input_set(options.inputs), .show = options.show};
  return run_on_device(runs, diff, "", out);
}

}  // namespace mmacheck::cli
