// mmacheck draw FILE -o OUT.svg [--method z3|exhaustive] [--inst-set tvm|extended]
//
// Proves the program (as `prove` does) and draws its fragments with the
// counterexamples highlighted (core/emit/svg.h).  The picture is written
// whole or not at all.  Exit status as `prove`: 0 proved, 1 refuted,
// dispatch_failed or unknown, 2 bad input.
#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/emit/svg.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/prove/prove.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

int run_draw(const Args& args) {
  po::options_description options("mmacheck draw");
  options.add_options()("file", po::value<std::string>(), "layout file")(
      "output,o", po::value<std::string>(), "the SVG file to write")(
      "method", po::value<std::string>()->default_value("z3"), "z3 or exhaustive")(
      "inst-set", po::value<std::string>()->default_value("tvm"), "tvm or extended")(
      "json", po::bool_switch(), "print what was drawn as one JSON object");
  options.add(limit_options());
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("draw: missing FILE (usage: mmacheck draw FILE -o OUT.svg)");
  if (!vm.count("output")) throw Error("draw: missing -o OUT.svg");

  const Program program = load_program(vm["file"].as<std::string>());
  ProveOptions prove_options;
  prove_options.method = parse_proof_method(vm["method"].as<std::string>());
  prove_options.inst_set = parse_inst_set(vm["inst-set"].as<std::string>());
  prove_options.limits = limits_from(vm);
  const ProofReport report = prove(program, prove_options);
  const std::string out = vm["output"].as<std::string>();
  const std::string svg = draw_svg(program, report);
  check_output_size(svg, prove_options.limits, "the picture");
  write_file_atomic(out, svg);
  // With -o - the picture is standard output; what was drawn goes to stderr.
  std::ostream& summary = out == "-" ? std::cerr : std::cout;
  if (vm["json"].as<bool>())
    summary << json_line({{"output", out},
                            {"verdict", verdict_name(report.verdict)},
                            {"instruction", report.inst ? Json(report.inst->ptx()) : Json(nullptr)},
                            {"operands", program.gemm ? Json::array({program.gemm->a.buffer, program.gemm->b.buffer,
                                                                     program.gemm->d.buffer})
                                                      : Json::array()},
                            {"highlighted_counterexamples", report.counterexamples.size()}})
              << "\n";
  else
    summary << out << ": " << verdict_name(report.verdict) << ", " << report.counterexamples.size()
              << " counterexample(s) highlighted\n";
  return report.verdict == Verdict::proved ? kHolds : kFails;
}

}  // namespace mmacheck::cli
