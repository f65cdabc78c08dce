// Layer core/tcgen05: Blackwell's tcgen05.mma wing.  Uses core up to
// core/prove and the wgmma wing (its canonical layouts, the statement and
// operand lines of its files), which knows nothing of it.
//
// check_tcgen05() — is one tcgen05.mma (sm_100a) set up right?  A
// Tcgen05Case is what the program means (the instruction: kind, CTA group,
// M x N x K, formats, major-ness; core/tcgen05/tcgen05_instr.h), what it passes
// (the 32-bit instruction descriptor; each shared-memory operand's 64-bit
// descriptor, core/tcgen05/tcgen05_descriptor.h, with the buffer it reads) and,
// optionally, where it then reads D in tensor memory
// (core/tcgen05/tcgen05_tmem.h).  Three checks, each exhaustive:
//
//   idesc     every field of the instruction descriptor is the instruction's
//             (refuted: each field that differs, with both values' meanings);
//   operands  the descriptor reads every element of the CTA's tile where the
//             buffer placed it: A is (M / cta_group) x K, B (N / cta_group) x K
//             (the pair splits A by M and B by N); the canonical layouts are
//             wgmma's (core/wgmma/canonical_layout.h), the descriptor's
//             tcgen05 encoding; refuted with the first element read elsewhere
//             and the descriptors (swizzle, LBO/SBO, start, major-ness) that
//             would read it right; unchecked for 128B with 32B atomic, the
//             absolute LBO mode and a nonzero base offset (not modelled);
//   tmem      D's layout over TMEM lanes and columns is the data path's;
//   k loop    (a TIRx dump's unrolled repeats, one output tile) the K blocks
//             the repeats' descriptors point at, whole-program: every
//             repeat reads A's and B's same K block, the repeats cover each
//             K block of the staged tile once, and every repeat after the
//             first adds to D (enable-input-D).  Which block a repeat needs
//             is never taken from the expression that addresses it: it is
//             the other operand's block where that operand covers every K
//             block once, else the repeat's place in the loop
//             (tcgen05_needed_blocks).
//
// The verdict is the worst of the four's.
//
//     Tcgen05Report r = check_tcgen05(c);
//     r.idesc_differences[0].field->name == "M >> 4";
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/prove/frame_verdict.h"
#include "core/wgmma/wgmma_check.h"
#include "core/tcgen05/tcgen05_descriptor.h"
#include "core/tcgen05/tcgen05_instr.h"
#include "core/tcgen05/tcgen05_tmem.h"

namespace mmacheck {

struct Tcgen05Operand {
  WgmmaCase placement;  // the operand's tile, type, major-ness and the buffer's byte addresses
  Tcgen05SmemDescriptor descriptor;
};

// One tcgen05.mma of a K loop (a TIRx dump's unrolled repeat), in execution
// order: the K block of the staged tile each operand's descriptor points at
// (its first element's address read back to a block, -1 when no block's
// first element is there) and whether it adds to D.
struct Tcgen05Step {
  std::string name;  // "line 14, repeat_2=1"
  SourceLoc loc;     // the T.ptx.tcgen05 call
  int a_block = -1, b_block = -1;
  bool accumulate = true;  // enable-input-D
};

struct Tcgen05KLoop {
  int k_blocks = 1;  // the staged tile's K blocks (A's and B's K-repeat extent)
  std::vector<Tcgen05Step> steps;
  // The program's accum flag where the program before lowering says it
  // (else the first repeat's enable-input-D states it).
  std::optional<bool> declared_accumulate;
  SourceLoc declared_loc;
};

// The K block each step must read, for A and B alike (-1: none, a step past
// the K blocks): the block the other operand reads where that operand's
// steps cover every K block once (A's first, then B's), else the step's
// place in the loop.  A step's own descriptor never decides it alone.
std::vector<int> tcgen05_needed_blocks(const Tcgen05KLoop& loop);

struct Tcgen05Case {
  Tcgen05Instr instr;
  SourceLoc instr_loc;
  std::uint32_t idesc = 0;
  SourceLoc idesc_loc;
  std::vector<Tcgen05Operand> operands;
  std::optional<TmemCase> tmem;
  std::optional<Tcgen05KLoop> k_loop;
  // Where negate A/B and saturate were stated: the program before lowering
  // ("tcgen05_neg_a.py:11") or, without one, the idesc itself.
  std::string flags_from;
};

struct Tcgen05Fix {
  Tcgen05SmemDescriptor descriptor;
  Major major = Major::k;
  std::vector<std::string> fields;  // "swizzle", "major", "start", "lbo", "sbo", "lbo/sbo swapped"
};

struct Tcgen05OperandReport {
  std::string name;  // "A (line 3)"
  char operand = 'A';
  Tcgen05SmemDescriptor descriptor;
  FrameVerdict result = FrameVerdict::proved;
  std::optional<WgmmaMismatch> counterexample;
  int mismatches = 0;
  std::vector<Tcgen05Fix> fixes;
  std::string message;
};

struct Tcgen05Report {
  std::string instruction;  // Tcgen05Instr::str()
  FrameVerdict result = FrameVerdict::proved;
  FrameVerdict idesc_result = FrameVerdict::proved;
  std::uint32_t idesc = 0, idesc_expected = 0;
  std::vector<IdescDifference> idesc_differences;
  std::vector<Tcgen05OperandReport> operands;
  std::optional<TmemReport> tmem;
  std::string computation;  // "D = (-A) * B + D over 4 K blocks"
  FrameVerdict k_loop_result = FrameVerdict::proved;
  std::vector<std::string> k_loop_messages;  // each refutation, or the one proof
};

// The k-loop check alone (the verdict and its messages into `r`).
void check_tcgen05_k_loop(const Tcgen05Case& c, Tcgen05Report& r);

Tcgen05OperandReport check_tcgen05_operand(const Tcgen05Instr& instr, const Tcgen05Operand& op);
Tcgen05Report check_tcgen05(const Tcgen05Case& c);

}  // namespace mmacheck
