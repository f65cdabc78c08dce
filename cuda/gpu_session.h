// GpuSession — what running a kernel needs: a device context and the
// compiler, opened together.  The gpu and capture commands start with it and
// exit 3 ("no GPU") when it cannot be had; LazyGpuSession opens it at the
// first program that needs it.
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

// A session opened at the first get() (and only tried once), then shared:
// a run over many programs asks for the GPU only when one gets that far.
class LazyGpuSession {
 public:
  // nullptr when there is no GPU; why() then says why.
  GpuSession* get() {
    if (!tried_) session_ = open_gpu_session(why_);
    tried_ = true;
    return session_ ? &*session_ : nullptr;
  }
  const std::string& why() const { return why_; }

 private:
  bool tried_ = false;
  std::string why_;
  std::optional<GpuSession> session_;
};

}  // namespace mmacheck::cuda
