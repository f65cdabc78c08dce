#include "cli/input_kinds.h"

#include <array>
#include <filesystem>
#include <sstream>
#include <vector>

#include "cli/command.h"
#include "cli/family_checks.h"
#include "cli/vector_replay.h"
#include "core/base/file_io.h"
#include "core/base/worker_pool.h"
#include "core/cute/cute_dsl_print.h"
#include "cli/kernel_source.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "core/tcgen05/tcgen05_tirx.h"

namespace mmacheck::cli {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The first two words of each line that is not blank or a # comment: the
// line-oriented family files (wgmma, tma, tcgen05, mma.sp, block scales)
// say what they are by their statements' keywords.
std::vector<std::pair<std::string_view, std::string_view>> statements(std::string_view text) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  const auto word = [](std::string_view& rest) {
    const std::size_t b = rest.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return std::string_view{};
    rest.remove_prefix(b);
    const std::size_t e = std::min(rest.find_first_of(" \t\r"), rest.size());
    const std::string_view w = rest.substr(0, e);
    rest.remove_prefix(e);
    return w;
  };
  for (std::size_t at = 0; at < text.size() && out.size() < 4096;) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    const std::string_view first = word(line);
    if (first.empty() || first.front() == '#') continue;
    out.emplace_back(first, word(line));
  }
  return out;
}

bool has_statement(std::string_view text, std::string_view keyword, std::string_view second_prefix = {}) {
  for (const auto& [first, second] : statements(text))
    if (first == keyword && second.substr(0, second_prefix.size()) == second_prefix) return true;
  return false;
}

bool tma_file(std::string_view, std::string_view text) { return has_statement(text, "tma"); }
bool tcgen05_file(std::string_view, std::string_view text) {
  return is_tcgen05_tirx(text) || has_statement(text, "instr", "kind=") || has_statement(text, "idesc") ||
         has_statement(text, "tmem");
}
bool sparse_file(std::string_view, std::string_view text) { return has_statement(text, "instr", "mma.sp"); }
bool scale_file(std::string_view, std::string_view text) {
  for (const auto& [first, second] : statements(text))
    if (first == "instr" && second.find("block_scale") != std::string_view::npos) return true;
  return false;
}
bool wgmma_file(std::string_view, std::string_view text) { return has_statement(text, "operand"); }
// A kernel's PTX with wgmma and no launch file beside it: the fence, commit
// and wait order alone (with a launch file, the ptx row runs the launch).
bool wgmma_ptx(std::string_view path, std::string_view text) {
  return (ends_with(path, ".ptx") || text.find(".entry") != std::string_view::npos) &&
         text.find("wgmma.") != std::string_view::npos &&
         (path == "-" || !std::filesystem::exists(ptx::launch_path_for(std::string(path))));
}
bool ptx_kernel(std::string_view, std::string_view text) { return ptx::looks_like_ptx(text); }
bool cuda_kernel(std::string_view path, std::string_view text) { return cuda_source(path, text); }
bool triton_file(std::string_view, std::string_view text) {
  // TTGIR or its signatures: Triton's GPU dialects name themselves.
  for (const std::string_view dialect : {"#ttg.", "#triton_gpu.", "ttng.warp_group_dot"})
    if (text.find(dialect) != std::string_view::npos) return true;
  const std::size_t b = text.find_first_not_of(" \t\r\n");
  return b != std::string_view::npos && text[b] == '{' && text.find("\"operands\"") != std::string_view::npos;
}
bool cute_file(std::string_view, std::string_view text) {
  if (text.find("MMA_Traits") != std::string_view::npos || is_cute_dsl_print(text)) return true;
  // An atom list: "SM80_16x8x8_F16F16F16F16_TN:" as a line's first word.
  for (const auto& [first, second] : statements(text))
    if (first.size() > 5 && first.substr(0, 2) == "SM" && first.back() == ':') return true;
  return false;
}

