#include "core/layout/lane_table.h"

#include <algorithm>

#include "core/base/checked.h"

namespace mmacheck {

LaneTable lane_table(const std::vector<ElementOwners>& map, const std::set<Axis>& axes, std::optional<int> lane) {
  LaneTable t;
  for (const Axis& a : axes) (a.is_thread() ? t.thread_axes : t.memory_axes).push_back(a);
  std::stable_sort(t.thread_axes.begin(), t.thread_axes.end(), [](const Axis& x, const Axis& y) {
    return x.scope().value_or(ExecLevel::thread) > y.scope().value_or(ExecLevel::thread);
  });
  for (const ElementOwners& e : map)
    for (const Owner& o : e.owners) {
      std::vector<std::int64_t> thread, memory;
      for (const Axis& a : t.thread_axes) thread.push_back(owner_coord(o, a));
      for (const Axis& a : t.memory_axes) memory.push_back(owner_coord(o, a));
      // A sum past int64 is no lane (0..31) either.
      if (lane && try_add(owner_coord(o, Axis::laneid()), owner_coord(o, Axis::tx()) % 32) != *lane) continue;
      t.rows[thread][memory].push_back(e.coord);
    }
  return t;
}

}  // namespace mmacheck
