// "stage X" / "store X" in Z3: the statement's ROW and COL as bit-vector
// terms over a symbolic warp, lane and slot.
//
// Python's `//` and `%` floor: Z3's bvsmod is exactly Python's `%` (the
// remainder takes the divisor's sign) and a - a % b is a multiple of b, so
// (a - a % b) / b is exact and equals a // b for any non-zero b.  Where the
// dividend is known non-negative and the divisor a positive literal, plain
// unsigned division is used (bit extraction for powers of two).  A divisor
// that can be zero is the IndexExpr's own Error, raised by evaluating the
// first point where it is zero; values beyond 62 bits make the check unknown.
#include <algorithm>

#include "core/prove/checks.h"
#include "core/prove/z3_checker.h"

namespace mmacheck::prove_detail {

namespace {

using Kind = IndexExpr::Kind;
using Wide = __int128;
constexpr Wide kLimit = Wide{1} << 61;

struct Interval {
  Wide lo, hi;
};

Wide floor_div(Wide a, Wide b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }
Wide magnitude(Interval r) { return std::max(-r.lo, r.hi); }

struct Ranges {
  Interval warp, lane, slot;
};

// The values `e` takes over the ranges (conservative); sets too_large when
// some subexpression may leave +-2^61.
Interval interval(const IndexExpr& e, const Ranges& v, bool& too_large) {
  const auto clamp = [&](Interval r) {
    if (r.lo < -kLimit || r.hi > kLimit) too_large = true;
    return Interval{std::max(r.lo, -kLimit), std::min(r.hi, kLimit)};
  };
  switch (e.kind()) {
    case Kind::literal: return {e.value(), e.value()};
    case Kind::lane: return v.lane;
    case Kind::warp: return v.warp;
    case Kind::slot: return v.slot;
    case Kind::tid: return {v.warp.lo * 32 + v.lane.lo, v.warp.hi * 32 + v.lane.hi};
    case Kind::neg: {
      const Interval r = interval(e.lhs(), v, too_large);
      return {-r.hi, -r.lo};
    }
    default: break;
  }
  const Interval a = interval(e.lhs(), v, too_large), b = interval(e.rhs(), v, too_large);
  const Wide big = std::max(magnitude(a), magnitude(b));
  const bool literal = e.rhs().kind() == Kind::literal && b.lo != 0;
  switch (e.kind()) {
    case Kind::add: return clamp({a.lo + b.lo, a.hi + b.hi});
    case Kind::sub: return clamp({a.lo - b.hi, a.hi - b.lo});
    case Kind::mul: {
      const Wide c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      return clamp({*std::min_element(c, c + 4), *std::max_element(c, c + 4)});
    }
    case Kind::floordiv:
      if (!literal) return {-big, big};
      return b.lo > 0 ? Interval{floor_div(a.lo, b.lo), floor_div(a.hi, b.lo)}
                      : Interval{floor_div(a.hi, b.lo), floor_div(a.lo, b.lo)};
    default:  // floormod
      if (!literal) return {-big, big};
      return b.lo > 0 ? Interval{0, b.lo - 1} : Interval{b.lo + 1, 0};
  }
}

struct Terms {
  z3::expr warp, lane, slot;
};

// `e` as a term; divisors that are not non-zero literals go to `divisors`.
z3::expr encode(const IndexExpr& e, const Terms& t, const Ranges& v, const Bv& bv, std::vector<z3::expr>& divisors) {
  switch (e.kind()) {
    case Kind::literal: return bv.num(e.value());
    case Kind::lane: return t.lane;
    case Kind::warp: return t.warp;
    case Kind::slot: return t.slot;
    case Kind::tid: return t.warp * bv.num(32) + t.lane;
    case Kind::neg: return -encode(e.lhs(), t, v, bv, divisors);
    default: break;
  }
  const z3::expr a = encode(e.lhs(), t, v, bv, divisors), b = encode(e.rhs(), t, v, bv, divisors);
  switch (e.kind()) {
    case Kind::add: return a + b;
    case Kind::sub: return a - b;
    case Kind::mul: return a * b;
    default: break;
  }
  const bool literal = e.rhs().kind() == Kind::literal && e.rhs().value() != 0;
  if (!literal) divisors.push_back(b);
  bool unused = false;
  const bool unsigned_ok = literal && e.rhs().value() > 0 && interval(e.lhs(), v, unused).lo >= 0;
  if (e.kind() == Kind::floordiv) return unsigned_ok ? z3::udiv(a, b) : (a - z3::smod(a, b)) / b;
  return unsigned_ok ? z3::urem(a, b) : z3::smod(a, b);
}

}  // namespace

Outcome staging_z3(const ProofSetup& setup, const StagingRef& staging, Z3Session& session) {
  const Storage& st = setup.storage(staging.buffer);
  const Shape& shape = st.buffer().shape;
  const Ranges ranges{{0, setup.warps - 1}, {0, 31}, {0, std::max<std::int64_t>(st.span() - 1, 0)}};
  bool too_large = false;
  const Wide values = std::max(magnitude(interval(staging.row, ranges, too_large)),
                               magnitude(interval(staging.col, ranges, too_large)));
  if (too_large) return {CheckResult::unknown, std::nullopt, "index expression too large to encode"};
  const auto width = bv_width(std::max({storage_bound(setup, st), static_cast<std::int64_t>(values), st.span()}));
  if (!width) return {CheckResult::unknown, std::nullopt, "values too large to encode"};
  const Bv bv(session.ctx(), *width);

  const z3::expr w = bv.var("w"), l = bv.var("l"), s = bv.var("s");
  std::vector<z3::expr> divisors;
  const Terms terms{w, l, s};
  const z3::expr row = encode(staging.row, terms, ranges, bv, divisors);
  const z3::expr col = encode(staging.col, terms, ranges, bv, divisors);
  const std::vector<z3::expr> domain{bv.in_range(w, 0, setup.warps), bv.in_range(l, 0, 32),
                                     bv.in_range(s, 0, st.span())};

  if (!divisors.empty()) {
    z3::expr zero = bv.ctx().bool_val(false);
    for (const z3::expr& d : divisors) zero = zero || d == bv.num(0);
    std::vector<z3::expr> q = domain;
    q.push_back(zero);
    const Z3Session::Result r = session.solve(q, {w, l, s});
    if (r.result == CheckResult::unknown) return {r.result, std::nullopt, r.note};
    if (r.result == CheckResult::refuted)  // IndexExpr::eval raises the division by zero
      staging_element(staging, static_cast<int>(r.point[0]), static_cast<int>(r.point[1]), r.point[2]);
  }

  const z3::expr ok = bv.in_range(row, 0, shape[0]) && bv.in_range(col, 0, shape[1]) &&
                      places(st, apply_symbolic(st.buffer().layout, shape, {row, col}, st.axes(), bv), w, l, s, bv);
  std::vector<z3::expr> q = domain;
  q.push_back(!ok);
  const Z3Session::Result r = session.solve(q, {w, l, s});
  if (r.result != CheckResult::refuted) return {r.result, std::nullopt, r.note};
  return {r.result, StagingWitness{static_cast<int>(r.point[0]), static_cast<int>(r.point[1]), r.point[2]}, {}};
}

}  // namespace mmacheck::prove_detail