// The family checks under one signature.
template <FileOutcome (*Check)(const std::string&, const std::string&, bool, bool, std::ostream&)>
FileOutcome plain(const std::string& path, const std::string& text, const KindOptions& o, std::ostream& out) {
  return Check(path, text, o.json, o.allow, out);
}
FileOutcome cute(const std::string& path, const std::string& text, const KindOptions& o, std::ostream& out) {
  return check_cute_file(path, text, o.limits, o.json, o.allow, out);
}

// Vector files: the family's report, indented under the file's verdict line.
bool vector_file(std::string_view, std::string_view text) { return vector_family(text).has_value(); }
FileOutcome vectors(const std::string& path, const std::string& text, const KindOptions& o, std::ostream& out) {
  // replay_vectors reads its files by name.
  if (path == "-") throw Error(SourceLoc{"-", 0, 0}, "vector files are replayed from files, not from standard input");
  const VectorFamily family = *vector_family(text);
  std::ostringstream report;
  ReplayOptions replay;
  replay.json = o.json;
  const ReplayResult r = replay_vectors(family, {path}, replay, report);
  FileOutcome outcome{r.failed ? kFails : kHolds, r.failed ? "failed" : "passed", r.json};
  if (o.json) return outcome;
  out << outcome.label << "  " << path << "  " << family_name(family) << " vectors replayed on "
      << r.json["arch"].get<std::string>() << "\n";
  std::istringstream lines(report.str());
  for (std::string line; std::getline(lines, line);) out << "  " << line << "\n";
  return outcome;
}

// sim on a vector file: the replay's own report, as `replay` prints it.
FileOutcome replay(const std::string& path, const std::string& text, const KindOptions& o, std::ostream& out) {
  if (path == "-") throw Error(SourceLoc{"-", 0, 0}, "vector files are replayed from files, not from standard input");
  ReplayOptions r;
  r.arch = o.arch;
  r.show = o.show;
  r.json = o.json;
  const ReplayResult result = replay_vectors(*vector_family(text), {path}, r, out);
  return {result.failed ? kFails : kHolds, result.failed ? "failed" : "passed", result.json};
}

// The device's runs: only in a build with the cuda layer (cmd_*_gpu.cc).
#if MMACHECK_WITH_CUDA
constexpr auto* kGpuWgmmaFile = gpu_wgmma_file;
constexpr auto* kGpuSparseFile = gpu_sparse_file;
constexpr auto* kGpuPtxFile = gpu_ptx_file;
#else
using KindRun = FileOutcome (*)(const std::string&, const std::string&, const KindOptions&, std::ostream&);
constexpr KindRun kGpuWgmmaFile = nullptr;
constexpr KindRun kGpuSparseFile = nullptr;
constexpr KindRun kGpuPtxFile = nullptr;
#endif

constexpr std::array kKinds{
    // First: a vector file's instr line may name any family's instruction.
    InputKind{"replay", "vector files (instr and case lines of mma, mma.sp, wgmma, tcgen05)", vector_file, vectors,
              replay},
    InputKind{"tma", "TMA copy files (tma, operand, descriptor, smem lines)", tma_file, plain<check_tma_file>},
    InputKind{"tcgen05", "tcgen05.mma files (instr kind=, idesc, tmem lines) and TIRx tcgen05 dumps", tcgen05_file,
              plain<check_tcgen05_file>, simulate_tcgen05_file},
    InputKind{"sparse", "mma.sp metadata files (instr mma.sp...)", sparse_file, plain<check_sparse_file>,
              simulate_sparse_file, kGpuSparseFile},
    InputKind{"scales", "block-scaled mma files (instr ...block_scale...)", scale_file, plain<check_scale_file>,
              simulate_scale_file},
    InputKind{"wgmma", "wgmma operand files (operand, descriptor, smem lines)", wgmma_file, plain<check_wgmma_file>,
              simulate_wgmma_file, kGpuWgmmaFile},
    InputKind{"wgmma", "kernels' PTX with wgmma and no launch file (the fence, commit and wait order)", wgmma_ptx,
              plain<check_wgmma_order_file>},
    InputKind{"ptx", "kernels' PTX with a launch file (NAME.launch.json beside NAME.ptx)", ptx_kernel, check_ptx_file,
              simulate_ptx_file, kGpuPtxFile, true},
    InputKind{"cuda", "CUDA C++ kernels (.cu, compiled to PTX by NVRTC) with a launch file beside them", cuda_kernel,
              check_ptx_file, simulate_ptx_file, kGpuPtxFile, true},
    InputKind{"triton", "Triton layouts (JSON with \"operands\", TTGIR)", triton_file, plain<check_triton_file>},
    InputKind{"cute", "CuTe headers, atom lists and DSL prints", cute_file, cute},
};

}  // namespace

