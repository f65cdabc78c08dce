// The proof report: what prove() (core/prove/prove.h) returns, as plain
// values — the checks and their results, counterexamples with every
// mismatch, the diagnosis of a declined gemm, bank conflicts.  Every header
// of core/prove that speaks of results includes this one, never prove.h.
//
// A check is named by its kind and its subject (CheckId): the kind says
// what is checked, the subject of what — an operand ("A frame"), a buffer
// ("stage A_f"), a shared buffer ("swizzle S"), a statement ("rows
// ldmatrix.x4 A_f"), nothing ("accumulation").  The name a person reads and
// the JSON carries is made from one table (report.cc), so nothing downstream
// takes a name apart:
//
//     CheckId{CheckKind::stage, "A"}.name() == "stage A"
//     CheckId{CheckKind::frame, "D"}.name() == "D frame"
//     check_kind_name(CheckKind::ld_shared) == "ld.shared"
//     diagnosis_property_name(DiagnosisProperty::lane_range) == "lane range"
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/mma_inst.h"
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

// superseded: the piece departs from its layouts' plain reading (a staging
// that permutes K consistently with B's, tiles swapped in both A and D, a
// wrong staging overwritten before the mma), and the program as executed
// computes the gemm all the same (the "program" check proved); never a
// failure, reported so that the departure is seen.
enum class CheckResult { proved, refuted, unknown, superseded };
std::string_view check_result_name(CheckResult result);

enum class Verdict { proved, refuted, dispatch_failed, unknown };
std::string_view verdict_name(Verdict verdict);

// What a check decides (core/prove/prove.h lists the register checks,
// core/prove/shared_checks.h the shared-memory ones).  `diagnosis` marks the
// counterexample of a diagnosis finding, which belongs to no check.
enum class CheckKind {
  frame,          // "A frame": the nest's registers hold the PTX frame's elements
  fragment,       // "A fragment": the layout places the region injectively in the scope
  accumulation,   // "accumulation": every product formed once, from C or zero
  stage,          // "stage A": the stage statement loads what A's layout places
  store,          // "store D": the store statement writes what D's layout places
  swizzle,        // "swizzle S": S's swizzled layout is a bijection into its allocation
  swizzle_fill,   // "swizzle S (fill)": the same for the writer's own swizzle
  swizzle_drain,  // "swizzle S (drain)"
  fill,           // "fill S": writer and reader agree on every offset
  drain,          // "drain S"
  rows,           // "rows X": X's row addresses are aligned rows of S
  ldmatrix,       // "ldmatrix R": the shared path delivers R's layout
  stmatrix,       // "stmatrix R"
  ld_shared,      // "ld.shared R"
  st_shared,      // "st.shared R"
  diagnosis,      // "diagnosis"
  program,        // "program": the program as executed yields D = A·B (+ C) (core/prove/program_run.h)
};
// The kind's short name: "frame", "stage", "ld.shared", "swizzle (fill)", ...
std::string_view check_kind_name(CheckKind kind);
// The checks of the program's stage/store statements.
inline bool is_staging(CheckKind kind) { return kind == CheckKind::stage || kind == CheckKind::store; }

struct CheckId {
  CheckKind kind = CheckKind::frame;
  std::string subject;  // the operand, buffer or statement; empty for accumulation and diagnosis
  // "A frame", "stage A", "swizzle S (fill)", "accumulation".
  std::string name() const;
  bool operator==(const CheckId&) const = default;
};

struct CheckReport {
  CheckId check;
  CheckResult result = CheckResult::unknown;
  ProofMethod method = ProofMethod::z3;
  double ms = 0;
  std::string note;    // why unknown ("timed out after N ms"), or that no solving was needed
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
  CheckId check;
  std::string operand;      // "A" (frames, fragments), "D" (accumulation), the buffer (staging)
  std::string source;       // staging: the statement's source (stage) or target (store) matrix, "A_g"
  std::optional<int> warp;  // set at CTA scope
  int lane = 0;             // the lane whose register is wrong (for ldmatrix/stmatrix: that receives or sends it)
  std::int64_t slot = 0;    // register slot (element index into the thread's storage)
  // ldmatrix/stmatrix checks (the copy and its "rows" check): the lane whose
  // row address the wrong element moves through (lanes 8i..8i+7 give matrix
  // i's rows, which lanes other than themselves receive).
  std::optional<int> address_lane;
  std::optional<int> stmt;               // index into the nest's statements
  std::optional<std::vector<int>> tile;  // the mma's (m, n, k) tile indices
  std::optional<int> element;            // frame element index
  std::optional<std::int64_t> k;         // accumulation: the K index of the product
  std::optional<Element> expected;       // what should be there (absent: nothing should)
  std::optional<Element> actual;         // what is there (absent: nothing is)
  std::string message;                   // the whole counterexample in words
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

// The property a diagnosis finding names (core/prove/diagnosis.h): the
// first of an operand's layout that fails, or an instruction-level finding.
enum class DiagnosisProperty {
  lane_range,       // "lane range": an owner outside the scope's lanes (warps)
  register_span,    // "register span": an owner off the register slots
  replica,          // "replica": a replica places an element twice in a warp
  injectivity,      // "injectivity": two elements at one (thread, slot)
  coverage,         // "coverage": lanes of a warp hold unequal counts
  frame,            // "frame": the PTX frame does not match
  fits,             // "fits": every operand fits; TVM declines for another reason
  instruction_set,  // "instruction set": the dtypes need --inst-set extended
  shape,            // "shape": M, N, K fit no instruction tile
  dtypes,           // "dtypes": no instruction takes the dtypes
};
std::string_view diagnosis_property_name(DiagnosisProperty property);
// Findings about the instructions, not about one instruction's operands.
inline bool is_instruction_level(DiagnosisProperty p) {
  return p == DiagnosisProperty::instruction_set || p == DiagnosisProperty::shape || p == DiagnosisProperty::dtypes;
}

// Why a declined gemm does not fit an instruction the dtypes and the shape
// admit (core/prove/diagnosis.h): the first property of one operand's
// layout that fails, a counterexample in the prover's words, and the fix.
struct Diagnosis {
  std::string instruction;  // PTX name; empty where no instruction is concerned
  std::string operand;      // "A", "B", "C", "D"; empty for instruction-level findings
  DiagnosisProperty property = DiagnosisProperty::fits;
  std::optional<Counterexample> counterexample;  // lane, slot, expected, actual, message
  std::string message;                           // the finding in words (without the fix)
  std::optional<std::string> fix;                // the repaired layout, "S[...]" or "B_FRAG.group(...)..."
  std::string fix_line;                          // as the user would write it: "D_FRAG = S[...]"
  std::string fix_reason;                        // "the two register iters were swapped", or why no fix
  bool fix_proves = false;                       // the program with the fix dispatches and every check proves
};

struct ProofReport {
  Verdict verdict = Verdict::unknown;
  const MmaInst* inst = nullptr;  // nullptr when the dispatch failed
  int tiles_m = 0, tiles_n = 0, tiles_k = 0;
  int mma_count = 0;
  std::vector<std::string> reasons;  // the dispatch's, when it failed
  std::vector<CheckReport> checks;
  std::vector<Counterexample> counterexamples;  // one per refuted check, in check order
  std::vector<Diagnosis> diagnosis;             // after a decline (explain), else empty
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

}  // namespace mmacheck
