// Complete mismatch sets of refuted checks, summarised for a person.
// Private to core/prove*.cc.
//
// A refuted frame or staging check lists every failing point (by
// enumeration, in the check's order, whichever method refuted it) in
// Counterexample::mismatches, and one line in Counterexample::summary:
//
//   128 of 256 (lane, slot) pairs wrong — slots 2..5 of every lane; slot 2
//   holds what the layout puts in slot 4 (kHi and rM swapped)
//
// The causes recognised, in this order (staging checks; frames get the
// first two, against where the frame wants what a register holds):
//   a permutation of slots within each lane (named by the slot bits it
//     swaps: kp, rM, kHi, rN, Mo, No, Ko as the operand's layout uses them),
//     or of lanes at the same slot; a shift of every wrong slot by one amount;
//   an offset: every wrong element is the same (row, col) distance away;
//   a wrong stride: one index is off by c * T for one term T of lane or s
//     (lane // 4, lane % 4, s % 2, (s // 2) % 2, s // 4, ...);
//   a wrong modulus: one index has c * T2 where the layout needs c * T1,
//     T1 and T2 terms of the same variable (lane % 4 for lane // 4).
//
// A check with more points than --max-explain-points (core/base/limits.h)
// is explained over its first points only, whole mma statements (frames)
// or whole threads (staging) at a time, at least one: a refuted 1024^3
// tiling has 2^27 frame points, whose listing took 17 GB.  The summary then
// says so ("... (explained over the first 262144 of 134217728 points:
// --max-explain-points caps it)"), and cx.points counts the points examined.
#pragma once

#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

// Fills cx.mismatches, cx.points and cx.summary for a refuted check (frame
// or staging; other kinds are left alone), over at most
// limits.get(Resource::explain_points) points.
void explain_mismatches(const ProofSetup& setup, const CheckSpec& check, const Limits& limits, Counterexample& cx);

}  // namespace mmacheck::prove_detail