std::span<const InputKind> input_kinds() { return kKinds; }

bool supports(const InputKind& kind, Job job) {
  switch (job) {
    case Job::prove: return kind.check != nullptr;
    case Job::sim: return kind.simulate != nullptr;
    case Job::gpu: return kind.gpu != nullptr;
  }
  return false;
}

// prove: every kind of file a reader of the door or the program readers
// take.  C and C++ headers only as .hpp (CuTe's): a folder's .h files are
// rarely trait headers.
const std::vector<std::string>& folder_extensions(Job job) {
  static const std::vector<std::string> prove{".txt", ".py", ".ptx", ".ttgir", ".mlir", ".json", ".hpp", ".mmav"};
  static const std::vector<std::string> sim{".txt", ".py", ".mmav", ".ptx"};
  static const std::vector<std::string> gpu{".txt", ".py", ".ptx"};
  return job == Job::prove ? prove : job == Job::sim ? sim : gpu;
}

std::string reads_text(Job job) {
  std::string out =
      "reads (each file's kind by its content):\n  gemm programs: layout files (.txt), TVMScript and the released "
      "TIRx's programs, prints and dumps (.py)\n";
  for (const InputKind& k : kKinds)
    if (supports(k, job)) out += "  " + std::string(k.what) + "\n";
  out += "a folder gives its";
  const std::vector<std::string>& ext = folder_extensions(job);
  for (std::size_t i = 0; i < ext.size(); ++i) out += (i == 0 ? " " : i + 1 == ext.size() ? " and " : ", ") + ext[i];
  return out + " files; - is standard input\n";
}

std::string kind_names() {
  std::string out;
  for (const InputKind& k : kKinds) out += (out.empty() ? "" : ", ") + std::string(k.what);
  return out;
}

const InputKind* recognise(std::string_view path, std::string_view text) {
  for (const InputKind& k : kKinds)
    if (k.recognises(path, text)) return &k;
  return nullptr;
}

const InputKind* recognise(std::string_view path, std::string_view text, const ptx::LaunchChoice& launch) {
  const InputKind* first = recognise(path, text);
  if (first == nullptr || first->launched || !launch.any()) return first;
  for (const InputKind& k : kKinds)
    if (k.launched && k.recognises(path, text)) return &k;
  return first;
}

ptx::RunOptions run_options(const KindOptions& options) {
  ptx::RunOptions run;
  run.threads = WorkerPool::hardware_threads();
  if (options.launch.max_steps) run.max_steps = *options.launch.max_steps;
  return run;
}

void check_launch_options(const ptx::LaunchChoice& launch, const InputKind* kind, const std::string& path) {
  if (!launch.any() || (kind != nullptr && kind->launched)) return;
  throw Error(SourceLoc{input_name(path), 0, 0},
              "--launch, --kernel, --grid, --block, --dynamic-shared and --max-steps launch a PTX or CUDA kernel; this "
              "file is " +
                  (kind != nullptr ? std::string("one of ") + std::string(kind->what) : std::string("a gemm program")));
}

}  // namespace mmacheck::cli
