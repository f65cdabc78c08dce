#include "core/triton/triton_check.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "core/gemm/ptx_frame.h"
#include "core/triton/triton_span.h"

namespace mmacheck {

std::vector<int> mma_v2_feed_order(int registers, int bits, int k_width, bool operand_a, int rep_k) {
  std::vector<int> order(static_cast<std::size_t>(registers));
  for (int p = 0; p < registers; ++p) order[static_cast<std::size_t>(p)] = p;
  if (bits * k_width <= 32) return order;
  const int per_vec = 32 / bits;
  const int k_iters = k_width / per_vec;
  const int tiles = operand_a ? 4 : 2;  // 32-bit registers per instruction
  std::vector<int> si;
  if (k_iters <= rep_k) {
    for (int k_rep = 0; k_rep < k_width / per_vec; ++k_rep)
      for (int tile = 0; tile < tiles; ++tile)
        for (int e = 0; e < per_vec; ++e) si.push_back(k_rep * per_vec + tile * k_width + e);
  } else {
    // K smaller than the layout's tile: the lowering moves the duplicates last.
    const int elems_per_tile = tiles * k_width;
    const int elems_per_mma = tiles * per_vec;
    const int mma_width = k_width / per_vec / 2;
    const int rep_mma = elems_per_tile / (mma_width * elems_per_mma);
    for (int rep = 0; rep < rep_mma; ++rep)
      for (int tile = 0; tile < registers / elems_per_tile; ++tile)
        for (int mk = 0; mk < mma_width; ++mk)
          for (int k_tile = 0; k_tile < 2; ++k_tile)
            for (int m_tile = 0; m_tile < (operand_a ? 2 : 1); ++m_tile)
              for (int e = 0; e < per_vec; ++e)
                si.push_back(rep * mma_width * elems_per_mma + mk * 2 * per_vec + tile * elems_per_tile +
                             m_tile * k_width + k_tile * per_vec + e);
  }
  const int step = static_cast<int>(si.size());
  if (step == 0) return order;
  for (int i = 0; i < registers / step; ++i)
    for (int j = 0; j < step; ++j)
      order[static_cast<std::size_t>(i * step + j)] = i * step + si[static_cast<std::size_t>(j)];
  return order;
}

namespace {

constexpr int kLanes = 32;

std::string shape_for(int bits) { return bits == 16 ? "m16n8k16" : bits == 8 ? "m16n8k32" : "m16n8k8"; }

std::string ptx_name(const TritonDotOperand& op) {
  const std::string t(dtype_info(op.dtype).ptx);
  if (op.role == TritonRole::acc) return "";  // the accumulator serves any m16n8 instruction
  const std::string acc = dtype_info(op.dtype).is_float ? "f32" : "s32";
  return "mma.sync.aligned." + shape_for(dtype_bits(op.dtype)) + ".row.col." + acc + "." + t + "." + t + "." + acc;
}

std::string point(const std::array<std::int64_t, 2>& p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ")";
}

std::string holder(const TritonPoint& p) {
  return "register " + std::to_string(p.reg) + " of lane " + std::to_string(p.lane) + " (warp " +
         std::to_string(p.warp) + ")";
}

struct Judged {
  TritonReport report;
  std::vector<std::int64_t> pi;  // instruction-space k -> tensor K (operands)
  bool permuted = false;
  // Per warp, per instruction index along M (A, acc) or N (B, acc): the
  // first row (col) the instruction covers.  Filled when the frames match.
  std::vector<std::vector<std::int64_t>> row_origin, col_origin;
};

Judged refute(Judged j, std::string why, std::optional<TritonCounterexample> cex = std::nullopt) {
  j.report.result = FrameVerdict::refuted;
  j.report.message = std::move(why);
  j.report.counterexample = cex;
  return j;
}

TritonCounterexample at(const TritonPoint& p, const std::array<std::int64_t, 2>& element) {
  return TritonCounterexample{p.reg, p.lane, p.warp, element, element};
}

// Coverage and distinctness (core/triton/triton_span.h): every element held,
// none outside, none twice except by whole-warp broadcast.
std::optional<Judged> judge_span(const Judged& j, const TritonLayout& L) {
  const TritonSpan span = triton_span(L);
  const std::string tensor = std::to_string(L.out_dims[0].second) + "x" + std::to_string(L.out_dims[1].second);
  if (span.outside)
    return refute(
        j, holder(span.outside->at) + " holds " + point(span.outside->element) + ", outside the " + tensor + " tensor",
        at(span.outside->at, span.outside->element));
  if (span.unheld)
    return refute(j, "element " + point(*span.unheld) + " of the " + tensor +
                         " tensor is held by no register of any lane or warp");
  if (span.twice && span.twice->first.reg != 0 && L.in_size("register") > 1) {
    // A zero register basis is Triton's small-K duplication: judged below.
    bool zero_register_basis = false;
    for (const std::vector<std::int64_t>& b : L.bases("register")) zero_register_basis |= b[0] == 0 && b[1] == 0;
    if (zero_register_basis) return std::nullopt;
  }
  if (span.twice)
    return refute(j,
                  holder(span.twice->first) + " and " + holder(span.twice->second) + " both hold " +
                      point(span.twice->element) + " (only whole warps may replicate each other)",
                  at(span.twice->first, span.twice->element));
  return std::nullopt;
}

Judged judge_acc(Judged j, const TritonDotOperand& op, const Frame& frame) {
  TritonReport& r = j.report;
  const TritonLayout& L = op.layout;
  const int regs = static_cast<int>(L.in_size("register"));
  const int warps = static_cast<int>(L.in_size("warp"));
  if (regs % 4) return refute(j, std::to_string(regs) + " registers are not whole instructions of 4");
  if (!op.warps_per_cta) {
    r.result = FrameVerdict::unchecked;
    r.message = "no warps_per_cta: the lowering's register order (fc[4 (m repN + n) + i]) depends on repN";
    return j;
  }
  const std::int64_t M = L.out_dims[0].second, N = L.out_dims[1].second;
  const int rep_m = static_cast<int>(std::max<std::int64_t>(1, M / (std::int64_t{16} * (*op.warps_per_cta)[0])));
  const int rep_n = static_cast<int>(std::max<std::int64_t>(1, N / (std::int64_t{8} * (*op.warps_per_cta)[1])));
  if (std::int64_t{4} * rep_m * rep_n != regs)
    return refute(j, "warps_per_cta [" + std::to_string((*op.warps_per_cta)[0]) + ", " +
                         std::to_string((*op.warps_per_cta)[1]) + "] over " + std::to_string(M) + "x" +
                         std::to_string(N) + " gives " + std::to_string(rep_m) + "x" + std::to_string(rep_n) +
                         " instructions per warp, 4 registers each; the layout has " + std::to_string(regs));
  j.row_origin.assign(static_cast<std::size_t>(warps), std::vector<std::int64_t>(static_cast<std::size_t>(rep_m)));
  j.col_origin.assign(static_cast<std::size_t>(warps), std::vector<std::int64_t>(static_cast<std::size_t>(rep_n)));
  for (int w = 0; w < warps; ++w)
    for (int m = 0; m < rep_m; ++m)
      for (int n = 0; n < rep_n; ++n) {
        // MMAv2.cpp: instruction (m, n) accumulates into fc[4 (m repN + n) + i].
        const int base = 4 * (m * rep_n + n);
        const std::vector<std::int64_t> o = L.apply(base, 0, w);
        const std::array<std::int64_t, 2> origin{o[0], o[1]};
        const std::string inst = "instruction (m " + std::to_string(m) + ", n " + std::to_string(n) + ") of warp " +
                                 std::to_string(w) + " (registers " + std::to_string(base) + ".." +
                                 std::to_string(base + 3) + ")";
        if (origin[0] % frame.rows || origin[1] % frame.cols)
          return refute(j, inst + " starts at " + point(origin) + ", not at a 16x8 tile");
        if (n == 0) j.row_origin[w][m] = origin[0];
        if (m == 0) j.col_origin[w][n] = origin[1];
        if (origin[0] != j.row_origin[w][m] || origin[1] != j.col_origin[w][n])
          return refute(j,
                        inst + " starts at " + point(origin) + "; the lowering feeds it A's rows of m " +
                            std::to_string(m) + " (row " + std::to_string(j.row_origin[w][m]) +
                            ") and B's columns of n " + std::to_string(n) + " (column " +
                            std::to_string(j.col_origin[w][n]) + "): the m and n register bases are out of order",
                        TritonCounterexample{base, 0, w, origin, {j.row_origin[w][m], j.col_origin[w][n]}});
        for (int lane = 0; lane < kLanes; ++lane)
          for (int e = 0; e < 4; ++e) {
            const std::vector<std::int64_t> got = L.apply(base + e, lane, w);
            const TileCoord local = frame.at(lane, e);
            const TritonCounterexample cex{
                base + e, lane, w, {got[0], got[1]}, {origin[0] + local.row, origin[1] + local.col}};
            if (cex.ptx != cex.coordinate)
              return refute(j,
                            holder({base + e, lane, w}) + " holds " + point(cex.coordinate) + ", PTX puts " +
                                point(cex.ptx) + " there",
                            cex);
          }
      }
  // A (shared by the N warps) fixes D's rows per M warp, B its columns per N warp.
  const int wn = (*op.warps_per_cta)[1];
  for (int w = 0; w < warps; ++w) {
    const int same_m = w - w % wn, same_n = w % wn;
    for (int m = 0; m < rep_m; ++m)
      if (j.row_origin[w][m] != j.row_origin[same_m][m])
        return refute(j, "instruction m " + std::to_string(m) + " of warp " + std::to_string(w) + " writes rows from " +
                             std::to_string(j.row_origin[w][m]) + ", of warp " + std::to_string(same_m) +
                             " (the same M warp, so the same A rows) rows from " +
                             std::to_string(j.row_origin[same_m][m]));
    for (int n = 0; n < rep_n; ++n)
      if (j.col_origin[w][n] != j.col_origin[same_n][n])
        return refute(j, "instruction n " + std::to_string(n) + " of warp " + std::to_string(w) +
                             " writes columns from " + std::to_string(j.col_origin[w][n]) + ", of warp " +
                             std::to_string(same_n) + " (the same N warp, so the same B columns) columns from " +
                             std::to_string(j.col_origin[same_n][n]));
  }
  r.result = FrameVerdict::proved;
  r.message = "covers the " + std::to_string(M) + "x" + std::to_string(N) + " tensor exactly once" +
              (warps > 1 ? " per replica" : "") + "; equals the PTX C frame in the lowering's " +
              std::to_string(rep_m) + "x" + std::to_string(rep_n) + " instruction grid per warp, " +
              std::to_string(warps) + " warp(s)";
  return j;
}

// The first A row (and D row) of warpgroup g's wgmma m (judge_acc_v3 below
// says where in WGMMA.cpp): 16 (m wm + warpIdA), warpIdA = (4g mod wm) mod
// (M / 16).
std::int64_t wgmma_first_row(int g, int m, int wm, std::int64_t M) {
  const std::int64_t a_id = (std::int64_t{4} * g % wm) % std::max<std::int64_t>(1, M / 16);
  return 16 * (std::int64_t{m} * wm + a_id);
}

// An MMA v3 accumulator (instr_shape [16, Ni, K]): every 4 warps along M are
// one warpgroup running wgmma m64nNi; WGMMA.cpp's instruction (m, n) writes
// registers E (m repN + n) + e, E = Ni / 2 elements per thread, repM =
// max(1, M / 16 wm), repN = max(1, N / Ni wn).  Each instruction's origin
// (its register E (m repN + n), lane 0, the warpgroup's first warp) is the
// first row of the A rows and the first column of the B columns the
// lowering's descriptors give that warpgroup's wgmma (m, n) (wgmma_origin
// below: rows 16 (m wm + warpgroup's M warp), columns Ni (n wn + its N
// warp)), and thread t of the warpgroup holds in element e the wgmma D
// frame's (row, col) of (t, e) from that origin.  That frame is the PTX
// ISA's (Figure 148): warp w of the warpgroup holds rows 16w..16w+15, and
// each 8 columns an mma.sync m16n8 C tile, element e of a thread being C
// element e % 4 of its lane in columns 8 (e / 4) on — so `frame` (m16n8's
// C) gives it, and tests/test_triton_mma_v3.cc holds it to core/wgmma's table.
Judged judge_acc_v3(Judged j, const TritonDotOperand& op, const Frame& frame) {
  TritonReport& r = j.report;
  const TritonLayout& L = op.layout;
  const int ni = (*op.instr_shape)[1];
  r.instruction = "wgmma.mma_async m64n" + std::to_string(ni) + "k" + std::to_string((*op.instr_shape)[2]) + " D";
  const int bits = dtype_bits(op.dtype);
  if (bits != 32) {
    r.result = FrameVerdict::unchecked;
    r.message = "an f16 accumulator of MMA v3: the lowering packs its halves (unpackAccumulator), not modelled";
    return j;
  }
  const int regs = static_cast<int>(L.in_size("register"));
  const int warps = static_cast<int>(L.in_size("warp"));
  if (!op.warps_per_cta) {
    r.result = FrameVerdict::unchecked;
    r.message = "no warps_per_cta: the lowering's register order (fc[E (m repN + n) + e]) depends on repN";
    return j;
  }
  const int wm = (*op.warps_per_cta)[0], wn = (*op.warps_per_cta)[1];
  if (wm % 4)
    return refute(j, "warps_per_cta [" + std::to_string(wm) + ", " + std::to_string(wn) +
                         "]: an MMA v3 parent needs whole warpgroups (a multiple of 4 warps) along M");
  const std::int64_t M = L.out_dims[0].second, N = L.out_dims[1].second;
  const int e_count = ni / 2;
  const int rep_m = static_cast<int>(std::max<std::int64_t>(1, M / (std::int64_t{16} * wm)));
  const int rep_n = static_cast<int>(std::max<std::int64_t>(1, N / (std::int64_t{ni} * wn)));
  if (std::int64_t{e_count} * rep_m * rep_n != regs)
    return refute(j, "warps_per_cta [" + std::to_string(wm) + ", " + std::to_string(wn) + "] over " +
                         std::to_string(M) + "x" + std::to_string(N) + " gives " + std::to_string(rep_m) + "x" +
                         std::to_string(rep_n) + " wgmma m64n" + std::to_string(ni) + " per warpgroup, " +
                         std::to_string(e_count) + " elements each; the layout has " + std::to_string(regs));
  const int groups = warps / 4;
  // Which D rows and columns wgmma (m, n) of warpgroup g computes, as Triton
  // lowers it (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/DotOpToLLVM/
  // WGMMA.cpp, triton-lang/triton 02d918bea5ed): loadA and loadB take the
  // warpgroup's first warp (warpId & ~3); for A, warpM = warp % wpt[0] and
  // warpId = warpM % (M / 16); for B, warpN = (warp / wpt[0]) % wpt[1] and
  // warpId = warpN % (N / Ni) (warpgroups M-fastest, unlike MMAv2's warps);
  // DotOpMmaV3SmemLoader::smemLoad(a, k) points the descriptor at row
  // (column) a * dimWpt * instrShape[0] + warpId * instrShape[0] (A: 16,
  // dimWpt wm; B: Ni, dimWpt wn); convertDot runs wgmma (m, n) on
  // aLoader.smemLoad(m, k) and bLoader.smemLoad(n, k) into fc[(m numRepN + n)
  // accSize ..].  So its D rows are 16 (m wm + warpIdA) .. + 63 and its
  // columns Ni (n wn + warpIdB) .. + Ni - 1; a tensor smaller than the
  // warpgroups (M < 16 wm, N < Ni wn) makes several compute the same block.
  const auto wgmma_origin = [&](int g, int m, int n) {
    const std::int64_t warp = std::int64_t{4} * g;
    const std::int64_t b_id = ((warp / wm) % wn) % std::max<std::int64_t>(1, N / ni);
    return std::array<std::int64_t, 2>{wgmma_first_row(g, m, wm, M), ni * (std::int64_t{n} * wn + b_id)};
  };
  std::vector<std::vector<std::int64_t>> row0(static_cast<std::size_t>(groups),
                                              std::vector<std::int64_t>(static_cast<std::size_t>(rep_m))),
      col0(static_cast<std::size_t>(groups), std::vector<std::int64_t>(static_cast<std::size_t>(rep_n)));
  for (int g = 0; g < groups; ++g)
    for (int m = 0; m < rep_m; ++m)
      for (int n = 0; n < rep_n; ++n) {
        const int base = e_count * (m * rep_n + n);
        const std::vector<std::int64_t> o = L.apply(base, 0, 4 * g);
        const std::string inst = "wgmma (m " + std::to_string(m) + ", n " + std::to_string(n) + ") of warpgroup " +
                                 std::to_string(g) + " (registers " + std::to_string(base) + ".." +
                                 std::to_string(base + e_count - 1) + ")";
        if (n == 0) row0[g][m] = o[0];
        if (m == 0) col0[g][n] = o[1];
        if (o[0] != row0[g][m] || o[1] != col0[g][n])
          return refute(j,
                        inst + " starts at " + point({o[0], o[1]}) + "; the lowering feeds it A's rows of m " +
                            std::to_string(m) + " (row " + std::to_string(row0[g][m]) + ") and B's columns of n " +
                            std::to_string(n) + " (column " + std::to_string(col0[g][n]) +
                            "): the m and n register bases are out of order",
                        TritonCounterexample{base, 0, 4 * g, {o[0], o[1]}, {row0[g][m], col0[g][n]}});
        // The rows (columns) must be those this warpgroup's wgmma reads from
        // A (B): holding another warpgroup's rows is a bijection all the same,
        // so nothing above ties them (issue 33; TileLang #2522).
        const std::array<std::int64_t, 2> want = wgmma_origin(g, m, n);
        if (o[0] != want[0] || o[1] != want[1])
          return refute(j,
                        holder({base, 0, 4 * g}) + " holds " + point({o[0], o[1]}) + " as d0 of " + inst +
                            "; Triton's lowering (WGMMA.cpp loadA, loadB, smemLoad) runs that wgmma on A's rows " +
                            std::to_string(want[0]) + ".." + std::to_string(want[0] + 63) + " and B's columns " +
                            std::to_string(want[1]) + ".." + std::to_string(want[1] + ni - 1) + ", so it writes " +
                            point(want) + " there: the warpgroup holds " +
                            (o[0] == want[0]   ? "columns"
                             : o[1] == want[1] ? "rows"
                                               : "rows and columns") +
                            " another wgmma computes",
                        TritonCounterexample{base, 0, 4 * g, {o[0], o[1]}, want});
        for (int t = 0; t < 4 * kLanes; ++t)
          for (int e = 0; e < e_count; ++e) {
            const int lane = t % kLanes, w = 4 * g + t / kLanes;
            const std::vector<std::int64_t> got = L.apply(base + e, lane, w);
            const TileCoord c = frame.at(lane, e % 4);
            const std::array<std::int64_t, 2> local{16 * (t / kLanes) + c.row, 8 * (e / 4) + c.col};
            const TritonCounterexample cex{base + e, lane, w, {got[0], got[1]}, {o[0] + local[0], o[1] + local[1]}};
            if (cex.ptx != cex.coordinate)
              return refute(j,
                            holder({base + e, lane, w}) + " holds " + point(cex.coordinate) +
                                ", wgmma's D frame puts " + point(cex.ptx) + " there (thread " + std::to_string(t) +
                                " of the warpgroup, d" + std::to_string(e) + ")",
                            cex);
          }
      }
  r.result = FrameVerdict::proved;
  r.message = "covers the " + std::to_string(M) + "x" + std::to_string(N) + " tensor exactly once; every register of " +
              std::to_string(groups * rep_m * rep_n) + " wgmma m64n" + std::to_string(ni) +
              " instruction(s) holds the element of wgmma's D frame, in the lowering's order, on the rows and "
              "columns each warpgroup's wgmma reads from A and B";
  return j;
}

// wgmma's A from registers (a #ttg.dot_op opIdx 0 over an MMA v3 parent,
// instr_shape [16, Ni, K]).  WGMMA.cpp (convertDot, loadReg) hands wgmma
// (m, k) of each warpgroup the registers E (m repK + k) .. + E - 1, E = K / 2
// elements per thread (a 64 x K tile over 128 threads), repM = max(1, M / 16
// wm), repK = K_tensor / K; the lowering asserts kWidth = 32 / bits, the
// elements one 32-bit register of the fragment holds.  Thread t (warp t / 32
// of the warpgroup) must hold in element e the wgmma A fragment's (row, k)
// of its lane: warp w of the warpgroup holds rows 16 w .. 16 w + 15, as
// mma.sync's m16n8k16 (k32 for 8-bit, k8 for tf32) A frame gives them (PTX
// ISA, "Register Fragments and Shared Memory Matrix Layouts" for wgmma's A)
// — from row wgmma_first_row(g, m), the rows the accumulator's wgmma m
// writes, and column K k.  The warps along N (a multiple-of-4 warp index
// past wm) repeat the M warps' rows (the A broadcast).
Judged judge_a_v3(Judged j, const TritonDotOperand& op, const Frame& frame) {
  TritonReport& r = j.report;
  const TritonLayout& L = op.layout;
  const int ki = (*op.instr_shape)[2];
  r.instruction = "wgmma.mma_async m64n" + std::to_string((*op.instr_shape)[1]) + "k" + std::to_string(ki) + "." +
                  std::string(dtype_info(op.dtype).ptx) + " A from registers";
  if (!op.warps_per_cta) {
    r.result = FrameVerdict::unchecked;
    r.message = "no warps_per_cta: which warpgroup runs which wgmma depends on it";
    return j;
  }
  const int wm = (*op.warps_per_cta)[0], wn = (*op.warps_per_cta)[1];
  if (wm % 4)
    return refute(j, "warps_per_cta [" + std::to_string(wm) + ", " + std::to_string(wn) +
                         "]: an MMA v3 parent needs whole warpgroups (a multiple of 4 warps) along M");
  const std::int64_t M = L.out_dims[0].second, K = L.out_dims[1].second;
  const int e_count = frame.elems();
  if (e_count * 4 * kLanes != 64 * ki)
    return refute(j, "instrShape K " + std::to_string(ki) + " is not the K of a " +
                         std::string(dtype_info(op.dtype).ptx) + " wgmma, whose A fragment holds " +
                         std::to_string(e_count) + " elements per thread");
  const int regs = static_cast<int>(L.in_size("register"));
  const int rep_m = static_cast<int>(std::max<std::int64_t>(1, M / (std::int64_t{16} * wm)));
  const int rep_k = static_cast<int>(K / ki);
  if (rep_k < 1 || std::int64_t{e_count} * rep_m * rep_k != regs)
    return refute(j, "warps_per_cta [" + std::to_string(wm) + ", " + std::to_string(wn) + "] over " +
                         std::to_string(M) + "x" + std::to_string(K) + " gives " + std::to_string(rep_m) + "x" +
                         std::to_string(rep_k) + " wgmma k" + std::to_string(ki) + " per warpgroup, " +
                         std::to_string(e_count) + " A elements each; the layout has " + std::to_string(regs));
  const int warps = static_cast<int>(L.in_size("warp"));
  for (int g = 0; g < warps / 4; ++g)
    for (int m = 0; m < rep_m; ++m)
      for (int k = 0; k < rep_k; ++k) {
        const int base = e_count * (m * rep_k + k);
        const std::int64_t row0 = wgmma_first_row(g, m, wm, M);
        for (int t = 0; t < 4 * kLanes; ++t)
          for (int e = 0; e < e_count; ++e) {
            const int lane = t % kLanes, w = 4 * g + t / kLanes;
            const std::vector<std::int64_t> got = L.apply(base + e, lane, w);
            const TileCoord c = frame.at(lane, e);
            const TritonCounterexample cex{
                base + e, lane, w, {got[0], got[1]}, {row0 + 16 * (t / kLanes) + c.row, std::int64_t{k} * ki + c.col}};
            if (cex.ptx != cex.coordinate)
              return refute(j,
                            holder({base + e, lane, w}) + " holds " + point(cex.coordinate) + ", as a" +
                                std::to_string(e) + " of wgmma (m " + std::to_string(m) + ", k " + std::to_string(k) +
                                ") of warpgroup " + std::to_string(g) + " (registers " + std::to_string(base) + ".." +
                                std::to_string(base + e_count - 1) + ") wgmma's A fragment needs " + point(cex.ptx) +
                                (op.k_width * dtype_bits(op.dtype) != 32
                                     ? " (kWidth " + std::to_string(op.k_width) + ": the lowering asserts kWidth = " +
                                           std::to_string(32 / dtype_bits(op.dtype)) + ", 32 / bits)"
                                     : std::string()),
                            cex);
          }
      }
  r.result = FrameVerdict::proved;
  r.message = "covers the " + std::to_string(M) + "x" + std::to_string(K) +
              " tensor once per N warp; every register of " + std::to_string(warps / 4 * rep_m * rep_k) + " wgmma k" +
              std::to_string(ki) +
              " instruction(s) holds the element of wgmma's A fragment, in the lowering's order (m outer, k inner), "
              "on the rows the accumulator's wgmma writes";
  return j;
}

Judged judge_operand(Judged j, const TritonDotOperand& op, const Frame& frame) {
  TritonReport& r = j.report;
  const TritonLayout& L = op.layout;
  const int bits = dtype_bits(op.dtype);
  const int regs = static_cast<int>(L.in_size("register"));
  const int warps = static_cast<int>(L.in_size("warp"));
  const int elems = frame.elems();
  if (regs % elems)
    return refute(j, std::to_string(regs) + " registers are not whole instructions of " + std::to_string(elems));
  const bool is_a = op.role == TritonRole::a;
  const int per_lane = regs / elems;  // instructions per lane
  const std::int64_t k_total = is_a ? L.out_dims[1].second : L.out_dims[0].second;
  const std::int64_t outer_total = is_a ? L.out_dims[0].second : L.out_dims[1].second;
  const int k_instr = is_a ? frame.cols : frame.rows;
  if (k_total < k_instr || k_total % k_instr)
    return refute(j, "K = " + std::to_string(k_total) + " is not whole instructions of k" + std::to_string(k_instr));
  const std::int64_t rep_k64 = k_total / k_instr;
  if (rep_k64 > per_lane || per_lane % rep_k64)
    return refute(j, std::to_string(per_lane) + " instruction(s) per lane do not split into K / k" +
                         std::to_string(k_instr) + " = " + std::to_string(rep_k64) + " steps along K");
  const int rep_k = static_cast<int>(rep_k64);
  const int rep_outer = per_lane / rep_k;
  if (op.warps_per_cta) {
    // MMAv2's warps are N-fastest: warp w is (M warp w / wn, N warp w % wn).
    // A is shared by the N warps of one M warp, B by the M warps.
    const int n_bits = std::countr_zero(static_cast<unsigned>((*op.warps_per_cta)[1]));
    const std::vector<std::vector<std::int64_t>>& wb = L.bases("warp");
    for (std::size_t b = 0; b < wb.size(); ++b)
      if ((is_a == (static_cast<int>(b) < n_bits)) && (wb[b][0] != 0 || wb[b][1] != 0))
        return refute(j,
                      "warp " + std::to_string(1 << b) + " is " + (is_a ? "an N" : "an M") +
                          " warp of warps_per_cta [" + std::to_string((*op.warps_per_cta)[0]) + ", " +
                          std::to_string((*op.warps_per_cta)[1]) + "] (N-fastest), which shares " + (is_a ? "A" : "B") +
                          " with warp 0, but its basis is " + point({wb[b][0], wb[b][1]}),
                      TritonCounterexample{0, 0, std::int64_t{1} << b, {wb[b][0], wb[b][1]}, {0, 0}});
    const int warps_outer = (*op.warps_per_cta)[is_a ? 0 : 1];
    const std::int64_t want = std::max<std::int64_t>(1, outer_total / (std::int64_t{is_a ? 16 : 8} * warps_outer));
    if (want != rep_outer)
      return refute(j, "warps_per_cta gives " + std::to_string(want) + " instruction(s) along " + (is_a ? "M" : "N") +
                           " per warp, the layout's registers " + std::to_string(rep_outer));
  }
  const std::vector<int> order = mma_v2_feed_order(regs, bits, op.k_width, is_a, rep_k);
  j.pi.assign(static_cast<std::size_t>(k_total), -1);
  std::vector<std::vector<std::int64_t>>& origins = is_a ? j.row_origin : j.col_origin;
  origins.assign(static_cast<std::size_t>(warps), std::vector<std::int64_t>(static_cast<std::size_t>(rep_outer)));

  // The outer (M for A, N for B) coordinate is dim 0 for A, dim 1 for B.
  const int outer = is_a ? 0 : 1;
  const int tile_outer = is_a ? frame.rows : frame.cols;
  for (int w = 0; w < warps; ++w)
    for (int q = 0; q < per_lane; ++q) {
      const int m = q / rep_k, k_step = q % rep_k;
      const std::vector<std::int64_t> o = L.apply(order[static_cast<std::size_t>(q * elems)], 0, w);
      const std::array<std::int64_t, 2> origin{o[0], o[1]};
      const std::string inst = "instruction " + std::to_string(q) + " (" + (is_a ? "m " : "n ") + std::to_string(m) +
                               ", k " + std::to_string(k_step) + ") of warp " + std::to_string(w);
      if (origin[outer] % tile_outer)
        return refute(j, inst + " starts at " + point(origin) + ", not on a multiple of " + std::to_string(tile_outer));
      if (k_step == 0) origins[w][m] = origin[outer];
      if (origin[outer] != origins[w][m])
        return refute(j, inst + " covers " + (is_a ? "rows" : "columns") + " from " + std::to_string(origin[outer]) +
                             ", its k 0 step from " + std::to_string(origins[w][m]) +
                             ": the lowering accumulates both into the same D " + (is_a ? "rows" : "columns"));
      for (int lane = 0; lane < kLanes; ++lane)
        for (int e = 0; e < elems; ++e) {
          const int reg = order[static_cast<std::size_t>(q * elems + e)];
          const std::vector<std::int64_t> got = L.apply(reg, lane, w);
          const TileCoord local = frame.at(lane, e);
          TritonCounterexample cex{reg, lane, w, {got[0], got[1]}, {}};
          const std::int64_t want_outer = origin[outer] + (outer == 0 ? local.row : local.col);
          const std::int64_t v = std::int64_t{k_instr} * k_step + (outer == 0 ? local.col : local.row);
          cex.ptx =
              outer == 0 ? std::array<std::int64_t, 2>{want_outer, v} : std::array<std::int64_t, 2>{v, want_outer};
          const std::int64_t k = got[1 - outer];
          if (got[outer] != want_outer)
            return refute(j,
                          holder({reg, lane, w}) + " holds " + point(cex.coordinate) + "; as element " +
                              std::to_string(e) + " of " + inst + " PTX needs " + point(cex.ptx) +
                              " (k in instruction space)",
                          cex);
          std::int64_t& slot = j.pi[static_cast<std::size_t>(v)];
          if (slot >= 0 && slot != k)
            return refute(j,
                          "instruction-space k " + std::to_string(v) + " is K " + std::to_string(slot) +
                              " in one place and K " + std::to_string(k) + " at " + holder({reg, lane, w}) +
                              ": K is not a permutation",
                          cex);
          slot = k;
        }
    }
  std::set<std::int64_t> image(j.pi.begin(), j.pi.end());
  if (image.size() != j.pi.size() || *image.begin() < 0 || *image.rbegin() >= k_total)
    return refute(j, "K is not a bijection of [0, " + std::to_string(k_total) + ")");
  if (warps > 1 && !op.warps_per_cta) {
    r.result = FrameVerdict::unchecked;
    r.message = "no warps_per_cta: which of the " + std::to_string(warps) + " warps share " + (is_a ? "A" : "B") +
                " (MMAv2's warp roles) is unknown";
    return j;
  }
  bool identity = true;
  for (std::size_t v = 0; v < j.pi.size(); ++v) identity = identity && j.pi[v] == static_cast<std::int64_t>(v);
  if (identity) {
    r.result = FrameVerdict::proved;
    r.message = "covers the " + std::to_string(L.out_dims[0].second) + "x" + std::to_string(L.out_dims[1].second) +
                " tensor exactly once" + (warps > 1 ? " per replica" : "") + "; equals the PTX frame of " +
                std::to_string(per_lane) + " instruction(s) per lane in the lowering's feed order, K in order";
  } else {
    j.permuted = true;
    r.k_permutation = j.pi;
    r.result = FrameVerdict::unchecked;
    r.message = "K is permuted (kWidth " + std::to_string(op.k_width) +
                "); the product is unchanged only if the other operand permutes it alike: give both one group";
  }
  return j;
}

Judged judge(const TritonDotOperand& op) {
  Judged j;
  TritonReport& r = j.report;
  r.name = op.name;
  r.role = op.role;
  r.instruction = ptx_name(op);
  const TritonLayout& L = op.layout;
  for (const TritonLayout::InDim& d : L.in_dims)
    for (std::size_t b = 0; b < d.bases.size(); ++b) {
      bool zero = true;
      for (std::int64_t v : d.bases[b]) zero = zero && v == 0;
      if (zero) r.zero_bases.emplace_back(d.name, static_cast<int>(b));
    }
  const auto give = [&](FrameVerdict v, std::string m) {
    r.result = v;
    r.message = std::move(m);
    return j;
  };
  if (L.out_dims.size() != 2) return give(FrameVerdict::ill_formed, "a 2-D layout (dim0, dim1) is needed");
  for (const auto& [dim, size] : L.out_dims)
    if (size < 1 || size > (std::int64_t{1} << 24) || (size & (size - 1)))
      return give(FrameVerdict::ill_formed,
                  "out dim " + dim + " has size " + std::to_string(size) + ", no power of two");
  for (const TritonLayout::InDim& d : L.in_dims) {
    if (d.name != "register" && d.name != "lane" && d.name != "warp" && d.name != "block")
      return give(FrameVerdict::ill_formed, "unknown input dimension '" + d.name + "'");
    if (d.bases.size() > 24) return give(FrameVerdict::ill_formed, d.name + " has more than 24 bases");
    for (const std::vector<std::int64_t>& b : d.bases)
      if (b.size() != 2) return give(FrameVerdict::ill_formed, "a basis of " + d.name + " is not 2-D");
  }
  if (L.in_size("lane") != kLanes)
    return give(FrameVerdict::ill_formed, "lane has " + std::to_string(L.in_size("lane")) + " values, a warp 32");
  if (L.in_size("block") != 1)
    return give(FrameVerdict::unchecked, "layouts over several CTAs (block bases) are not modelled");
  if (L.in_size("register") * L.in_size("warp") > (1 << 16))
    return give(FrameVerdict::unchecked, std::to_string(L.in_size("register")) + " registers x " +
                                             std::to_string(L.in_size("warp")) +
                                             " warps: larger than mmacheck enumerates");
  if (op.warps_per_cta && ((*op.warps_per_cta)[0] < 1 || (*op.warps_per_cta)[1] < 1 ||
                           std::int64_t{(*op.warps_per_cta)[0]} * (*op.warps_per_cta)[1] != L.in_size("warp")))
    return give(FrameVerdict::ill_formed,
                "warps_per_cta does not multiply to the layout's " + std::to_string(L.in_size("warp")) + " warps");
  if (std::optional<Judged> bad = judge_span(j, L)) return *bad;
  for (const auto& [dim, b] : r.zero_bases)
    if (dim == "register")
      return give(FrameVerdict::unchecked,
                  "duplicated registers (register basis " + std::to_string(b) +
                      " is zero); the lowering drops duplicates, which mmacheck does not model");

  const int bits = dtype_bits(op.dtype);
  const Operand operand = op.role == TritonRole::acc ? Operand::C : op.role == TritonRole::a ? Operand::A : Operand::B;
  const Frame* frame = lookup_frame(op.role == TritonRole::acc ? "m16n8k16" : shape_for(bits), operand, bits);
  if (!frame)
    return give(FrameVerdict::unchecked, "no PTX frame for a " + std::string(dtype_info(op.dtype).ptx) + " operand");
  if (op.instr_shape && op.role == TritonRole::acc) return judge_acc_v3(std::move(j), op, *frame);
  if (op.instr_shape && op.role == TritonRole::a) return judge_a_v3(std::move(j), op, *frame);
  if (op.instr_shape)
    return give(FrameVerdict::unchecked, "a B operand of MMA v3 in registers: wgmma reads B from shared memory");
  return op.role == TritonRole::acc ? judge_acc(std::move(j), op, *frame) : judge_operand(std::move(j), op, *frame);
}

// Why A and B (or the accumulator and A or B) of one group cannot be one
// dot as MMAv2.cpp lowers it; "" when they can.
std::string mismatch(const TritonDotOperand& x, const Judged& jx, const TritonDotOperand& y, const Judged& jy) {
  const auto dims = [](const TritonDotOperand& o) {
    return std::to_string(o.layout.out_dims[0].second) + "x" + std::to_string(o.layout.out_dims[1].second);
  };
  if (x.warps_per_cta && y.warps_per_cta && *x.warps_per_cta != *y.warps_per_cta) return "their warps_per_cta differ";
  if (x.layout.in_size("warp") != y.layout.in_size("warp")) return "their warp counts differ";
  if (x.role == TritonRole::acc) {
    const bool f8 = y.dtype == DType::e4m3 || y.dtype == DType::e5m2;
    const bool ok = x.dtype == DType::f32   ? dtype_info(y.dtype).is_float
                    : x.dtype == DType::s32 ? !dtype_info(y.dtype).is_float
                                            : y.dtype == DType::f16 || f8;
    if (!ok)
      return "no mma.sync accumulates " + std::string(dtype_info(y.dtype).ptx) + " products in " +
             std::string(dtype_info(x.dtype).ptx);
    const int d = y.role == TritonRole::a ? 0 : 1;
    if (x.layout.out_dims[d].second != y.layout.out_dims[d].second)
      return "D is " + dims(x) + ", " + (d == 0 ? "A " : "B ") + dims(y) + ": " + (d == 0 ? "M" : "N") + " differs";
    const std::vector<std::vector<std::int64_t>>& dx = d == 0 ? jx.row_origin : jx.col_origin;
    const std::vector<std::vector<std::int64_t>>& dy = d == 0 ? jy.row_origin : jy.col_origin;
    if (dx.empty() || dy.empty()) return "";
    if (dx.size() != dy.size() || dx[0].size() != dy[0].size())
      return std::string("D and ") + (d == 0 ? "A" : "B") + " have different instruction counts along " +
             (d == 0 ? "M" : "N");
    for (std::size_t w = 0; w < dx.size(); ++w)
      for (std::size_t i = 0; i < dx[w].size(); ++i)
        if (dx[w][i] != dy[w][i])
          return "instruction " + std::string(d == 0 ? "m " : "n ") + std::to_string(i) + " of warp " +
                 std::to_string(w) + " writes D " + (d == 0 ? "rows" : "columns") + " from " +
                 std::to_string(dx[w][i]) + " but takes " + (d == 0 ? "A's rows" : "B's columns") + " from " +
                 std::to_string(dy[w][i]);
    return "";
  }
  const bool f8x = x.dtype == DType::e4m3 || x.dtype == DType::e5m2;
  const bool f8y = y.dtype == DType::e4m3 || y.dtype == DType::e5m2;
  if (x.dtype != y.dtype && !(f8x && f8y) &&
      !((x.dtype == DType::s8 || x.dtype == DType::u8) && (y.dtype == DType::s8 || y.dtype == DType::u8)))
    return "no mma.sync takes A " + std::string(dtype_info(x.dtype).ptx) + " and B " +
           std::string(dtype_info(y.dtype).ptx);
  if (x.k_width != y.k_width)
    return "A has kWidth " + std::to_string(x.k_width) + ", B kWidth " + std::to_string(y.k_width) +
           " (the lowering sizes both by A's)";
  if (x.layout.out_dims[1].second != y.layout.out_dims[0].second)
    return "A is " + dims(x) + ", B " + dims(y) + ": K differs";
  if (jx.pi.size() != jy.pi.size())
    return "A has K " + std::to_string(jx.pi.size()) + ", B K " + std::to_string(jy.pi.size());
  for (std::size_t v = 0; v < jx.pi.size(); ++v)
    if (jx.pi[v] != jy.pi[v])
      return "A and B permute K differently: instruction-space k " + std::to_string(v) + " is K " +
             std::to_string(jx.pi[v]) + " in A (" + x.name + ") and K " + std::to_string(jy.pi[v]) + " in B (" +
             y.name + ")";
  return "";
}

}  // namespace

std::vector<TritonReport> check_triton(const std::vector<TritonDotOperand>& operands) {
  std::vector<Judged> judged;
  for (const TritonDotOperand& op : operands) judged.push_back(judge(op));
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (!operands[i].group.empty()) groups[operands[i].group].push_back(i);
  const auto usable = [](const Judged& x) { return x.report.result == FrameVerdict::proved || x.permuted; };
  for (const auto& [name, members] : groups) {
    std::vector<std::size_t> accs, as, bs;
    for (std::size_t i : members)
      (operands[i].role == TritonRole::acc ? accs : operands[i].role == TritonRole::a ? as : bs).push_back(i);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t ia : as)
      for (std::size_t ib : bs) pairs.emplace_back(ia, ib);
    for (std::size_t ic : accs)
      for (std::size_t io : members)
        if (operands[io].role != TritonRole::acc) pairs.emplace_back(ic, io);
    // First every refutation, then the permuted pairs that agree.
    for (const auto& [ix, iy] : pairs) {
      Judged& x = judged[ix];
      Judged& y = judged[iy];
      if (!usable(x) || !usable(y)) continue;
      const std::string why = mismatch(operands[ix], x, operands[iy], y);
      if (why.empty()) continue;
      for (Judged* z : {&x, &y}) {
        z->report.result = FrameVerdict::refuted;
        z->report.message = "group '" + name + "': " + why;
        z->permuted = false;
      }
    }
    for (const auto& [ix, iy] : pairs) {
      Judged& x = judged[ix];
      Judged& y = judged[iy];
      if (operands[ix].role == TritonRole::acc || !usable(x) || !usable(y) || (!x.permuted && !y.permuted)) continue;
      for (Judged* z : {&x, &y}) {
        z->report.result = FrameVerdict::proved;
        z->report.message =
            "K permuted, by the same permutation in A and B (group '" + name + "'): the product is unchanged";
      }
    }
  }
  std::vector<TritonReport> out;
  for (Judged& j : judged) out.push_back(std::move(j.report));
  return out;
}

}  // namespace mmacheck
