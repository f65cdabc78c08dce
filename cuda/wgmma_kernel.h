// The CUDA kernel of one wgmma.mma_async (sim/wgmma/wgmma_machine.h's
// WgmmaRun), for sm_90a: one warpgroup (128 threads) per case.
//
//   1. the case's shared-memory image (A and B where the descriptors read
//      them) is copied into the dynamic shared memory (up to Hopper's 227 KB
//      a CTA; the launch opts in past 48 KB), its start rounded up to
//      1024 bytes, so every swizzle pattern sits on its boundary as in the
//      image (the descriptors' start addresses are image offsets; the kernel
//      adds the buffer's shared address >> 4 to their start fields);
//   2. fence.proxy.async.shared::cta (the generic-proxy writes made visible
//      to the async proxy wgmma reads through), __syncthreads;
//   3. the accumulators loaded from C (thread-major words) and pinned by an
//      empty asm each (no write between the fence and the mma), wgmma.fence;
//   4. wgmma.mma_async.sync.aligned.m64nNkK.D.A.B with both descriptors,
//      scale-d = 1 (D = A * B + C), imm-trans from the major-ness (f16/bf16);
//   5. wgmma.commit_group, wgmma.wait_group 0, the accumulators stored to D.
//
//     WgmmaKernel k = wgmma_kernel(run);
//     std::string cubin = nvrtc.compile_for(k.source, "sm_90a", "mmacheck_wgmma.cu");
//     gpu.run(cubin, k.entry, {cases, 128, k.shared_bytes}, {image, descriptors, c, d});
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "sim/wgmma/wgmma_machine.h"

namespace mmacheck::cuda {

struct WgmmaKernel {
  std::string source;
  std::string entry = "mmacheck_wgmma";
  int threads = 128;
  std::int64_t image_bytes = 0;  // per case, a multiple of 16
  unsigned shared_bytes = 0;     // dynamic shared memory per CTA: the image and the alignment slack
  int regs = 0;                  // accumulator words per thread
  // Hopper's largest shared memory a CTA may opt in to (cudaDevAttrMaxSharedMemoryPerBlockOptin).
  static constexpr std::int64_t kMaxShared = 227 * 1024;
};

// Throws Error for an instruction the simulator has no model of, or an
// image too large for a CTA's shared memory (227 KB with the alignment slack).
WgmmaKernel wgmma_kernel(const sim::WgmmaRun& run);

// The two descriptors as the kernel takes them (start fields relative to
// the image): A then B.
std::array<std::uint64_t, 2> wgmma_descriptors(const sim::WgmmaRun& run);

}  // namespace mmacheck::cuda
