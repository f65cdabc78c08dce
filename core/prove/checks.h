// The checks' violation predicates, evaluated concretely.  These are the
// definitions the Z3 encodings (prove_z3_*.cc) restate symbolically and the
// exhaustive method enumerates; describe() uses them to explain a witness.
// Private to core/prove*.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/prove/setup.h"

namespace mmacheck::prove_detail {

// Frame: element `elem` of `lane`'s fragment of operand `op` in mma `mma`
// (index into setup.mmas), warp `warp`.
struct FramePoint {
  std::int64_t slot = 0;            // the register slot the nest passes
  std::optional<Element> expected;  // what the frame needs there (absent: no tile origin)
  bool holds = false;               // the layout places `expected` at (thread, slot)
};
FramePoint frame_point(const ProofSetup& setup, GemmOperand op, int mma, int warp, int lane, int elem);

// Fragment: the canonical thread of an owner (lane and warp derived from
// laneid / warpid / tx) and whether the owner lies inside the scope, the
// storage span and the register axis.
struct Placement {
  int warp = 0, lane = 0;  // clamped into int for reporting
  std::int64_t slot = 0;
  bool inside = false;
};
Placement placement(const ProofSetup& setup, const Storage& storage, const Key& owner);

// Accumulation: how many mma statements of `warp` form A[i][k]·B[k][j].
int product_count(const ProofSetup& setup, int warp, std::int64_t i, std::int64_t j, std::int64_t k);
// The D slot of D[i][j] in (warp, lane), if that thread holds it.
std::optional<std::int64_t> d_slot(const ProofSetup& setup, int warp, int lane, std::int64_t i, std::int64_t j);

// What goes wrong with D[i][j]'s initialisation in (warp, lane), slot s.
enum class InitFault { none, accumulated_before_init, reinitialised, wrong_source };
struct InitVerdict {
  InitFault fault = InitFault::none;
  int stmt = -1;   // the statement where it shows (index into nest.stmts)
  int index = -1;  // wrong_source: position in the init's d_slots
};
InitVerdict init_verdict(const ProofSetup& setup, int warp, int lane, std::int64_t i, std::int64_t j,
                         std::int64_t slot);

// Staging: the element (ROW, COL) a stage/store statement names at
// (warp, lane, slot); IndexExpr::eval's Errors propagate.
Element staging_element(const StagingRef& staging, int warp, int lane, std::int64_t slot);
bool staging_ok(const ProofSetup& setup, const StagingRef& staging, int warp, int lane, std::int64_t slot);

}  // namespace mmacheck::prove_detail
