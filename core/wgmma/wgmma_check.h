// check_wgmma() — does wgmma.mma_async, given this matrix descriptor, read
// every element of its operand tile where the program placed it in shared
// memory?
//
// A WgmmaCase is one operand (A or B, type, tile, major-ness), one
// descriptor (core/wgmma/descriptor.h) and the program's placement: the
// byte address at which the buffer holds each element (i, k) of the tile
// (read from a layout expression by core/wgmma/operand_lines.h).  Every
// element is compared (64 x 32 bytes at most per operand: enumeration is the
// proof):
//
//   proved     for every (i, k), canonical_address (core/wgmma/canonical_layout.h)
//              is the placed address;
//   refuted    some element is read elsewhere: the counterexample is the first
//              (i, k) in row-major order, with the address read and placed;
//              the fixes are the descriptors (other swizzle mode, LBO/SBO,
//              start, major-ness) that read the buffer right, fewest fields
//              changed first, each naming the fields it changes; and, when
//              the program swizzles offsets from a base off the swizzle's
//              period (the hardware swizzles absolute addresses), that base;
//   unchecked  base_offset is not 0 (a pattern off its boundary is not modelled).
//
//     WgmmaReport r = check_wgmma(c);
//     r.result == FrameVerdict::refuted && r.fixes[0].fields == {"lbo/sbo swapped"};
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/prove/frame_verdict.h"
#include "core/wgmma/canonical_layout.h"
#include "core/wgmma/descriptor.h"

namespace mmacheck {

struct WgmmaCase {
  std::string name;  // "A (line 3)"
  SourceLoc loc;     // the operand line
  WgmmaOperand operand;
  MatrixDescriptor descriptor;
  std::vector<std::int64_t> placed;  // byte address of element (i, k) at i * k_extent + k
  std::string placement;             // how the buffer was described (the smem line's layout)
  // Where the program swizzles (a ComposeLayout): its swizzle on bytes and
  // the buffer's base, so that a pattern off its boundary can be named.
  std::optional<Swizzle> buffer_swizzle;
  std::int64_t buffer_base = 0;
};

struct WgmmaMismatch {
  int i = 0, k = 0;
  std::int64_t read = 0, placed = 0;
};

struct WgmmaFix {
  MatrixDescriptor descriptor;
  Major major = Major::k;
  // What differs from the case: "swizzle", "major", "start", "lbo", "sbo",
  // or "lbo/sbo swapped" in place of the last two.
  std::vector<std::string> fields;
};

struct WgmmaReport {
  std::string name;
  std::string instruction;
  WgmmaOperand operand;
  MatrixDescriptor descriptor;
  FrameVerdict result = FrameVerdict::proved;
  std::optional<WgmmaMismatch> counterexample;
  int mismatches = 0;  // elements read elsewhere
  std::vector<WgmmaFix> fixes;
  std::string message;
};

// The elements `d` reads elsewhere than `placed` under `op` (row-major order).
std::vector<WgmmaMismatch> wgmma_mismatches(const WgmmaOperand& op, const MatrixDescriptor& d,
                                            const std::vector<std::int64_t>& placed);
WgmmaReport check_wgmma(const WgmmaCase& c);

}  // namespace mmacheck
