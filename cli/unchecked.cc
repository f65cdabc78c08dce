#include "cli/unchecked.h"

#include "cli/command.h"

namespace mmacheck::cli {

std::string UncheckedTally::summary(bool allowed) const {
  if (!count_) return "";
  std::string s = std::to_string(count_) + " unchecked" +
                  (allowed ? " (accepted: --allow-unchecked)"
                           : " (exit 1: unchecked is not success; --allow-unchecked accepts it)") +
                  ":\n";
  for (const auto& [reason, n] : reasons_) s += "  " + std::to_string(n) + " x " + reason + "\n";
  return s;
}

Json UncheckedTally::json() const {
  Json list = Json::array();
  for (const auto& [reason, n] : reasons_) list.push_back({{"reason", reason}, {"count", n}});
  return list;
}

boost::program_options::options_description unchecked_option() {
  boost::program_options::options_description o("exit status");
  o.add_options()("allow-unchecked", boost::program_options::bool_switch(),
                  "exit 0 even when some checks are unchecked (by default unchecked exits 1, as a refutation)");
  return o;
}

int status(bool failed, const UncheckedTally& unchecked, bool allow_unchecked) {
  return failed || (unchecked.count() && !allow_unchecked) ? kFails : kHolds;
}

}  // namespace mmacheck::cli
