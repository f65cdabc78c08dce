// The kernels of one input: the file's own program, or each kernel a .py
// test file's tests build (docs/tvmscript.md, "Test files"), checked one by
// one by the same command (prove, sim).  Text: `-- NAME --` before each
// kernel's report and a line `N kernels: ...` after them; JSON: one object
// per kernel, with `kernel` (pytest's id), and for a kernel its test builds
// under pytest.raises, `expects_failure` and `as_expected`.  A kernel the
// test expects to fail holds when TVM's dispatch fails on it (that is the
// failure the test expects) and fails otherwise.  A kernel built again from
// the same closure (KernelInstance::same_as) is checked once: the others say
// "LABEL: the same kernel as NAME (checked once)", JSON `same_as`.
//
//     return check_kernels(read, json, out, [&](const Program& p, const KernelInstance* k, std::ostream& o) {
//       ... return KernelOutcome{...};
//     });
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "cli/file_batch.h"
#include "core/base/json.h"
#include "core/program/read/read_program.h"

namespace mmacheck::cli {

struct KernelOutcome {
  bool holds = false;
  std::string label;  // "proved", "passed", "dispatch_failed", ...
  bool dispatch_failed = false;
  Json json;
};

// `kernel` is nullptr for the file's own program.
using KernelCheck =
    std::function<KernelOutcome(const Program& program, const KernelInstance* kernel, std::ostream& text)>;

FileOutcome check_kernels(const ReadProgram& read, bool json, std::ostream& text, const KernelCheck& check);

// The notes a kernel's report carries: where its test built it, the test's
// expectation (met or not), what its reader passed over.
std::vector<std::string> kernel_notes(const ReadProgram& read, const KernelInstance* kernel, bool dispatch_failed);

}  // namespace mmacheck::cli
