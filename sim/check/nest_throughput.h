// How fast a whole program runs through the lane-accurate warp machine
// (load, every statement of the nest, store), in mma instructions per
// second, on T threads: the path `sim` and `gpu`'s simulator take, as
// opposed to the arithmetic kernel alone (sim/numerics/throughput.h).
//
// Each thread owns a WarpMachine and a few random cases of one input
// distribution (normal: finite values; specials: NaN and Inf among them)
// and runs them round after round: a Phase of sim/numerics/throughput.h, for
// interleaved() with the kernel's phases.
//
//     Phase p = nest_phase("m64", program, plan.nest, arch_params("sm_90"), Distribution::normal, 2);
#pragma once

#include <string>

#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/random_inputs.h"
#include "sim/numerics/throughput.h"

namespace mmacheck::sim {

// Throws Error for threads < 1 or a program the warp machine cannot run.
Phase nest_phase(std::string name, const Program& program, const Nest& nest, const ArchParams& arch, Distribution dist,
                 int threads);

}  // namespace mmacheck::sim
