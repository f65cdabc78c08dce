#include "core/scales/scale_check.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "core/prove/z3_checker.h"

namespace mmacheck {

namespace {

using Kind = IndexExpr::Kind;
constexpr int kLanes = 32, kBytes = 4;

// The largest magnitude any node of `e` takes over every lane and byte (so
// that the bit-vector encoding cannot wrap); IndexExpr::eval's Errors (a
// zero divisor, int64 overflow) propagate.
std::int64_t node_bound(const IndexExpr& e) {
  std::int64_t bound = 0;
  for (int lane = 0; lane < kLanes; ++lane)
    for (int byte = 0; byte < kBytes; ++byte) bound = std::max(bound, std::abs(e.eval({.lane = lane, .slot = byte})));
  if (e.kind() == Kind::literal || e.kind() == Kind::lane || e.kind() == Kind::slot) return bound;
  bound = std::max(bound, node_bound(e.lhs()));
  if (e.kind() != Kind::neg) bound = std::max(bound, node_bound(e.rhs()));
  return bound;
}

// `e` as a term over the lane and byte; Python's floor `//` and `%` (Z3's
// bvsmod is Python's %, and (a - a % b) / b is exact).  No divisor is zero
// at any point (node_bound evaluated them all).
z3::expr encode(const IndexExpr& e, const z3::expr& lane, const z3::expr& byte, const Bv& bv) {
  switch (e.kind()) {
    case Kind::literal: return bv.num(e.value());
    case Kind::lane: return lane;
    case Kind::slot: return byte;
    case Kind::neg: return -encode(e.lhs(), lane, byte, bv);
    case Kind::warp:
    case Kind::tid: throw Error(e.loc(), "scale placements name only 'lane' and 'byte'");
    default: break;
  }
  const z3::expr a = encode(e.lhs(), lane, byte, bv), b = encode(e.rhs(), lane, byte, bv);
  switch (e.kind()) {
    case Kind::add: return a + b;
    case Kind::sub: return a - b;
    case Kind::mul: return a * b;
    case Kind::floordiv: return (a - z3::smod(a, b)) / b;
    default: return z3::smod(a, b);
  }
}

// sum coeff[b] * bit b of the lane.
z3::expr lane_form(const std::array<int, 5>& coeff, const z3::expr& lane, const Bv& bv) {
  z3::expr v = bv.num(0);
  for (std::size_t b = 0; b < coeff.size(); ++b)
    if (coeff[b]) v = v + bv.num(coeff[b]) * (z3::lshr(lane, bv.num(static_cast<int>(b))) & bv.num(1));
  return v;
}

// Does the instruction read each (index, block) of the operand exactly once?
// A property of the frame table, checked here so that "proved" rests on it.
bool reads_each_once(const MmaInst& inst, Operand op, ScaleSelector sel) {
  const ScaleFrame& f = scale_frame(op);
  std::vector<int> seen(static_cast<std::size_t>(f.count * inst.scale_vec), 0);
  for (int lane = 0; lane < kLanes; ++lane)
    for (int byte = 0; byte < kBytes; ++byte)
      if (const std::optional<ScaleRead> r = scale_read(inst, op, sel, lane, byte))
        ++seen[static_cast<std::size_t>(r->index * inst.scale_vec + r->block)];
  return std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; });
}

std::string what(Operand op, std::int64_t index, std::int64_t block, const MmaInst& inst) {
  const ScaleFrame& f = scale_frame(op);
  std::string s =
      std::string(op == Operand::A ? "row " : "column ") + std::to_string(index) + ", K-block " + std::to_string(block);
  if (index < 0 || index >= f.count || block < 0 || block >= inst.scale_vec)
    s += std::string(" (not a scale factor of ") + std::string(operand_name(op)) + ")";
  return s;
}

}  // namespace

ScaleReport check_scales(const MmaInst& inst, const ScalePlacement& p) {
  const std::string side = p.op == Operand::A ? "a" : "b";
  try {
    check_selector(inst, p.op, p.sel);
  } catch (const Error& e) {
    throw e.located(p.at);
  }
  const ScaleFrame& f = scale_frame(p.op);
  if (!reads_each_once(inst, p.op, p.sel))
    return {p.op, FrameVerdict::unchecked, "the scale-factor frame table does not read each block once", {}};

  std::int64_t bound = std::max<std::int64_t>({node_bound(p.index), node_bound(p.block), 64});
  const std::optional<unsigned> width = bv_width(bound);
  if (!width) return {p.op, FrameVerdict::unchecked, "placement expressions too large to encode", {}};
  z3::context ctx;
  prove_detail::Z3Session session(ctx, std::chrono::steady_clock::now() + std::chrono::seconds(30));
  const Bv bv(ctx, *width);
  const z3::expr lane = bv.var("lane"), byte = bv.var("byte");
  const z3::expr reads = bv.in_range(lane, 0, kLanes) &&
                         bv.in_range(byte, p.sel.byte_id, p.sel.byte_id + inst.scale_vec) &&
                         lane_form(f.tid_bit, lane, bv) == bv.num(p.sel.thread_id);
  const z3::expr agrees = encode(p.index, lane, byte, bv) == lane_form(f.index_bit, lane, bv) &&
                          encode(p.block, lane, byte, bv) == byte - bv.num(p.sel.byte_id);
  const prove_detail::Z3Session::Result r = session.solve({reads, !agrees}, {lane, byte});
  const std::string selectors = "(byte-id-" + side + " " + std::to_string(p.sel.byte_id) + ", thread-id-" + side + " " +
                                std::to_string(p.sel.thread_id) + ")";
  if (r.result == CheckResult::unknown) return {p.op, FrameVerdict::unchecked, r.note, {}};
  if (r.result == CheckResult::proved)
    return {p.op,
            FrameVerdict::proved,
            "scale-" + side + "-data " + selectors + ": each of " + std::to_string(f.count) +
                (p.op == Operand::A ? " rows" : " columns") + " x " + std::to_string(inst.scale_vec) +
                (inst.scale_vec == 1 ? " K-block" : " K-blocks") +
                " is read exactly once, from the lane and byte that hold it",
            {}};
  const int l = static_cast<int>(r.point[0]), b = static_cast<int>(r.point[1]);
  const ScaleRead want = *scale_read(inst, p.op, p.sel, l, b);
  const std::int64_t index = p.index.eval({.lane = l, .slot = b}), block = p.block.eval({.lane = l, .slot = b});
  return {p.op, FrameVerdict::refuted,
          "scale-" + side + "-data " + selectors + ": lane " + std::to_string(l) + ", byte " + std::to_string(b) +
              ": the instruction reads " + std::string(operand_name(p.op)) + "'s scale factor for " +
              what(p.op, want.index, want.block, inst) + " there; the program put " + what(p.op, index, block, inst),
          ScaleWitness{l, b, want, index, block}};
}

}  // namespace mmacheck
