#include "cli/command.h"

#include <algorithm>
#include <vector>

#include "core/base/error.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {
// Add a row when a command lands.
constexpr Command kCommands[] = {
    {"help", "help", "this list", nullptr},
    {"prove", "prove FILE [--json] [--method z3|exhaustive]",
     "dispatch, prove the nest computes the gemm, or give a counterexample", run_prove},
    {"layout", "layout EXPR [--shape D0,D1,...] [--json]",
     "evaluate a layout expression: iters, spans, element -> owners map", run_layout},
    {"emit", "emit FILE [--tirx | --cuda] [--inst-set tvm|extended]",
     "the lowered mma nest as TIRx IR or CUDA source", run_emit},
    {"sim", "sim FILE [--cases N] [--seed S] [--arch sm_90|sm_80] [--inst-set tvm|extended]",
     "run the program on the warp machine vs direct evaluation and Eigen reference", run_sim},
    {"mma", "mma --vectors F... [--arch sm_90] [--show N]",
     "run single instructions from vector files; prints N passed, N failed", run_mma},
    {"bench", "bench [--instr I] [--seconds S] [--threads T]",
     "bit-exact simulator throughput against Eigen float32", run_bench},
    {"gpu", "gpu FILE [--cases N] [--seed S] [--inst-set tvm|extended]",
     "run the nest on the GPU, diff bit for bit vs the simulator (3: no GPU)", run_gpu},
    {"capture", "capture --instr PTX|TAG|all [--cases N] [--seed S] -o OUT.mmav",
     "record single-instruction test vectors on the GPU (3: no GPU)", run_capture},
    {"draw", "draw FILE -o OUT.svg [--method z3|exhaustive] [--inst-set tvm|extended]",
     "SVG picture of the fragments, counterexamples highlighted", run_draw},
    {"cute", "cute FILE [--json]",
     "prove CuTe MMA atoms (trait header or atom list) against the PTX frames", run_cute},
    {"triton", "triton FILE [--json]", "prove Triton MMA v2 linear layouts against the PTX frames", run_triton},
};
}  // namespace

std::span<const Command> commands() { return kCommands; }

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

po::variables_map parse_options(const Args& args, const po::options_description& options,
                                const po::positional_options_description& positional) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(e.what());
  }
  return vm;
}

}  // namespace mmacheck::cli
