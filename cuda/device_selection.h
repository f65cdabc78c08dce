// DeviceSelection — which GPUs of the host a run uses: `--devices all` or a
// list of ordinals, `--devices 0,2,3`.
//
// Parsing needs no GPU (bad text is an Error on any machine); resolving
// against the host's device count gives the ordinals, in the order given.
//
//     const DeviceSelection sel = parse_device_selection("0,1");
//     std::vector<int> ordinals = resolve_devices(sel, driver.device_count());   // {0, 1}
//     resolve_devices(parse_device_selection("all"), 8);                          // {0, ..., 7}
#pragma once

#include <string_view>
#include <vector>

namespace mmacheck::cuda {

struct DeviceSelection {
  bool all = false;
  std::vector<int> ordinals;  // when !all: distinct, each >= 0, at least one
};

// "all", or comma-separated ordinals ("0", "0,1,3"; spaces around the
// numbers allowed).  Throws Error for anything else: an empty item, a
// negative or non-numeric one, a repeated ordinal.
DeviceSelection parse_device_selection(std::string_view text);

// The ordinals to use on a host with `device_count` devices.  Throws Error
// when an ordinal is not there or the host has no device.
std::vector<int> resolve_devices(const DeviceSelection& selection, int device_count);

}  // namespace mmacheck::cuda
