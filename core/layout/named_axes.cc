#include "core/layout/named_axes.h"

namespace mmacheck {

std::set<Axis> named_axes(const TileLayout& layout) {
  std::set<Axis> axes;
  for (const Iter& it : layout.shard()) axes.insert(it.axis);
  for (const Iter& it : layout.replica()) axes.insert(it.axis);
  for (const auto& [axis, value] : layout.offset()) axes.insert(axis);
  return axes;
}

}  // namespace mmacheck
