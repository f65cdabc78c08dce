#include "cli/kernel_source.h"

#include <filesystem>
#include <system_error>

#include "core/base/error.h"
#include "core/base/file_io.h"

namespace mmacheck::cli {

bool cuda_source(std::string_view path, std::string_view text) {
  return path.size() > 3 && path.ends_with(".cu") && text.find("__global__") != std::string_view::npos;
}

KernelPtx kernel_ptx(const std::string& path, const std::string& text) {
  if (!cuda_source(path, text)) return {text, input_name(path), false, path};
  if (path == "-") throw Error(SourceLoc{"<stdin>", 0, 0}, "a .cu kernel is read from a file");
#if MMACHECK_WITH_CUDA
  return {nvrtc_ptx(path, text), path + ".ptx", true, path};
#else
  throw Error(SourceLoc{path, 1, 1},
              "this mmacheck was built without the CUDA layer, so it cannot compile a .cu file: compile it to PTX "
              "(nvcc -arch=sm_80 -ptx -lineinfo " +
                  path + ") and check the .ptx with the same launch file");
#endif
}

SourceLoc finding_source(const ptx::Finding& f, const KernelPtx& k) {
  SourceLoc s = f.source;
  std::error_code ec;
  if (k.compiled && !s.file.empty() && std::filesystem::equivalent(s.file, k.path, ec)) s.file = k.path;
  return s;
}

std::string finding_where(const ptx::Finding& f, const KernelPtx& k) {
  const SourceLoc s = finding_source(f, k);
  if (s.file.empty()) return f.loc.str();
  if (k.compiled) return s.str() + " (" + f.loc.str() + " of NVRTC's PTX)";
  return f.loc.str() + " (" + s.str() + ")";
}

}  // namespace mmacheck::cli
