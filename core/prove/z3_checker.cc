// The Z3 method: sessions, the first violating point, symbolic placement,
// and Z3Checker.
#include "core/prove/z3_checker.h"

#include <algorithm>

#include "core/prove/engines.h"
#include "core/prove/tile_model.h"
#include "core/prove/z3_watchdog.h"

namespace mmacheck::prove_detail {

Z3Session::Z3Session(z3::context& ctx, std::chrono::steady_clock::time_point deadline)
    : ctx_(&ctx), deadline_(deadline) {}

z3::check_result Z3Session::check(z3::solver& solver) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
  if (left.count() <= 0) return z3::unknown;
  z3::params p(*ctx_);
  p.set("timeout", static_cast<unsigned>(left.count()));
  solver.set(p);
  return solver.check();
}

Z3Session::Result Z3Session::solve(const std::vector<z3::expr>& constraints, const std::vector<z3::expr>& order) {
  // The qfbv tactic (simplify, solve equations, bit-blast, SAT) as a solver:
  // the QF_BV logic's solver adds an SMT core that costs milliseconds to set
  // up for every query.
  z3::solver solver = z3::tactic(*ctx_, "qfbv").mk_solver();
  for (const z3::expr& c : constraints) solver.add(c);
  const z3::check_result first = check(solver);
  if (first == z3::unsat) return {CheckResult::proved, {}, {}};
  if (first == z3::unknown) return {CheckResult::unknown, {}, "z3: " + solver.reason_unknown()};

  std::vector<std::int64_t> values(order.size());
  const auto read_model = [&] {
    const z3::model model = solver.get_model();
    for (std::size_t v = 0; v < order.size(); ++v)
      values[v] = static_cast<std::int64_t>(model.eval(order[v], true).get_numeral_uint64());
  };
  read_model();
  // Lexicographic minimum: bisect each coordinate with the earlier ones fixed.
  for (std::size_t v = 0; v < order.size(); ++v) {
    std::int64_t lo = 0, hi = values[v];
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      solver.push();
      solver.add(order[v] <= ctx_->bv_val(mid, order[v].get_sort().bv_size()));
      const z3::check_result r = check(solver);
      if (r == z3::sat) read_model();
      solver.pop();
      // Out of time while minimising: still refuted, at a point less early.
      if (r == z3::unknown) return {CheckResult::refuted, values, {}};
      if (r == z3::sat) hi = values[v];
      else lo = mid + 1;
    }
    solver.add(order[v] == ctx_->bv_val(values[v], order[v].get_sort().bv_size()));
  }
  return {CheckResult::refuted, values, {}};
}

z3::expr axis_term(const Axis& axis, const z3::expr& warp, const z3::expr& lane, const z3::expr& slot, const Bv& bv) {
  if (axis == Axis::laneid()) return lane;
  if (axis == Axis::warpid()) return warp;
  if (axis == Axis::tx()) return warp * bv.num(32) + lane;
  return axis == Axis::m() ? slot : bv.num(0);
}

z3::expr owner_is(const Storage& storage, const std::vector<z3::expr>& owner, const z3::expr& warp,
                  const z3::expr& lane, const z3::expr& slot, const Bv& bv) {
  z3::expr all = bv.ctx().bool_val(true);
  for (std::size_t a = 0; a < storage.axes().size(); ++a)
    all = all && owner[a] == axis_term(storage.axes()[a], warp, lane, slot, bv);
  return all;
}

std::vector<std::vector<z3::expr>> operand_owners(const Storage& storage, const OperandPlace& view, const z3::expr& row,
                                                  const z3::expr& col, const Bv& bv) {
  std::vector<z3::expr> coord;
  for (int d = 0; d < static_cast<int>(view.origin().size()); ++d) {
    const z3::expr base = bv.num(view.origin()[d]);
    coord.push_back(d == view.row_dim() ? base + row : d == view.col_dim() ? base + col : base);
  }
  return apply_symbolic(storage.buffer().layout, storage.buffer().shape, coord, storage.axes(), bv);
}

z3::expr places(const Storage& storage, const std::vector<std::vector<z3::expr>>& owners, const z3::expr& warp,
                const z3::expr& lane, const z3::expr& slot, const Bv& bv) {
  z3::expr any = bv.ctx().bool_val(false);
  for (const auto& owner : owners) any = any || owner_is(storage, owner, warp, lane, slot, bv);
  return any;
}

std::int64_t max_abs(const std::vector<std::int64_t>& v) {
  std::int64_t m = 0;
  for (std::int64_t x : v) m = std::max(m, x < 0 ? -x : x);
  return m;
}

z3::expr frame_term(const FrameAxis& f, const z3::expr& lane, const z3::expr& elem, const Bv& bv) {
  z3::expr sum = bv.num(f.g) * z3::lshr(lane, bv.num(2)) + bv.num(f.t) * (lane & bv.num(3));
  for (int b = 0; b < static_cast<int>(f.lane_bit.size()); ++b)
    if (f.lane_bit[b] != 0) sum = sum + bv.num(f.lane_bit[b]) * (z3::lshr(lane, bv.num(b)) & bv.num(1));
  for (int b = 0; b < static_cast<int>(f.bit.size()); ++b)
    if (f.bit[b] != 0) sum = sum + bv.num(f.bit[b]) * (z3::lshr(elem, bv.num(b)) & bv.num(1));
  return sum;
}

