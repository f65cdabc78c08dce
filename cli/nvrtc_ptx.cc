// The .cu half of cli/kernel_source.h, in builds with the cuda layer: NVRTC
// finds the toolkit's headers (cuda_fp16.h, mma.h) beside itself, and the
// .cu file's own folder is searched for its includes.
#include <filesystem>

#include "cli/kernel_source.h"
#include "core/base/error.h"
#include "cuda/nvrtc.h"

namespace mmacheck::cli {

std::string nvrtc_ptx(const std::string& path, const std::string& source) {
  cuda::Nvrtc nvrtc = [&] {
    try {
      return cuda::Nvrtc::load();
    } catch (const Error& e) {
      throw Error(SourceLoc{path, 1, 1}, "a .cu kernel is compiled by NVRTC, which this machine lacks (" + e.message() +
                                             "): compile it to PTX (nvcc -arch=sm_80 -ptx -lineinfo " + path +
                                             ") and check the .ptx with the same launch file");
    }
  }();
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  return nvrtc.ptx(source, "compute_80", path, {dir.empty() ? std::string(".") : dir.string()});
}

}  // namespace mmacheck::cli
