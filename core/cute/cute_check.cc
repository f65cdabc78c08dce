#include "core/cute/cute_check.h"

#include <algorithm>

#include "core/cute/cute_atom_name.h"

namespace mmacheck {

namespace {

constexpr int kWarp = 32;
constexpr double kEnumerable = 1 << 20;  // (thread, value) points worth listing

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

std::string point(const OperandSpace& s, std::int64_t a, std::int64_t b) {
  return "(" + std::string(s.axes[0]) + "=" + std::to_string(a) + ", " + std::string(s.axes[1]) + "=" +
         std::to_string(b) + ")";
}

std::string member_name(Operand op) { return std::string(operand_name(op)) + "Layout"; }

CuteOperandReport verdict(Operand op, FrameVerdict v, std::string message) {
  return {op, v, std::nullopt, std::move(message)};
}

// The lanes ThrID gives, or why it is not one warp.
std::optional<std::vector<int>> warp_lanes(const CuteLayout& thr, std::string* why) {
  if (thr.size() != kWarp) {
    *why = "ThrID " + thr.str() + " has " + std::to_string(thr.size()) +
           " threads; mmacheck's frames are for mma.sync over the 32 lanes of one warp"
           " (sm_70's m8n8k4 runs per quad pair)";
    return std::nullopt;
  }
  std::vector<int> lanes(kWarp);
  std::vector<bool> seen(kWarp, false);
  for (int t = 0; t < kWarp; ++t) {
    const std::int64_t lane = thr.at(t);
    if (lane < 0 || lane >= kWarp || seen[lane]) {
      *why = "ThrID " + thr.str() + " is not a permutation of the 32 lanes: thread " + std::to_string(t) +
             (lane < 0 || lane >= kWarp ? " is lane " + std::to_string(lane) : " shares lane " + std::to_string(lane));
      return std::nullopt;
    }
    seen[lane] = true;
    lanes[t] = static_cast<int>(lane);
  }
  return lanes;
}

// The comparison proper, on a layout whose leaves can be read in order.
CuteOperandReport compare(Operand op, const CuteLayout& tv, const std::vector<int>& lanes, const Frame& frame,
                          const OperandSpace& s) {
  const std::int64_t threads = tv.mode(0).size();
  const std::int64_t values = tv.mode(1).size();
  const std::int64_t tile = std::int64_t{s.dims[0]} * s.dims[1];
  CuteOperandReport r{op, FrameVerdict::proved, std::nullopt, ""};
  std::vector<std::string> problems;
  if (threads != kWarp) problems.push_back("thread mode has " + std::to_string(threads) + " threads, the warp 32");
  if (values != frame.elems())
    problems.push_back("value mode has " + std::to_string(values) + " values, PTX gives each lane " +
                       std::to_string(frame.elems()));
  if (threads * 1.0 * values > kEnumerable) {  // too large to list: the sizes alone refute it
    r.result = FrameVerdict::refuted;
    r.message = problems.front() + (problems.size() > 1 ? "; " + problems.back() : "");
    return r;
  }

  const std::vector<std::int64_t> index_of = tv.indices();
  std::vector<std::int64_t> owner(static_cast<std::size_t>(tile), -1);  // t + threads * v
  std::int64_t reached = 0;
  std::optional<std::array<std::int64_t, 3>> clash;  // first owner, second owner, index
  std::optional<CuteCounterexample> outside;
  for (std::int64_t v = 0; v < values; ++v)
    for (std::int64_t t = 0; t < threads; ++t) {
      const std::int64_t idx = index_of[static_cast<std::size_t>(t + threads * v)];
      const bool inside = idx >= 0 && idx < tile;
      CuteCounterexample cex;
      cex.thread = static_cast<int>(t);
      cex.value = static_cast<int>(v);
      cex.index = idx;
      cex.axes = s.axes;
      cex.coordinate = {idx % s.dims[0], idx / s.dims[0]};
      cex.in_tile = inside;
      if (inside) {
        std::int64_t& o = owner[static_cast<std::size_t>(idx)];
        if (o < 0) {
          o = t + threads * v;
          ++reached;
        } else if (!clash) {
          clash = std::array<std::int64_t, 3>{o, t + threads * v, idx};
        }
      } else if (!outside) {
        outside = cex;
      }
      if (t < kWarp && v < frame.elems()) {
        cex.lane = lanes[static_cast<std::size_t>(t)];
        const TileCoord p = frame.at(cex.lane, static_cast<int>(v));
        cex.ptx = s.swap_ptx ? std::array<std::int64_t, 2>{p.col, p.row} : std::array<std::int64_t, 2>{p.row, p.col};
        const bool better = !r.counterexample || (r.counterexample->thread > cex.thread) ||
                            (r.counterexample->thread == cex.thread && r.counterexample->value > cex.value);
        if ((!inside || cex.ptx != cex.coordinate) && better) r.counterexample = cex;
      }
    }
  if (r.counterexample) problems.insert(problems.begin(), describe(*r.counterexample));
  if (outside && outside->in_tile == false && (!r.counterexample || r.counterexample->in_tile))
    problems.push_back("thread " + std::to_string(outside->thread) + " value " + std::to_string(outside->value) +
                       " holds index " + std::to_string(outside->index) + ", outside the " + std::to_string(s.dims[0]) +
                       "x" + std::to_string(s.dims[1]) + " tile");
  const std::string tile_text = std::to_string(s.dims[0]) + "x" + std::to_string(s.dims[1]);
  if (clash) {
    const auto who = [&](std::int64_t tv_index) {
      return "thread " + std::to_string(tv_index % threads) + " value " + std::to_string(tv_index / threads);
    };
    problems.push_back("not injective: " + std::to_string(reached) + " of " + std::to_string(tile) +
                       " elements reached; " + who((*clash)[0]) + " and " + who((*clash)[1]) + " both hold " +
                       point(s, (*clash)[2] % s.dims[0], (*clash)[2] / s.dims[0]));
  } else if (reached < tile) {
    problems.push_back("injective, " + std::to_string(reached) + " of " + std::to_string(tile) + " elements reached");
  } else if (!problems.empty()) {
    problems.push_back("a bijection onto the " + tile_text + " tile, but not PTX's");
  }
  if (problems.empty()) {
    r.message = "equals the PTX frame: 32 threads x " + std::to_string(values) + " values, one to one onto the " +
                tile_text + " tile";
    return r;
  }
  r.result = FrameVerdict::refuted;
  for (std::size_t i = 0; i < problems.size(); ++i) r.message += (i ? "; " : "") + problems[i];
  return r;
}

bool modes_readable(const CuteLayout& tv) {
  if (tv.shape.leaf || tv.stride.leaf || tv.shape.items.size() != 2 || tv.stride.items.size() != 2) return false;
  for (int i = 0; i < 2; ++i)
    if (tv.mode(i).shape.flatten().size() != tv.mode(i).stride.flatten().size()) return false;
  return true;
}

CuteOperandReport check_operand(Operand op, const CuteAtomTraits& atom, const CuteAtomName& inst,
                                const std::vector<int>& lanes) {
  const CuteLayoutSource& src = op == Operand::A ? atom.a : op == Operand::B ? atom.b : atom.c;
  // The readers refuse an atom without its layouts: a located error, not a verdict.
  if (!src.layout) return verdict(op, FrameVerdict::ill_formed, "the traits give no " + member_name(op));
  const int bits = op == Operand::A ? inst.a_bits : op == Operand::B ? inst.b_bits : inst.c_bits;
  const Frame* frame = lookup_frame(inst.shape, op, bits);
  if (!frame)
    return verdict(op, FrameVerdict::unchecked,
                   "no PTX frame for " + inst.shape + " " + std::string(operand_name(op)) + " with " +
                       std::to_string(bits) + "-bit elements in mmacheck's table");
  const CuteLayout& tv = *src.layout;
  const OperandSpace s = space_of(op, inst);
  if (tv.rank() != 2)
    return verdict(op, FrameVerdict::ill_formed,
                   member_name(op) + " " + tv.str() + " has rank " + std::to_string(tv.rank()) +
                       "; a TV layout has two modes (thread, value)");
  if (!tv.congruent()) {
    std::string m = member_name(op) + ": shape " + tv.shape.str() + " and stride " + tv.stride.str() +
                    " are not congruent (CuTe requires it and the CuTe DSL's make_layout refuses such a"
                    " layout; layout.hpp's static_assert is commented out, so the header compiles)";
    if (modes_readable(tv)) {
      const CuteOperandReport as_read = compare(op, tv, lanes, *frame, s);
      m += as_read.result == FrameVerdict::proved
               ? "; read with its strides in order it would prove"
               : "; read with its strides in order it would be refuted: " + as_read.message;
    }
    return verdict(op, FrameVerdict::ill_formed, m);
  }
  return compare(op, tv, lanes, *frame, s);
}

}  // namespace

std::string describe(const CuteCounterexample& cex) {
  const OperandSpace s{cex.axes, {0, 0}, false};
  std::string text = "thread " + std::to_string(cex.thread) + " value " + std::to_string(cex.value);
  if (!cex.in_tile)
    return text + " holds index " + std::to_string(cex.index) + ", outside the tile; PTX puts " +
           point(s, cex.ptx[0], cex.ptx[1]) + " there";
  text += " holds " + point(s, cex.coordinate[0], cex.coordinate[1]) + ", PTX puts " +
          point(s, cex.ptx[0], cex.ptx[1]) + " there";
  if (cex.lane != cex.thread) text += " (lane " + std::to_string(cex.lane) + ")";
  return text;
}

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
    for (Operand op : {Operand::A, Operand::B, Operand::C}) report.operands.push_back(verdict(op, v, message));
  };
  if (!inst) {
    all(FrameVerdict::unchecked, "no mma.sync instruction: " + why);
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
      all(atom.thr_id.layout->size() == kWarp ? FrameVerdict::refuted : FrameVerdict::unchecked, thr_why);
    } else {
      for (Operand op : {Operand::A, Operand::B, Operand::C}) {
        const std::string problem = metadata_problem(atom, *inst, op);
        const std::string frg = "FrgType" + std::string(operand_name(op));
        if (!problem.empty()) report.operands.push_back(verdict(op, FrameVerdict::ill_formed, problem));
        else if (std::find(atom.frg_types.begin(), atom.frg_types.end(), frg) != atom.frg_types.end())
          report.operands.push_back(
              verdict(op, FrameVerdict::unchecked, frg + " is given: mmacheck does not model fragment types"));
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
