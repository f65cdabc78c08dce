// mmacheck mma --vectors F... [--arch sm_90] [--show N]
//
// Runs every case of the vector files through the lane-accurate simulator
// and compares every D word with the recorded bits.  Prints, per file and
// instruction, "<instr>: N passed, N failed", then the first N mismatching
// elements; the last line is the total "N passed, N failed" (cases).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/json_shape.h"
#include "cli/options.h"
#include "cli/command.h"
#include "core/base/error.h"
#include "cli/vector_replay.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_mma(const Args& args) {
  po::options_description options("mmacheck mma");
  // clang-format off
  options.add_options()
      ("vectors", po::value<std::vector<std::string>>()->multitoken(), "vector files (mmav-1)")
      ("arch", po::value<std::string>()->default_value("sm_90"), ("arithmetic model: " + sim::arch_names()).c_str())
      ("json", po::bool_switch(), "print one JSON object: counts per file and instruction, the mismatches");
  // clang-format on
  options.add(show_option("mismatching elements to print per file"));
  po::positional_options_description positional;
  positional.add("vectors", -1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("vectors")) throw Error("mma: no vector files (use --vectors F...)");
  ReplayOptions o;
  o.arch = vm["arch"].as<std::string>();
  o.show = vm["show"].as<int>();
  o.json = vm["json"].as<bool>();
  const ReplayResult r = replay_vectors(VectorFamily::mma, vm["vectors"].as<std::vector<std::string>>(), o, std::cout);
  if (o.json) std::cout << json_line(file_json("", r.json)) << std::endl;
  else std::cout << std::flush;
  return r.failed ? kFails : kHolds;
}

}  // namespace mmacheck::cli
