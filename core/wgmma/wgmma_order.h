// check_wgmma_order() — are a kernel's wgmma.mma_async instructions fenced,
// committed and waited for as the PTX ISA requires (§9.7.15.6, "Asynchronous
// Warpgroup Level Matrix Multiply-Accumulate": wgmma.fence, commit_group,
// wait_group)?  Read from the kernel's PTX as nvcc or NVRTC writes it (the
// inline asm of a CUDA kernel included), straight-line code:
//
//   fence     a wgmma.fence before the first wgmma.mma_async, and between a
//             register access by the threads (any other instruction reading or
//             writing the accumulator or the A fragment) and a later
//             wgmma.mma_async using those registers (wgmma.mma_async's own
//             accumulation across instructions needs none);
//   in flight no instruction touches the registers of a wgmma.mma_async
//             before it is complete: committed (wgmma.commit_group) and then
//             waited for (wgmma.wait_group N leaves at most the N newest
//             groups pending);
//   waited    every wgmma.mma_async is committed and complete by the end of
//             its kernel (the closing brace, or an unpredicated ret or exit,
//             after which nothing runs).
//
// Each top-level block (.entry or .func) is its own program: one kernel's
// wait completes none of another's mmas.  A commit with no mma since the
// last one opens an empty group, which wait_group's N counts.  Registers are
// PTX identifiers, with or without '%'.  N is a PTX integer constant (0x, 0b,
// leading-0 octal); a negative or malformed N is a located error.
//
// Refuted names the instruction, its line and the rule:
//     line 14: mov.b32 reads %f3, accumulator of the wgmma.mma_async at line 9,
//     which is still in flight (committed at line 10, no wgmma.wait_group since)
// Unchecked: control flow (a branch or call, or a predicated wgmma
// instruction, ret or exit: the order would depend on the path), or no
// wgmma.mma_async at all.  What is not PTX is a located error.
//
//     WgmmaOrderReport r = check_wgmma_order(read_text_file("k.ptx"), "k.ptx");
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/prove/frame_verdict.h"

namespace mmacheck {

enum class WgmmaOrderRule { fence, in_flight, waited };
std::string_view wgmma_order_rule_name(WgmmaOrderRule rule);  // "fence", "in flight", "waited"

struct WgmmaOrderViolation {
  WgmmaOrderRule rule;
  SourceLoc at;         // the offending instruction (for `waited`: the wgmma.mma_async)
  std::string message;  // "mov.b32 reads %f3, accumulator of the wgmma.mma_async at line 9, ..."
};

struct WgmmaOrderReport {
  FrameVerdict result = FrameVerdict::proved;
  int mma_count = 0;                            // wgmma.mma_async instructions read
  int group_count = 0;                          // wgmma.commit_group instructions
  std::string message;                          // the verdict's reason in one line
  std::vector<WgmmaOrderViolation> violations;  // in program order
};

WgmmaOrderReport check_wgmma_order(std::string_view ptx, const std::string& file);

}  // namespace mmacheck
