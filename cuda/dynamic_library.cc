#include "cuda/dynamic_library.h"

#include <dlfcn.h>
#include <link.h>

#include "core/base/error.h"

namespace mmacheck::cuda {

DynamicLibrary DynamicLibrary::open(std::initializer_list<const char*> names, const std::string& what,
                                    bool keep_loaded) {
  std::string tried, reason;
  for (const char* name : names) {
    if (void* handle = dlopen(name, RTLD_NOW | RTLD_LOCAL | (keep_loaded ? RTLD_NODELETE : 0)))
      return DynamicLibrary(std::shared_ptr<void>(handle, [](void* h) { dlclose(h); }), name);
    tried += (tried.empty() ? "" : ", ") + std::string(name);
    if (const char* e = dlerror()) reason = e;
  }
  throw Error(what + " not found (tried " + tried + ")" + (reason.empty() ? "" : ": " + reason));
}

std::string DynamicLibrary::directory() const {
  const link_map* map = nullptr;
  if (dlinfo(handle_.get(), RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name) return "";
  const std::string path = map->l_name;
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

void* DynamicLibrary::symbol(const char* symbol) const {
  dlerror();
  void* address = dlsym(handle_.get(), symbol);
  if (!address) throw Error(name_ + " lacks " + symbol);
  return address;
}

}  // namespace mmacheck::cuda
