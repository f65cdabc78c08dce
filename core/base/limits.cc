#include "core/base/limits.h"

namespace mmacheck {

// Limits indexes its values by Resource: the rows must be in enum order.
static_assert([] {
  for (std::size_t i = 0; i < std::size(kLimits); ++i)
    if (static_cast<std::size_t>(kLimits[i].resource) != i) return false;
  return true;
}());

const ResourceInfo& resource_info(Resource r) { return kLimits[static_cast<std::size_t>(r)]; }

Limits::Limits() {
  for (const ResourceInfo& info : kLimits) set(info.resource, info.default_limit);
}

void Limits::check(Resource r, std::optional<std::int64_t> amount, const SourceLoc& loc,
                   std::string_view subject) const {
  if (amount && *amount <= get(r)) return;
  const ResourceInfo& info = resource_info(r);
  const std::string needs = amount ? std::to_string(*amount) : "more than 2^63";
  throw Error(loc, std::string(subject) + " needs " + needs + " " + std::string(info.unit) + ", over the limit of " +
                       std::to_string(get(r)) + " (raise it with " + std::string(info.option) + ")");
}

}  // namespace mmacheck
