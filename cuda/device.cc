#include "cuda/device.h"

#include "core/base/error.h"
#include "cuda/driver.h"

namespace mmacheck::cuda {

std::optional<DeviceInfo> probe_device(std::string* why) {
  try {
    const Driver driver = Driver::load();
    if (driver.device_count() == 0) throw Error("the CUDA driver sees no device");
    return driver.device_info(0);
  } catch (const Error& e) {
    if (why) *why = e.message();
    return std::nullopt;
  }
}

}  // namespace mmacheck::cuda
