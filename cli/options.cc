#include "cli/options.h"

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

void check_output_size(const std::string& text, const Limits& limits, const std::string& what) {
  limits.check(Resource::output_bytes, static_cast<std::int64_t>(text.size()), SourceLoc{}, what);
}

}  // namespace mmacheck::cli
