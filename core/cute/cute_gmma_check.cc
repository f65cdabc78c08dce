#include "core/cute/cute_gmma_check.h"

#include <algorithm>
#include <vector>

#include "core/wgmma/wgmma_frame.h"
#include "core/tcgen05/tcgen05_tmem.h"

namespace mmacheck {

namespace {

constexpr int kWarpgroup = 128;

const CuteLayoutSource& source(const CuteAtomTraits& atom, Operand op) {
  return op == Operand::A ? atom.a : op == Operand::B ? atom.b : atom.c;
}

std::array<int, 2> dims_of(Operand op, const CuteAtomName& inst) {
  return op == Operand::A   ? std::array<int, 2>{inst.m, inst.k}
         : op == Operand::B ? std::array<int, 2>{inst.n, inst.k}
                            : std::array<int, 2>{inst.m, inst.n};
}

// ThrID as a map thread -> instruction thread, or why it is none.
std::optional<std::vector<int>> threads_of(const CuteLayout& thr, int count, std::string_view group, std::string* why) {
  if (!thr.congruent() || thr.size() != count) {
    *why = "ThrID " + thr.str() + " is not " + std::to_string(count) + " threads, " + std::string(group);
    return std::nullopt;
  }
  std::vector<int> map(static_cast<std::size_t>(count));
  std::vector<bool> seen(static_cast<std::size_t>(count), false);
  for (int t = 0; t < count; ++t) {
    const std::int64_t u = thr.at(t);
    if (u < 0 || u >= count || seen[static_cast<std::size_t>(u)]) {
      *why = "ThrID " + thr.str() + " is not a permutation of " + std::string(group) + ": thread " + std::to_string(t) +
             (u < 0 || u >= count ? " is " : " repeats ") + std::to_string(u);
      return std::nullopt;
    }
    seen[static_cast<std::size_t>(u)] = true;
    map[static_cast<std::size_t>(t)] = static_cast<int>(u);
  }
  return map;
}

// The operand split over `parts` threads along its first axis, each part's
// share of the tile in (x, y) order (parts 128 and holders 128: each thread
// the whole tile).
TvFrame split_frame(Operand op, const CuteAtomName& inst, int parts, int holders) {
  const std::array<int, 2> dims = dims_of(op, inst);
  const int rows = holders > 1 ? dims[0] : dims[0] / parts;
  TvFrame f{"the tile order", "the tile order", parts, rows * dims[1], holders, operand_axes(op), dims, nullptr};
  f.at = [rows, holders](int t, int v) {
    return std::array<std::int64_t, 2>{(holders > 1 ? 0 : std::int64_t{t} * rows) + v % rows, v / rows};
  };
  return f;
}

// A trait's layout that agrees with the structure CuTe needs, where the
// instruction's reading of it is outside the trait: unchecked, with why (and
// what was checked, in words that do not vary with the tile, so that the
// summary counts one reason).
CuteOperandReport outside_trait(CuteOperandReport r, const std::string& why, int parts, Operand op) {
  if (r.result != FrameVerdict::proved) return r;
  const std::array<std::string_view, 2> axes = operand_axes(op);
  const std::string order = "(" + std::string(axes[0]) + ", " + std::string(axes[1]) + ") order";
  r.result = FrameVerdict::unchecked;
  r.message = why + " (checked: " +
              (parts == kWarpgroup ? "each thread holds the whole tile once, in " + order
               : parts == 1        ? "the CTA holds the whole tile once, in " + order
                            : "each CTA of the pair holds its half of " + std::string(axes[0]) + " once, in " + order) +
              ")";
  return r;
}

// A FrgTypeX that contradicts where the name puts the operand.
std::string frg_problem(const CuteAtomTraits& atom, const CuteAtomName& inst, Operand op) {
  const std::string member = "FrgType" + std::string(operand_name(op));
  const auto it = std::find_if(atom.frg_types.begin(), atom.frg_types.end(),
                               [&](const CuteFrgType& f) { return f.member == member; });
  if (it == atom.frg_types.end()) return "";
  const bool smem_desc = it->written.find("smem_desc") != std::string::npos;
  if (inst.family == CuteMmaFamily::wgmma) {
    if (op == Operand::C) return member + " " + it->written + " is given; a wgmma accumulator is registers";
    if (op == Operand::A && inst.a_source == "registers")
      return member + " " + it->written + " is given, but the name's RS reads A from registers";
    if (!smem_desc)
      return member + " " + it->written + " is no GMMA::smem_desc; the name reads " + std::string(operand_name(op)) +
             " from shared memory";
  }
  return "";
}

CuteOperandReport check_gmma_operand(Operand op, const CuteAtomTraits& atom, const CuteAtomName& inst,
                                     const std::vector<int>& threads) {
  const CuteLayout& tv = *source(atom, op).layout;
  const bool registers = op == Operand::C || (op == Operand::A && inst.a_source == "registers");
  if (!registers) {
    CuteOperandReport r = compare_tv(op, tv, split_frame(op, inst, kWarpgroup, kWarpgroup));
    if (r.result == FrameVerdict::refuted)
      r.message = "CuTe partitions the shared-memory tile by " + std::string(operand_name(op)) +
                  "Layout and each thread must get all of it in order: " + r.message;
    return outside_trait(std::move(r),
                         "shared memory through a descriptor: which element wgmma reads for each (" +
                             std::string(operand_axes(op)[0]) +
                             ", k) is the smem layout's and the descriptor's, not the trait's (`mmacheck wgmma` "
                             "checks those)",
                         kWarpgroup, op);
  }
  const WgmmaFragment fragment = op == Operand::C ? WgmmaFragment::D : WgmmaFragment::A;
  const int bits = op == Operand::C ? inst.c_bits : inst.a_bits;
  const WgmmaFrame* frame = find_wgmma_frame(inst.frame_shape, fragment, bits);
  if (!frame)
    return CuteOperandReport::of(op, FrameVerdict::unchecked,
                                 "no wgmma frame for " + inst.frame_shape + " " + std::string(operand_name(op)) +
                                     " with " + std::to_string(bits) + "-bit elements in mmacheck's table");
  TvFrame f{"the wgmma frame", "PTX",  kWarpgroup, frame->elems(inst.n), 1, operand_axes(op),
            dims_of(op, inst), nullptr};
  f.at = [frame, &threads](int t, int v) {
    const std::array<int, 2> p = frame->at(threads[static_cast<std::size_t>(t)], v);
    return std::array<std::int64_t, 2>{p[0], p[1]};
  };
  f.lane = [&threads](int t) { return threads[static_cast<std::size_t>(t)]; };
  return compare_tv(op, tv, f);
}

CuteOperandReport check_umma_operand(Operand op, const CuteAtomTraits& atom, const CuteAtomName& inst) {
  CuteOperandReport r = compare_tv(op, *source(atom, op).layout, split_frame(op, inst, inst.cta_group, 1));
  const std::string x(operand_axes(op)[0]);
  if (op == Operand::A && inst.a_source == "tensor memory")
    return outside_trait(std::move(r),
                         "A in tensor memory: which lane and column hold each (m, k) is the TMEM layout's, not "
                         "the trait's",
                         inst.cta_group, op);
  if (op != Operand::C)
    return outside_trait(std::move(r),
                         "shared memory through a descriptor: which element tcgen05.mma reads for each (" + x +
                             ", k) is the smem layout's and the descriptor's, not the trait's",
                         inst.cta_group, op);
  std::string cta;
  if (inst.cta_group == 2) {  // the CTA of each row, as the data path writes it
    const DataPathLayout* path = find_data_path(2, inst.m);
    for (int m = 0; path && m < inst.m; ++m)
      if (tmem_position(*path, inst.n, 0, 0, m, 0).cta != m / (inst.m / 2))
        return CuteOperandReport::of(op, FrameVerdict::unchecked,
                                     "mmacheck's data path for cta_group::2 M = " + std::to_string(inst.m) +
                                         " puts rows elsewhere");
    cta = "; each row's CTA is the one tcgen05's data path writes it in";
  }
  return outside_trait(std::move(r),
                       "D in tensor memory: which lane and column hold each (m, n) is FrgTypeC's (UMMA::tmem_frg), "
                       "not the CLayout's (`mmacheck tcgen05` checks a program's TMEM layout)" +
                           cta,
                       inst.cta_group, op);
}

// UMMA: M and N from Shape_MNK, checked against the kind and the data paths.
std::string umma_shape(const CuteAtomTraits& atom, CuteAtomName& inst) {
  if (!atom.shape_mnk) return "no Shape_MNK: a UMMA atom's name carries no M and N";
  const std::vector<std::int64_t> mnk = atom.shape_mnk->flatten();
  if (mnk.size() != 3) return "Shape_MNK " + atom.shape_mnk->str() + " is not (M, N, K)";
  if (mnk[2] != inst.k)
    return "Shape_MNK " + atom.shape_mnk->str() + ": K is " + std::to_string(mnk[2]) + ", the kind's is " +
           std::to_string(inst.k) + " (256 bits of A's element)";
  if (!find_data_path(inst.cta_group, static_cast<int>(mnk[0])))
    return "Shape_MNK " + atom.shape_mnk->str() + ": M = " + std::to_string(mnk[0]) +
           " is no cta_group::" + std::to_string(inst.cta_group) + " data path mmacheck models (" +
           (inst.cta_group == 1 ? "64, 128" : "128, 256") + ")";
  if (mnk[1] < 8 || mnk[1] > 256 || mnk[1] % 8 != 0)
    return "Shape_MNK " + atom.shape_mnk->str() + ": N = " + std::to_string(mnk[1]) +
           " is not a multiple of 8 from 8 to 256";
  inst.m = static_cast<int>(mnk[0]);
  inst.n = static_cast<int>(mnk[1]);
  inst.shape = "m" + std::to_string(inst.m) + "n" + std::to_string(inst.n) + "k" + std::to_string(inst.k);
  return "";
}

}  // namespace

CuteAtomReport check_cute_warpgroup_atom(const CuteAtomTraits& atom, const CuteAtomName& name) {
  CuteAtomName inst = name;
  CuteAtomReport report;
  report.atom = atom.name;
  report.loc = atom.loc;
  report.instruction = inst.ptx + " (A from " + inst.a_source + ")";
  const auto all = [&](FrameVerdict v, const std::string& message) {
    for (Operand op : {Operand::A, Operand::B, Operand::C})
      report.operands.push_back(CuteOperandReport::of(op, v, message));
  };
  const bool umma = inst.family == CuteMmaFamily::umma;
  std::string why;
  const std::string shape_problem = umma ? umma_shape(atom, inst) : "";
  std::optional<std::vector<int>> threads;
  if (!shape_problem.empty()) {
    all(atom.shape_mnk ? FrameVerdict::ill_formed : FrameVerdict::unchecked, shape_problem);
  } else if (!atom.thr_id.present()) {
    all(FrameVerdict::ill_formed, "the traits give no ThrID");
  } else if (!(threads = umma ? threads_of(*atom.thr_id.layout, inst.cta_group,
                                           inst.cta_group == 1 ? "the CTA" : "the CTA pair", &why)
                              : threads_of(*atom.thr_id.layout, kWarpgroup, "the warpgroup", &why))) {
    all(FrameVerdict::refuted, why);
  } else {
    if (umma) report.instruction = inst.ptx + " " + inst.shape + " (A from " + inst.a_source + ")";
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
      std::string problem = umma ? "" : metadata_problem(atom, inst, op);
      if (problem.empty()) problem = frg_problem(atom, inst, op);
      if (!problem.empty()) report.operands.push_back(CuteOperandReport::of(op, FrameVerdict::ill_formed, problem));
      else if (!source(atom, op).present())
        report.operands.push_back(CuteOperandReport::of(
            op, FrameVerdict::ill_formed, "the traits give no " + std::string(operand_name(op)) + "Layout"));
      else
        report.operands.push_back(umma ? check_umma_operand(op, atom, inst)
                                       : check_gmma_operand(op, atom, inst, *threads));
    }
  }
  report.result = FrameVerdict::proved;
  for (const CuteOperandReport& o : report.operands) report.result = std::max(report.result, o.result);
  return report;
}

}  // namespace mmacheck
