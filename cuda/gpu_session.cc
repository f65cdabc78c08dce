#include "cuda/gpu_session.h"

#include "core/base/error.h"

namespace mmacheck::cuda {

std::optional<GpuSession> open_gpu_session(std::string& why) {
  try {
    return GpuSession{Gpu(Driver::load()), Nvrtc::load()};
  } catch (const Error& e) {
    why = e.message();
    return std::nullopt;
  }
}

}  // namespace mmacheck::cuda
