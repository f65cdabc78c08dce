#include "core/gemm/shared_layout.h"

#include <algorithm>

#include "core/base/checked.h"

namespace mmacheck {

std::string SharedLayout::element_name(std::int64_t f) const {
  return buffer->name + "[" + std::to_string(f / cols) + "][" + std::to_string(f % cols) + "]";
}

SharedLayout shared_layout(const BufferDecl& buffer, const std::optional<Swizzle>& swizzle) {
  const auto fail = [&](const std::string& why) {
    throw Error(buffer.loc, "shared buffer '" + buffer.name + "' " + why);
  };
  if (buffer.scope != MemScope::shared) fail("is not in shared scope");
  if (buffer.shape.size() != 2) fail("must be 2-D");
  const TileLayout& layout = buffer.layout;
  if (!layout.replica().empty()) fail("has replicas; every element has one place in shared memory");
  for (const auto& iters : {layout.shard(), layout.replica()})
    for (const Iter& it : iters)
      if (it.axis != Axis::m())
        fail("has an iter on " + it.axis.name() + "; shared layouts use element offsets (axis m) only");
  for (const auto& [axis, value] : layout.offset())
    if (axis != Axis::m() && value != 0) fail("has an offset on " + axis.name());
  SharedLayout s;
  s.buffer = &buffer;
  s.rows = buffer.shape[0];
  s.cols = buffer.shape[1];
  s.width = dtype_info(buffer.dtype).bits / 8;
  s.align = buffer.align;
  s.swizzle = swizzle.value_or(buffer.swizzle.value_or(Swizzle{}));
  const std::int64_t n = s.rows * s.cols;
  std::int64_t lowest = 0, highest = 0;
  s.unswizzled.resize(n);
  for (std::int64_t f = 0; f < n; ++f) {
    const std::int64_t o = owner_coord(layout.apply_flat(f), Axis::m());
    s.unswizzled[f] = o;
    lowest = std::min(lowest, o);
    highest = std::max(highest, o);
  }
  if (lowest < 0) fail("places an element at offset " + std::to_string(lowest) + ", before its allocation");
  // Offsets reach 2^63 - 1; no CTA's shared memory holds one past its size
  // (the swizzled extent and the byte count below then stay in int64).
  if (highest >= kMaxSharedBytes)
    fail("places an element at offset " + std::to_string(highest) + ", past any CTA's shared memory (" +
         std::to_string(kMaxSharedBytes) + " bytes)");
  // The allocation: declared (alloc=), or the extent of the swizzled image —
  // a swizzle may send an element past the highest unswizzled offset (a
  // 16 x 16 slice of 64-wide f16 rows under Swizzle(3, 3, 3) puts row 15's
  // first chunks at 1016..1023 > 975), and that memory is the buffer's.
  // It is the buffer's: taken with the buffer's own swizzle, not the one a
  // fill or drain uses instead (whose offsets must then fit it).
  const Swizzle own = buffer.swizzle.value_or(Swizzle{});
  std::int64_t extent = highest;
  s.offset.resize(n);
  for (std::int64_t f = 0; f < n; ++f) {
    s.offset[f] = s.swizzle.apply(s.unswizzled[f]);
    extent = std::max(extent, own.apply(s.unswizzled[f]));
  }
  s.alloc = buffer.alloc.value_or(extent + 1);
  const std::optional<std::int64_t> bytes = try_mul(s.alloc, s.width);  // a swizzle's extent reaches 2^62
  if (!bytes || *bytes > kMaxSharedBytes)
    fail("needs " + (bytes ? std::to_string(*bytes) : "more than 9223372036854775807") + " bytes; a CTA has at most " +
         std::to_string(kMaxSharedBytes));
  s.element_at.assign(s.alloc, -1);
  for (std::int64_t f = 0; f < n; ++f) {
    const std::int64_t o = s.offset[f];
    if (o >= 0 && o < s.alloc && s.element_at[o] < 0) s.element_at[o] = f;
  }
  return s;
}

}  // namespace mmacheck
