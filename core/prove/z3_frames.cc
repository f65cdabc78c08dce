// "A frame" ... "D frame" in Z3: one query per operand over a symbolic
// statement group, warp, lane and frame element.
//
// Statements whose registers and per-warp origins for the operand are equal
// pose the same question, so they form one group (numbered in order of their
// first statement); the query ranges over the group index q, with the
// registers and origins as tables indexed by q.  The first violating group's
// first statement is the witness statement.
#include <algorithm>
#include <map>

#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

namespace {

struct Group {
  int first_mma;
  std::vector<std::int64_t> slots;                // per frame element
  std::vector<std::int64_t> row0, col0, defined;  // per warp
};

std::vector<Group> groups_of(const ProofSetup& setup, GemmOperand op) {
  const Frame& f = setup.frame(op);
  std::vector<Group> groups;
  std::map<std::vector<std::int64_t>, int> index;  // slots ++ origins -> group
  for (int q = 0; q < static_cast<int>(setup.mmas.size()); ++q) {
    const MmaRef& ref = setup.mmas[q];
    Group g{q, {}, {}, {}, {}};
    const std::vector<int>& regs = ProofSetup::registers(*ref.mma, op);
    for (int e = 0; e < f.elems(); ++e)
      g.slots.push_back(std::int64_t{regs[e / f.per_reg()]} * f.per_reg() + e % f.per_reg());
    for (const Origin& o : ref.origin) {
      const auto [r0, c0] = ProofSetup::frame_origin(o, op);
      g.defined.push_back(r0 && c0);
      g.row0.push_back(r0 && c0 ? *r0 : 0);
      g.col0.push_back(r0 && c0 ? *c0 : 0);
    }
    std::vector<std::int64_t> key = g.slots;
    for (const auto* part : {&g.row0, &g.col0, &g.defined}) key.insert(key.end(), part->begin(), part->end());
    if (index.emplace(key, static_cast<int>(groups.size())).second) groups.push_back(std::move(g));
  }
  return groups;
}

// One query over every group: tables indexed by the group q (registers)
// and by (q, warp) (origins).
Outcome decide(const ProofSetup& setup, GemmOperand op, const std::vector<Group>& groups, Z3Session& session) {
  const Frame& f = setup.frame(op);
  const GemmOperand buffer = setup.frame_buffer(op);
  const Storage& st = setup.storage(buffer);
  const OperandPlace& view = setup.view(buffer);
  const int G = static_cast<int>(groups.size()), W = setup.warps, E = f.elems();

  std::vector<std::int64_t> slots, row0, col0, defined;
  for (const Group& g : groups) {
    slots.insert(slots.end(), g.slots.begin(), g.slots.end());
    row0.insert(row0.end(), g.row0.begin(), g.row0.end());
    col0.insert(col0.end(), g.col0.begin(), g.col0.end());
    defined.insert(defined.end(), g.defined.begin(), g.defined.end());
  }
  const std::int64_t bound =
      std::max({storage_bound(setup, st), max_abs(slots), max_abs(row0) + f.rows, max_abs(col0) + f.cols,
                std::int64_t{G} * std::max(W, E) + E, view.rows(), view.cols()});
  const auto width = bv_width(bound);
  if (!width) return {CheckResult::unknown, std::nullopt, "values too large to encode"};
  const Bv bv(session.ctx(), *width);

  const z3::expr q = bv.var("q"), w = bv.var("w"), l = bv.var("l"), e = bv.var("e");
  const z3::expr qw = q * bv.num(W) + w;
  const z3::expr slot = bv.table(q * bv.num(E) + e, slots);
  const z3::expr i = bv.table(qw, row0) + frame_term(f.row, l, e, bv);
  const z3::expr j = bv.table(qw, col0) + frame_term(f.col, l, e, bv);
  const z3::expr holds = bv.table(qw, defined) == bv.num(1) && bv.in_range(i, 0, view.rows()) &&
                         bv.in_range(j, 0, view.cols()) &&
                         places(st, operand_owners(st, view, i, j, bv), w, l, slot, bv);
  const Z3Session::Result r = session.solve(
      {bv.in_range(q, 0, G), bv.in_range(w, 0, W), bv.in_range(l, 0, 32), bv.in_range(e, 0, E), !holds}, {q, w, l, e});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  const auto& p = r.point;
  return {CheckResult::refuted,
          FrameWitness{groups[p[0]].first_mma, static_cast<int>(p[1]), static_cast<int>(p[2]), static_cast<int>(p[3])},
          {}};
}

}  // namespace

Outcome frames_z3(const ProofSetup& setup, GemmOperand op, Z3Session& session, FrameMemo& memo) {
  const std::vector<Group> groups = groups_of(setup, op);
  if (groups.empty()) return {CheckResult::proved, std::nullopt, {}};
  // The question, whole: the buffer (C and D share D's), the groups.
  std::vector<std::int64_t> key{static_cast<std::int64_t>(setup.frame_buffer(op))};
  for (const Group& g : groups) {
    key.push_back(g.first_mma);
    for (const auto* part : {&g.slots, &g.row0, &g.col0, &g.defined}) key.insert(key.end(), part->begin(), part->end());
  }
  if (const auto known = memo.find(key); known != memo.end()) {
    Outcome same = known->second;
    same.solved = false;
    return same;
  }
  const Outcome outcome = decide(setup, op, groups, session);
  memo.emplace(std::move(key), outcome);
  return outcome;
}

}  // namespace mmacheck::prove_detail
