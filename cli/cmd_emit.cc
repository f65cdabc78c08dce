// mmacheck emit FILE [--tirx | --cuda] [--inst-set tvm|extended]
//
// Dispatches the file's gemm and prints the lowered nest: as TIRx IR
// (default, core/emit/tirx_text.h) or as CUDA source (core/emit/cuda_source.h).  When
// the dispatch fails it prints "dispatch_failed" and every reason row, and
// exits 1.
#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "core/gemm/dispatch.h"
#include "core/emit/cuda_source.h"
#include "core/emit/tirx_text.h"
#include "core/base/error.h"
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
       "instruction set: tvm or extended");
  // clang-format on
  options.add(limit_options());
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("emit: no layout file");
  if (vm.count("tirx") && vm.count("cuda")) throw Error("emit: --tirx and --cuda exclude each other");
  const InstSet set = parse_inst_set(vm["inst-set"].as<std::string>());

  const Limits limits = limits_from(vm);
  const Plan plan = dispatch(load_program(vm["file"].as<std::string>()), set, limits);
  if (!plan.ok) {
    std::cout << "dispatch_failed\n";
    for (const std::string& r : plan.reasons) std::cout << "  " << r << "\n";
    return kFails;
  }
  const std::string text = vm.count("cuda") ? emit_cuda(plan.nest) : emit_tirx(plan);
  check_output_size(text, limits, vm.count("cuda") ? "the CUDA source" : "the TIRx text");
  std::cout << text;
  return kHolds;
}

}  // namespace mmacheck::cli
