// "accumulation" in Z3, over a symbolic warp, lane and D element (and K
// index): the statement list is unrolled into the formula ("formed",
// "initialised", "accumulated" flags folded as balanced trees), the tile
// origins being per-warp tables.
#include <algorithm>
#include <variant>

#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

namespace {

// One mma's tile origin in the symbolic warp.
struct SymOrigin {
  z3::expr m0, n0, k0;
  z3::expr mn_defined, k_defined;
};

SymOrigin sym_origin(const MmaRef& ref, const z3::expr& warp, const Bv& bv) {
  std::vector<std::int64_t> m0, n0, k0, mn, k;
  for (const Origin& o : ref.origin) {
    m0.push_back(o.m0.value_or(0));
    n0.push_back(o.n0.value_or(0));
    k0.push_back(o.k0.value_or(0));
    mn.push_back(o.m0 && o.n0);
    k.push_back(o.k0.has_value());
  }
  return {bv.table(warp, m0), bv.table(warp, n0), bv.table(warp, k0), bv.table(warp, mn) == bv.num(1),
          bv.table(warp, k) == bv.num(1)};
}

z3::expr within(const z3::expr& x, const z3::expr& base, int extent, const Bv& bv) {
  return base <= x && x < base + bv.num(extent);
}

std::int64_t origin_bound(const ProofSetup& setup) {
  std::int64_t bound = 0;
  for (const MmaRef& ref : setup.mmas)
    for (const Origin& o : ref.origin)
      for (const auto& v : {o.m0, o.n0, o.k0})
        if (v) bound = std::max(bound, *v < 0 ? -*v : *v);
  return bound + 64;  // plus a tile extent
}

// The symbolic point: warp, lane, D[i][j] with its slot s, and K index k.
struct SymPoint {
  z3::expr w, l, i, j, k, s;
};

// The running flags are folded as balanced trees over the statement list,
// not as left-deep chains: a chain of thousands of `||` is as deep as the
// nest is long, and Z3 frees the terms a timed-out tactic left behind one
// layer of roots at a time, so tearing down the context after a deep chain
// took minutes (--timeout-ms must bound the whole run).

// A segment of the mma list: some mma of it forms the product (any), two do (twice).
struct Formed {
  z3::expr any, twice;
};

Formed formed_in(const std::vector<z3::expr>& forms, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return {forms[lo], forms[lo].ctx().bool_val(false)};
  const std::size_t mid = lo + (hi - lo) / 2;
  const Formed l = formed_in(forms, lo, mid), r = formed_in(forms, mid, hi);
  return {l.any || r.any, l.twice || r.twice || (l.any && r.any)};
}

// Some statement forms A[i][k]·B[k][j] not exactly once: none does, or
// two do (flags rather than a sum: counting is hard for the SAT solver beneath).
z3::expr product_fault(const ProofSetup& setup, const SymPoint& p, const std::vector<SymOrigin>& origins,
                       const Bv& bv) {
  const MmaInst& inst = setup.inst;
  std::vector<z3::expr> forms;
  for (const SymOrigin& o : origins)
    forms.push_back(o.mn_defined && o.k_defined && within(p.i, o.m0, inst.m, bv) && within(p.j, o.n0, inst.n, bv) &&
                    within(p.k, o.k0, inst.k, bv));
  if (forms.empty()) return bv.in_range(p.k, 0, setup.view(GemmOperand::A).cols());
  const Formed f = formed_in(forms, 0, forms.size());
  return bv.in_range(p.k, 0, setup.view(GemmOperand::A).cols()) && (!f.any || f.twice);
}

// A segment of the statement list as it touches the slot s of D[i][j]:
// some init does (init), some mma does (acc), an init comes after an mma
// (init_after_acc), an mma comes before every init (acc_first).
struct Touches {
  z3::expr init, acc, init_after_acc, acc_first;
};

Touches touches_in(const std::vector<Touches>& stmts, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return stmts[lo];
  const std::size_t mid = lo + (hi - lo) / 2;
  const Touches l = touches_in(stmts, lo, mid), r = touches_in(stmts, mid, hi);
  return {l.init || r.init, l.acc || r.acc, l.init_after_acc || r.init_after_acc || (l.acc && r.init),
          l.acc_first || (!l.init && r.acc_first)};
}

z3::expr any_of(const std::vector<z3::expr>& terms, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) return terms[lo];
  const std::size_t mid = lo + (hi - lo) / 2;
  return any_of(terms, lo, mid) || any_of(terms, mid, hi);
}

