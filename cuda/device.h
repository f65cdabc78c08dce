// Finding a CUDA device without depending on one.
//
// The driver library is loaded at run time (cuda/driver.h), so the mmacheck
// program starts, and every CPU command works, on machines with no driver
// and no GPU; only the GPU commands need them.
//
//     if (auto dev = probe_device()) std::cout << dev->name << " sm_" << dev->sm;
#pragma once

#include <optional>
#include <string>

namespace mmacheck::cuda {

struct DeviceInfo {
  std::string name;            // "NVIDIA H200"
  int sm = 0;                  // compute capability as 10*major + minor (90)
  int driver_version = 0;      // cuDriverGetVersion, e.g. 13000
  std::string driver_release;  // the installed driver, "580.159.04"; "" when unknown
};

// Device 0, or nullopt when there is no driver or no device.  `why`, when
// given, receives the reason there is none.
std::optional<DeviceInfo> probe_device(std::string* why = nullptr);

}  // namespace mmacheck::cuda
