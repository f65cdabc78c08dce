#include "core/layout/axis.h"

#include <algorithm>
#include <array>

#include "core/base/error.h"

namespace mmacheck {

namespace {

struct AxisInfo {
  std::string_view name;
  bool thread;
  ExecLevel subscope;  // meaningful for thread axes only
  ExecLevel scope;
};

using L = ExecLevel;

// As the released TVM TIRx (apache-tvm-tirx 0.1.0a4) registers them:
// bx/by/bz count CTAs within the kernel (subscope cta, scope kernel), as
// Axis.get("bx").get_scope() / get_subscope() say there, so that scope
// chains are computed the same way (bx with laneid: a disconnected chain).
constexpr std::array<AxisInfo, 18> kAxes{{
    {"bx", true, L::cta, L::kernel},
    {"by", true, L::cta, L::kernel},
    {"bz", true, L::cta, L::kernel},
    {"cbx", true, L::cta, L::cluster},
    {"cby", true, L::cta, L::cluster},
    {"cbz", true, L::cta, L::cluster},
    {"tx", true, L::thread, L::cta},
    {"warpid", true, L::warp, L::cta},
    {"laneid", true, L::thread, L::warp},
    {"wgid", true, L::warpgroup, L::cta},
    {"tid_in_wg", true, L::thread, L::warpgroup},
    {"wid_in_wg", true, L::warp, L::warpgroup},
    {"m", false, L::thread, L::thread},
    {"P", false, L::thread, L::thread},
    {"F", false, L::thread, L::thread},
    {"Bank", false, L::thread, L::thread},
    {"TCol", false, L::thread, L::thread},
    {"TLane", false, L::thread, L::thread},
}};

constexpr std::array<std::string_view, kAxes.size()> kNames = [] {
  std::array<std::string_view, kAxes.size()> names{};
  for (std::size_t i = 0; i < kAxes.size(); ++i) names[i] = kAxes[i].name;
  return names;
}();

const AxisInfo* find_axis(std::string_view name) {
  const auto it = std::find_if(kAxes.begin(), kAxes.end(), [&](const AxisInfo& a) { return a.name == name; });
  return it == kAxes.end() ? nullptr : &*it;
}

}  // namespace

std::string_view exec_level_name(ExecLevel level) {
  switch (level) {
    case ExecLevel::thread: return "thread";
    case ExecLevel::warp: return "warp";
    case ExecLevel::warpgroup: return "warpgroup";
    case ExecLevel::cta: return "cta";
    case ExecLevel::cluster: return "cluster";
    case ExecLevel::kernel: return "kernel";
  }
  return "?";
}

Axis::Axis(std::string_view name) : name_(name) {
  if (name_.empty()) throw Error("axis name must not be empty");
}

bool Axis::is_registered() const { return find_axis(name_) != nullptr; }

bool Axis::is_thread() const {
  const AxisInfo* info = find_axis(name_);
  return info != nullptr && info->thread;
}

std::optional<ExecLevel> Axis::subscope() const {
  const AxisInfo* info = find_axis(name_);
  if (info == nullptr || !info->thread) return std::nullopt;
  return info->subscope;
}

std::optional<ExecLevel> Axis::scope() const {
  const AxisInfo* info = find_axis(name_);
  if (info == nullptr || !info->thread) return std::nullopt;
  return info->scope;
}

std::span<const std::string_view> Axis::known_names() { return kNames; }

}  // namespace mmacheck
