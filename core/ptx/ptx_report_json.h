// ptx_report_json() — the report of one PTX launch's check in the --json
// shape (docs/report.schema.json), for the command line (`mmacheck prove
// --json FILE.ptx`, cli/cmd_ptx.cc) and the Python package
// (mmacheck.prove on a Triton or TileLang kernel, python/src/module.cc)
// alike; the caller puts `file` before it and `notes` after it:
//
//     {"verdict": "proved" | "refuted" | "unchecked",
//      "ptx": {"kernel", "grid", "block", "m", "n", "k", "steps", "message",
//              "line", "column", "cta", "thread",    // a finding's
//              "source": {"file", "line", "column"}}, // its .loc line, where the PTX has one
//      "unchecked": [] | [{"reason": message, "count": 1}]}
//
// `unchecked` has the form of every command's tally of unchecked items
// (cli/unchecked.h): one entry, the run's message, when the verdict is
// unchecked.
#pragma once

#include "core/base/json.h"
#include "core/ptx/ptx_check.h"

namespace mmacheck::ptx {

Json ptx_report_json(const PtxReport& report);

}  // namespace mmacheck::ptx
