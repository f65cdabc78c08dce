// "A fragment" ... in Z3: an element placed outside the scope or the
// storage span (symbolic element), then two elements in one place
// (symbolic pair).
#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

namespace {

// The owner lies in a thread of the scope, at a slot of the storage span,
// on no other memory coordinate (see placement() in prove_checks.h).
z3::expr inside(const ProofSetup& setup, const Storage& st, const std::vector<z3::expr>& owner, const Bv& bv) {
  const auto at = [&](const Axis& a) -> std::optional<z3::expr> {
    const int i = st.axis_index(a);
    if (i < 0) return std::nullopt;
    return owner[i];
  };
  const auto tx = at(Axis::tx());
  const std::optional<z3::expr> tx_lane = tx ? std::optional<z3::expr>(z3::smod(*tx, bv.num(32))) : std::nullopt;
  const z3::expr lane = at(Axis::laneid()).value_or(tx ? *tx_lane : bv.num(0));
  // (tx - tx mod 32) / 32 is exact: floor division.
  const z3::expr warp = at(Axis::warpid()).value_or(tx ? (*tx - *tx_lane) / bv.num(32) : bv.num(0));
  const z3::expr slot = at(Axis::m()).value_or(bv.num(0));
  return bv.in_range(lane, 0, 32) && bv.in_range(warp, 0, setup.warps) && bv.in_range(slot, 0, st.span()) &&
         owner_is(st, owner, warp, lane, slot, bv);
}

z3::expr same_place(const std::vector<z3::expr>& a, const std::vector<z3::expr>& b, const Bv& bv) {
  z3::expr all = bv.ctx().bool_val(true);
  for (std::size_t i = 0; i < a.size(); ++i) all = all && a[i] == b[i];
  return all;
}

}  // namespace

Outcome fragment_z3(const ProofSetup& setup, GemmOperand op, Z3Session& session) {
  const Storage& st = setup.storage(op);
  const OperandPlace& view = setup.view(op);
  const auto width = bv_width(storage_bound(setup, st));
  if (!width) return {CheckResult::unknown, std::nullopt, "values too large to encode"};
  const Bv bv(session.ctx(), *width);
  const std::int64_t rows = view.rows(), cols = view.cols();

  const z3::expr i = bv.var("i"), j = bv.var("j"), i2 = bv.var("i2"), j2 = bv.var("j2");
  const z3::expr first = bv.in_range(i, 0, rows) && bv.in_range(j, 0, cols);
  const z3::expr second = bv.in_range(i2, 0, rows) && bv.in_range(j2, 0, cols);
  const auto owners = operand_owners(st, view, i, j, bv);
  const auto owners2 = operand_owners(st, view, i2, j2, bv);
  z3::expr outside = bv.ctx().bool_val(false);
  for (const auto& o : owners) outside = outside || !inside(setup, st, o, bv);
  z3::expr shared = bv.ctx().bool_val(false);
  for (const auto& a : owners)
    for (const auto& b : owners2) shared = shared || same_place(a, b, bv);
  const z3::expr doubled = i * bv.num(cols) + j < i2 * bv.num(cols) + j2 && shared;

  // Both at once first: the usual, proved case costs one query.
  Z3Session::Result r = session.solve({first, second, outside || doubled}, {});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  r = session.solve({first, outside}, {i, j});
  if (r.result == CheckResult::refuted)
    return {r.result, FragmentWitness{false, r.point[0] * cols + r.point[1], 0}, {}};
  if (r.result == CheckResult::unknown) return {r.result, std::nullopt, r.note};
  r = session.solve({first, second, doubled}, {i2, j2, i, j});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  const auto& p = r.point;
  return {r.result, FragmentWitness{true, p[2] * cols + p[3], p[0] * cols + p[1]}, {}};
}

}  // namespace mmacheck::prove_detail
