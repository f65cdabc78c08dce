// The execution scope a layout's thread axes span (TVM's GetScope and
// VerifyWellFormed).  Each thread axis links its subscope to its scope
// (laneid: thread -> warp); a well-formed layout's links form one chain
// from the finest subscope upward, e.g. laneid + warpid: thread -> warp -> cta.
#include <map>

#include "core/base/error.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

namespace {

struct Chain {
  std::optional<std::pair<ExecLevel, ExecLevel>> scope;
  std::string problem;  // why there is no chain; empty when well-formed
};

Chain find_chain(const TileLayout& layout) {
  if (!layout.has_thread_axis()) return {};
  std::map<ExecLevel, ExecLevel> up;  // subscope -> scope
  std::optional<ExecLevel> innermost;
  std::string problem;
  const auto link = [&](const Axis& axis) {
    if (!axis.is_thread()) return;
    const ExecLevel sub = *axis.subscope();
    const ExecLevel sup = *axis.scope();
    if (!innermost || sub < *innermost) innermost = sub;
    const auto [it, inserted] = up.emplace(sub, sup);
    if (!inserted && it->second != sup && problem.empty())
      problem = "conflicting scopes for " + std::string(exec_level_name(sub));
  };
  for (const Iter& it : layout.shard()) link(it.axis);
  for (const Iter& it : layout.replica()) link(it.axis);
  for (const auto& [axis, value] : layout.offset()) link(axis);
  if (!problem.empty()) return {std::nullopt, problem};

  ExecLevel outermost = *innermost;
  std::size_t steps = 0;
  // Every step visits a distinct subscope, so a cycle cannot loop forever.
  for (auto it = up.find(outermost); it != up.end() && steps <= up.size(); it = up.find(outermost)) {
    outermost = it->second;
    ++steps;
  }
  if (steps != up.size()) return {std::nullopt, "disconnected scope chain"};
  return {std::make_pair(*innermost, outermost), ""};
}

}  // namespace

bool TileLayout::has_thread_axis() const {
  for (const Iter& it : shard_)
    if (it.axis.is_thread()) return true;
  return false;
}

bool TileLayout::verify_well_formed() const { return find_chain(*this).problem.empty(); }

std::optional<std::pair<ExecLevel, ExecLevel>> TileLayout::scope() const {
  Chain chain = find_chain(*this);
  if (!chain.problem.empty()) throw Error("ill-formed tile layout " + str() + ": " + chain.problem);
  return chain.scope;
}

}  // namespace mmacheck
