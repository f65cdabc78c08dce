#include "core/layout/owner_label.h"

#include <algorithm>
#include <utility>

namespace mmacheck {

std::string thread_axis_prefix(const Axis& a) {
  if (a.name() == "laneid") return "T";
  if (a.name() == "warpid") return "W";
  return a.name() + "=";
}

namespace {

std::string one_owner(const Owner& owner) {
  std::vector<std::pair<Axis, std::int64_t>> threads;
  std::string memory;
  for (const auto& [axis, value] : owner) {
    if (axis.is_thread()) {
      threads.emplace_back(axis, value);
      continue;
    }
    if (!memory.empty()) memory += ",";
    if (axis != Axis::m()) memory += axis.name() + "=";
    memory += std::to_string(value);
  }
  std::stable_sort(threads.begin(), threads.end(), [](const auto& x, const auto& y) {
    return x.first.scope().value_or(ExecLevel::thread) > y.first.scope().value_or(ExecLevel::thread);
  });
  std::string thread;
  for (const auto& [axis, value] : threads) {
    if (!thread.empty()) thread += ".";
    thread += thread_axis_prefix(axis) + std::to_string(value);
  }
  return thread + (thread.empty() || memory.empty() ? "" : ":") + memory;
}
}  // namespace

std::string owner_label(const std::vector<Owner>& owners) {
  std::string out;
  for (const Owner& owner : owners) out += (out.empty() ? "" : "|") + one_owner(owner);
  return out;
}

}  // namespace mmacheck
