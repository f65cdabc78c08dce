// TileLayout::str(): the TIRx text TVM's printer writes inside
// `T.TileLayout(...)`, without the `T.`/`Axis.` prefixes and with `@`
// written tight.  The format is documented on TileLayout::str(); the
// layout parser reads it back.
#include "core/layout/tile_layout.h"

namespace mmacheck {

namespace {

std::string on_axis(std::int64_t value, const Axis& axis) {
  std::string s = std::to_string(value);
  if (axis != Axis::m()) s += "@" + axis.name();
  return s;
}

// "S[8 : 4@laneid]" or "S[(8, 4) : (4@laneid, 1)]".
std::string iters_str(const char* head, const std::vector<Iter>& iters) {
  const bool tuple = iters.size() != 1;
  std::string extents = tuple ? "(" : "";
  std::string strides = extents;
  for (std::size_t i = 0; i < iters.size(); ++i) {
    if (i > 0) {
      extents += ", ";
      strides += ", ";
    }
    extents += std::to_string(iters[i].extent);
    strides += on_axis(iters[i].stride, iters[i].axis);
  }
  if (tuple) {
    extents += ')';
    strides += ')';
  }
  return std::string(head) + "[" + extents + " : " + strides + "]";
}

}  // namespace

std::string TileLayout::str() const {
  // A replica-only layout prints as R[...] alone (which the parser reads back).
  std::string s = shard_.empty() && !replica_.empty() ? iters_str("R", replica_) : iters_str("S", shard_);
  if (!replica_.empty() && !shard_.empty()) s += " + " + iters_str("R", replica_);
  // Offset is a std::map keyed by axis name, so this is name order.
  for (const auto& [axis, value] : offset_) s += " + " + on_axis(value, axis);
  return s;
}

}  // namespace mmacheck
