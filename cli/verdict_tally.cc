#include "cli/verdict_tally.h"

#include <algorithm>

namespace mmacheck::cli {

void VerdictTally::add(FrameVerdict v, const std::string& message) {
  ++counts[static_cast<std::size_t>(v)];
  if (v == FrameVerdict::unchecked) unchecked.add(message);
  worst = std::max(worst, v);
}

FileOutcome VerdictTally::outcome(bool allow) const {
  return FileOutcome{status(failed(), unchecked, allow),
                     failed()            ? "refuted"
                     : unchecked.count() ? "unchecked"
                                         : "proved",
                     nullptr};
}

}  // namespace mmacheck::cli
