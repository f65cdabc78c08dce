// Axis — a named dimension a layout maps onto: a thread axis (which thread
// holds an element) or a memory axis (where in that thread's storage).
//
// Axis is a plain value (its name).  What an axis *is* comes from a fixed
// table of the axes TVM registers (axis.cc); any other name is accepted as a
// memory axis for building layouts (TVM's Axis.get("foo") makes one), but
// it is not registered: canonicalize refuses it, as TVM's does ("axis has no
// thread classification").  So `Axis("laneid").is_thread()`,
// `Axis("foo").is_memory()` and `!Axis("foo").is_registered()` hold without
// any global registry.
//
//   thread axes   laneid (warp -> thread)     warpid (cta -> warp)
//                 tx (cta -> thread)          wgid (cta -> warpgroup)
//                 tid_in_wg (warpgroup -> thread)
//                 wid_in_wg (warpgroup -> warp)
//                 bx by bz (kernel -> cta)  cbx cby cbz (cluster -> cta)
//   memory axes   m (registers / default), P, F, Bank, TCol, TLane
#pragma once

#include <compare>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mmacheck {

// Execution levels, innermost first; a thread axis counts units of its
// subscope inside one unit of its scope (laneid: threads within a warp).
enum class ExecLevel { thread, warp, warpgroup, cta, cluster, kernel };
std::string_view exec_level_name(ExecLevel level);

class Axis {
 public:
  explicit Axis(std::string_view name);

  static Axis m() { return Axis("m"); }
  static Axis laneid() { return Axis("laneid"); }
  static Axis warpid() { return Axis("warpid"); }
  static Axis tx() { return Axis("tx"); }

  const std::string& name() const { return name_; }
  bool is_thread() const;
  bool is_memory() const { return !is_thread(); }
  // One of the axes in the table (TVM registers it).
  bool is_registered() const;
  // For thread axes, the unit counted (subscope) and the unit counted within
  // (scope): laneid -> (thread, warp).  nullopt for memory axes.
  std::optional<ExecLevel> subscope() const;
  std::optional<ExecLevel> scope() const;

  // Ordered by name, so maps keyed by Axis print deterministically.
  std::strong_ordering operator<=>(const Axis& other) const { return name_ <=> other.name_; }
  bool operator==(const Axis& other) const { return name_ == other.name_; }

  // The names of the axes in the table (thread axes first).
  static std::span<const std::string_view> known_names();

 private:
  std::string name_;
};

}  // namespace mmacheck
