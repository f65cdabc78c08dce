// The exit-status rule for checks that can be `unchecked` (cute, triton):
// unchecked is not success.  A run with any unchecked item exits 1, as a
// refutation does, unless --allow-unchecked is given; the summary says how
// many were unchecked and why, so that CI never passes with nothing checked.
//
//     UncheckedTally tally;
//     tally.add("no PTX frame for m16n8k32 A with 64-bit elements");
//     tally.summary()  // "1 unchecked (exit 1; --allow-unchecked accepts them):\n  1 x no PTX frame ..."
//     status(failed, tally, vm["allow-unchecked"].as<bool>())
#pragma once

#include <map>
#include <string>

#include <boost/program_options.hpp>

#include "core/base/json.h"

namespace mmacheck::cli {

class UncheckedTally {
 public:
  void add(const std::string& reason) { ++reasons_[reason], ++count_; }
  int count() const { return count_; }
  // "" when nothing is unchecked; else the count, the rule and one line per reason.
  std::string summary(bool allowed) const;
  Json json() const;  // [{"reason": ..., "count": N}]

 private:
  std::map<std::string, int> reasons_;
  int count_ = 0;
};

// --allow-unchecked.
boost::program_options::options_description unchecked_option();

// kFails when `failed` or (something is unchecked and it is not allowed), else kHolds.
int status(bool failed, const UncheckedTally& unchecked, bool allow_unchecked);

}  // namespace mmacheck::cli
