#include "cli/options.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

po::options_description limit_options() {
  po::options_description limits("resource limits (over a limit is bad input, exit 2)");
  for (const ResourceInfo& info : kLimits) {
    const std::string name(info.option.substr(2));  // without "--"
    limits.add_options()(name.c_str(), unsigned_value<std::uint64_t>(info.default_limit),
                         std::string(info.help).c_str());
  }
  return limits;
}

Limits limits_from(const po::variables_map& vm) {
  Limits limits;
  for (const ResourceInfo& info : kLimits) {
    const std::string name(info.option.substr(2));
    if (!vm.count(name)) continue;
    const std::uint64_t v = unsigned_option<std::uint64_t>(vm, name.c_str());
    limits.set(info.resource, v > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(v));
  }
  return limits;
}

void check_output_size(const std::string& text, const Limits& limits, const std::string& what) {
  limits.check(Resource::output_bytes, static_cast<std::int64_t>(text.size()), SourceLoc{}, what);
}

}  // namespace mmacheck::cli