// Some init of s does not copy C[i][j] (beta = 1) or zero (beta = 0), or
// an mma covering D[i][j] comes before every init of s, or an init after one.
z3::expr init_fault(const ProofSetup& setup, const SymPoint& p, const std::vector<SymOrigin>& origins, const Bv& bv) {
  const Storage& c = setup.storage(GemmOperand::C);
  const auto c_owners = operand_owners(c, setup.view(GemmOperand::C), p.i, p.j, bv);
  const z3::expr no = bv.ctx().bool_val(false);
  std::vector<z3::expr> faults{no};
  std::vector<Touches> stmts;
  int q = 0;
  for (const NestStmt& stmt : setup.plan.nest.stmts) {
    if (const auto* init = std::get_if<InitStmt>(&stmt)) {
      std::vector<z3::expr> here;
      for (std::size_t x = 0; x < init->d_slots.size(); ++x) {
        here.push_back(p.s == bv.num(init->d_slots[x]));
        const z3::expr copies_c =
            setup.beta_one
                ? (x < init->c_slots.size() ? places(c, c_owners, p.w, p.l, bv.num(init->c_slots[x]), bv) : no)
                : bv.ctx().bool_val(init->c_slots.empty());
        faults.push_back(here.back() && !copies_c);
      }
      stmts.push_back({here.empty() ? no : any_of(here, 0, here.size()), no, no, no});
      continue;
    }
    const SymOrigin& o = origins[q++];
    const z3::expr touches = o.mn_defined && within(p.i, o.m0, setup.inst.m, bv) && within(p.j, o.n0, setup.inst.n, bv);
    stmts.push_back({no, touches, no, touches});
  }
  if (stmts.empty()) return any_of(faults, 0, faults.size());
  const Touches t = touches_in(stmts, 0, stmts.size());
  return any_of(faults, 0, faults.size()) || t.init_after_acc || t.acc_first;
}

}  // namespace

// Shared with z3_tile_accumulation.cc (z3_checker.h).
Outcome accumulation_outcome(Z3Session& session, const z3::expr& domain, const z3::expr& products,
                             const z3::expr& inits, const z3::expr& w, const z3::expr& l, const z3::expr& i,
                             const z3::expr& j, const z3::expr& k) {
  // Both at once first: the usual, proved case costs one query.
  Z3Session::Result r = session.solve({domain, products || inits}, {});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  r = session.solve({domain, products}, {w, i, j, k, l});
  if (r.result == CheckResult::refuted) {
    const auto& v = r.point;
    return {r.result, AccumulationWitness{false, static_cast<int>(v[0]), static_cast<int>(v[4]), v[1], v[2], v[3]}, {}};
  }
  if (r.result == CheckResult::unknown) return {r.result, std::nullopt, r.note};
  r = session.solve({domain, inits}, {w, i, j, l});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  const auto& v = r.point;
  return {r.result, AccumulationWitness{true, static_cast<int>(v[0]), static_cast<int>(v[3]), v[1], v[2], 0}, {}};
}

Outcome accumulation_z3(const ProofSetup& setup, Z3Session& session) {
  const Storage& d = setup.storage(GemmOperand::D);
  const OperandPlace& dv = setup.view(GemmOperand::D);
  const auto width = bv_width(
      std::max({storage_bound(setup, d), storage_bound(setup, setup.storage(GemmOperand::C)), origin_bound(setup),
                setup.view(GemmOperand::A).cols(), static_cast<std::int64_t>(setup.plan.nest.stmts.size())}));
  if (!width) return {CheckResult::unknown, std::nullopt, "values too large to encode"};
  const Bv bv(session.ctx(), *width);

  const z3::expr w = bv.var("w"), l = bv.var("l"), i = bv.var("i"), j = bv.var("j"), k = bv.var("k");
  // D has no replicas (the dispatch's no_replica): one owner, whose slot is s.
  const std::vector<z3::expr> owner = operand_owners(d, dv, i, j, bv).front();
  const int m_axis = d.axis_index(Axis::m());
  const SymPoint p{w, l, i, j, k, m_axis < 0 ? bv.num(0) : owner[m_axis]};
  std::vector<SymOrigin> origins;
  for (const MmaRef& ref : setup.mmas) origins.push_back(sym_origin(ref, w, bv));
  const z3::expr products = product_fault(setup, p, origins, bv);
  const z3::expr inits = init_fault(setup, p, origins, bv);
  const z3::expr domain = bv.in_range(w, 0, setup.warps) && bv.in_range(l, 0, 32) && bv.in_range(i, 0, dv.rows()) &&
                          bv.in_range(j, 0, dv.cols()) && owner_is(d, owner, w, l, p.s, bv);

  return accumulation_outcome(session, domain, products, inits, w, l, i, j, k);
}

}  // namespace mmacheck::prove_detail
