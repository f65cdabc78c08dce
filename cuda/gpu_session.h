// GpuSession — what running a kernel needs: a device context and the
// compiler, opened together.  The gpu and capture commands start with it and
// exit 3 ("no GPU") when it cannot be had.
//
//     std::string why;
//     if (auto s = open_gpu_session(why)) run(s->gpu, s->nvrtc); else report(why);
#pragma once

#include <optional>
#include <string>

#include "cuda/gpu.h"
#include "cuda/nvrtc.h"

namespace mmacheck::cuda {

struct GpuSession {
  Gpu gpu;
  Nvrtc nvrtc;
};

// nullopt when the driver, a device or NVRTC is missing; `why` says which.
std::optional<GpuSession> open_gpu_session(std::string& why);

}  // namespace mmacheck::cuda
