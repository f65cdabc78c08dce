#include "cli/options.h"

#include <charconv>
#include <cstdint>
#include <limits>

#include "core/base/error.h"
#include "core/base/worker_pool.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

namespace {
std::string option_name(const ResourceInfo& info) { return std::string(info.option.substr(2)); }  // no "--"
}  // namespace

po::options_description threads_option(const std::string& what) {
  po::options_description o("threads");
  o.add_options()("threads", po::value<int>()->default_value(0), (what + " (0: every hardware thread)").c_str());
  return o;
}

po::options_description show_option(const std::string& what) {
  po::options_description o("output");
  o.add_options()("show", po::value<int>()->default_value(10), what.c_str());
  return o;
}

int hardware_if_zero(int threads) {
  // Each thread is a real one with its own stack and scratch: a count past
  // this is a typo, never a request the machine could honour.
  if (threads < 0 || threads > kMaxThreads)
    throw Error("--threads must be in 0.." + std::to_string(kMaxThreads) + ", got " + std::to_string(threads));
  return threads == 0 ? WorkerPool::hardware_threads() : threads;
}

po::options_description limit_options() {
  po::options_description limits("resource limits (over a limit is bad input, exit 2)");
  for (const ResourceInfo& info : kLimits)
    limits.add_options()(option_name(info).c_str(),
                         po::value<std::uint64_t>()->default_value(static_cast<std::uint64_t>(info.default_limit)),
                         std::string(info.help).c_str());
  return limits;
}

Limits limits_from(const po::variables_map& vm) {
  Limits limits;
  for (const ResourceInfo& info : kLimits) {
    const std::string name = option_name(info);
    if (!vm.count(name)) continue;
    const std::uint64_t v = vm[name].as<std::uint64_t>();
    constexpr std::uint64_t kMax = std::numeric_limits<std::int64_t>::max();
    limits.set(info.resource, static_cast<std::int64_t>(v > kMax ? kMax : v));
  }
  return limits;
}

po::options_description launch_options() {
  po::options_description o("a PTX or CUDA kernel's launch (over its launch file's values)");
  // clang-format off
  o.add_options()
      ("launch", po::value<std::string>(), "the launch file (default: NAME.launch.json beside NAME.ptx or NAME.cu)")
      ("kernel", po::value<std::string>(), "the .entry to run (default: the launch file's, else the module's only one)")
      ("grid", po::value<std::string>(), "CTAs: X[,Y[,Z]]")
      ("block", po::value<std::string>(), "threads per CTA: X[,Y[,Z]]")
      ("dynamic-shared", po::value<std::int64_t>(), "bytes of .extern .shared memory per CTA")
      ("max-steps", po::value<std::uint64_t>(), "thread-instructions the run may execute (default 2^32; a loop without end is an error)");
  // clang-format on
  return o;
}

namespace {

// "4", "4,2", "4x2x1": one to three positive numbers.
std::array<int, 3> dims_option(const std::string& text, const char* option) {
  std::array<int, 3> out{1, 1, 1};
  std::size_t at = 0;
  for (std::size_t i = 0;; ++i) {
    const std::size_t end = text.find_first_of(",x", at);
    const std::string part = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    int v = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (i >= 3 || part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v < 1)
      throw Error(std::string(option) + ": expected one to three positive numbers (X[,Y[,Z]]), got '" +
                  printable(text) + "'");
    out[i] = v;
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

}  // namespace

ptx::LaunchChoice launch_choice_from(const po::variables_map& vm) {
  ptx::LaunchChoice c;
  if (vm.count("launch")) c.file = vm["launch"].as<std::string>();
  if (vm.count("kernel")) c.kernel = vm["kernel"].as<std::string>();
  if (vm.count("grid")) c.grid = dims_option(vm["grid"].as<std::string>(), "--grid");
  if (vm.count("block")) c.block = dims_option(vm["block"].as<std::string>(), "--block");
  if (vm.count("dynamic-shared")) c.dynamic_shared = vm["dynamic-shared"].as<std::int64_t>();
  if (vm.count("max-steps")) {
    c.max_steps = vm["max-steps"].as<std::uint64_t>();
    if (*c.max_steps == 0) throw Error("--max-steps: at least 1");
  }
  return c;
}

void check_output_size(const std::string& text, const Limits& limits, const std::string& what) {
  limits.check(Resource::output_bytes, static_cast<std::int64_t>(text.size()), SourceLoc{}, what);
}

}  // namespace mmacheck::cli
