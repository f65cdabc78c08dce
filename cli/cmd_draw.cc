// mmacheck draw FILE -o OUT.svg [--method z3|z3-unrolled|exhaustive] [--inst-set tvm|extended]
//                  [--lane N] [--operand A|B|C|D] [--tile M,N,K] [--json]
// mmacheck draw KERNEL.ptx|.cu -o OUT.svg [--cta X,Y,Z] [--lane N] [launch options] [--json]
//
// Proves the program (as `prove` does) and draws its fragments with every
// mismatch and a declined file's diagnosis outlined (core/emit/svg.h).
// --lane outlines one lane's elements in A, B and D; --operand draws one
// operand; --tile draws the cells of one mma tile (M, N, K tile indices).
// A PTX or CUDA kernel is run and checked as `prove` runs it, and its
// picture is D as one CTA stored it, thread by thread, with the element a
// refutation is about outlined (core/emit/ptx_svg.h); --cta chooses the CTA
// (default the finding's).  Other kinds of file are an error.
// The picture is written whole or not at all.  --json prints what was
// drawn.  Exit status as `prove`: 0 proved, 1 refuted, dispatch_failed or
// unknown, 2 bad input.
#include <iostream>

#include "cli/json_shape.h"
#include "cli/command.h"
#include "cli/options.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "cli/input_kinds.h"
#include "cli/kernel_source.h"
#include "core/emit/ptx_svg.h"
#include "core/emit/svg.h"
#include "core/gemm/dispatch.h"
#include "core/program/read/read_program.h"
#include "core/ptx/ptx_reader.h"
#include "core/prove/prove.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

std::vector<int> parse_tile(const std::string& text) {
  std::vector<int> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 6)
      throw Error("draw: --tile expects three tile indices M,N,K (e.g. 0,1,0), got '" + text + "'");
    out.push_back(std::stoi(part));
    start = comma + 1;
  }
  if (out.size() != 3) throw Error("draw: --tile expects three tile indices M,N,K (e.g. 0,1,0), got '" + text + "'");
  return out;
}

std::array<int, 3> parse_cta(const std::string& text) {
  std::array<int, 3> out{0, 0, 0};
  std::size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string part = text.substr(start, comma - start);
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9)
      throw Error("draw: --cta expects a CTA's index X[,Y[,Z]] (e.g. 1,0), got '" + text + "'");
    out[static_cast<std::size_t>(d)] = std::stoi(part);
    if (comma == text.size()) return out;
    start = comma + 1;
  }
  throw Error("draw: --cta expects a CTA's index X[,Y[,Z]] (e.g. 1,0), got '" + text + "'");
}

// draw KERNEL.ptx: the launch run and checked as prove does, D drawn as the
// CTA stored it.
int draw_kernel(const std::string& path, const std::string& text, const po::variables_map& vm, const Limits& limits) {
  for (const char* program_only : {"operand", "tile"})
    if (vm.count(program_only) && !(std::string(program_only) == "operand" && vm["operand"].as<std::string>() == "D"))
      throw Error(std::string("draw: --") + program_only +
                  " draws part of a gemm program's fragments; a kernel's picture is D, one CTA at a time (--cta)");
  KindOptions kind;
  kind.launch = launch_choice_from(vm);
  const KernelPtx source = kernel_ptx(path, text);
  const ptx::PtxModule module = ptx::read_ptx(source.text, source.file);
  std::vector<ptx::DWrite> writes;
  const ptx::PtxReport report =
      ptx::check_ptx_launch(module, ptx::read_launch_for(path, kind.launch), run_options(kind), &writes);
  PtxDrawOptions draw;
  if (vm.count("cta")) draw.cta = parse_cta(vm["cta"].as<std::string>());
  if (vm.count("lane")) draw.lane = vm["lane"].as<int>();
  if (report.finding) draw.where = finding_where(*report.finding, source);
  DrawSummary drawn;
  const std::string svg = draw_ptx_svg(report, writes, draw, &drawn);
  const std::string out = vm["output"].as<std::string>();
  check_output_size(svg, limits, "the picture");
  write_file_atomic(out, svg);
  std::ostream& summary = out == "-" ? std::cerr : std::cout;
  if (vm["json"].as<bool>()) {
    Json j = {{"verdict", verdict_name(report.verdict)},
              {"output", out},
              {"kernel", report.kernel},
              {"message", report.message},
              {"panels", drawn.panels},
              {"cells", drawn.cells},
              {"marked", drawn.marked}};
    summary << json_line(file_json(path, j)) << "\n";
  } else {
    summary << out << ": " << verdict_name(report.verdict) << ", " << drawn.cells << " cell(s) of D drawn, "
            << drawn.marked << " outlined\n";
  }
  if (report.verdict == FrameVerdict::proved) return kHolds;
  return kFails;
}

}  // namespace

