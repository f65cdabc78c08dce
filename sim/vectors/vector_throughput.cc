#include "sim/vectors/vector_throughput.h"

#include "sim/vectors/vector_file.h"

namespace mmacheck::sim {

PhaseResult measure_vector_throughput(const std::string& path, const ArchParams& arch, double seconds, int threads) {
  run_vector_file(read_vector_file(path), arch, 0);  // its errors before the clock starts
  return timed(threads, seconds, [&](int) {
    const VectorFile file = read_vector_file(path);
    const VectorReport report = run_vector_file(file, arch, 0);
    return static_cast<std::uint64_t>(report.passed + report.failed);
  });
}

}  // namespace mmacheck::sim
