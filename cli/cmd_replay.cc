// mmacheck replay FILE... [--arch A] [--show N] [--arith H] [--json]
//
// Replays vector files of any instruction family (cli/vector_replay.h):
// each file's first `instr` line says its family — mma.sync and its
// block-scaled forms, mma.sp, wgmma, tcgen05 — and the files of one family
// run together through its simulator, in the order their first file was
// given, with the family's report (what `mma --vectors`, `sparse
// --vectors`, `wgmma-sim` and `tcgen05-sim` print).  --arch applies to
// every family given (default: each family's, sm_90 and tcgen05's sm_100);
// --arith is mma.sp's hypothesis.  --json prints one JSON line per family.
// Every file is read before anything runs.  Exit 0 when every case passes,
// 1 a mismatch, 2 bad input (a file that is no vector file).
//
// mmacheck wgmma-sim --vectors F... [--arch sm_90] [--show N] [--json]
// mmacheck tcgen05-sim --vectors F... [--arch sm_100] [--show N] [--json]
//
// The same replay for one family's files (a file of another family is bad
// input): wgmma vectors (MMA-Sim's answers, tests/data/mmasim/
// wgmma.sm_90.mmav, or an H200 capture from wgmma-gpu --capture) through the
// whole-wgmma simulator — A and B staged into shared memory in a canonical
// layout and read back through their descriptors, C and D through the
// warpgroup's accumulator frames, the architecture's wgmma row — and
// tcgen05.mma vectors through shared-memory descriptors, TMEM and sm_100's
// arithmetic.  Prints the first N mismatching elements, then "N passed, N
// failed (O outputs, M differ)".
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/json_shape.h"
#include "cli/options.h"
#include "cli/vector_replay.h"
#include "core/base/error.h"
#include "core/base/file_io.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_replay(const Args& args) {
  po::options_description options("mmacheck replay");
  // clang-format off
  options.add_options()
      ("file", po::value<std::vector<std::string>>(), "vector files of any family")
      ("arch", po::value<std::string>(), "the arithmetic (default: each family's: sm_90, tcgen05 sm_100)")
      ("arith", po::value<std::string>()->default_value(""),
       "mma.sp's pruned-position hypothesis: zeros, kept, kept-packed (default), or all")
      ("json", po::bool_switch(), "one JSON line per family instead of text");
  // clang-format on
  options.add(show_option("mismatching elements to print"));
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("replay: no vector files");
  // The families in the order of their first file.
  std::vector<std::pair<VectorFamily, std::vector<std::string>>> groups;
  for (const std::string& path : vm["file"].as<std::vector<std::string>>()) {
    const std::optional<VectorFamily> f = vector_family(read_text_file(path));
    if (!f)
      throw Error(SourceLoc{input_name(path), 0, 0},
                  "not a vector file (no 'instr' line of a known family followed by 'case' lines)");
    const auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == *f; });
    if (it == groups.end()) groups.push_back({*f, {path}});
    else it->second.push_back(path);
  }
  ReplayOptions o;
  o.show = vm["show"].as<int>();
  o.sparse_arith = vm["arith"].as<std::string>();
  o.json = vm["json"].as<bool>();
  if (vm.count("arch")) o.arch = vm["arch"].as<std::string>();
  bool failed = false;
  for (const auto& [family, files] : groups) {
    const ReplayResult r = replay_vectors(family, files, o, std::cout);
    if (o.json) std::cout << json_line(file_json(files.size() == 1 ? files.front() : "", r.json)) << "\n";
    failed = failed || r.failed;
  }
  std::cout << std::flush;
  return failed ? kFails : kHolds;
}

namespace {

int run_family_replay(const Args& args, VectorFamily family, const std::string& command,
                      const std::string& default_arch) {
  po::options_description options("mmacheck " + command);
  const std::string family_text(family_name(family));
  // clang-format off
  options.add_options()
      ("vectors", po::value<std::vector<std::string>>()->multitoken(), (family_text + " vector files").c_str())
      ("arch", po::value<std::string>()->default_value(default_arch),
       (family_text + " arithmetic (" + default_arch + ")").c_str())
      ("json", po::bool_switch(), "print one JSON object: the counts and the mismatches");
  // clang-format on
  options.add(show_option("mismatching elements to print"));
  po::positional_options_description positional;
  positional.add("vectors", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("vectors")) throw Error(command + ": no vector files (use --vectors F...)");
  ReplayOptions o;
  o.arch = vm["arch"].as<std::string>();
  o.show = vm["show"].as<int>();
  o.json = vm["json"].as<bool>();
  const std::vector<std::string>& files = vm["vectors"].as<std::vector<std::string>>();
  const ReplayResult r = replay_vectors(family, files, o, std::cout);
  if (o.json) std::cout << json_line(file_json(files.size() == 1 ? files.front() : "", r.json)) << "\n";
  std::cout << std::flush;
  return r.failed ? kFails : kHolds;
}

}  // namespace

int run_wgmma_sim(const Args& args) { return run_family_replay(args, VectorFamily::wgmma, "wgmma-sim", "sm_90"); }

int run_tcgen05_sim(const Args& args) {
  return run_family_replay(args, VectorFamily::tcgen05, "tcgen05-sim", "sm_100");
}

}  // namespace mmacheck::cli
