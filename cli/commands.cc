#include "cli/command.h"

#include <algorithm>
#include <iostream>
#include <vector>

#include "core/base/error.h"

namespace mmacheck::cli {

namespace {
// The commands on the cuda layer: a build without it has neither their files
// (cli/CMakeLists.txt leaves them out) nor their functions.
constexpr bool kWithCuda = MMACHECK_WITH_CUDA;
#if MMACHECK_WITH_CUDA
// wgmma-gpu and sparse-gpu in gpu's words: `--inst all` becomes the family's
// name, and the old command's defaults hold where the user gave none.
bool given(const Args& args, std::string_view option) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
    return a == option || (a.starts_with(option) && a.size() > option.size() && a[option.size()] == '=');
  });
}
Args in_gpu_words(const Args& args, const std::string& family, const Args& defaults) {
  Args out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--inst=all") out.push_back("--inst=" + family);
    else if (args[i] == "all" && i > 0 && args[i - 1] == "--inst") out.push_back(family);
    else out.push_back(args[i]);
  }
  for (std::size_t i = 0; i + 1 < defaults.size(); i += 2)
    if (!given(args, defaults[i])) out.insert(out.end(), {defaults[i], defaults[i + 1]});
  return out;
}
int run_wgmma_gpu(const Args& args) { return run_gpu(in_gpu_words(args, "wgmma", {"--inputs", "all"})); }
int run_sparse_gpu(const Args& args) {
  return run_gpu(in_gpu_words(args, "mma.sp", {"--inst", "mma.sp", "--cases", "512"}));
}
constexpr auto* kRunGpu = run_gpu;
constexpr auto* kRunCapture = run_capture;
constexpr auto* kRunWgmmaGpu = run_wgmma_gpu;
constexpr auto* kRunSparseGpu = run_sparse_gpu;
#else
constexpr int (*kRunGpu)(const Args&) = nullptr;
constexpr int (*kRunCapture)(const Args&) = nullptr;
constexpr int (*kRunWgmmaGpu)(const Args&) = nullptr;
constexpr int (*kRunSparseGpu)(const Args&) = nullptr;
#endif

// `sparse FILE...` proved mma.sp metadata files, `sparse --vectors F...`
// replayed vector files: the alias runs the verb for each.
int run_sparse(const Args& args) {
  return std::find(args.begin(), args.end(), "--vectors") != args.end() ? run_replay(args) : run_prove(args);
}

