// "A frame" ... "D frame" in Z3 over symbolic tile indices (core/prove/tile_model.h):
// one query per operand over the tile (t0, t1) of the frame's view, warp,
// lane and frame element.  The slot is the view's layout applied to
// (t0, t1, the element's coordinates within the tile) as the dispatch
// reads it (a register is named by its first element); the origin is the
// warp's base plus the tile index times the frame's extent.  Nothing in the
// query grows with the tile count.
#include <algorithm>

#include "core/prove/tile_model.h"
#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

z3::expr view_slot(const RegisterView& view, const z3::expr& t0, const z3::expr& t1,
                   const std::vector<std::vector<std::int64_t>>& within, const z3::expr& elem, const Bv& bv) {
  std::vector<z3::expr> coord{t0, t1};
  for (std::size_t d = 0; d < within.front().size(); ++d) {
    std::vector<std::int64_t> column;
    for (const auto& c : within) column.push_back(c[d]);
    coord.push_back(bv.table(elem, column));
  }
  const Axis m = Axis::m();
  return apply_symbolic(view.layout, view.shape, coord, std::span<const Axis>(&m, 1), bv).front().front();
}

Outcome tile_frames_z3(const ProofSetup& setup, const TileModel& model, GemmOperand op, Z3Session& session) {
  const Frame& f = setup.frame(op);
  const GemmOperand buffer = setup.frame_buffer(op);
  const Storage& st = setup.storage(buffer);
  const OperandPlace& place = setup.view(buffer);
  const RegisterView& view = model.frame_view(op);
  const auto [count0, count1] = model.frame_tiles(op);
  const int W = setup.warps, E = f.elems(), per = f.per_reg();
  // The frame's origin components: A (m, k), B (k, n), C/D (m, n).
  const std::vector<std::int64_t>& base0 = op == GemmOperand::B ? model.base_k() : model.base_m();
  const std::vector<std::int64_t>& base1 = op == GemmOperand::A ? model.base_k() : model.base_n();

  const std::int64_t bound = std::max(
      {storage_bound(setup, st), layout_bound(view.layout, view.shape),
       max_abs(base0) + std::int64_t{count0} * f.rows + f.rows, max_abs(base1) + std::int64_t{count1} * f.cols + f.cols,
       std::int64_t{std::max(W, E)} + 32, std::int64_t{std::max(count0, count1)}, place.rows(), place.cols()});
  const auto width = bv_width(bound);
  if (!width) return {CheckResult::unknown, std::nullopt, "values too large to encode"};
  const Bv bv(session.ctx(), *width);

  // The view coordinates of each element's register (its first element).
  std::vector<std::vector<std::int64_t>> within;
  for (int e = 0; e < E; ++e) within.push_back(setup.inst.view_coord(ProofSetup::frame_operand(op), e - e % per));

  const z3::expr t0 = bv.var("t0"), t1 = bv.var("t1"), w = bv.var("w"), l = bv.var("l"), e = bv.var("e");
  const z3::expr first = view_slot(view, t0, t1, within, e, bv);
  const z3::expr slot = z3::udiv(first, bv.num(per)) * bv.num(per) + z3::urem(e, bv.num(per));
  const z3::expr i = bv.table(w, base0) + t0 * bv.num(f.rows) + frame_term(f.row, l, e, bv);
  const z3::expr j = bv.table(w, base1) + t1 * bv.num(f.cols) + frame_term(f.col, l, e, bv);
  const z3::expr holds = bv.in_range(i, 0, place.rows()) && bv.in_range(j, 0, place.cols()) &&
                         places(st, operand_owners(st, place, i, j, bv), w, l, slot, bv);
  // The per-tile encoding's group order (tile_model.h): B's tiles by (tn, tk).
  const bool n_first = op == GemmOperand::B;
  const Z3Session::Result r = session.solve({bv.in_range(t0, 0, count0), bv.in_range(t1, 0, count1),
                                             bv.in_range(w, 0, W), bv.in_range(l, 0, 32), bv.in_range(e, 0, E), !holds},
                                            {n_first ? t1 : t0, n_first ? t0 : t1, w, l, e});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  const auto& p = r.point;
  const std::int64_t a = n_first ? p[1] : p[0], b = n_first ? p[0] : p[1];
  const int mma = op == GemmOperand::A   ? model.mma_index(a, 0, b)
                  : op == GemmOperand::B ? model.mma_index(0, b, a)
                                         : model.mma_index(a, b, 0);
  return {CheckResult::refuted,
          FrameWitness{mma, static_cast<int>(p[2]), static_cast<int>(p[3]), static_cast<int>(p[4])},
          {}};
}

}  // namespace mmacheck::prove_detail
