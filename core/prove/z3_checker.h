// The Z3 method's shared machinery: running a query under the check's time
// budget and finding its first violating point; the symbolic forms of
// "thread (warp, lane) at slot s" and "the layout places x there".  Each
// check's encoding lives in its own prove_z3_*.cc.  Private to core/prove*.cc.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <z3++.h>

#include "core/layout/z3_encoding.h"
#include "core/prove/setup.h"
#include "core/prove/witness.h"

namespace mmacheck::prove_detail {

class TileModel;

// One check's queries, all before the run's deadline (--timeout-ms bounds
// the whole prove() run, not each query).
class Z3Session {
 public:
  Z3Session(z3::context& ctx, std::chrono::steady_clock::time_point deadline);
  z3::context& ctx() const { return *ctx_; }

  struct Result {
    CheckResult result = CheckResult::unknown;
    std::vector<std::int64_t> point;  // refuted: the values of `order`
    std::string note;                 // unknown: why
  };
  // Are `constraints` (the domain and the violation) satisfiable?  When they
  // are, the lexicographically smallest values of `order` (each ranging over
  // non-negative values) among the solutions: refuted at that point.
  Result solve(const std::vector<z3::expr>& constraints, const std::vector<z3::expr>& order);

 private:
  z3::check_result check(z3::solver& solver);
  z3::context* ctx_;
  std::chrono::steady_clock::time_point deadline_;
};

// The coordinate of (warp, lane, slot) on `axis` (see axis_value).
z3::expr axis_term(const Axis& axis, const z3::expr& warp, const z3::expr& lane, const z3::expr& slot, const Bv& bv);
// Owner `owner` (terms over storage.axes()) is the point (warp, lane, slot).
z3::expr owner_is(const Storage& storage, const std::vector<z3::expr>& owner, const z3::expr& warp,
                  const z3::expr& lane, const z3::expr& slot, const Bv& bv);
// The owners of operand element [row, col] (through the view) of a storage.
std::vector<std::vector<z3::expr>> operand_owners(const Storage& storage, const OperandPlace& view, const z3::expr& row,
                                                  const z3::expr& col, const Bv& bv);
// The storage places one of `owners` at (warp, lane, slot).
z3::expr places(const Storage& storage, const std::vector<std::vector<z3::expr>>& owners, const z3::expr& warp,
                const z3::expr& lane, const z3::expr& slot, const Bv& bv);
// The largest magnitude in `v` (0 when empty): for bv_width bounds.
std::int64_t max_abs(const std::vector<std::int64_t>& v);
// A frame coordinate (row or col) of `lane`'s element `elem`: linear in
// g = lane / 4, t = lane % 4 and the bits of elem.
z3::expr frame_term(const FrameAxis& f, const z3::expr& lane, const z3::expr& elem, const Bv& bv);
// The slot a register view gives tile (t0, t1)'s element whose within-tile
// coordinates are within[elem] (one row per element, elem symbolic).
z3::expr view_slot(const RegisterView& view, const z3::expr& t0, const z3::expr& t1,
                   const std::vector<std::vector<std::int64_t>>& within, const z3::expr& elem, const Bv& bv);
// A bound for bv_width covering the storage's layout (coordinates, owners),
// the scope's threads and its slots.
std::int64_t storage_bound(const ProofSetup& setup, const Storage& storage);

// Frame outcomes by query: the mma's C and D operands pose the same question
// (the accumulator frame on D's registers) when the nest accumulates in place.
using FrameMemo = std::map<std::vector<std::int64_t>, Outcome>;

// The checks.
Outcome frames_z3(const ProofSetup& setup, GemmOperand op, Z3Session& session, FrameMemo& memo);
Outcome fragment_z3(const ProofSetup& setup, GemmOperand op, Z3Session& session);
Outcome accumulation_z3(const ProofSetup& setup, Z3Session& session);
// Both accumulation checks' queries: `products` or `inits` (faults over the
// warp w, lane l and D element (i, j), products also over k) anywhere in
// `domain`; the witness names products first.
Outcome accumulation_outcome(Z3Session& session, const z3::expr& domain, const z3::expr& products,
                             const z3::expr& inits, const z3::expr& w, const z3::expr& l, const z3::expr& i,
                             const z3::expr& j, const z3::expr& k);
// The same frame and accumulation checks over symbolic tile indices, for a
// nest that is its views' unrolling (core/prove/tile_model.h).
Outcome tile_frames_z3(const ProofSetup& setup, const TileModel& model, GemmOperand op, Z3Session& session);
Outcome tile_accumulation_z3(const ProofSetup& setup, const TileModel& model, Z3Session& session);
// proved: the affine origins are what the anchors rule reads, for every tile
// and warp (OriginRule, core/prove/setup.h; z3_tile_anchors.cc).
CheckResult tile_anchors_z3(const ProofSetup& setup, const TileModel& model, Z3Session& session);
Outcome staging_z3(const ProofSetup& setup, const StagingRef& staging, Z3Session& session);

}  // namespace mmacheck::prove_detail
