// Layer core/prove: proof set-up, checks, the Z3 and exhaustive engines, witnesses,
// complete mismatch sets (mismatch.h), the diagnosis of declined layouts and
// the fix search (diagnosis.h, fix_search.h).  Uses core/base..core/gemm;
// knows nothing of core/emit.
//
// prove() — does the nest the dispatch emits compute D = A@B (+ C)?
//
// The specification is the program, not the dispatch: the operands' buffer
// layouts (with the gemm's regions and transposes) and the PTX fragment
// frames (core/gemm/ptx_frame.h).  The nest is only trusted for what it *is* (its
// statements and register numbers).  Each property is a named check over
// every warp of the scope, every lane and every register slot:
//
//   "A frame", "B frame", "C frame", "D frame" — for every mma statement,
//       warp and lane, the register the nest passes holds the element the
//       instruction's frame requires at the statement's tile: A[m0 + row,
//       k0 + col], B[k0 + row, n0 + col], D[m0 + row, n0 + col] for the
//       accumulator input ("C", the mma's C operand: registers of D,
//       accumulated in place) and output ("D"); register r holds slots
//       [r * per_reg, (r + 1) * per_reg).  The tile origins of a statement in
//       a warp are read off the layouts: (m0, n0) from D's element in lane
//       0's first accumulator slot, k0 from A's in lane 0's first A slot
//       (falling back to A's row and B's element where D's or A's slot holds
//       nothing); where two anchors of one coordinate disagree (m: D, A;
//       n: D, B; k: A, B), the one that agrees with the statement's tile
//       index wins (the released TIRx: tile (m, n, k) at (16m, 8n, k·K);
//       else the first statement's origin plus the tile times the extent),
//       so the counterexample names the operand whose register is wrong.
//       Operands that disagree refute the disagreeing operand's
//       frame; a warp where no operand gives a tile (a CTA larger than its
//       layouts) refutes every frame.
//   "A fragment", ... — each operand's layout places the elements of its
//       region injectively, in threads of the scope, at slots of the buffer's
//       storage span, on no memory axis but `m` ("C fragment" only when
//       beta = 1).
//   "accumulation" — every warp holding D[i][j] forms A[i][k]·B[k][j]
//       (per the tile origins) exactly once for each k, starts from C[i][j]
//       (beta = 1, copied from the slot of the same thread that C's layout
//       assigns) or zero (beta = 0), and initialises the element's slot
//       before the first mma covering it, never after.  Warps that split K
//       each holding a copy of D fail here.
//   "swizzle S", "fill S", "rows X", "ldmatrix X", "stmatrix X", ... — for
//       programs that stage through shared memory: core/prove/shared_checks.h
//       (decided by enumeration, method exhaustive, under either method).
//   "stage X", "store X" — for the program's stage/store statements: every
//       warp, lane and slot of X's storage span (0 .. span(m) - 1) loads
//       (writes) exactly the element X's layout places there; a slot that
//       holds nothing, or an element outside X, refutes it.
//
// Three methods decide the same checks: z3 (symbolic warp, lane, slot,
// element and tile indices; bit-vector queries whose size does not grow
// with the tile count, after a concrete check that the nest is the
// unrolling of the dispatch's register views), z3-unrolled (the same with
// the statements unrolled into the queries: symbolic statement groups, as
// before the tile-symbolic encoding; kept as a cross-check) and exhaustive
// (concrete enumeration, no Z3).  All report the *first* violation in the
// same order (core/prove/witness.h), so their counterexamples coincide;
// only the Z3 methods can end `unknown` (their time limit).
//
//     ProofReport r = prove(load_program("examples/seed.txt"), {});
//     r.verdict == Verdict::refuted
//     r.counterexamples[0].check == "stage A", .lane == 0, .slot == 2,
//     .expected == {8, 0}, .actual == {0, 8}
//     .message == "lane 0, slot 2: stage A loads A_g[0][8] but A_FRAG places A[8][0]"
//     .mismatches.size() == 128, .summary ends "(kHi and rM swapped)"
//
// With options.explain (the default), a refuted check also gets every
// mismatch and a summary (frame, staging) and a layout fix (frame,
// fragment); a failed dispatch gets ProofReport::diagnosis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/prove/bank_conflicts.h"

