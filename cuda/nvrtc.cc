#include "cuda/nvrtc.h"

#include <nvrtc.h>

#include <optional>

#include "core/base/error.h"
#include "cuda/dynamic_library.h"

namespace mmacheck::cuda {

struct Nvrtc::Api {
  DynamicLibrary lib;
  std::optional<DynamicLibrary> builtins = std::nullopt;  // loaded beside lib, when there
  decltype(&nvrtcVersion) version = lib.get<decltype(version)>("nvrtcVersion");
  decltype(&nvrtcGetErrorString) error_string = lib.get<decltype(error_string)>("nvrtcGetErrorString");
  decltype(&nvrtcCreateProgram) create = lib.get<decltype(create)>("nvrtcCreateProgram");
  decltype(&nvrtcDestroyProgram) destroy = lib.get<decltype(destroy)>("nvrtcDestroyProgram");
  decltype(&nvrtcCompileProgram) compile = lib.get<decltype(compile)>("nvrtcCompileProgram");
  decltype(&nvrtcGetProgramLogSize) log_size = lib.get<decltype(log_size)>("nvrtcGetProgramLogSize");
  decltype(&nvrtcGetProgramLog) log = lib.get<decltype(log)>("nvrtcGetProgramLog");
  decltype(&nvrtcGetCUBINSize) cubin_size = lib.get<decltype(cubin_size)>("nvrtcGetCUBINSize");
  decltype(&nvrtcGetCUBIN) cubin = lib.get<decltype(cubin)>("nvrtcGetCUBIN");
};

Nvrtc Nvrtc::load() {
  // Kept loaded (as the driver is): NVRTC allocates state of its own that it
  // never frees, which once unloaded LeakSanitizer reports as a leak from an
  // unknown module; mapped, it stays reachable.
  auto api = std::make_shared<Api>(Api{
      DynamicLibrary::open({"libnvrtc.so.13", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13"}, "NVRTC", true)});
  // NVRTC loads its builtins by soname through the system's search path
  // only; a copy beside the NVRTC we loaded (the bundle's lib/) is loaded
  // first so that NVRTC finds it already there.
  int major = 0, minor = 0;
  api->version(&major, &minor);
  const std::string dir = api->lib.directory();
  if (!dir.empty()) {
    const std::string builtins = dir + "/libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
    try {
      api->builtins = DynamicLibrary::open({builtins.c_str()}, "NVRTC builtins");
    } catch (const Error&) {
      // None beside it: NVRTC searches for its own.
    }
  }
  return Nvrtc(std::move(api));
}

std::string Nvrtc::version() const {
  int major = 0, minor = 0;
  api_->version(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string Nvrtc::compile(const std::string& source, int sm, const std::string& name) const {
  return compile_for(source, "sm_" + std::to_string(sm), name);
}

std::string Nvrtc::compile_for(const std::string& source, const std::string& target, const std::string& name) const {
  const Api& api = *api_;
  const auto check = [&](nvrtcResult r, const char* call) {
    if (r != NVRTC_SUCCESS) throw Error(std::string("NVRTC ") + call + ": " + api.error_string(r));
  };
  nvrtcProgram program = nullptr;
  check(api.create(&program, source.c_str(), name.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  struct Guard {  // destroys the program on every way out
    const Api& api;
    nvrtcProgram program;
    ~Guard() { api.destroy(&program); }
  } guard{api, program};

  const std::string arch = "--gpu-architecture=" + target;
  const char* options[] = {arch.c_str(), "--std=c++17"};
  const nvrtcResult compiled = api.compile(program, 2, options);
  if (compiled != NVRTC_SUCCESS) {
    std::size_t size = 0;
    api.log_size(program, &size);
    std::string log(size, '\0');
    api.log(program, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    throw Error("NVRTC could not compile " + name + " for " + target + " (" + api.error_string(compiled) + "):\n" +
                log);
  }
  std::size_t size = 0;
  check(api.cubin_size(program, &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  check(api.cubin(program, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

}  // namespace mmacheck::cuda
