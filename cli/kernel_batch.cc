#include "cli/kernel_batch.h"

#include <map>
#include <vector>

#include "cli/command.h"

namespace mmacheck::cli {

namespace {

std::string listed(const std::vector<std::string>& items) {
  std::string list;
  for (const std::string& s : items) list += (list.empty() ? "" : ", ") + s;
  return list;
}

}  // namespace

std::vector<std::string> kernel_notes(const ReadProgram& read, const KernelInstance* kernel, bool dispatch_failed) {
  std::vector<std::string> notes;
  if (kernel)
    notes.push_back("built at line " + std::to_string(kernel->built_at.line) +
                    " of the test (docs/tvmscript.md, \"Test files\")");
  if (kernel && kernel->expects)
    notes.push_back(dispatch_failed
                        ? "the test expects this kernel to fail: " + *kernel->expects + "; TVM's dispatch fails"
                        : "the test expects this kernel to fail (" + *kernel->expects +
                              "), but TVM's dispatch does not fail on it");
  const std::vector<std::string>& skipped = kernel ? kernel->skipped : read.skipped;
  if (!skipped.empty()) notes.push_back("skipped (no bearing on the gemm): " + listed(skipped));
  return notes;
}

FileOutcome check_kernels(const ReadProgram& read, bool json, std::ostream& text, const KernelCheck& check) {
  if (read.instances.empty()) {
    KernelOutcome k = check(read.program, nullptr, text);
    return FileOutcome{k.holds ? kHolds : kFails, k.label, std::move(k.json)};
  }
  FileOutcome outcome{kHolds, "", Json::array()};
  std::map<std::string, int> counts;
  int shown = 0;
  std::map<std::size_t, KernelOutcome> checked;  // instance index -> its outcome, for the instances that share it
  const auto one = [&](const Program& program, const KernelInstance* kernel) {
    if (!json) text << (shown++ ? "\n" : "") << "-- " << (kernel ? kernel->name : "the file's own kernel") << " --\n";
    const std::size_t index = kernel ? static_cast<std::size_t>(kernel - read.instances.data()) : 0;
    KernelOutcome k;
    if (kernel && kernel->same_as) {
      // The same kernel, token for token: its report is the earlier one's.
      const KernelInstance& earlier = read.instances[*kernel->same_as];
      k = checked.at(*kernel->same_as);
      if (!json) text << k.label << ": the same kernel as " << earlier.name << " (checked once)\n";
      k.json["same_as"] = earlier.name;
    } else {
      k = check(program, kernel, text);
      if (kernel) checked.emplace(index, k);
    }
    const bool expected = kernel && kernel->expects;
    const bool holds = expected ? k.dispatch_failed : k.holds;
    if (!holds) outcome.status = kFails;
    ++counts[k.label + (expected && holds ? " as expected" : "")];
    if (json) {
      if (kernel) {
        k.json["kernel"] = kernel->name;
        if (expected) {
          k.json["expects_failure"] = *kernel->expects;
          k.json["as_expected"] = holds;
        }
      }
      outcome.json.push_back(std::move(k.json));
    }
  };
  const bool own = read.program.gemm || read.program.release;
  if (own) one(read.program, nullptr);
  for (const KernelInstance& k : read.instances) one(k.program, &k);
  std::string summary;
  for (const auto& [label, n] : counts) summary += (summary.empty() ? "" : ", ") + std::to_string(n) + " " + label;
  if (!json) text << "\n" << read.instances.size() + (own ? 1 : 0) << " kernels: " << summary << "\n";
  outcome.label = outcome.status == kHolds ? "held" : "not held";
  return outcome;
}

}  // namespace mmacheck::cli