// Add a row when a command lands.  Operands and example are what help and
// the README show; the options are the command's own description.
constexpr Command kCommands[] = {
    {"help", "[COMMAND]", "the commands, or one command's usage, options and example", "prove", run_help},
    {"prove",
     "FILE...",
     "dispatch, prove the nest computes the gemm, or give a counterexample",
     "examples/seed.txt --json",
     run_prove,
     Needs::cpu,
     {},
     Command::Reads::prove},
    {"layout", "EXPR", "evaluate a layout expression: iters, spans, element -> owners map",
     "'S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]' --shape 16,8", run_layout},
    {"emit", "FILE", "the lowered mma nest as TIRx IR or CUDA source", "examples/m64.txt --cuda", run_emit},
    {"sim",
     "FILE...",
     "run the program on the warp machine vs direct evaluation and Eigen reference",
     "examples/seed_corrected.txt --cases 256",
     run_sim,
     Needs::cpu,
     {},
     Command::Reads::sim},
    {"replay", "FILE...", "replay vector files of any family (mma, mma.sp, wgmma, tcgen05) through its simulator",
     "tests/data/mmasim/wgmma.sm_90.mmav tests/data/m16n8k16.f32.f16.f16.f32.mmav", run_replay},
    {"bench", "", "bit-exact simulator throughput against Eigen float32", "--seconds 1 --threads 2", run_bench},
    {"gpu",
     "FILE... | --inst NAME...",
     "run the nest, a wgmma file or single instructions on the GPU, diff bit for bit vs the simulator (3: no GPU)",
     "examples/m64.txt --cases 4096",
     kRunGpu,
     Needs::cuda,
     {},
     Command::Reads::gpu},
    {"capture", "--instr PTX|TAG|all -o OUT.mmav", "record single-instruction test vectors on the GPU (3: no GPU)",
     "--instr m16n8k16.f16 --cases 1024 -o new.mmav", kRunCapture, Needs::cuda},
    {"draw", "FILE -o OUT.svg",
     "SVG picture of the fragments, counterexamples highlighted (of a kernel's PTX: D by the thread that stored it)",
     "examples/seed.txt -o seed.svg", run_draw},
    // The family commands of earlier releases, aliases of the verbs for one release.
    {"cute", "FILE...", "alias of prove (one release): CuTe trait headers, atom lists, DSL prints",
     "tests/data/cute/pr3140_before.txt --json", run_prove, Needs::cpu, "prove FILE..."},
    {"triton", "FILE...", "alias of prove (one release): Triton layouts (JSON, TTGIR)", "tests/data/triton/mma_v2.json",
     run_prove, Needs::cpu, "prove FILE..."},
    {"wgmma", "FILE...", "alias of prove (one release): wgmma operand files, kernels' PTX",
     "examples/wgmma/k_sw128_f16.txt --json", run_prove, Needs::cpu, "prove FILE..."},
    {"tma", "FILE...", "alias of prove (one release): TMA copy files", "examples/tma/k_sw128_f16.txt --json", run_prove,
     Needs::cpu, "prove FILE..."},
    {"scales", "FILE...", "alias of prove (one release): block-scaled mma files", "examples/scales/mxf4nvf4_4x.txt",
     run_prove, Needs::cpu, "prove FILE..."},
    {"tcgen05", "FILE...", "alias of prove (one release): tcgen05.mma files and TIRx tcgen05 dumps",
     "examples/tcgen05/f16_k_sw128.txt --json", run_prove, Needs::cpu, "prove FILE..."},
    {"sparse", "FILE...", "alias of prove (one release): mma.sp metadata files; with --vectors, of replay",
     "examples/sparse/k32_selector1.txt", run_sparse, Needs::cpu, "prove FILE... (vector files: replay FILE...)"},
    {"mma", "[--vectors] F...", "alias of replay (one release): mma.sync vector files",
     "--vectors tests/data/m16n8k16.f32.f16.f16.f32.mmav", run_replay, Needs::cpu, "replay FILE..."},
    {"wgmma-sim", "--vectors F...", "alias of replay (one release): wgmma vector files",
     "--vectors tests/data/mmasim/wgmma.sm_90.mmav", run_replay, Needs::cpu, "replay FILE..."},
    {"tcgen05-sim", "--vectors F...", "alias of replay (one release): tcgen05.mma vector files",
     "--vectors tests/data/mmasim/tcgen05.sm_100.mmav", run_replay, Needs::cpu, "replay FILE..."},
    {"wgmma-gpu", "[FILE...]", "alias of gpu (one release): wgmma operand files, --inst PTX|all on the GPU",
     "--inst all --cases 64", kRunWgmmaGpu, Needs::cuda, "gpu FILE... or gpu --inst wgmma|PTX"},
    {"sparse-gpu", "", "alias of gpu (one release): mma.sp instructions on the GPU, each arithmetic hypothesis",
     "--inst sp.m16n8k32.f16 --cases 256", kRunSparseGpu, Needs::cuda, "gpu --inst mma.sp|TAG"},
};
}  // namespace

std::span<const Command> commands() { return kCommands; }

bool built_with_cuda() { return kWithCuda; }

int run_command(const Command& command, const Args& args) {
  if (command.needs == Needs::cuda && !kWithCuda)
    throw Error(std::string(command.name) +
                ": this mmacheck was built without CUDA (configure with -DMMACHECK_CUDA=ON)");
  if (!command.alias_of.empty()) {
    const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                      std::find(args.begin(), args.end(), "-h") != args.end();
    if (help) {
      std::cout << "usage: " << usage_line(command) << "\n  " << command.summary << "\n\nits options are those of "
                << "'mmacheck " << command.alias_of.substr(0, command.alias_of.find(' ')) << " --help'\n\nexample:\n  "
                << "mmacheck " << command.name << " " << command.example << "\n";
      throw HelpShown{};
    }
    std::cerr << "mmacheck: '" << command.name << "' is an alias kept for one release: run 'mmacheck "
              << command.alias_of << "'\n";
  }
  return command.run(args);
}

const Command* find_command(std::string_view name) {
  for (const Command& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

namespace {
// Levenshtein distance: insertions, deletions and substitutions cost 1.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}
}  // namespace

const Command* nearest_command(std::string_view word) {
  const Command* best = nullptr;
  std::size_t best_distance = 3;
  for (const Command& c : kCommands) {
    const std::size_t d = edit_distance(word, c.name);
    if (d < best_distance && d < word.size()) {
      best = &c;
      best_distance = d;
    }
  }
  return best;
}

std::string usage_line(const Command& command) {
  std::string line = "mmacheck " + std::string(command.name);
  if (!command.operands.empty()) line += " " + std::string(command.operands);
  return line + " [options]";
}

std::string usage_line(std::string_view command_name) {
  const Command* command = find_command(command_name);
  return command ? usage_line(*command) : "mmacheck " + std::string(command_name);
}

}  // namespace mmacheck::cli
