#include "cuda/nvrtc.h"

#include <nvrtc.h>

#include <algorithm>
#include <filesystem>
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
  decltype(&nvrtcGetPTXSize) ptx_size = lib.get<decltype(ptx_size)>("nvrtcGetPTXSize");
  decltype(&nvrtcGetPTX) ptx = lib.get<decltype(ptx)>("nvrtcGetPTX");
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
  return build(source, target, {}, name, false);
}

std::string Nvrtc::ptx(const std::string& source, const std::string& arch, const std::string& name,
                       const std::vector<std::string>& include_dirs) const {
  std::vector<std::string> options{"--generate-line-info"};
  for (const std::string& dir : include_dirs) options.push_back("--include-path=" + dir);
  // The toolkit's headers (cuda_fp16.h, mma.h) beside the library NVRTC was
  // loaded from (lib64/../include), where a toolkit is installed.
  const std::string lib = api_->lib.directory();
  if (!lib.empty() && std::filesystem::is_regular_file(lib + "/../include/cuda_fp16.h"))
    options.push_back("--include-path=" + lib + "/../include");
  try {
    return build(source, arch, options, name, true);
  } catch (const Error& e) {
    // NVRTC's log says "NAME(LINE): error: ...": the first such line is where.
    const std::string& log = e.message();
    const std::string key = name + "(";
    for (std::size_t at = log.find(key); at != std::string::npos; at = log.find(key, at + 1)) {
      const std::size_t close = log.find("): error", at);
      if (close == std::string::npos) break;
      const std::string digits = log.substr(at + key.size(), close - at - key.size());
      if (!digits.empty() && digits.size() < 9 && digits.find_first_not_of("0123456789") == std::string::npos)
        throw Error(SourceLoc{name, std::stoi(digits), 1}, log);
    }
    // "At end of source: error: ..." (an unclosed brace): the last line;
    // anything else NVRTC says without a line: the first.
    const auto lines = static_cast<int>(std::count(source.begin(), source.end(), '\n'));
    const bool at_end = log.find("At end of source") != std::string::npos;
    throw Error(SourceLoc{name, at_end ? std::max(1, lines) : 1, 1}, log);
  }
}

std::string Nvrtc::build(const std::string& source, const std::string& target, std::vector<std::string> options,
                         const std::string& name, bool ptx) const {
  options.insert(options.begin(), {"--gpu-architecture=" + target, "--std=c++17"});
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

  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  const nvrtcResult compiled = api.compile(program, static_cast<int>(argv.size()), argv.data());
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
  check(ptx ? api.ptx_size(program, &size) : api.cubin_size(program, &size),
        ptx ? "nvrtcGetPTXSize" : "nvrtcGetCUBINSize");
  std::string out(size, '\0');
  check(ptx ? api.ptx(program, out.data()) : api.cubin(program, out.data()), ptx ? "nvrtcGetPTX" : "nvrtcGetCUBIN");
  while (ptx && !out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

}  // namespace mmacheck::cuda
