// The device's copy of the random stream: a kernel that draws, for each of
// a run of cases, the first words of the case's CaseStream
// (sim/numerics/case_stream.h) — Philox4x32-10 keyed by the seed, block b
// of case i at counter (b, 0, i mod 2^32, i / 2^32) — written from the
// Philox definition in CUDA's own terms (__umulhi), not from the host code.
// A device test (tests/test_cuda_gpu.cc) requires the words to equal the
// host's bit for bit: the first step of drawing the inputs on the device.
// These are also stream 0's words of sim/numerics/philox_blocks.h, the
// words A's elements are made of in the standard kinds (the CPU side of
// that contract: tests/test_random_inputs.cc).
//
//     const std::vector<std::uint32_t> w = device_case_stream(gpu, nvrtc, 7, 0, 4096, 64);
//     // w[i * 64 + j] == j-th next32() of CaseStream(7, i)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuda/gpu.h"
#include "cuda/nvrtc.h"

namespace mmacheck::cuda {

// The kernel's CUDA source (entry "mmacheck_case_stream"); compiles on any
// machine with NVRTC.
const std::string& case_stream_kernel_source();

// words (a multiple of 4) words of each of the cases first_case ..
// first_case + cases - 1, case after case.  Throws Error when the kernel
// fails or words is not a positive multiple of 4.
std::vector<std::uint32_t> device_case_stream(const Gpu& gpu, const Nvrtc& nvrtc, std::uint64_t seed,
                                              std::uint64_t first_case, std::uint32_t cases, std::uint32_t words);

}  // namespace mmacheck::cuda
