#include "core/triton/triton_check.h"

#include <map>
#include <set>

#include "core/gemm/ptx_frame.h"

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
    for (int j = 0; j < step; ++j) order[static_cast<std::size_t>(i * step + j)] = i * step + si[static_cast<std::size_t>(j)];
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

struct Judged {
  TritonReport report;
  std::vector<std::int64_t> pi;  // instruction-space k -> tensor K (operands)
  bool permuted = false;
};

Judged refute(Judged j, std::string why, std::optional<TritonCounterexample> cex = std::nullopt) {
  j.report.result = FrameVerdict::refuted;
  j.report.message = std::move(why);
  j.report.counterexample = cex;
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
  if (L.in_size("lane") != kLanes) return give(FrameVerdict::ill_formed, "lane has " + std::to_string(L.in_size("lane")) + " values, a warp 32");
  if (L.in_size("block") != 1) return give(FrameVerdict::unchecked, "layouts over several CTAs (block bases) are not modelled");
  for (const auto& [dim, b] : r.zero_bases)
    if (dim == "register")
      return give(FrameVerdict::unchecked, "duplicated registers (register basis " + std::to_string(b) +
                                              " is zero); the lowering drops duplicates, which mmacheck does not model");

  const int bits = dtype_bits(op.dtype);
  const Operand operand = op.role == TritonRole::acc ? Operand::C : op.role == TritonRole::a ? Operand::A : Operand::B;
  const Frame* frame = lookup_frame(op.role == TritonRole::acc ? "m16n8k16" : shape_for(bits), operand, bits);
  if (!frame) return give(FrameVerdict::unchecked, "no PTX frame for a " + std::string(dtype_info(op.dtype).ptx) + " operand");
  const int regs = static_cast<int>(L.in_size("register"));
  const int warps = static_cast<int>(L.in_size("warp"));
  const int elems = frame->elems();
  if (regs % elems) return give(FrameVerdict::refuted, std::to_string(regs) + " registers are not whole instructions of " + std::to_string(elems));
  if (std::int64_t{regs} * warps > (1 << 16))
    return give(FrameVerdict::unchecked, std::to_string(regs) + " registers x " + std::to_string(warps) +
                                            " warps: larger than mmacheck enumerates");
  const int per_lane = regs / elems;  // instructions per lane
  const std::int64_t k_total = op.role == TritonRole::a ? L.out_dims[1].second : L.out_dims[0].second;
  const int k_instr = op.role == TritonRole::a ? frame->cols : frame->rows;
  int rep_k = 1;
  std::vector<int> order;
  if (op.role == TritonRole::acc) {
    for (int p = 0; p < regs; ++p) order.push_back(p);
  } else {
    if (k_total % k_instr || per_lane % (k_total / k_instr))
      return give(FrameVerdict::ill_formed, "K = " + std::to_string(k_total) + " is not whole instructions of k" + std::to_string(k_instr));
    rep_k = static_cast<int>(k_total / k_instr);
    order = mma_v2_feed_order(regs, bits, op.k_width, op.role == TritonRole::a, rep_k);
  }
  j.pi.assign(static_cast<std::size_t>(k_total > 0 && op.role != TritonRole::acc ? k_total : 0), -1);

  // The outer (M for A and C, N for B) coordinate is dim 0 except for B.
  const int outer = op.role == TritonRole::b ? 1 : 0;
  const int tile_outer = op.role == TritonRole::b ? frame->cols : frame->rows;
  for (int w = 0; w < warps; ++w) {
    std::set<std::array<std::int64_t, 2>> origins;
    for (int q = 0; q < per_lane; ++q) {
      const std::vector<std::int64_t> o = L.apply(order[static_cast<std::size_t>(q * elems)], 0, w);
      const std::array<std::int64_t, 2> origin{o[0], o[1]};
      if (op.role == TritonRole::acc && (origin[0] % frame->rows || origin[1] % frame->cols || !origins.insert(origin).second))
        return refute(j, "instruction " + std::to_string(q) + " of warp " + std::to_string(w) + " starts at " + point(origin) +
                             ", not at a 16x8 tile of its own");
      if (op.role != TritonRole::acc && origin[outer] % tile_outer)
        return refute(j, "instruction " + std::to_string(q) + " of warp " + std::to_string(w) + " starts at " + point(origin) +
                             ", not on a multiple of " + std::to_string(tile_outer));
      for (int lane = 0; lane < kLanes; ++lane)
        for (int e = 0; e < elems; ++e) {
          const int reg = order[static_cast<std::size_t>(q * elems + e)];
          const std::vector<std::int64_t> got = L.apply(reg, lane, w);
          const TileCoord local = frame->at(lane, e);
          TritonCounterexample cex{reg, lane, w, {got[0], got[1]}, {}};
          if (op.role == TritonRole::acc) {
            cex.ptx = {origin[0] + local.row, origin[1] + local.col};
            if (cex.ptx != cex.coordinate)
              return refute(j, "register " + std::to_string(reg) + " of lane " + std::to_string(lane) + " (warp " +
                                   std::to_string(w) + ") holds " + point(cex.coordinate) + ", PTX puts " +
                                   point(cex.ptx) + " there", cex);
            continue;
          }
          const std::int64_t want_outer = origin[outer] + (outer == 0 ? local.row : local.col);
          const std::int64_t v = std::int64_t{k_instr} * (q % rep_k) + (outer == 0 ? local.col : local.row);
          cex.ptx = outer == 0 ? std::array<std::int64_t, 2>{want_outer, v} : std::array<std::int64_t, 2>{v, want_outer};
          const std::int64_t k = got[1 - outer];
          if (got[outer] != want_outer)
            return refute(j, "register " + std::to_string(reg) + " of lane " + std::to_string(lane) + " (warp " +
                                 std::to_string(w) + ") holds " + point(cex.coordinate) + "; as element " +
                                 std::to_string(e) + " of instruction " + std::to_string(q) + " PTX needs " +
                                 point(cex.ptx) + " (k in instruction space)", cex);
          std::int64_t& slot = j.pi[static_cast<std::size_t>(v)];
          if (slot >= 0 && slot != k)
            return refute(j, "instruction-space k " + std::to_string(v) + " is K " + std::to_string(slot) +
                                 " in one place and K " + std::to_string(k) + " at register " + std::to_string(reg) +
                                 " of lane " + std::to_string(lane) + ": K is not a permutation", cex);
          slot = k;
        }
    }
  }
  if (op.role == TritonRole::acc) {
    r.result = FrameVerdict::proved;
    r.message = "equals the PTX C frame in " + std::to_string(per_lane) + " 16x8 tile(s) per warp, " +
                std::to_string(warps) + " warp(s)";
    return j;
  }
  std::set<std::int64_t> image(j.pi.begin(), j.pi.end());
  if (image.size() != j.pi.size() || *image.begin() < 0 || *image.rbegin() >= k_total)
    return refute(j, "K is not a bijection of [0, " + std::to_string(k_total) + ")");
  bool identity = true;
  for (std::size_t v = 0; v < j.pi.size(); ++v) identity = identity && j.pi[v] == static_cast<std::int64_t>(v);
  if (identity) {
    r.result = FrameVerdict::proved;
    r.message = "equals the PTX frame of " + std::to_string(per_lane) + " instruction(s) per lane, K in order";
  } else {
    j.permuted = true;
    r.k_permutation = j.pi;
    r.result = FrameVerdict::unchecked;
    r.message = "K is permuted (kWidth " + std::to_string(op.k_width) +
                "); the product is unchanged only if the other operand permutes it alike: give both one group";
  }
  return j;
}

}  // namespace

