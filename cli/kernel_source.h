// KernelPtx — the PTX of a kernel file the `ptx` and `cuda` rows of the
// front door read (cli/input_kinds.h): a .ptx file's own text, or a .cu
// file's CUDA C++ compiled to PTX by NVRTC (loaded at run time, as `gpu`
// loads it; cuda/nvrtc.h) for compute_80 with line information, so that a
// finding names the .cu line (ptx::Finding::source).  A build without the
// cuda layer, or a machine without NVRTC, refuses a .cu file with an Error
// saying how to get its PTX instead.
//
//     const KernelPtx k = kernel_ptx("gemm.cu", read_text_file("gemm.cu"));
//     k.file == "gemm.cu.ptx"; k.compiled == true
#pragma once

#include <string>
#include <string_view>

#include "core/ptx/cta_machine.h"

namespace mmacheck::cli {

struct KernelPtx {
  std::string text;       // the PTX
  std::string file;       // the name its lines are reported under
  bool compiled = false;  // made by NVRTC from a .cu file
  std::string path;       // the kernel file as the user named it
};

// Whether `path` is CUDA C++ with a kernel: a .cu file with `__global__`.
bool cuda_source(std::string_view path, std::string_view text);

KernelPtx kernel_ptx(const std::string& path, const std::string& text);

// NVRTC's PTX of a .cu file (cli/nvrtc_ptx.cc; cuda layer builds only).
std::string nvrtc_ptx(const std::string& path, const std::string& source);

// The finding's source line, its file as the user named it where it is the
// compiled .cu (NVRTC names it by its absolute path); file empty for none.
SourceLoc finding_source(const ptx::Finding& f, const KernelPtx& k);
// "k.ptx:118:5 (triton_kernels.py:57:20)": where a finding is, its source
// line first for a compiled .cu (whose PTX is no file of the user's).
std::string finding_where(const ptx::Finding& f, const KernelPtx& k);

}  // namespace mmacheck::cli
