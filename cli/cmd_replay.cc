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
// `mma --vectors F...`, `sparse --vectors F...`, `wgmma-sim` and
// `tcgen05-sim` of earlier releases are aliases of it for one release
// (cli/commands.cc); --vectors F... is the same as FILE....
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
      ("vectors", po::value<std::vector<std::string>>()->multitoken(),
       "vector files, as the family commands of earlier releases named them (mma --vectors F...)")
      ("arch", po::value<std::string>(), "the arithmetic (default: each family's: sm_90, tcgen05 sm_100)")
      ("arith", po::value<std::string>()->default_value(""),
       "mma.sp's pruned-position hypothesis: zeros, kept, kept-packed (default), or all")
      ("json", po::bool_switch(), "one JSON line per family instead of text");
  // clang-format on
  options.add(show_option("mismatching elements to print"));
  po::positional_options_description positional;
  positional.add("file", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  std::vector<std::string> paths;
  for (const char* key : {"file", "vectors"})
    if (vm.count(key))
      for (const std::string& path : vm[key].as<std::vector<std::string>>()) paths.push_back(path);
  if (paths.empty()) throw Error("replay: no vector files");
  // The families in the order of their first file.
  std::vector<std::pair<VectorFamily, std::vector<std::string>>> groups;
  for (const std::string& path : paths) {
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

}  // namespace mmacheck::cli