namespace mmacheck {

// z3: Z3 over symbolic tile indices where the nest is its register views'
// unrolling (core/prove/tile_model.h), the per-statement encoding where it
// is not; z3_unrolled: the per-statement encoding always (the cross-check);
// exhaustive: enumeration.
enum class ProofMethod { z3, z3_unrolled, exhaustive };
// "z3" / "z3-unrolled" / "exhaustive"; throws Error otherwise.
ProofMethod parse_proof_method(std::string_view name);
std::string_view proof_method_name(ProofMethod method);

enum class CheckResult { proved, refuted, unknown };
std::string_view check_result_name(CheckResult result);

enum class Verdict { proved, refuted, dispatch_failed, unknown };
std::string_view verdict_name(Verdict verdict);

struct ProveOptions {
  ProofMethod method = ProofMethod::z3;
  // Z3's time for the whole run (every check); a check that runs out, and
  // every check after it, is `unknown`.
  unsigned timeout_ms = 10000;
  InstSet inst_set = InstSet::tvm;
  Limits limits;  // checked before any work (core/gemm/resources.h)
  // Explain what fails: a diagnosis after a decline (with its fix search),
  // every mismatch of a refuted check and its summary.  Off where prove()
  // only needs the verdict (the fix search verifying a candidate).
  bool explain = true;
};

struct CheckReport {
  std::string name;  // "A frame", "stage A", ...
  CheckResult result = CheckResult::unknown;
  ProofMethod method = ProofMethod::z3;
  double ms = 0;
  std::string note;  // why unknown ("timed out after N ms"), or that no solving was needed
  bool solved = true;  // false: answered without solving (the same query as an earlier check)
};

// The note of a check decided by enumeration whatever the run's method
// (the shared-memory checks, core/prove/shared_checks.h).
inline constexpr std::string_view kEnumerated = "decided by enumeration";

// A logical element: [row, col] of an operand (frame, fragment, accumulation
// checks) or of a buffer (stage/store checks).
using Element = std::vector<std::int64_t>;

// One failing point of a refuted check: at (warp, lane, slot) the check
// needs `expected` and finds `actual` (the fields as in Counterexample).
struct Mismatch {
  std::optional<int> warp;  // set at CTA scope
  int lane = 0;
  std::int64_t slot = 0;
  std::optional<std::vector<std::int64_t>> expected;
  std::optional<std::vector<std::int64_t>> actual;
};

// Where a check fails.  lane/slot are always set; the rest where relevant.
struct Counterexample {
  std::string check;
  std::string operand;          // "A" (frames, fragments), "D" (accumulation), the buffer (staging)
  std::string source;           // staging: the statement's source (stage) or target (store) matrix, "A_g"
  std::optional<int> warp;      // set at CTA scope
  int lane = 0;                 // the lane whose register is wrong (for ldmatrix/stmatrix: that receives or sends it)
  std::int64_t slot = 0;        // register slot (element index into the thread's storage)
  // ldmatrix/stmatrix checks (the copy and its "rows" check): the lane whose
  // row address the wrong element moves through (lanes 8i..8i+7 give matrix
  // i's rows, which lanes other than themselves receive).
  std::optional<int> address_lane;
  std::optional<int> stmt;      // index into the nest's statements
  std::optional<std::vector<int>> tile;  // the mma's (m, n, k) tile indices
  std::optional<int> element;   // frame element index
  std::optional<std::int64_t> k;  // accumulation: the K index of the product
  std::optional<Element> expected;  // what should be there (absent: nothing should)
  std::optional<Element> actual;    // what is there (absent: nothing is)
  std::string message;          // the whole counterexample in words
  // Frame and staging checks: every failing point, in the check's order
  // (the first is the counterexample's own), and a one-line summary for a
  // person (core/prove/mismatch.h); empty for the other checks.
  std::vector<Mismatch> mismatches;
  std::int64_t points = 0;  // how many points the check has (the denominator of the summary)
  std::string summary;
  // Refuted frame, fragment and staging checks: a single change of the
  // operand's layout that makes every check prove, as the user would write
  // it (for staging: the other reading — the statement was meant, the
  // layout was not).
  std::optional<std::string> fix;
  std::string fix_reason;
};

// Why a declined gemm does not fit an instruction the dtypes and the shape
// admit (core/prove/diagnosis.h): the first property of one operand's
// layout that fails, a counterexample in the prover's words, and the fix.
struct Diagnosis {
  std::string instruction;  // PTX name; empty where no instruction is concerned
  std::string operand;      // "A", "B", "C", "D"; empty for instruction-level findings
  // "lane range", "register span", "injectivity", "coverage", "frame";
  // "fits" (every operand fits, TVM declines for another reason);
  // "instruction set" (the dtypes need --inst-set extended); "shape", "dtypes".
  std::string property;
  std::optional<Counterexample> counterexample;  // lane, slot, expected, actual, message
  std::string message;                           // the finding in words (without the fix)
  std::optional<std::string> fix;                // the repaired layout, "S[...]" or "B_FRAG.group(...)..."
  std::string fix_line;    // as the user would write it: "D_FRAG = S[...]"
  std::string fix_reason;  // "the two register iters were swapped", or why no fix
  bool fix_proves = false; // the program with the fix dispatches and every check proves
};

struct ProofReport {
  Verdict verdict = Verdict::unknown;
  const MmaInst* inst = nullptr;  // nullptr when the dispatch failed
  int tiles_m = 0, tiles_n = 0, tiles_k = 0;
  int mma_count = 0;
  std::vector<std::string> reasons;  // the dispatch's, when it failed
  std::vector<CheckReport> checks;
  std::vector<Counterexample> counterexamples;  // one per refuted check, in check order
  std::vector<Diagnosis> diagnosis;  // after a decline (explain), else empty
  // What the checks did not cover, in words: "staging not checked: ..." when
  // the program gives no staging (no stage/store statements, no TVMScript
  // staging loops), or names the operands it leaves unstaged.
  std::vector<std::string> notes;
  // Programs that stage through shared memory: the wavefronts of every
  // shared-memory statement (core/prove/bank_conflicts.h), in statement order.
  std::vector<BankCount> bank_conflicts;
  int extra_wavefronts() const {
    int n = 0;
    for (const BankCount& b : bank_conflicts) n += b.extra();
    return n;
  }
};

// Dispatch the program's gemm and prove its nest.  Throws Error on bad input
// (the dispatch's, a stage/store on a non-local buffer or with a source of
// another shape, a layout on thread axes other than laneid, warpid and tx).
ProofReport prove(const Program& program, const ProveOptions& options);
// Prove a given plan (tests hand-edit nests); `plan` must come from
// dispatch(program) or be such an edit.
ProofReport prove(const Program& program, const Plan& plan, const ProveOptions& options);

}  // namespace mmacheck
