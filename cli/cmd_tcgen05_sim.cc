// mmacheck tcgen05-sim --vectors F... [--arch sm_100] [--show N]
//
// Replays tcgen05 vector files (sim/wgmma/tcgen05_vectors.h: MMA-Sim's
// answers, tests/data/mmasim/tcgen05.sm_100.mmav) through the whole
// tcgen05.mma simulator: A and B staged into shared memory in a canonical
// layout and read back through tcgen05 shared-memory descriptors, C stored
// into and D loaded from TMEM through the data-path layout, the arithmetic
// of the architecture's tcgen05 row (sim/wgmma/tcgen05_arith.h).  Prints the
// first N mismatching elements, then "N passed, N failed (O outputs, M
// differ)".  Exit status 0 all pass, 1 a mismatch, 2 bad input.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/json_shape.h"
#include "cli/options.h"
#include "core/base/error.h"
#include "cli/vector_replay.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_tcgen05_sim(const Args& args) {
  po::options_description options("mmacheck tcgen05-sim");
  // clang-format off
  options.add_options()
      ("vectors", po::value<std::vector<std::string>>()->multitoken(), "tcgen05 vector files")
      ("arch", po::value<std::string>()->default_value("sm_100"), "tcgen05 arithmetic (sm_100)")
      ("json", po::bool_switch(), "print one JSON object: the counts and the mismatches");
  // clang-format on
  options.add(show_option("mismatching elements to print"));
  po::positional_options_description positional;
  positional.add("vectors", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("vectors")) throw Error("tcgen05-sim: no vector files (use --vectors F...)");
  ReplayOptions o;
  o.arch = vm["arch"].as<std::string>();
  o.show = vm["show"].as<int>();
  o.json = vm["json"].as<bool>();
  const std::vector<std::string>& files = vm["vectors"].as<std::vector<std::string>>();
  const ReplayResult r = replay_vectors(VectorFamily::tcgen05, files, o, std::cout);
  if (o.json) std::cout << json_line(file_json(files.size() == 1 ? files.front() : "", r.json)) << "\n";
  std::cout << std::flush;
  return r.failed ? kFails : kHolds;
}

}  // namespace mmacheck::cli