std::int64_t storage_bound(const ProofSetup& setup, const Storage& storage) {
  return std::max(
      {layout_bound(storage.buffer().layout, storage.buffer().shape), std::int64_t{32} * setup.warps, storage.span()});
}

struct Z3Checker::Impl {
  Impl(const ProofSetup& s, unsigned ms, std::chrono::steady_clock::time_point end)
      : setup(s), timeout_ms(ms), deadline(end), watchdog(ctx, end) {}

  const ProofSetup& setup;
  unsigned timeout_ms;
  std::chrono::steady_clock::time_point deadline;
  std::optional<TileModel> model;  // tile-symbolic checks
  z3::context ctx;
  FrameMemo frames;
  // After ctx: interrupts it at the deadline, and goes before it.
  Z3Watchdog watchdog;
};

Z3Checker::Z3Checker(const ProofSetup& setup, unsigned timeout_ms, bool tile_symbolic,
                     std::chrono::steady_clock::time_point start)
    : impl_(new Impl(setup, timeout_ms, start + std::chrono::milliseconds(timeout_ms))) {
  if (tile_symbolic) impl_->model.emplace(setup);
}

namespace {

// The per-statement encoding, said in the check's note when the tile-symbolic
// one does not apply.
Outcome unrolled(Outcome outcome, const std::string& gap) {
  if (outcome.note.empty()) outcome.note = "per-statement encoding: " + gap;
  return outcome;
}

}  // namespace

Outcome Z3Checker::frames(GemmOperand op, Z3Session& session) {
  const ProofSetup& setup = impl_->setup;
  if (!impl_->model) return frames_z3(setup, op, session, impl_->frames);
  const TileModel& model = *impl_->model;
  if (const std::string& gap = model.frames_gap(op); !gap.empty())
    return unrolled(frames_z3(setup, op, session, impl_->frames), gap);
  // C and D pose the same question: the accumulator frame on D's view.
  const std::vector<std::int64_t> key{static_cast<std::int64_t>(setup.frame_buffer(op)), -1};
  if (const auto known = impl_->frames.find(key); known != impl_->frames.end()) {
    Outcome same = known->second;
    same.solved = false;
    return same;
  }
  const Outcome outcome = tile_frames_z3(setup, model, op, session);
  impl_->frames.emplace(key, outcome);
  return outcome;
}

CheckResult Z3Checker::anchors_agree() {
  const TileModel& model = *impl_->model;
  // The anchors rule reads D's and A's registers of each statement.
  if (!model.frames_gap(GemmOperand::D).empty() || !model.frames_gap(GemmOperand::A).empty())
    return CheckResult::refuted;
  Z3Session session(impl_->ctx, impl_->deadline);
  CheckResult r = CheckResult::unknown;
  try {
    r = tile_anchors_z3(impl_->setup, model, session);
  } catch (const z3::exception&) {
  }
  return r == CheckResult::unknown && !out_of_time() ? CheckResult::refuted : r;
}

bool Z3Checker::out_of_time() const { return std::chrono::steady_clock::now() >= impl_->deadline; }

Outcome Z3Checker::accumulation(Z3Session& session) {
  const ProofSetup& setup = impl_->setup;
  if (!impl_->model) return accumulation_z3(setup, session);
  if (const std::string& gap = impl_->model->accumulation_gap(); !gap.empty())
    return unrolled(accumulation_z3(setup, session), gap);
  return tile_accumulation_z3(setup, *impl_->model, session);
}

Z3Checker::~Z3Checker() = default;

Outcome Z3Checker::check(const CheckSpec& check) {
  // Past the deadline a check is not even encoded: its expressions would
  // cost time to build and again to free with the context.
  if (std::chrono::steady_clock::now() >= impl_->deadline)
    return {CheckResult::unknown, std::nullopt,
            "the run's time limit of " + std::to_string(impl_->timeout_ms) + " ms ran out before this check"};
  Z3Session session(impl_->ctx, impl_->deadline);
  const ProofSetup& setup = impl_->setup;
  try {
    switch (check.id.kind) {
      case CheckKind::frame: return frames(check.operand, session);
      case CheckKind::fragment: return fragment_z3(setup, check.operand, session);
      case CheckKind::accumulation: return accumulation(session);
      case CheckKind::stage:
      case CheckKind::store: return staging_z3(setup, setup.staging[check.staging], session);
      default: break;  // the shared-memory kinds are no CheckSpec
    }
  } catch (const z3::exception& e) {
    return {CheckResult::unknown, std::nullopt, std::string("z3: ") + e.msg()};
  }
  return {};
}

}  // namespace mmacheck::prove_detail
