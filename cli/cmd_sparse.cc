// The mma.sp file check (cli/family_checks.h): what `mmacheck prove FILE`
// runs on a file its row of cli/input_kinds.cc recognises (`mmacheck sparse`
// of earlier releases is an alias of prove for one release).
//
// FILE says what a kernel assumes about one mma.sp instruction's metadata
// (core/sparse/sparse_reader.h): the selector, its metadata layout, and
// optionally the sparsity pattern.  It is checked point by point against the
// ISA (core/sparse/sparse_check.h): text output is the verdict, the
// instruction, and the first failing point (lane, e bits, register, element)
// or what was proved; refuted lists up to eight more points.  Exit 0 proved,
// 1 refuted, 2 bad input.
#include <algorithm>
#include <iostream>

#include "cli/family_checks.h"
#include "cli/file_batch.h"
#include "cli/json_shape.h"

#include "cli/command.h"
#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/sparse/sparse_reader.h"
#include "cli/vector_replay.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/sparse_model.h"

namespace mmacheck::cli {

namespace po = boost::program_options;

FileOutcome check_sparse_file(const std::string& path, const std::string& text, bool json, bool /*allow*/,
                              std::ostream& out) {
  const SparseReport r = check_sparse(read_sparse_file(text, input_name(path)));
  const bool failed = r.result != FrameVerdict::proved;
  FileOutcome outcome{failed ? kFails : kHolds, std::string(verdict_name(r.result)), nullptr};
  if (json) {
    outcome.json = Json{
        {"verdict", verdict_name(r.result)},
        {"sparse", {{"instruction", r.instruction}, {"check", r.check}, {"message", r.message}, {"also", r.also}}}};
    return outcome;
  }
  out << verdict_name(r.result) << "  " << path << "  " << r.instruction << "\n"
      << "  " << (r.check.empty() ? "" : "[" + r.check + "] ") << r.message << "\n";
  for (const std::string& a : r.also) out << "  also: " << a << "\n";
  return outcome;
}

}  // namespace mmacheck::cli
