// check_tma() — does wgmma.mma_async, given this matrix descriptor, read
// every element of its operand tile where a TMA copy wrote it?
//
// A TmaCase is one wgmma operand (core/wgmma/canonical_layout.h) with its
// descriptor, the copy that fills its buffer (core/tma/tma_copy.h) and
// where the tile sits in the copy's box: box coordinate d of tile element
// (i, k) is axes[d] applied to (at_row + i, at_k + k), an index, an index
// divided and taken modulo, or a constant (so a 3-D box of 8-element K
// pieces, box=k%8,i,k/8, fills a SWIZZLE_NONE K-major operand's core
// matrices).  Every element is compared (64 x 32 bytes at most):
//
//   proved     the map and the copy are valid (cuTensorMapEncodeTiled's rules,
//              dstMem's alignment), the element bytes agree, every tile
//              element is in the box, a swizzled buffer starts on the
//              pattern's repeat, and for every (i, k) the address the
//              descriptor reads is the address the copy wrote that element to;
//   refuted    otherwise, naming the fields: "tensor map" (a rule the driver
//              refuses, the copy never runs), "smem alignment" (dstMem off
//              128 bytes, or a swizzled buffer off its 1024/512/256-byte
//              repeat: wgmma's base offset 0 assumes the pattern starts
//              there), "dtype", "box coverage" (a tile element outside the
//              box), "swizzle mode" (the map's and the descriptor's differ),
//              "box inner dimension" (the box's inner bytes are not the
//              descriptor mode's row: 128, 64, 32, 16 bytes), "descriptor"
//              (the copy is right for the mode, the descriptor's start, LBO,
//              SBO or major-ness are not); with the first element read
//              elsewhere, the address read, the address written, and which
//              element the copy wrote at the address read;
//   unchecked  a nonzero base_offset, or an interleaved map (not modelled).
//
//     TmaReport r = check_tma(c);
//     r.result == FrameVerdict::refuted && r.fields == std::vector<std::string>{"swizzle mode"};
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/prove/frame_verdict.h"
#include "core/tma/tma_copy.h"
#include "core/wgmma/wgmma_check.h"

namespace mmacheck {

// One box coordinate of a tile element: ((var == 'i' ? row : k) / div) % mod
// (mod 0: none), or `constant` when var is 0.
struct BoxAxis {
  char var = 'k';  // 'i', 'k' or 0
  std::int64_t div = 1;
  std::int64_t mod = 0;
  std::int64_t constant = 0;
  std::int64_t of(std::int64_t row, std::int64_t k) const;
  std::string str() const;  // "k", "k%8", "i/8", "1"
};

struct TmaCase {
  std::string name;  // "A (line 7)"
  SourceLoc loc;
  WgmmaOperand operand;
  MatrixDescriptor descriptor;
  TmaCopy copy;
  std::vector<BoxAxis> axes;  // one per box dim
  std::int64_t at_row = 0, at_k = 0;
};

struct TmaMismatch {
  int i = 0, k = 0;
  std::int64_t read = 0;                           // the address the descriptor reads
  std::optional<std::int64_t> written;             // where the copy wrote element (i, k) (none: not in the box)
  std::vector<std::int64_t> box;                   // its box coordinate
  std::vector<std::int64_t> global;                // its global coordinate
  std::optional<std::vector<std::int64_t>> found;  // the global element the copy wrote at `read`
};

struct TmaReport {
  std::string name;
  std::string instruction;
  std::string tensor_map;  // TensorMap::str()
  MatrixDescriptor descriptor;
  FrameVerdict result = FrameVerdict::proved;
  std::vector<std::string> fields;  // the mismatched fields, as above
  std::optional<TmaMismatch> counterexample;
  int mismatches = 0;           // elements read elsewhere
  std::vector<WgmmaFix> fixes;  // descriptors that read what the copy wrote (check_wgmma's)
  std::string message;
  std::vector<std::string> notes;  // out-of-bounds fill, ...
};

// The default box axes of an operand: K-major (k, i), MN-major (i, k).
std::vector<BoxAxis> default_box_axes(const WgmmaOperand& op, int rank);
// The byte address the copy wrote each tile element (i, k) to, row-major
// over rows x k; nullopt for an element outside the box.
std::vector<std::optional<std::int64_t>> tma_placement(const TmaCase& c);
TmaReport check_tma(const TmaCase& c);

}  // namespace mmacheck