int run_draw(const Args& args) {
  po::options_description options("mmacheck draw");
  options.add_options()("file", po::value<std::string>(), "layout file")("output,o", po::value<std::string>(),
                                                                         "the SVG file to write")(
      "method", po::value<std::string>()->default_value("z3"),
      "z3, z3-unrolled (the per-statement encoding) or exhaustive")(
      "inst-set", po::value<std::string>()->default_value("tvm"), "tvm or extended")(
      "lane", po::value<int>(), "outline the elements this lane (0..31) holds")("operand", po::value<std::string>(),
                                                                                "draw only this operand: A, B, C or D")(
      "tile", po::value<std::string>(), "M,N,K: draw only this mma tile's cells")("json", po::bool_switch(),
                                                                                  "print what was drawn as JSON")(
      "cta", po::value<std::string>(), "X[,Y[,Z]]: a kernel's CTA whose part of D is drawn (default the finding's)");
  options.add(limit_options());
  options.add(launch_options());
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("draw: missing FILE (usage: mmacheck draw FILE -o OUT.svg)");
  if (!vm.count("output")) throw Error("draw: missing -o OUT.svg");

  DrawOptions draw;
  if (vm.count("lane")) {
    draw.lane = vm["lane"].as<int>();
    if (*draw.lane < 0 || *draw.lane > 31) throw Error("draw: --lane must be 0..31, got " + std::to_string(*draw.lane));
  }
  if (vm.count("operand")) {
    draw.operand = vm["operand"].as<std::string>();
    if (*draw.operand != "A" && *draw.operand != "B" && *draw.operand != "C" && *draw.operand != "D")
      throw Error("draw: --operand must be A, B, C or D, got '" + *draw.operand + "'");
  }
  if (vm.count("tile")) draw.tile = parse_tile(vm["tile"].as<std::string>());

  const std::string path = vm["file"].as<std::string>();
  const std::string text = read_text_file(path);  // once: it may be standard input
  const InputKind* kind = recognise(path, text);
  check_launch_options(launch_choice_from(vm), kind, path);
  if (kind != nullptr && kind->launched) return draw_kernel(path, text, vm, limits_from(vm));
  if (kind != nullptr)
    throw Error(SourceLoc{input_name(path), 0, 0},
                "draw draws gemm programs and PTX or CUDA kernels; this file is one of " + std::string(kind->what) +
                    " (mmacheck prove checks it)");
  if (vm.count("cta")) throw Error("draw: --cta chooses a kernel's CTA; this file is a gemm program");
  const Program program = load_program_text(text, input_name(path));
  ProveOptions prove_options;
  prove_options.method = parse_proof_method(vm["method"].as<std::string>());
  prove_options.inst_set = parse_inst_set(vm["inst-set"].as<std::string>());
  prove_options.limits = limits_from(vm);
  const ProofReport report = prove(program, prove_options);
  const std::string out = vm["output"].as<std::string>();
  DrawSummary drawn;
  const std::string svg = draw_svg(program, report, draw, &drawn);
  check_output_size(svg, prove_options.limits, "the picture");
  write_file_atomic(out, svg);
  // With -o - the picture is standard output; what was drawn goes to stderr.
  std::ostream& summary = out == "-" ? std::cerr : std::cout;
  if (vm["json"].as<bool>()) {
    Json j = {{"verdict", verdict_name(report.verdict)},
              {"output", out},
              {"instruction", report.inst ? Json(report.inst->ptx()) : Json(nullptr)},
              {"operands", Json::array({program.gemm->a.buffer, program.gemm->b.buffer, program.gemm->d.buffer})},
              {"highlighted_counterexamples", report.counterexamples.size()},
              {"panels", drawn.panels},
              {"cells", drawn.cells},
              {"marked", drawn.marked},
              {"diagnosis_findings", report.diagnosis.size()}};  // a count: "diagnosis" is prove's list
    if (report.verdict == Verdict::dispatch_failed) j["reasons"] = report.reasons;  // as prove's report has them
    summary << json_line(file_json(vm["file"].as<std::string>(), j)) << "\n";
  } else {
    summary << out << ": " << verdict_name(report.verdict) << ", " << drawn.marked << " cell(s) outlined ("
            << report.counterexamples.size() << " counterexample(s), " << report.diagnosis.size()
            << " diagnosis finding(s))\n";
  }
  return report.verdict == Verdict::proved ? kHolds : kFails;
}

}  // namespace mmacheck::cli
