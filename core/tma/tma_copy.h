// TmaCopy — one cp.async.bulk.tensor.Nd.shared::cluster.global.tile: the
// tensor map (core/tma/tensor_map.h), the shared-memory destination
// (dstMem) and the tensor coordinates of the box's first element.  What it
// writes, at which byte:
//
//   box element c (c[d] < box_extent(d)) is global element
//     coords[d] + c[d] * element_stride(d)     (past globalDim: the OOB fill)
//   and lands at
//     swizzle(smem + bytes * c[0] + row_bytes * (c[1] + e[1] * (c[2] + ...)))
//
// e[d] the extents and row_bytes the map's smem_row_bytes(): the box is dense
// in shared memory, innermost dimension first, except that a swizzled map
// pads each row to the swizzle span (measured on the H200), and the mode's Swizzle<B, 4, 3> (bits [4, 4+B) XOR bits [7,
// 7+B)) acts on the absolute shared address, as the wgmma descriptor's does (core/wgmma/descriptor.h).  Sources: the
// driver API's cuTensorMapEncodeTiled (traversal, ceil(box / elementStrides)), the CUDA programming guide's TMA swizzle
// section and CUTLASS's TMA copy traits (the 16-byte chunk XOR-ed by the 128-byte row, dstMem 128-byte aligned).
//
//     TmaCopy c{.map = m, .smem = 0x400, .coords = {0, 0}};   // m: 64 x 64 f16, SWIZZLE_128B
//     tma_write_address(c, {{8, 1}}) == 0x400 + 128 + (16 ^ 16);   // row 1, chunk 1 -> chunk 0
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/base/error.h"
#include "core/tma/tensor_map.h"

namespace mmacheck {

struct TmaCopy {
  std::string name;  // the `tma NAME` of the input
  SourceLoc loc;
  TensorMap map;
  std::int64_t smem = 0;             // dstMem, a shared::cluster byte address
  std::vector<std::int64_t> coords;  // tensorCoords, one per dim

  // Every rule of the copy itself that it breaks: dstMem 128-byte aligned,
  // the box within the 227 KB of shared memory a block may have (sm_90).
  std::vector<std::string> problems() const;
};

// The byte address box element c is written to.
std::int64_t tma_write_address(const TmaCopy& copy, std::span<const std::int64_t> c);
// The global element box element c copies.
std::vector<std::int64_t> tma_global_coord(const TmaCopy& copy, std::span<const std::int64_t> c);
// Whether that global element is past globalDim (the copy writes the OOB fill there).
bool tma_out_of_bounds(const TmaCopy& copy, std::span<const std::int64_t> c);

// Which box element the copy wrote at each byte address where an element
// starts (the inverse of tma_write_address over the whole box).
class TmaImage {
 public:
  explicit TmaImage(const TmaCopy& copy);
  // nullopt when the copy wrote no element starting at `address`.
  std::optional<std::vector<std::int64_t>> element_at(std::int64_t address) const;

 private:
  const TmaCopy& copy_;
  std::unordered_map<std::int64_t, std::int64_t> flat_;  // address -> flat box index
};

}  // namespace mmacheck
