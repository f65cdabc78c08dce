// GemmKernel — the CUDA source of a kernel that runs a Nest over staged
// registers, and the index table it reads.
//
// One CTA per case, staging.threads threads.  The kernel's parameters are
// five pointers:
//
//     extern "C" __global__ void mmacheck_gemm(
//         const WA* a, const WB* b, const WC* c, WD* d, const int* table);
//
// a, b, c hold every case's A, B, C buffer (rows x cols elements each, one
// element per word, case after case), d receives every case's D buffer;
// W is `unsigned` (or `unsigned long long` for f64), the element in the low
// bits.  `table` is staging's a, b, c, d slot tables, concatenated (table()).
// Each thread zeroes its register arrays, loads them through the tables
// (slot loops fully unrolled, so register indices are constants), calls the
// emitted nest (core/emit/cuda_source.h) and stores D's slots.
//
//     GemmKernel k = gemm_kernel(nest, build_staging(program, nest));
//     std::string cubin = Nvrtc::load().compile(k.source, 90);
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gemm/nest.h"
#include "core/gemm/staging.h"

namespace mmacheck::cuda {

struct GemmKernel {
  std::string source;
  std::string entry = "mmacheck_gemm";
  int threads = 32;
  std::vector<std::int32_t> table;
};

// Throws Error when the staging's slot counts are not the nest's.
GemmKernel gemm_kernel(const Nest& nest, const Staging& staging);

}  // namespace mmacheck::cuda
