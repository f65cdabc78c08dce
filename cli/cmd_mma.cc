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
#include "core/base/json.h"
#include "sim/numerics/element_value.h"
#include "sim/numerics/mma_model.h"
#include "sim/vectors/vector_file.h"

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
  const int show = vm["show"].as<int>();
  if (show < 0) throw Error("mma: --show must be >= 0");
  const sim::ArchParams& arch = sim::arch_params(vm["arch"].as<std::string>());

  // Parse everything first: bad input exits 2 before any result is printed.
  std::vector<sim::VectorFile> files;
  for (const std::string& path : vm["vectors"].as<std::vector<std::string>>())
    files.push_back(sim::read_vector_file(path));

  const bool as_json = vm["json"].as<bool>();
  int passed = 0;
  int failed = 0;
  Json file_reports = Json::array();
  for (const sim::VectorFile& file : files) {
    const sim::VectorReport report = sim::run_vector_file(file, arch, static_cast<std::size_t>(show));
    Json tallies = Json::array(), mismatches = Json::array();
    for (const sim::InstrTally& t : report.tallies) {
      tallies.push_back({{"instruction", t.inst->ptx()}, {"passed", t.passed}, {"failed", t.failed}});
      if (!as_json) std::cout << t.inst->ptx() << ": " << t.passed << " passed, " << t.failed << " failed\n";
    }
    for (const sim::Mismatch& m : report.mismatches) {
      const DType d = m.vcase->inst->d;
      mismatches.push_back({{"case", m.vcase->id},
                            {"kind", m.vcase->kind},
                            {"row", m.row},
                            {"col", m.col},
                            {"expected", sim::element_text(d, m.expected)},
                            {"got", sim::element_text(d, m.got)}});
      if (!as_json)
        std::cout << "  " << file.name << ": case " << m.vcase->id << " (" << m.vcase->kind << ") D[" << m.row << "]["
                  << m.col << "]: expected " << sim::element_text(d, m.expected) << ", got "
                  << sim::element_text(d, m.got) << "\n";
    }
    file_reports.push_back({{"file", file.name},
                            {"passed", report.passed},
                            {"failed", report.failed},
                            {"instructions", std::move(tallies)},
                            {"mismatches", std::move(mismatches)}});
    passed += report.passed;
    failed += report.failed;
  }
  if (as_json)
    std::cout << json_line(file_json("", {{"verdict", failed ? "failed" : "passed"},
                                          {"cases", passed + failed},
                                          {"arch", arch.name},
                                          {"passed", passed},
                                          {"failed", failed},
                                          {"files", std::move(file_reports)}}))
              << std::endl;
  else std::cout << passed << " passed, " << failed << " failed" << std::endl;
  return failed ? kFails : kHolds;
}

}  // namespace mmacheck::cli
