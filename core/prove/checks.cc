#include "core/prove/checks.h"

#include <algorithm>
#include <variant>

#include "core/base/checked.h"

namespace mmacheck::prove_detail {

namespace {

bool inside(const OperandPlace& v, std::int64_t i, std::int64_t j) {
  return i >= 0 && i < v.rows() && j >= 0 && j < v.cols();
}

// Whether the mma (index into setup.mmas) in `warp` covers D[i][j].
bool mma_covers(const ProofSetup& setup, int mma, int warp, std::int64_t i, std::int64_t j) {
  const Origin& o = setup.mmas[mma].origin[warp];
  return o.m0 && o.n0 && *o.m0 <= i && i < *o.m0 + setup.inst.m && *o.n0 <= j && j < *o.n0 + setup.inst.n;
}

}  // namespace

FramePoint frame_point(const ProofSetup& setup, GemmOperand op, int mma, int warp, int lane, int elem) {
  const MmaRef& ref = setup.mmas[mma];
  const Frame& f = setup.frame(op);
  const int per = f.per_reg();
  FramePoint p;
  p.slot = std::int64_t{ProofSetup::registers(*ref.mma, op)[elem / per]} * per + elem % per;
  const auto [r0, c0] = ProofSetup::frame_origin(ref.origin[warp], op);
  if (!r0 || !c0) return p;
  const std::int64_t i = *r0 + f.row.at(lane, elem), j = *c0 + f.col.at(lane, elem);
  p.expected = Element{i, j};
  const GemmOperand buffer = setup.frame_buffer(op);
  const OperandPlace& v = setup.view(buffer);
  if (!inside(v, i, j)) return p;
  const Storage& st = setup.storage(buffer);
  p.holds = st.places(st.flat(v.to_buffer(i, j)), {warp, lane}, p.slot);
  return p;
}

Placement placement(const ProofSetup& setup, const Storage& storage, const Key& owner) {
  const auto at = [&](const Axis& a) -> std::optional<std::int64_t> {
    const int i = storage.axis_index(a);
    if (i < 0) return std::nullopt;
    return owner[i];
  };
  const auto tx = at(Axis::tx());
  const std::int64_t lane = at(Axis::laneid()).value_or(tx ? floor_mod(*tx, 32) : 0);
  const std::int64_t warp = at(Axis::warpid()).value_or(tx ? floor_div(*tx, 32) : 0);
  Placement p;
  p.slot = at(Axis::m()).value_or(0);
  p.lane = static_cast<int>(std::clamp<std::int64_t>(lane, -1, 1 << 30));
  p.warp = static_cast<int>(std::clamp<std::int64_t>(warp, -1, 1 << 30));
  p.inside = lane >= 0 && lane < 32 && warp >= 0 && warp < setup.warps && p.slot >= 0 && p.slot < storage.span() &&
             storage.key({p.warp, p.lane}, p.slot) == owner;
  return p;
}

int product_count(const ProofSetup& setup, int warp, std::int64_t i, std::int64_t j, std::int64_t k) {
  int count = 0;
  for (int q = 0; q < static_cast<int>(setup.mmas.size()); ++q) {
    const Origin& o = setup.mmas[q].origin[warp];
    count += o.k0 && mma_covers(setup, q, warp, i, j) && *o.k0 <= k && k < *o.k0 + setup.inst.k;
  }
  return count;
}

std::optional<std::int64_t> d_slot(const ProofSetup& setup, int warp, int lane, std::int64_t i, std::int64_t j) {
  // D has no replicas (the dispatch's no_replica): one owner.
  const Storage& st = setup.storage(GemmOperand::D);
  const Key& owner = st.owners(st.flat(setup.view(GemmOperand::D).to_buffer(i, j))).front();
  const int m = st.axis_index(Axis::m());
  const std::int64_t slot = m < 0 ? 0 : owner[m];
  if (st.key({warp, lane}, slot) != owner) return std::nullopt;
  return slot;
}

InitVerdict init_verdict(const ProofSetup& setup, int warp, int lane, std::int64_t i, std::int64_t j,
                         std::int64_t slot) {
  const Storage& c = setup.storage(GemmOperand::C);
  const std::int64_t c_flat = c.flat(setup.view(GemmOperand::C).to_buffer(i, j));
  bool initialised = false, accumulated = false;
  int q = 0;  // index into setup.mmas of the next mma statement
  const auto& stmts = setup.plan.nest.stmts;
  for (int p = 0; p < static_cast<int>(stmts.size()); ++p) {
    if (const auto* init = std::get_if<InitStmt>(&stmts[p])) {
      for (int x = 0; x < static_cast<int>(init->d_slots.size()); ++x) {
        if (init->d_slots[x] != slot) continue;
        if (accumulated) return {InitFault::reinitialised, p, x};
        const bool copies_c = setup.beta_one ? x < static_cast<int>(init->c_slots.size()) &&
                                                   c.places(c_flat, {warp, lane}, init->c_slots[x])
                                             : init->c_slots.empty();
        if (!copies_c) return {InitFault::wrong_source, p, x};
        initialised = true;
      }
      continue;
    }
    if (mma_covers(setup, q++, warp, i, j)) {
      if (!initialised) return {InitFault::accumulated_before_init, p, -1};
      accumulated = true;
    }
  }
  return {};
}

Element staging_element(const StagingRef& s, int warp, int lane, std::int64_t slot) {
  const IndexEnv env{lane, warp, 32 * std::int64_t{warp} + lane, slot};
  return {s.row.eval(env), s.col.eval(env)};
}

bool staging_ok(const ProofSetup& setup, const StagingRef& s, int warp, int lane, std::int64_t slot) {
  const Element y = staging_element(s, warp, lane, slot);
  const Storage& st = setup.storage(s.buffer);
  const Shape& shape = st.buffer().shape;
  if (y[0] < 0 || y[0] >= shape[0] || y[1] < 0 || y[1] >= shape[1]) return false;
  return st.places(st.flat(y), {warp, lane}, slot);
}

}  // namespace mmacheck::prove_detail
