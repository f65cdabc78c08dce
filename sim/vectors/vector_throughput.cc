#include "sim/vectors/vector_throughput.h"

#include "sim/vectors/vector_file.h"

namespace mmacheck::sim {

Phase vector_phase(const std::string& path, const ArchParams& arch) {
  run_vector_file(read_vector_file(path), arch, 0);  // its errors before the clock starts
  return {"vectors " + path, [path, &arch](int) {
            const VectorFile file = read_vector_file(path);
            const VectorReport report = run_vector_file(file, arch, 0);
            return static_cast<std::uint64_t>(report.passed + report.failed);
          }};
}

}  // namespace mmacheck::sim
