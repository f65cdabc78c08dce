// mmacheck sim FILE [--cases N] [--seed S] [--inputs standard|edge|all] [--arch sm_75..sm_120]
//              [--inst-set tvm|extended] [--show N]
//
// Dispatches the file's gemm and runs the whole program (stage -> nest ->
// store) on the lane-accurate warp machine for N random cases, the input
// distributions taking turns (normal, wide, cancel, bits, spread, sparse,
// specials, nearsum).  Every element of D's region must be
//   1. bit-identical to the direct evaluation (logical tiles, same K order),
//   2. within the error bound of the Eigen reference (NaN/Inf by class).
// Failing elements are named (case, distribution, D[row][col], got vs
// expected bits and values, which check failed), then a summary line.
//
// Exit status: 0 every case passes; 1 some element fails or the dispatch
// fails (its reasons printed); 2 bad input.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include "cli/command.h"
#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "sim/numerics/element_value.h"
#include "sim/check/error_bound.h"
#include "sim/numerics/random_inputs.h"
#include "sim/check/sim_check.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {

// A progress bar on stderr, only when stderr is a terminal and the run has
// lasted over a second.
class Progress {
 public:
  explicit Progress(int total) : total_(total), tty_(isatty(STDERR_FILENO)), start_(Clock::now()) {}
  ~Progress() {
    if (shown_) std::cerr << "\r" << std::string(60, ' ') << "\r" << std::flush;
  }

  void update(int done) {
    if (!tty_) return;
    const Clock::time_point now = Clock::now();
    if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    const int width = 40, filled = static_cast<int>(static_cast<long>(width) * done / total_);
    std::cerr << "\r[" << std::string(filled, '#') << std::string(width - filled, '.') << "] " << done << "/"
              << total_ << " cases" << std::flush;
  }

 private:
  using Clock = std::chrono::steady_clock;
  int total_;
  bool tty_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

std::string number(long double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9Lg", v);
  return buf;
}

// What the reference accepts, e.g. "1.5 ± 1.2e-07", "1.5 ± 1.2e-07 or +Inf", "NaN".
std::string expectation_text(const sim::Expectation& e, DType type) {
  if (!dtype_info(type).is_float) return number(e.value) + " (mod 2^32)";
  std::string out;
  const auto add = [&](const std::string& s) { out += (out.empty() ? "" : " or ") + s; };
  if (e.classes & sim::kFinite) {
    char bound[32];
    std::snprintf(bound, sizeof bound, "%.2Lg", e.bound);
    add(number(e.value) + " ± " + bound);
  }
  if (e.classes & sim::kPosInf) add("+Inf");
  if (e.classes & sim::kNegInf) add("-Inf");
  if (e.classes & sim::kNaN) add("NaN");
  return out;
}

std::string failure_text(const sim::ElementCheck& f, DType type) {
  std::string failed = !f.bit_exact && !f.within_bound ? "bit-exact and bound checks"
                       : !f.bit_exact                  ? "bit-exact check"
                                                       : "bound check";
  return "got " + sim::element_text(type, f.got) + "; direct evaluation " +
         sim::element_text(type, f.direct) + "; reference " + expectation_text(f.reference, type) + " [" +
         failed + " failed]";
}

}  // namespace

int run_sim(const Args& args) {
  po::options_description options("mmacheck sim");
  options.add_options()
      ("file", po::value<std::string>(), "layout file")
      ("cases", po::value<int>()->default_value(64), "random cases")
      ("seed", po::value<std::uint64_t>()->default_value(1), "random seed")
      ("inputs", po::value<std::string>()->default_value("standard"),
       "random input kinds: standard (the shared vectors' eight), edge (threshold, zeroterm, underflow, ties, "
       "overflow, lowbits) or all")
      ("arch", po::value<std::string>()->default_value("sm_90"), ("arithmetic model: " + sim::arch_names()).c_str())
      ("inst-set", po::value<std::string>()->default_value("tvm"), "instruction set: tvm or extended")
      ("show", po::value<int>()->default_value(20), "failing elements to print");
  po::positional_options_description positional;
  positional.add("file", 1);
  const po::variables_map vm = parse_options(args, options, positional);
  if (!vm.count("file")) throw Error("sim: no layout file");
  const int cases = vm["cases"].as<int>();
  const int show = vm["show"].as<int>();
  const std::uint64_t seed = vm["seed"].as<std::uint64_t>();
  if (cases < 1) throw Error("sim: --cases must be >= 1");
  if (show < 0) throw Error("sim: --show must be >= 0");
  const sim::ArchParams& arch = sim::arch_params(vm["arch"].as<std::string>());
  const sim::InputSet inputs = sim::input_set(vm["inputs"].as<std::string>());
  const InstSet set = parse_inst_set(vm["inst-set"].as<std::string>());

  const Program program = load_program(vm["file"].as<std::string>());
  const Plan plan = dispatch(program, set);
  if (!plan.ok) {
    std::cout << "dispatch_failed\n";
    for (const std::string& r : plan.reasons) std::cout << "  " << r << "\n";
    return kFails;
  }
  sim::SimCheck check(program, plan.nest, arch);
  const GemmGeometry& g = check.geometry();
  const std::string& d_name = program.gemm->d.buffer;
  std::cout << plan.inst->ptx() << " on " << arch.name << ": M x N x K = " << g.m << " x " << g.n << " x "
            << g.k << ", " << plan.nest.mma_count() << " mma per warp, " << check.machine().warps()
            << " warp(s); " << cases << " cases, seed " << seed << "\n";

  int failed_cases = 0, shown = 0;
  std::int64_t wrong = 0, not_exact = 0, outside = 0;
  {
    Progress progress(cases);
    for (int i = 0; i < cases; ++i) {
      const std::vector<sim::ElementCheck> failures = check.failures(check.random_case(i, seed, inputs));
      failed_cases += !failures.empty();
      for (const sim::ElementCheck& f : failures) {
        ++wrong;
        not_exact += !f.bit_exact;
        outside += !f.within_bound;
        if (shown++ < show)
          std::cout << "  case " << i << " (" << sim::distribution_name(sim::case_distribution(i, inputs)) << ") "
                    << d_name << "[" << f.row << "][" << f.col << "]: " << failure_text(f, g.d.dtype()) << "\n";
      }
      progress.update(i + 1);
    }
  }
  if (shown > show) std::cout << "  ... " << shown - show << " more failing elements\n";
  if (failed_cases == 0) {
    std::cout << "passed: " << cases << " cases, every element bit-identical to the direct evaluation and "
              << "within the Eigen reference bound" << std::endl;
    return kHolds;
  }
  std::cout << "FAILED: " << failed_cases << " of " << cases << " cases, " << wrong << " wrong elements ("
            << not_exact << " differ from the direct evaluation, " << outside
            << " outside the Eigen reference bound)" << std::endl;
  return kFails;
}

}  // namespace mmacheck::cli
