// mmacheck sparse FILE... | --vectors F... [--arch sm_90] [--arith NAME]
//
// FILE says what a kernel assumes about one mma.sp instruction's metadata
// (core/sparse/sparse_reader.h): the selector, its metadata layout, and
// optionally the sparsity pattern.  It is checked point by point against the
// ISA (core/sparse/sparse_check.h): text output is the verdict, the
// instruction, and the first failing point (lane, e bits, register, element)
// or what was proved; refuted lists up to eight more points.  Exit 0 proved,
// 1 refuted, 2 bad input.
//
// --vectors replays mma.sp vector files (sim/vectors/sparse_vectors.h, e.g.
// ones `mmacheck sparse-gpu --capture` wrote) through the simulator under an
// arithmetic hypothesis (sim/numerics/sparse_model.h; --arith all runs each):
// "F: P passed, Q failed" per file and hypothesis, the first mismatches.
// Exit 0 when every case of every file passes under the hypotheses asked.
#include <algorithm>
#include <iostream>

#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/json_shape.h"

#include "cli/command.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/sparse/sparse_reader.h"
#include "cli/vector_replay.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/sparse_model.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

FileOutcome check_sparse_file(const std::string& path, bool json, bool /*allow*/, std::ostream& out) {
  const SparseReport r = check_sparse(read_sparse_file(read_text_file(path), input_name(path)));
  const bool failed = r.result != FrameVerdict::proved;
  FileOutcome outcome{failed ? kFails : kHolds, std::string(verdict_name(r.result)), nullptr};
  if (json) {
    outcome.json = Json{
        {"verdict", verdict_name(r.result)},
        {"sparse", {{"instruction", r.instruction}, {"check", r.check}, {"message", r.message}, {"also", r.also}}}};
    return outcome;
  }
  out << verdict_name(r.result) << "  " << path << "  " << r.instruction << "\n"
      << "  " << (r.check.empty() ? "" : "[" + r.check + "] ") << r.message << "\n";
  for (const std::string& a : r.also) out << "  also: " << a << "\n";
  return outcome;
}

namespace {}  // namespace

int run_sparse(const Args& args) {
  po::options_description options("mmacheck sparse");
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(), "mma.sp metadata files (core/sparse/sparse_reader.h)")
      ("vectors", po::value<std::vector<std::string>>()->multitoken(), "mma.sp vector files to replay instead (sim/vectors/sparse_vectors.h)")
      ("arch", po::value<std::string>()->default_value("sm_90"), ("arithmetic model: " + sim::arch_names()).c_str())
      ("arith", po::value<std::string>()->default_value(std::string(sim::sparse_arith_name(sim::kDefaultSparseArith))),
       "with --vectors: the pruned-position hypothesis: zeros, kept, kept-packed, or all (docs/mma-sp.md)")
      ("json", po::bool_switch(), "print the JSON report (JSON Lines: one object per file; with --vectors one)");
  // clang-format on
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  const bool json = vm["json"].as<bool>();
  if (vm.count("vectors")) {
    if (vm.count("file")) throw Error("sparse: give metadata files or --vectors, not both");
    ReplayOptions o;
    o.arch = vm["arch"].as<std::string>();
    o.sparse_arith = vm["arith"].as<std::string>();
    o.json = json;
    const std::vector<std::string>& files = vm["vectors"].as<std::vector<std::string>>();
    const ReplayResult r = replay_vectors(VectorFamily::sparse, files, o, std::cout);
    if (json) std::cout << json_line(file_json(files.size() == 1 ? files.front() : "", r.json)) << "\n";
    std::cout << std::flush;
    return r.failed ? kFails : kHolds;
  }
  if (!vm.count("file")) throw Error("sparse: no FILE (instr, selector, meta lines) and no --vectors");
  const BatchOptions batch{.jobs = 1, .json = json};
  return run_batch(
      expand_inputs(vm["file"].as<std::vector<std::string>>(), {}, {".txt"}), batch,
      [&](const std::string& path, std::ostream& out) { return check_sparse_file(path, json, false, out); });
}

}  // namespace mmacheck::cli
