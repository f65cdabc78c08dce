// Nvrtc — CUDA C++ to a CUBIN at run time, through NVRTC loaded with dlopen
// (libnvrtc.so.13, libnvrtc.so, then the toolkit's default place).  NVRTC
// needs no GPU and no driver: kernels are compiled, and compile errors
// found, on any machine that has the library.
//
//     const Nvrtc nvrtc = Nvrtc::load();           // throws Error when absent
//     std::string cubin = nvrtc.compile(source, 90); // throws Error with the log
//     std::string wg = nvrtc.compile_for(source, "sm_90a");
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace mmacheck::cuda {

class Nvrtc {
 public:
  static Nvrtc load();

  // "13.0": the NVRTC version, which is the compiler that lowers mma (record
  // it with captured vectors: the fp8 emulation on sm_90 depends on it).
  std::string version() const;
  // The CUBIN of `source` for sm_<sm> (e.g. 90).  Throws Error carrying
  // NVRTC's log when compilation fails; `name` labels the log's lines.
  std::string compile(const std::string& source, int sm, const std::string& name = "mmacheck.cu") const;
  // The same for a named target, "sm_90a" (wgmma needs the arch-specific
  // target: plain sm_90 rejects it).
  std::string compile_for(const std::string& source, const std::string& arch,
                          const std::string& name = "mmacheck.cu") const;
  // The PTX of `source` for a virtual target ("compute_80"), with line
  // information (`.loc` of `name`'s lines) and `include_dirs` searched
  // first.  A compile error is an Error at `name`'s first line NVRTC
  // complains of, carrying the log.
  std::string ptx(const std::string& source, const std::string& arch, const std::string& name,
                  const std::vector<std::string>& include_dirs) const;

  struct Api;  // the library and its entry points, resolved once by load()

 private:
  explicit Nvrtc(std::shared_ptr<const Api> api) : api_(std::move(api)) {}
  // The program's CUBIN or (`ptx`) PTX.
  std::string build(const std::string& source, const std::string& target, std::vector<std::string> options,
                    const std::string& name, bool ptx) const;
  std::shared_ptr<const Api> api_;
};

}  // namespace mmacheck::cuda
