// DynamicLibrary — a shared library opened at run time (dlopen), so that the
// mmacheck program has no load-time dependency on the CUDA driver or NVRTC
// and every CPU command works on machines without them.
//
// A value type: copies share the handle; the library stays loaded while any
// copy lives.  dlopen searches as usual (LD_LIBRARY_PATH, the program's
// RUNPATH — the bundle's lib/ — then the system cache).
//
//     const DynamicLibrary nvrtc = DynamicLibrary::open({"libnvrtc.so.13", "libnvrtc.so"}, "NVRTC");
//     auto version = nvrtc.get<nvrtcResult (*)(int*, int*)>("nvrtcVersion");
#pragma once

#include <initializer_list>
#include <memory>
#include <string>

namespace mmacheck::cuda {

class DynamicLibrary {
 public:
  // The first of `names` that dlopen can load.  `what` names the library in
  // the Error thrown when none can ("NVRTC not found (tried ...): reason").
  // `keep_loaded` opens it RTLD_NODELETE: never unloaded, for libraries that
  // start threads of their own (the CUDA driver).
  static DynamicLibrary open(std::initializer_list<const char*> names, const std::string& what,
                             bool keep_loaded = false);

  // The directory the library was loaded from ("" when the loader cannot say).
  std::string directory() const;
  // The symbol's address; throws Error naming the library when it is absent.
  void* symbol(const char* symbol) const;
  template <typename F>
  F get(const char* name) const {
    return reinterpret_cast<F>(symbol(name));
  }

 private:
  DynamicLibrary(std::shared_ptr<void> handle, std::string name) : handle_(std::move(handle)), name_(std::move(name)) {}
  std::shared_ptr<void> handle_;
  std::string name_;
};

}  // namespace mmacheck::cuda
