#include "core/cute/cute_check.h"

#include <algorithm>

#include "core/cute/cute_atom_name.h"
#include "core/cute/cute_gmma_check.h"
#include "core/cute/cute_gmma_name.h"

namespace mmacheck {

namespace {

// The CuTe index space of an operand: (M, K), (N, K) or (M, N), and how a PTX
// (row, col) of the frame reads in it.
struct OperandSpace {
  std::array<std::string_view, 2> axes;
  std::array<int, 2> dims;
  bool swap_ptx;  // B: PTX gives (k, n), CuTe indexes (n, k)
};

OperandSpace space_of(Operand op, const CuteAtomName& inst) {
  switch (op) {
    case Operand::A: return {{"m", "k"}, {inst.m, inst.k}, false};
    case Operand::B: return {{"n", "k"}, {inst.n, inst.k}, true};
    case Operand::C: return {{"m", "n"}, {inst.m, inst.n}, false};
  }
  return {};
}

// The lanes ThrID gives, or why it is not one warp.
std::optional<std::vector<int>> warp_lanes(const CuteLayout& thr, std::string* why) {
  if (thr.size() != kWarpLanes) {
    *why = "ThrID " + thr.str() + " has " + std::to_string(thr.size()) +
           " threads; mmacheck's frames are for mma.sync over the 32 lanes of one warp"
           " (sm_70's m8n8k4 runs per quad pair)";
    return std::nullopt;
  }
  std::vector<int> lanes(kWarpLanes);
  std::vector<bool> seen(kWarpLanes, false);
  for (int t = 0; t < kWarpLanes; ++t) {
    const std::int64_t lane = thr.at(t);
    if (lane < 0 || lane >= kWarpLanes || seen[lane]) {
      *why = "ThrID " + thr.str() + " is not a permutation of the 32 lanes: thread " + std::to_string(t) +
             (lane < 0 || lane >= kWarpLanes ? " is lane " + std::to_string(lane)
                                             : " shares lane " + std::to_string(lane));
      return std::nullopt;
    }
    seen[lane] = true;
    lanes[t] = static_cast<int>(lane);
  }
  return lanes;
}

CuteOperandReport check_operand(Operand op, const CuteAtomTraits& atom, const CuteAtomName& inst,
                                const std::vector<int>& lanes) {
  const CuteLayoutSource& src = op == Operand::A ? atom.a : op == Operand::B ? atom.b : atom.c;
  // The readers refuse an atom without its layouts: a located error, not a verdict.
  if (!src.layout)
    return CuteOperandReport::of(op, FrameVerdict::ill_formed, "the traits give no " + layout_member(op));
  const int bits = op == Operand::A ? inst.a_bits : op == Operand::B ? inst.b_bits : inst.c_bits;
  const Frame* frame = lookup_frame(inst.shape, op, bits);
  if (!frame)
    return CuteOperandReport::of(op, FrameVerdict::unchecked,
                                 "no PTX frame for " + inst.shape + " " + std::string(operand_name(op)) + " with " +
                                     std::to_string(bits) + "-bit elements in mmacheck's table");
  const OperandSpace s = space_of(op, inst);
  TvFrame f{"the PTX frame", "PTX", kWarpLanes, frame->elems(), 1, s.axes, s.dims, nullptr};
  f.at = [&](int t, int v) {
    const TileCoord p = frame->at(lanes[static_cast<std::size_t>(t)], v);
    return s.swap_ptx ? std::array<std::int64_t, 2>{p.col, p.row} : std::array<std::int64_t, 2>{p.row, p.col};
  };
  f.lane = [&](int t) { return lanes[static_cast<std::size_t>(t)]; };
  return compare_tv(op, *src.layout, f);
}

}  // namespace

std::string metadata_problem(const CuteAtomTraits& atom, const CuteAtomName& inst, Operand op) {
  const std::vector<std::int64_t> mnk{inst.m, inst.n, inst.k};
  if (atom.shape_mnk && atom.shape_mnk->flatten() != mnk)
    return "Shape_MNK " + atom.shape_mnk->str() + " is not the name's " + std::to_string(inst.m) + "x" +
           std::to_string(inst.n) + "x" + std::to_string(inst.k);
  // U1 and B1 both name the 1-bit type (uint1b_t).
  const auto same = [](const std::string& a, const std::string& b) {
    const auto bit = [](const std::string& t) { return t == "U1" || t == "B1"; };
    return a == b || (bit(a) && bit(b));
  };
  const std::vector<std::size_t> slots = op == Operand::A   ? std::vector<std::size_t>{1}
                                         : op == Operand::B ? std::vector<std::size_t>{2}
                                                            : std::vector<std::size_t>{0, 3};
  constexpr std::string_view kSlot = "DABC";
  for (std::size_t i : slots) {
    const std::optional<CuteValType>& v = atom.val_types[i];
    if (v && !same(v->token, inst.types[i]))
      return std::string("ValType") + kSlot[i] + " is " + v->written + " (" + v->token + "), the name's " + kSlot[i] +
             " is " + inst.types[i] + " (line " + std::to_string(v->loc.line) + ")";
  }
  return "";
}

CuteAtomReport check_cute_atom(const CuteAtomTraits& atom) {
  CuteAtomReport report;
  report.atom = atom.name;
  report.loc = atom.loc;
  std::string why;
  const std::optional<CuteAtomName> inst = decode_atom_name(atom.name, &why);
  const auto all = [&](FrameVerdict v, const std::string& message) {
    for (Operand op : {Operand::A, Operand::B, Operand::C})
      report.operands.push_back(CuteOperandReport::of(op, v, message));
  };
  if (inst && inst->family != CuteMmaFamily::mma_sync) return check_cute_warpgroup_atom(atom, *inst);
  if (!inst) {
    const std::string_view family = is_gmma_name(atom.name)   ? "wgmma"
                                    : is_umma_name(atom.name) ? "tcgen05.mma"
                                                              : "mma.sync";
    all(FrameVerdict::unchecked, "no " + std::string(family) + " instruction: " + why);
  } else {
    report.instruction = inst->ptx;
    report.note = inst->note;
    std::string thr_why;
    std::optional<std::vector<int>> lanes;
    if (!atom.thr_id.present()) thr_why = "the traits give no ThrID";
    else if (!atom.thr_id.layout->congruent()) thr_why = "ThrID " + atom.thr_id.layout->str() + " is not congruent";
    const bool thr_bad = !thr_why.empty();
    if (!thr_bad) lanes = warp_lanes(*atom.thr_id.layout, &thr_why);
    if (thr_bad) {
      all(FrameVerdict::ill_formed, thr_why);
    } else if (!lanes) {
      // 32 threads that are not the 32 lanes is a wrong ThrID; another count a
      // thread group mmacheck has no frames for.
      all(atom.thr_id.layout->size() == kWarpLanes ? FrameVerdict::refuted : FrameVerdict::unchecked, thr_why);
    } else {
      for (Operand op : {Operand::A, Operand::B, Operand::C}) {
        const std::string problem = metadata_problem(atom, *inst, op);
        const std::string frg = "FrgType" + std::string(operand_name(op));
        if (!problem.empty()) report.operands.push_back(CuteOperandReport::of(op, FrameVerdict::ill_formed, problem));
        else if (std::any_of(atom.frg_types.begin(), atom.frg_types.end(),
                             [&](const CuteFrgType& f) { return f.member == frg; }))
          report.operands.push_back(CuteOperandReport::of(op, FrameVerdict::unchecked,
                                                          frg + " is given: mmacheck does not model fragment types"));
        else report.operands.push_back(check_operand(op, atom, *inst, *lanes));
      }
    }
  }
  if (!report.note.empty())
    for (CuteOperandReport& o : report.operands) o.message += "; " + report.note;
  report.result = FrameVerdict::proved;
  for (const CuteOperandReport& o : report.operands) report.result = std::max(report.result, o.result);
  return report;
}

}  // namespace mmacheck
