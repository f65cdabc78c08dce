// Z3Watchdog (core/prove/z3_watchdog.h): --timeout-ms holds whatever Z3
// does.  A query Z3 cannot finish soon (factoring a 62-bit semiprime by
// bit-blasting), with no timeout of Z3's own, returns `unknown` shortly after
// the watchdog's deadline; a watchdog destroyed early leaves the context alone.
#include <catch2/catch.hpp>

#include <chrono>

#include "core/prove/z3_watchdog.h"

namespace test_z3_watchdog {

using namespace mmacheck::prove_detail;
using Clock = std::chrono::steady_clock;

namespace {

// x * y == p * q with 1 < x, y < 2^31: p and q are primes near 2^31.
z3::check_result factor(z3::context& ctx) {
  const z3::expr x = ctx.bv_const("x", 64), y = ctx.bv_const("y", 64);
  const std::uint64_t n = 2147483629ULL * 2147483587ULL;
  z3::solver solver(ctx);
  solver.add(x * y == ctx.bv_val(n, 64));
  solver.add(z3::ugt(x, ctx.bv_val(1, 64)) && z3::ult(x, ctx.bv_val(std::uint64_t{1} << 31, 64)));
  solver.add(z3::ugt(y, ctx.bv_val(1, 64)) && z3::ult(y, ctx.bv_val(std::uint64_t{1} << 31, 64)));
  return solver.check();
}

}  // namespace

TEST_CASE("the watchdog interrupts Z3 at the deadline", "[prove][z3][limits]") {
  z3::context ctx;
  const auto start = Clock::now();
  z3::check_result r = z3::sat;
  {
    const Z3Watchdog watchdog(ctx, start + std::chrono::milliseconds(200));
    r = factor(ctx);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  CHECK(r == z3::unknown);
  CHECK(seconds < 5.0);
}

TEST_CASE("a watchdog gone before its deadline interrupts nothing", "[prove][z3][limits]") {
  z3::context ctx;
  { const Z3Watchdog watchdog(ctx, Clock::now() + std::chrono::hours(1)); }
  const z3::expr x = ctx.bv_const("x", 8);
  z3::solver solver(ctx);
  solver.add(x + 1 == 3);
  CHECK(solver.check() == z3::sat);
}

}  // namespace test_z3_watchdog
