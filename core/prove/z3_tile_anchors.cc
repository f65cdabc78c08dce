// Affine origins agree with the anchors (OriginRule, core/prove/setup.h), in
// Z3 over symbolic tile indices: for every tile T of the D view and every
// warp w, the lowest element of D's buffer placed at lane 0's first slot of
// T's registers (the anchor) is D[m0 + row(0, 0), n0 + col(0, 0)] of T's
// affine origin, and likewise for A's tiles with (m0, k0).  ProofSetup's
// anchor rule reads (m0, n0) off D's anchor and k0 off A's, so it would set
// the very origins the affine rule set.  One query per operand, over
// (t0, t1, w) and a rival element z of the buffer: the anchor element is
// outside the operand, not placed there, or some lower element is.
#include <algorithm>

#include "core/prove/tile_model.h"
#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

namespace {

CheckResult anchors_of(const ProofSetup& setup, const TileModel& model, GemmOperand op, Z3Session& session) {
  const Frame& f = setup.frame(op);
  const Storage& st = setup.storage(op);
  const OperandPlace& place = setup.view(op);
  const RegisterView& view = model.frame_view(op);
  const auto [count0, count1] = model.frame_tiles(op);
  const std::vector<std::int64_t>& base0 = model.base_m();
  const std::vector<std::int64_t>& base1 = op == GemmOperand::A ? model.base_k() : model.base_n();
  const Shape& shape = st.buffer().shape;
  std::int64_t elements = 1;
  for (std::int64_t e : shape) elements *= e;
  const std::int64_t bound =
      std::max({storage_bound(setup, st), layout_bound(view.layout, view.shape), elements,
                max_abs(base0) + std::int64_t{count0} * f.rows + f.rows,
                max_abs(base1) + std::int64_t{count1} * f.cols + f.cols, place.rows(), place.cols()});
  const auto width = bv_width(bound);
  if (!width) return CheckResult::unknown;
  const Bv bv(session.ctx(), *width);

  const z3::expr t0 = bv.var("t0"), t1 = bv.var("t1"), w = bv.var("w"), lane0 = bv.num(0);
  const int per = f.per_reg();
  const Operand frame_op = ProofSetup::frame_operand(op);
  const z3::expr slot =
      z3::udiv(view_slot(view, t0, t1, {setup.inst.view_coord(frame_op, 0)}, bv.num(0), bv), bv.num(per)) * bv.num(per);
  const z3::expr row = bv.table(w, base0) + t0 * bv.num(f.rows) + bv.num(f.row.at(0, 0));
  const z3::expr col = bv.table(w, base1) + t1 * bv.num(f.cols) + bv.num(f.col.at(0, 0));
  // The anchor element's buffer coordinates and flat index (as operand_owners places it).
  z3::expr flat = bv.num(0), z_flat = bv.num(0);
  std::vector<z3::expr> z;
  z3::expr z_inside = bv.ctx().bool_val(true);
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    const z3::expr base = bv.num(place.origin()[d]);
    const z3::expr c = d == place.row_dim() ? base + row : d == place.col_dim() ? base + col : base;
    flat = flat * bv.num(shape[d]) + c;
    z.push_back(bv.var("z" + std::to_string(d)));
    z_inside = z_inside && bv.in_range(z.back(), 0, shape[d]);
    z_flat = z_flat * bv.num(shape[d]) + z.back();
  }
  const z3::expr inside = bv.in_range(row, 0, place.rows()) && bv.in_range(col, 0, place.cols());
  const z3::expr placed = places(st, operand_owners(st, place, row, col, bv), w, lane0, slot, bv);
  const z3::expr lower = z_inside && z_flat < flat &&
                         places(st, apply_symbolic(st.buffer().layout, shape, z, st.axes(), bv), w, lane0, slot, bv);
  return session
      .solve({bv.in_range(t0, 0, count0), bv.in_range(t1, 0, count1), bv.in_range(w, 0, setup.warps),
              !inside || !placed || lower},
             {})
      .result;
}

}  // namespace

CheckResult tile_anchors_z3(const ProofSetup& setup, const TileModel& model, Z3Session& session) {
  for (GemmOperand op : {GemmOperand::D, GemmOperand::A})
    if (const CheckResult r = anchors_of(setup, model, op, session); r != CheckResult::proved) return r;
  return CheckResult::proved;
}

}  // namespace mmacheck::prove_detail
