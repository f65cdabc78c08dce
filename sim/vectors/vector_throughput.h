// How fast `mma --vectors` runs a vector file end to end: read, parse, and
// every case through the lane path (run_vector_file), in mma instructions
// (cases) per second on T threads, each thread doing the whole file round
// after round.  `bench --vectors FILE` prints it next to the kernel's rate.
//
// A Phase of sim/numerics/throughput.h, for interleaved() with the kernel's.
//
//     Phase p = vector_phase("tests/data/m16n8k16.f32.f16.f16.f32.mmav", arch_params("sm_90"));
#pragma once

#include <string>

#include "sim/numerics/mma_model.h"
#include "sim/numerics/throughput.h"

namespace mmacheck::sim {

// Named "vectors PATH".  Throws Error for an unreadable or malformed file
// or a case the architecture has no model of (here, before any timing).
Phase vector_phase(const std::string& path, const ArchParams& arch);

}  // namespace mmacheck::sim