std::vector<TritonReport> check_triton(const std::vector<TritonDotOperand>& operands) {
  std::vector<Judged> judged;
  for (const TritonDotOperand& op : operands) judged.push_back(judge(op));
  std::map<std::string, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < operands.size(); ++i)
    if (!operands[i].group.empty() && operands[i].role != TritonRole::acc) groups[operands[i].group].push_back(i);
  for (const auto& [name, members] : groups) {
    std::vector<std::size_t> as, bs;
    for (std::size_t i : members) (operands[i].role == TritonRole::a ? as : bs).push_back(i);
    for (std::size_t ia : as)
      for (std::size_t ib : bs) {
        Judged& a = judged[ia];
        Judged& b = judged[ib];
        const auto usable = [](const Judged& x) {
          return x.report.result == FrameVerdict::proved || x.permuted;
        };
        if (!usable(a) || !usable(b) || (!a.permuted && !b.permuted)) continue;
        std::string why;
        if (a.pi.size() != b.pi.size()) {
          why = "A has K " + std::to_string(a.pi.size()) + ", B K " + std::to_string(b.pi.size());
        } else {
          for (std::size_t v = 0; v < a.pi.size() && why.empty(); ++v)
            if (a.pi[v] != b.pi[v])
              why = "instruction-space k " + std::to_string(v) + " is K " + std::to_string(a.pi[v]) + " in A (" +
                    a.report.name + ") and K " + std::to_string(b.pi[v]) + " in B (" + b.report.name + ")";
        }
        for (Judged* x : {&a, &b}) {
          if (why.empty()) {
            x->report.result = FrameVerdict::proved;
            x->report.message = "K permuted, by the same permutation in A and B (group '" + name +
                                "'): the product is unchanged";
          } else {
            x->report.result = FrameVerdict::refuted;
            x->report.message = "A and B permute K differently: " + why;
          }
        }
      }
  }
  std::vector<TritonReport> out;
  for (Judged& j : judged) out.push_back(std::move(j.report));
  return out;
}

}  // namespace mmacheck
