#include "core/cute/cute_tiled_check.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/base/checked.h"

#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_gmma_check.h"

namespace mmacheck {

namespace {

struct Failure {
  std::string message;
  std::optional<CuteCounterexample> cex;
};

// "(m=3, k=7)"
std::string point(std::string_view a, std::int64_t x, std::string_view b, std::int64_t y) {
  return "(" + std::string(a) + "=" + std::to_string(x) + ", " + std::string(b) + "=" + std::to_string(y) + ")";
}

}  // namespace

namespace {

// The thread layout (lane, wm, wn, wk) -> thread: tiled_product(ThrID,
// AtomLayoutMNK) for an atom of 32 lanes.
CuteLayout thread_layout(const CuteLayout& atom_layout) {
  const CuteLayout flat = atom_layout.flat();
  std::vector<IntTuple> shape{IntTuple::of(kWarpLanes)}, stride{IntTuple::of(1)};
  for (std::size_t i = 0; i < 3; ++i) {
    shape.push_back(flat.shape.items[i]);
    stride.push_back(IntTuple::of(kWarpLanes * flat.stride.items[i].value));
  }
  return {IntTuple::tuple(std::move(shape)), IntTuple::tuple(std::move(stride))};
}

}  // namespace

std::string tiled_tables(const CuteAtomTraits& t, const CuteAtomName& inst, TiledTables& out, const Limits& limits) {
  // Threads: (lane, wm, wn, wk) -> thread index, a bijection.
  const bool derive = t.atom_layout.has_value();
  if (derive && (!t.atom_layout->congruent() || t.atom_layout->flat().shape.items.size() != 3))
    return "AtomLayout " + t.atom_layout->str() + " is not a layout of (M, N, K)";
  if (!derive && !t.thr_vmnk.layout) return "no ThrLayoutVMNK";
  out.vmnk = derive ? thread_layout(*t.atom_layout) : *t.thr_vmnk.layout;
  const CuteLayout& vmnk = out.vmnk;
  if (!vmnk.congruent() || vmnk.rank() != 4 || vmnk.mode(0).size() != kWarpLanes)
    return "ThrLayoutVMNK " + vmnk.str() + " is not (32 lanes, warps M, N, K)";
  out.threads = vmnk.size();
  if (out.threads > 4096) return "more than 4096 threads";
  out.thread_of.assign(static_cast<std::size_t>(out.threads), -1);
  std::vector<std::int64_t> coord_of(static_cast<std::size_t>(out.threads), -1);
  const std::vector<std::int64_t> thread_index = vmnk.indices();
  for (std::int64_t c = 0; c < out.threads; ++c) {
    const std::int64_t th = thread_index[static_cast<std::size_t>(c)];
    if (th < 0 || th >= out.threads || coord_of[static_cast<std::size_t>(th)] >= 0)
      return "ThrLayoutVMNK " + vmnk.str() + " is not a bijection onto its threads";
    coord_of[static_cast<std::size_t>(th)] = c;
    out.thread_of[static_cast<std::size_t>(c)] = th;
  }
  const std::int64_t w[3] = {vmnk.mode(1).size(), vmnk.mode(2).size(), vmnk.mode(3).size()};
  const std::int64_t atom_mnk[3] = {inst.m, inst.n, inst.k};
  // P_M, P_N, P_K: CuTe's `_` is the identity over atom size x warps.
  std::array<CuteLayout, 3> perm;
  for (std::size_t i = 0; i < 3; ++i)
    perm[i] = t.permutation[i] ? *t.permutation[i] : CuteLayout::compact(IntTuple::of(atom_mnk[i] * w[i]));
  if (derive) {
    out.tile = {perm[0].size(), perm[1].size(), perm[2].size()};
  } else {
    if (!t.tile || t.tile->flatten().size() != 3) return "Tile is not (M, N, K)";
    const std::vector<std::int64_t> tile = t.tile->flatten();
    out.tile = {tile[0], tile[1], tile[2]};
  }
  for (std::size_t i = 0; i < 3; ++i)
    if (out.tile[i] <= 0 || out.tile[i] % (atom_mnk[i] * w[i]))
      return "the tile (" + std::to_string(out.tile[0]) + "," + std::to_string(out.tile[1]) + "," +
             std::to_string(out.tile[2]) + ") is not whole atoms x warps";
  // Bounded before any table is built: each operand's tile, and the mma.
  for (const auto& [d0, d1, what] : {std::tuple{0, 2, "A"}, std::tuple{1, 2, "B"}, std::tuple{0, 1, "C"}})
    limits.check(Resource::elements,
                 try_mul(out.tile[static_cast<std::size_t>(d0)], out.tile[static_cast<std::size_t>(d1)]), t.loc,
                 std::string("the TiledMMA's ") + what + " tile");
  const std::optional<std::int64_t> mn = try_mul(out.tile[0] / atom_mnk[0], out.tile[1] / atom_mnk[1]);
  limits.check(Resource::mma, mn ? try_mul(*mn, out.tile[2] / atom_mnk[2]) : std::nullopt, t.loc, "the TiledMMA");

  for (Operand op : {Operand::A, Operand::B, Operand::C}) {
    const CuteLayoutSource& src = op == Operand::A ? t.a : op == Operand::B ? t.b : t.c;
    TiledOperand& o = out.ops[static_cast<std::size_t>(op)];
    o.op = op;
    const std::string name(operand_name(op));
    if (!src.layout) return "no " + name + " layout";
    const int bits = op == Operand::A ? inst.a_bits : op == Operand::B ? inst.b_bits : inst.c_bits;
    o.frame = lookup_frame(inst.shape, op, bits);
    if (!o.frame) return "no PTX frame for " + inst.shape + " " + name;
    // The operand's two dimensions among M, N, K.
    const std::size_t d0 = op == Operand::B ? 1 : 0, d1 = op == Operand::C ? 1 : 2;
    o.dim0 = out.tile[d0];
    const std::int64_t elems = o.frame->elems();
    if (derive) {
      const CuteLayout& atom = *src.layout;
      if (!atom.congruent() || atom.rank() != 2 || atom.mode(0).size() != kWarpLanes || atom.mode(1).size() != elems)
        return name + " " + atom.str() + " is not the atom's (32 threads, " + std::to_string(elems) + " values)";
      o.rest0 = out.tile[d0] / (atom_mnk[d0] * w[d0]);
      o.rest1 = out.tile[d1] / (atom_mnk[d1] * w[d1]);
      const std::int64_t values = elems * o.rest0 * o.rest1;
      limits.check(Resource::elements, try_mul(out.threads, values), t.loc, "the TiledMMA's " + name + " table");
      o.table.assign(static_cast<std::size_t>(out.threads * values), 0);
      const std::vector<std::int64_t> atom_index = atom.indices();
      const std::vector<std::int64_t> p0 = perm[d0].indices(), p1 = perm[d1].indices();
      for (std::int64_t th = 0; th < out.threads; ++th) {
        const std::int64_t c = coord_of[static_cast<std::size_t>(th)];
        const std::int64_t lane = c % kWarpLanes;
        const std::int64_t wc[3] = {(c / kWarpLanes) % w[0], (c / kWarpLanes / w[0]) % w[1],
                                    c / kWarpLanes / w[0] / w[1]};
        for (std::int64_t v = 0; v < values; ++v) {
          const std::int64_t e = v % elems, r0 = (v / elems) % o.rest0, r1 = v / elems / o.rest0;
          const std::int64_t a =
              atom_index[static_cast<std::size_t>(lane + kWarpLanes * e)];  // over the atom's (d0, d1)
          const std::int64_t i = a % atom_mnk[d0] + atom_mnk[d0] * (wc[d0] + w[d0] * r0);
          const std::int64_t j = a / atom_mnk[d0] + atom_mnk[d1] * (wc[d1] + w[d1] * r1);
          // An atom index outside its tile lands outside the permutation: flagged as outside the tile.
          const bool inside = i >= 0 && j >= 0 && i < std::ssize(p0) && j < std::ssize(p1);
          o.table[static_cast<std::size_t>(th + out.threads * v)] =
              inside ? p0[static_cast<std::size_t>(i)] + out.tile[d0] * p1[static_cast<std::size_t>(j)] : -1;
        }
      }
      continue;
    }
    const CuteLayout& tv = *src.layout;
    // Congruence first: mode() of a layout whose stride has fewer modes than
    // its shape has no stride to take (a fuzzed header found it).
    const CuteLayout values = tv.congruent() && tv.rank() == 2 ? tv.mode(1) : CuteLayout{};
    if (!tv.congruent() || tv.rank() != 2 || values.rank() != 2 || values.mode(0).size() != elems ||
        values.mode(1).rank() != 2 || tv.mode(0).size() != out.threads)
      return name + " " + tv.str() + " is not ((threads), ((atom values), (rest, rest)))";
    limits.check(Resource::elements, tv.size(), t.loc, "the TiledMMA's " + name + " table");
    o.rest0 = values.mode(1).mode(0).size();
    o.rest1 = values.mode(1).mode(1).size();
    o.table = tv.indices();
  }
  return "";
}

namespace {

// A TiledMMA of wgmma or tcgen05 atoms: its tiling is not modelled (the
// tables above are mma.sync's: 32 lanes, PTX's warp frames).  What it holds
// of its atom is: with AtomLayout (the DSL's print, or an atom list's
// AtomLayout form) A, B and C are the atom's own layouts, checked against
// the instruction's frames (check_cute_warpgroup_atom) — a refutation stands,
// a proof covers the atom only, so it is reported unchecked with the reason.
// With the tiled TV layouts alone there is no atom to check here (an atom
// list gives the atom's own entry beside it).
CuteAtomReport warpgroup_tiled(const CuteAtomTraits& t, const CuteAtomName& inst, CuteAtomReport report) {
  const std::string tiling = "the tiling of " + std::string(inst.family == CuteMmaFamily::wgmma ? "wgmma" : "tcgen05") +
                             " atoms (AtomLayout, Permutation) is not modelled";
  if (!t.atom_layout) {
    report.instruction = inst.ptx;
    for (Operand op : {Operand::A, Operand::B, Operand::C})
      report.operands.push_back(
          {op, FrameVerdict::unchecked, std::nullopt, tiling + "; the atom's own entry is checked on its own"});
    report.result = FrameVerdict::unchecked;
    return report;
  }
  CuteAtomReport atom = check_cute_warpgroup_atom(t, inst);
  atom.atom = report.atom;
  atom.loc = report.loc;
  for (CuteOperandReport& o : atom.operands) {
    if (o.result == FrameVerdict::proved) {
      o.result = FrameVerdict::unchecked;
      o.message = "the atom's layout is proved (" + o.message + "); " + tiling;
    } else if (o.result == FrameVerdict::unchecked) {
      o.message += "; " + tiling;
    }
  }
  atom.result = FrameVerdict::proved;
  for (const CuteOperandReport& o : atom.operands) atom.result = std::max(atom.result, o.result);
  return atom;
}

}  // namespace

CuteAtomReport check_cute_tiled(const CuteAtomTraits& t, const Limits& limits) {
  CuteAtomReport report;
  report.atom = "tiled " + t.name;
  report.loc = t.loc;
  const auto all = [&](FrameVerdict v, const std::string& m) {
    report.operands.clear();
    for (Operand op : {Operand::A, Operand::B, Operand::C}) report.operands.push_back({op, v, std::nullopt, m});
    report.result = v;
    return report;
  };
  std::string why;
  const std::optional<CuteAtomName> inst = decode_atom_name(t.name, &why);
  if (!inst) return all(FrameVerdict::unchecked, "no mma.sync instruction: " + why);
  if (inst->family != CuteMmaFamily::mma_sync) return warpgroup_tiled(t, *inst, report);
  report.instruction = inst->ptx;
  for (Operand op : {Operand::A, Operand::B, Operand::C})
    if (const std::string problem = metadata_problem(t, *inst, op); !problem.empty())
      return all(FrameVerdict::ill_formed, std::string(operand_name(op)) + ": " + problem);
  TiledTables tables;
  why = tiled_tables(t, *inst, tables, limits);
  if (!why.empty())
    return all(why.rfind("no PTX frame", 0) == 0 || why.rfind("more than", 0) == 0 ? FrameVerdict::unchecked
                                                                                   : FrameVerdict::ill_formed,
               why);
  const std::int64_t threads = tables.threads;
  const std::int64_t tm = tables.tile[0], tn = tables.tile[1], tk = tables.tile[2];
  const std::int64_t wm_n = tables.vmnk.mode(1).size(), wn_n = tables.vmnk.mode(2).size(),
                     wk_n = tables.vmnk.mode(3).size();
  const std::vector<std::int64_t>& thread_of = tables.thread_of;
  const std::array<TiledOperand, 3>& ops = tables.ops;
  const TiledOperand& A = ops[0];
  const TiledOperand& B = ops[1];
  const TiledOperand& C = ops[2];
  if (A.rest0 != C.rest0 || B.rest0 != C.rest1 || A.rest1 != B.rest1)
    return all(FrameVerdict::ill_formed, "the rest modes disagree: A (" + std::to_string(A.rest0) + "," +
                                             std::to_string(A.rest1) + "), B (" + std::to_string(B.rest0) + "," +
                                             std::to_string(B.rest1) + "), C (" + std::to_string(C.rest0) + "," +
                                             std::to_string(C.rest1) + ")");
  if (wk_n > 1)
    return all(FrameVerdict::unchecked,
               "K split over " + std::to_string(wk_n) + " warps: the partial sums need a reduction");
  const std::int64_t rm_n = A.rest0, rk_n = A.rest1, rn_n = B.rest0;

  std::array<std::optional<Failure>, 3> failed;
  const auto fail = [&](Operand op, std::string m, std::optional<CuteCounterexample> cex = std::nullopt) {
    std::optional<Failure>& f = failed[static_cast<std::size_t>(op)];
    if (!f) f = Failure{std::move(m), cex};
  };
  std::vector<int> c_owners(static_cast<std::size_t>(tm * tn), 0);
  std::map<std::array<std::int64_t, 4>, std::vector<int>> k_sums;  // (wm, wn, rm, rn) -> count per K
  const int rows = C.frame->rows, cols = C.frame->cols, kk = A.frame->cols;

  for (std::int64_t wm = 0; wm < wm_n; ++wm)
    for (std::int64_t wn = 0; wn < wn_n; ++wn)
      for (std::int64_t rm = 0; rm < rm_n; ++rm)
        for (std::int64_t rn = 0; rn < rn_n; ++rn)
          for (std::int64_t rk = 0; rk < rk_n; ++rk) {
            std::vector<std::int64_t> rho_m(static_cast<std::size_t>(rows), -1),
                rho_n(static_cast<std::size_t>(cols), -1), rho_k(static_cast<std::size_t>(kk), -1);
            const std::string where = "warp (" + std::to_string(wm) + "," + std::to_string(wn) + ") rep (" +
                                      std::to_string(rm) + "," + std::to_string(rn) + "," + std::to_string(rk) + ")";
            std::vector<int>& ksum = k_sums[{wm, wn, rm, rn}];
            ksum.resize(static_cast<std::size_t>(tk), 0);
            for (const TiledOperand* o : {&A, &B, &C}) {
              const std::int64_t rest = o == &A ? rm + rm_n * rk : o == &B ? rn + rn_n * rk : rm + rm_n * rn;
              const auto [ax0, ax1] = operand_axes(o->op);
              const std::int64_t extent = o == &B ? tn * tk : o == &A ? tm * tk : tm * tn;
              for (int lane = 0; lane < kWarpLanes; ++lane)
                for (int e = 0; e < o->frame->elems(); ++e) {
                  const std::int64_t th = thread_of[static_cast<std::size_t>(lane + kWarpLanes * (wm + wm_n * wn))];
                  const std::int64_t value = e + o->frame->elems() * rest;
                  const std::int64_t idx = o->table[static_cast<std::size_t>(th + threads * value)];
                  CuteCounterexample cex;
                  cex.thread = static_cast<int>(th);
                  cex.value = static_cast<int>(value);
                  cex.lane = lane;
                  cex.index = idx;
                  cex.axes = operand_axes(o->op);
                  cex.coordinate = {idx % o->dim0, idx / o->dim0};
                  if (idx < 0 || idx >= extent) {
                    cex.in_tile = false;
                    fail(o->op,
                         where + ": thread " + std::to_string(th) + " value " + std::to_string(value) +
                             " holds index " + std::to_string(idx) + ", outside the tile",
                         cex);
                    continue;
                  }
                  const TileCoord local = o->frame->at(lane, e);
                  // Which maps this operand's two coordinates go through.
                  std::int64_t* first = nullptr;
                  std::int64_t* second = nullptr;
                  if (o == &A) first = &rho_m[local.row], second = &rho_k[local.col];
                  if (o == &B) first = &rho_n[local.col], second = &rho_k[local.row];
                  if (o == &C) first = &rho_m[local.row], second = &rho_n[local.col];
                  const std::array<std::int64_t, 2> implied{*first < 0 ? cex.coordinate[0] : *first,
                                                            *second < 0 ? cex.coordinate[1] : *second};
                  if (implied != cex.coordinate) {
                    cex.ptx = implied;
                    fail(o->op,
                         where + ": thread " + std::to_string(th) + " value " + std::to_string(value) + " holds " +
                             point(ax0, cex.coordinate[0], ax1, cex.coordinate[1]) +
                             ", the instance's other values put " + point(ax0, implied[0], ax1, implied[1]) + " there",
                         cex);
                    continue;
                  }
                  *first = cex.coordinate[0];
                  *second = cex.coordinate[1];
                  if (o == &C && rk == 0) ++c_owners[static_cast<std::size_t>(idx)];
                }
            }
            for (std::int64_t k : rho_k)
              if (k >= 0) ++ksum[static_cast<std::size_t>(k)];
          }
  for (std::int64_t i = 0; i < tm * tn && !failed[2]; ++i)
    if (c_owners[static_cast<std::size_t>(i)] != 1)
      fail(Operand::C, "C element " + point("m", i % tm, "n", i / tm) + " belongs to " +
                           std::to_string(c_owners[static_cast<std::size_t>(i)]) + " instances, not one");
  for (const auto& [key, ksum] : k_sums)
    for (std::int64_t k = 0; k < tk; ++k)
      if (ksum[static_cast<std::size_t>(k)] != 1) {
        const std::string m = "warp (" + std::to_string(key[0]) + "," + std::to_string(key[1]) + ") rep (" +
                              std::to_string(key[2]) + "," + std::to_string(key[3]) + "): K " + std::to_string(k) +
                              " is summed " + std::to_string(ksum[static_cast<std::size_t>(k)]) + " times, not once";
        fail(Operand::A, m);
        fail(Operand::B, m);
        break;
      }

  const std::string tiling = std::to_string(wm_n * wn_n) + " warps x " + std::to_string(rm_n * rn_n * rk_n) +
                             " mma each tile " + std::to_string(tm) + "x" + std::to_string(tn) + "x" +
                             std::to_string(tk) + ", every instance the PTX frame through one row, column and k map";
  for (Operand op : {Operand::A, Operand::B, Operand::C}) {
    const std::optional<Failure>& f = failed[static_cast<std::size_t>(op)];
    report.operands.push_back(f ? CuteOperandReport{op, FrameVerdict::refuted, f->cex, f->message}
                                : CuteOperandReport{op, FrameVerdict::proved, std::nullopt, tiling});
  }
  report.result = FrameVerdict::proved;
  for (const CuteOperandReport& o : report.operands) report.result = std::max(report.result, o.result);
  return report;
}

}  // namespace mmacheck
