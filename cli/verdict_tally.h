// VerdictTally — the verdicts of one file's reports, and what they make of
// the file: its status (cli/unchecked.h's rule: a refutation, an ill-formed
// item, or an unchecked one not allowed, exits 1) and its verdict word.
// Shared by the commands that check a file of independent items (tma,
// tcgen05, triton, wgmma).
//
//     VerdictTally t;
//     for (const TmaReport& r : reports) t.add(r.result, r.message);
//     FileOutcome o = t.outcome(allow);   // o.label: "refuted", "unchecked" or "proved"
//     t.count(FrameVerdict::proved)       // how many proved
#pragma once

#include <array>
#include <string>

#include "cli/file_batch.h"
#include "cli/unchecked.h"
#include "core/prove/frame_verdict.h"

namespace mmacheck::cli {

struct VerdictTally {
  std::array<int, 4> counts{};  // by FrameVerdict
  UncheckedTally unchecked;     // the unchecked items' messages
  FrameVerdict worst = FrameVerdict::proved;

  void add(FrameVerdict v, const std::string& message);
  int count(FrameVerdict v) const { return counts[static_cast<std::size_t>(v)]; }
  bool failed() const { return count(FrameVerdict::refuted) || count(FrameVerdict::ill_formed); }
  // The status and label for `allow` (--allow-unchecked); json left empty.
  FileOutcome outcome(bool allow) const;
};

}  // namespace mmacheck::cli
