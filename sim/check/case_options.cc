#include "sim/check/case_options.h"

#include <string>

#include "core/base/error.h"
#include "core/base/worker_pool.h"

namespace mmacheck::sim {

void check_case_options(const CaseOptions& o, std::string_view command) {
  const std::string at(command);
  if (o.cases < 1) throw Error(at + ": --cases must be >= 1");
  if (o.threads < 0 || o.threads > 1024) throw Error(at + ": --threads must be in 0..1024");
  if (o.show < 0) throw Error(at + ": --show must be >= 0");
}

int case_threads(const CaseOptions& o) { return o.threads > 0 ? o.threads : WorkerPool::hardware_threads(); }

}  // namespace mmacheck::sim
