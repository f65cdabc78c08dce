// "accumulation" in Z3 over symbolic tile indices, for a nest that is its
// views' unrolling (core/prove/tile_model.h): the same violations as
// z3_accumulation.cc, without unrolling the statements.
//
// Per warp w the mma statements' tiles are base_w + (tm M, tn N, tk K) for
// every (tm, tn, tk) of the grid, once each, so a product A[i][k]·B[k][j] is
// formed exactly once when (i, j, k) lies in the warp's box
// base_w + [0, Tm M) x [0, Tn N) x [0, Tk K), and never otherwise.  The
// inits partition D's slots by tile (the model checks it): slot s of
// D[i][j] is initialised by the one init of the tile (ta, tb) whose view
// slot x is s, which comes before the mma statements covering D[i][j] (those
// of tile (tc_m, tc_n) = ((i - bm) / M, (j - bn) / N)) unless (ta, tb) comes
// after (tc_m, tc_n) in the statement order (row-major).  So:
//   products:  k in [0, K) and (i, j, k) outside the box;
//   init:      s outside D's span while D[i][j] is covered (no init at all),
//              or the init copies the wrong C slot (beta = 1), or it comes
//              after the covering mma statements.
#include <algorithm>

#include "core/prove/tile_model.h"
#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

Outcome tile_accumulation_z3(const ProofSetup& setup, const TileModel& model, Z3Session& session) {
  using G = GemmOperand;
  const Storage& d = setup.storage(G::D);
  const Storage& c = setup.storage(G::C);
  const OperandPlace& dv = setup.view(G::D);
  const MmaInst& inst = setup.inst;
  const Plan& plan = setup.plan;
  const std::int64_t K = setup.view(G::A).cols();
  const std::int64_t extent_m = std::int64_t{model.tiles_m} * inst.m, extent_n = std::int64_t{model.tiles_n} * inst.n,
                     extent_k = std::int64_t{model.tiles_k} * inst.k;
  const int elems = inst.m_regs() * inst.n_regs();
  const std::int64_t bound =
      std::max({storage_bound(setup, d), storage_bound(setup, c), layout_bound(plan.d.layout, plan.d.shape),
                layout_bound(plan.c.layout, plan.c.shape), max_abs(model.base_m()) + extent_m + inst.m,
                max_abs(model.base_n()) + extent_n + inst.n, max_abs(model.base_k()) + extent_k + inst.k, K, dv.rows(),
                dv.cols(), std::int64_t{elems}});
  const auto width = bv_width(bound);
  if (!width) return {CheckResult::unknown, std::nullopt, "values too large to encode"};
  const Bv bv(session.ctx(), *width);

  const z3::expr w = bv.var("w"), l = bv.var("l"), i = bv.var("i"), j = bv.var("j"), k = bv.var("k");
  // D has no replicas (the dispatch's no_replica): one owner, whose slot is s.
  const std::vector<z3::expr> owner = operand_owners(d, dv, i, j, bv).front();
  const int m_axis = d.axis_index(Axis::m());
  const z3::expr s = m_axis < 0 ? bv.num(0) : owner[m_axis];
  const z3::expr bm = bv.table(w, model.base_m()), bn = bv.table(w, model.base_n()), bk = bv.table(w, model.base_k());
  const z3::expr covered = bm <= i && i < bm + bv.num(extent_m) && bn <= j && j < bn + bv.num(extent_n);
  const z3::expr products = bv.in_range(k, 0, K) && !(covered && bk <= k && k < bk + bv.num(extent_k));

  // The init of slot s: tile (ta, tb), element x of the D view.
  const z3::expr ta = bv.var("ta"), tb = bv.var("tb"), x = bv.var("x");
  std::vector<std::vector<std::int64_t>> within;
  for (int e = 0; e < elems; ++e) within.push_back(inst.view_coord(Operand::C, e));
  const z3::expr init_of_s = bv.in_range(ta, 0, model.tiles_m) && bv.in_range(tb, 0, model.tiles_n) &&
                             bv.in_range(x, 0, elems) && view_slot(plan.d, ta, tb, within, x, bv) == s;
  const z3::expr copies_c = setup.beta_one ? places(c, operand_owners(c, setup.view(G::C), i, j, bv), w, l,
                                                    view_slot(plan.c, ta, tb, within, x, bv), bv)
                                           : bv.ctx().bool_val(true);
  const z3::expr tc_m = z3::udiv(i - bm, bv.num(inst.m)), tc_n = z3::udiv(j - bn, bv.num(inst.n));
  const z3::expr after = ta > tc_m || (ta == tc_m && tb > tc_n);
  const z3::expr in_span = bv.in_range(s, 0, d.span());
  const z3::expr inits = (!in_span && covered) || (in_span && init_of_s && (!copies_c || (covered && after)));

  const z3::expr domain = bv.in_range(w, 0, setup.warps) && bv.in_range(l, 0, 32) && bv.in_range(i, 0, dv.rows()) &&
                          bv.in_range(j, 0, dv.cols()) && owner_is(d, owner, w, l, s, bv);

  return accumulation_outcome(session, domain, products, inits, w, l, i, j, k);
}

}  // namespace mmacheck::prove_detail
