// How fast `mma --vectors` runs a vector file end to end: read, parse, and
// every case through the lane path (run_vector_file), in mma instructions
// (cases) per second on T threads, each thread doing the whole file round
// after round.  `bench --vectors FILE` prints it next to the kernel's rate.
//
//     PhaseResult r = measure_vector_throughput("tests/data/m16n8k16.mmav", arch_params("sm_90"), 2.0, 2);
#pragma once

#include <string>

#include "sim/numerics/mma_model.h"
#include "sim/numerics/throughput.h"

namespace mmacheck::sim {

// Throws Error for an unreadable or malformed file (before timing), a case
// the architecture has no model of, or timed()'s errors.
PhaseResult measure_vector_throughput(const std::string& path, const ArchParams& arch, double seconds, int threads);

}  // namespace mmacheck::sim
