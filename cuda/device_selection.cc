#include "cuda/device_selection.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/base/error.h"

namespace mmacheck::cuda {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

DeviceSelection parse_device_selection(std::string_view text) {
  const std::string_view whole = trimmed(text);
  if (whole == "all") return {true, {}};
  const std::string quoted = "--devices '" + std::string(text) + "'";
  DeviceSelection sel;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = whole.find(',', at);
    const std::string_view item = trimmed(whole.substr(at, comma == std::string_view::npos ? whole.npos : comma - at));
    int ordinal = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), ordinal);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || ordinal < 0)
      throw Error(quoted + ": expected 'all' or device ordinals such as 0,1 (got '" + std::string(item) + "')");
    if (std::find(sel.ordinals.begin(), sel.ordinals.end(), ordinal) != sel.ordinals.end())
      throw Error(quoted + ": device " + std::to_string(ordinal) + " named twice");
    sel.ordinals.push_back(ordinal);
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }
  return sel;
}

std::vector<int> resolve_devices(const DeviceSelection& sel, int device_count) {
  if (device_count < 1) throw Error("no CUDA device");
  if (sel.all) {
    std::vector<int> out(device_count);
    for (int d = 0; d < device_count; ++d) out[d] = d;
    return out;
  }
  for (int d : sel.ordinals)
    if (d >= device_count)
      throw Error("--devices: no CUDA device " + std::to_string(d) + " (the host has " + std::to_string(device_count) +
                  ", ordinals 0 to " + std::to_string(device_count - 1) + ")");
  return sel.ordinals;
}

}  // namespace mmacheck::cuda
