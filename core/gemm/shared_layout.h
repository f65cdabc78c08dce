// SharedLayout — where a shared buffer's elements sit in its allocation.
// The buffer's layout gives element (r, c) an offset on `m` (in elements),
// then a swizzle permutes it: the buffer's own, or the one a fill/drain
// statement's writer or reader uses instead.  Tabulated both ways; an
// element's byte address is offset * width from the allocation's base.
// The allocation is the buffer's alloc= when declared, else the extent of
// the swizzled image (highest offset, swizzled or not, + 1); whether the
// swizzled offsets stay inside a declared allocation and stay distinct is
// the prover's question, not an error here.
//
//     // A_s = buffer((16, 16), "float16", "shared", swizzle=Swizzle(3, 3, 3))
//     SharedLayout s = shared_layout(A_s, std::nullopt);
//     s.offset[s.flat(4, 0)] == 72;    // the second 128 bytes: chunk 0 -> 1
//     s.element_at[72] == 64;          // A_s[4][0]
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/program/program.h"

namespace mmacheck {

// Shared memory of one H200 CTA: 227 KB.
inline constexpr std::int64_t kMaxSharedBytes = 227 * 1024;

struct SharedLayout {
  const BufferDecl* buffer = nullptr;
  std::int64_t rows = 0, cols = 0;
  int width = 2;                         // bytes per element
  std::int64_t alloc = 0;                // elements
  std::int64_t align = 16;               // bytes
  Swizzle swizzle;                       // identity when none
  std::vector<std::int64_t> unswizzled;  // per element (row-major): the layout's offset
  std::vector<std::int64_t> offset;      // per element: after the swizzle (may lie outside [0, alloc))
  std::vector<std::int64_t> element_at;  // per offset in [0, alloc): the lowest element there, or -1

  std::int64_t flat(std::int64_t r, std::int64_t c) const { return r * cols + c; }
  bool inside(std::int64_t r, std::int64_t c) const { return r >= 0 && r < rows && c >= 0 && c < cols; }
  std::int64_t bytes() const { return alloc * width; }
  // "A_s[3][8]"
  std::string element_name(std::int64_t flat) const;
};

// Throws Error at the buffer's declaration when it is not a 2-D shared
// buffer, its layout has replicas, thread axes or memory axes other than
// `m`, or its allocation exceeds kMaxSharedBytes.
SharedLayout shared_layout(const BufferDecl& buffer, const std::optional<Swizzle>& swizzle);

}  // namespace mmacheck
