// mmacheck emit FILE [--tirx | --cuda] [--inst-set tvm|extended] [--json]
//
// Dispatches the file's gemm and prints the lowered nest: as TIRx IR
// (default, core/emit/tirx_text.h) or as CUDA source (core/emit/cuda_source.h).  When
// the dispatch fails it prints "dispatch_failed" and every reason row, and
// exits 1.  --json prints one object instead (docs/report.schema.json):
// {"file", "verdict": "emitted", "emit": {"format": "tirx" | "cuda", "text"}}
// or {"file", "verdict": "dispatch_failed", "reasons"}.
#include <iostream>

#include "cli/command.h"
#include "cli/json_shape.h"
#include "cli/options.h"
#include "core/gemm/dispatch.h"
#include "core/emit/cuda_source.h"
#include "core/emit/tirx_text.h"
#include "core/base/error.h"
#include "core/base/json.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_emit(const Args& args) {
  po::options_description options("mmacheck emit");
  // clang-format off
  options.add_options()
      ("file", po::value<std::string>(), "layout file")
      ("tirx", "print TIRx IR (the default)")
      ("cuda", "print CUDA source")
      ("inst-set", po::value<std::string>()->default_value("tvm"),
       "instruction set: tvm or extended")
      ("json", po::bool_switch(), "print one JSON object: the text, or the reasons the dispatch failed");
  // clang-format on
  options.add(limit_options());
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("emit: no layout file");
  if (vm.count("tirx") && vm.count("cuda")) throw Error("emit: --tirx and --cuda exclude each other");
  const InstSet set = parse_inst_set(vm["inst-set"].as<std::string>());

  const Limits limits = limits_from(vm);
  const std::string path = vm["file"].as<std::string>();
  const bool json = vm["json"].as<bool>();
  const Plan plan = dispatch(load_program(path), set, limits);
  if (!plan.ok) {
    if (json) {
      std::cout << json_line(file_json(path, {{"verdict", "dispatch_failed"}, {"reasons", plan.reasons}})) << "\n";
      return kFails;
    }
    std::cout << "dispatch_failed\n";
    for (const std::string& r : plan.reasons) std::cout << "  " << r << "\n";
    return kFails;
  }
  const bool cuda = vm.count("cuda") != 0;
  const std::string text = cuda ? emit_cuda(plan.nest) : emit_tirx(plan);
  check_output_size(text, limits, cuda ? "the CUDA source" : "the TIRx text");
  if (json)
    std::cout << json_line(file_json(
                     path, {{"verdict", "emitted"}, {"emit", {{"format", cuda ? "cuda" : "tirx"}, {"text", text}}}}))
              << "\n";
  else std::cout << text;
  return kHolds;
}

}  // namespace mmacheck::cli
