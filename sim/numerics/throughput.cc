#include "sim/numerics/throughput.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>

#include <time.h>
#include <functional>
#include <memory>
#include <random>
#include <system_error>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/eigen_baseline.h"
#include "sim/numerics/float_format.h"
#include "sim/numerics/fused_tile_fast.h"

namespace mmacheck::sim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kMaxSeconds = 86400;  // a day per phase
constexpr int kBatch = 64;             // tiles per thread; small enough to stay in cache

struct Batch {
  std::vector<std::uint64_t> a, b, c;  // kBatch tiles each, concatenated
};

// A random element: floats with exponents in [-4, 4] and random fractions;
// integers uniform over the type.
std::uint64_t random_element(DType t, std::mt19937_64& rng) {
  if (!dtype_info(t).is_float) return rng() & ((std::uint64_t{1} << dtype_bits(t)) - 1);
  const FloatFormat& f = float_format(t);
  const std::uint64_t man = rng() & ((std::uint64_t{1} << f.man_bits) - 1);
  const int exp = static_cast<int>(rng() % 9) - 4;
  return round_to_format(f, rng() & 1, man | (std::uint64_t{1} << f.man_bits), exp - f.man_bits,
                         Rounding::nearest_even);
}

Batch random_batch(const MmaInst& in, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Batch batch;
  for (int t = 0; t < kBatch; ++t) {
    for (int i = 0; i < in.m * in.k; ++i) batch.a.push_back(random_element(in.a, rng));
    for (int i = 0; i < in.k * in.n; ++i) batch.b.push_back(random_element(in.b, rng));
    for (int i = 0; i < in.m * in.n; ++i) batch.c.push_back(random_element(in.c, rng));
  }
  return batch;
}

// The same tiles with one special value each in A: +Inf, -Inf or NaN in
// turn (fp8 e4m3 has NaN only), so that every tile leaves the fast path.
Batch with_specials(const MmaInst& in, Batch batch) {
  if (!dtype_info(in.a).is_float) return batch;
  const FloatFormat& f = float_format(in.a);
  const std::size_t a_len = static_cast<std::size_t>(in.m * in.k);
  const std::uint64_t nan = (((std::uint64_t{1} << (f.exp_bits + f.man_bits)) - 1)) << f.ignored_low_bits;
  for (std::size_t t = 0; t < kBatch; ++t) {
    const int kind = f.specials == Specials::ieee ? static_cast<int>(t % 3) : 2;
    batch.a[t * a_len + (t * 7) % a_len] = kind == 2 ? nan : f.inf_bits(kind == 1);
  }
  return batch;
}

std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

void check_duration(int threads, double seconds) {
  if (threads < 1) throw Error("bench: threads must be at least 1");
  // A duration past kMaxSeconds (or inf) would overflow the clock's ticks.
  if (!(seconds > 0) || !(seconds <= kMaxSeconds))
    throw Error("bench: --seconds must be positive and at most " + std::to_string(static_cast<int>(kMaxSeconds)) +
                " (one phase), got " + std::to_string(seconds));
}

float to_float(DType t, std::uint64_t bits) {
  if (!dtype_info(t).is_float) return static_cast<float>(int_value(t, bits));
  const FpValue v = decode(float_format(t), bits);
  const float mag = std::ldexp(static_cast<float>(v.sig), v.exp - v.frac);
  return v.neg ? -mag : mag;
}

}  // namespace

PhaseResult timed(int threads, double seconds, const std::function<std::uint64_t(int thread)>& work) {
  check_duration(threads, seconds);
  std::atomic<std::uint64_t> total{0};
  std::atomic<std::int64_t> cpu_ns{0};  // the workers' own CPU time: not the progress line's
  std::atomic<bool> abandon{false};
  const Clock::time_point start = Clock::now();
  const Clock::time_point stop =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> pool;
  try {
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        const std::int64_t cpu0 = thread_cpu_ns();
        std::uint64_t done = 0;
        // At least one round: a thread the scheduler starts late (a loaded
        // machine, a short slice) still measures something.
        do done += work(t);
        while (!abandon && Clock::now() < stop);
        total += done;
        cpu_ns += thread_cpu_ns() - cpu0;
      });
  } catch (const std::system_error& e) {
    abandon = true;
    for (std::thread& th : pool) th.join();
    throw Error("bench: cannot start thread " + std::to_string(pool.size() + 1) + " of " + std::to_string(threads) +
                ": " + e.what() + " (use fewer --threads)");
  }
  for (std::thread& th : pool) th.join();
  return {std::chrono::duration<double>(Clock::now() - start).count(),
          1e-9 * static_cast<double>(cpu_ns.load()),
          total.load(),
          {},
          {}};
}

double PhaseResult::per_second() const {
  if (slice_rates.empty()) return mma / wall_seconds;
  return quartiles(slice_rates).median;
}

double PhaseResult::spread() const {
  const Ratio q = quartiles(slice_rates);
  return q.spread();
}

Ratio quartiles(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const auto at = [&](double f) {
    const double pos = f * static_cast<double>(values.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
  };
  return {at(0.5), at(0.25), at(0.75)};
}

Ratio paired_ratio(const PhaseResult& numerator, const PhaseResult& denominator) {
  std::vector<double> r;
  const std::size_t n = std::min(numerator.slice_cpu_rates.size(), denominator.slice_cpu_rates.size());
  for (std::size_t i = 0; i < n; ++i)
    if (denominator.slice_cpu_rates[i] > 0) r.push_back(numerator.slice_cpu_rates[i] / denominator.slice_cpu_rates[i]);
  return quartiles(std::move(r));
}

std::vector<PhaseResult> interleaved(std::span<const Phase> phases, int threads, double seconds, double slice) {
  check_duration(threads, seconds);
  const double each = std::min(slice, seconds);
  const int rounds = static_cast<int>(std::ceil(seconds / each - 1e-9));
  std::vector<PhaseResult> out(phases.size());
  for (int r = 0; r < rounds; ++r)
    for (std::size_t p = 0; p < phases.size(); ++p) {
      const PhaseResult s = timed(threads, each, phases[p].work);
      out[p].wall_seconds += s.wall_seconds;
      out[p].cpu_seconds += s.cpu_seconds;
      out[p].mma += s.mma;
      out[p].slice_rates.push_back(s.mma / s.wall_seconds);
      out[p].slice_cpu_rates.push_back(s.cpu_seconds > 0 ? s.mma / s.cpu_seconds : 0);
    }
  return out;
}

namespace {

// Each thread's random tiles (finite, and with specials), its outputs and
// the same values as floats, for the kernel's phases.
struct KernelState {
  struct Tiles {
    std::vector<float> a, b, c, d;
  };
  std::vector<Batch> finite, specials;
  std::vector<std::vector<std::uint64_t>> outputs;
  std::vector<Tiles> floats;
};

std::shared_ptr<KernelState> kernel_state(const MmaInst& in, int threads) {
  if (threads < 1) throw Error("bench: threads must be at least 1");
  const auto state = std::make_shared<KernelState>();
  for (int t = 0; t < threads; ++t) {
    state->finite.push_back(random_batch(in, 0x5eed + t));
    state->specials.push_back(with_specials(in, state->finite.back()));
    state->outputs.emplace_back(static_cast<std::size_t>(in.m * in.n) * kBatch);
    KernelState::Tiles f;
    for (const std::uint64_t x : state->finite[t].a) f.a.push_back(to_float(in.a, x));
    for (const std::uint64_t x : state->finite[t].b) f.b.push_back(to_float(in.b, x));
    for (const std::uint64_t x : state->finite[t].c) f.c.push_back(to_float(in.c, x));
    f.d.resize(f.c.size());
    state->floats.push_back(std::move(f));
  }
  return state;
}

// `tile(a, b, c, d)` over a thread's finite or special batch.
template <class Tile>
std::function<std::uint64_t(int)> over_batch(const MmaInst& in, std::shared_ptr<KernelState> state, bool specials,
                                             Tile tile) {
  const std::size_t a_len = in.m * in.k, b_len = in.k * in.n, c_len = in.m * in.n;
  return [state = std::move(state), specials, tile, a_len, b_len, c_len](int t) {
    const Batch& bt = (specials ? state->specials : state->finite)[t];
    std::vector<std::uint64_t>& out = state->outputs[t];
    for (std::size_t n = 0; n < kBatch; ++n)
      tile(std::span(bt.a).subspan(n * a_len, a_len), std::span(bt.b).subspan(n * b_len, b_len),
           std::span(bt.c).subspan(n * c_len, c_len), std::span(out).subspan(n * c_len, c_len));
    return std::uint64_t{kBatch};
  };
}

std::function<std::uint64_t(int)> float_baseline(std::shared_ptr<KernelState> state, const FloatTileKernel& k) {
  return [state = std::move(state), run = k.run](int t) {
    KernelState::Tiles& w = state->floats[t];
    run(w.a.data(), w.b.data(), w.c.data(), w.d.data(), kBatch);
    return std::uint64_t{kBatch};
  };
}

}  // namespace

std::vector<Phase> kernel_phases(const MmaInst& in, const ArchParams& arch, int threads) {
  const FloatTileKernel& baseline = eigen_tile_kernel(in.m, in.n, in.k);
  const auto state = kernel_state(in, threads);
  const auto model = [&in, &arch](std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                  std::span<const std::uint64_t> c,
                                  std::span<std::uint64_t> d) { mma_tile(in, arch, a, b, c, d); };
  return {{"kernel", over_batch(in, state, false, model)},
          {"kernel (special values)", over_batch(in, state, true, model)},
          {std::string(baseline.name), float_baseline(state, baseline)}};
}

std::vector<Phase> isa_phases(const MmaInst& in, const ArchParams& arch, int threads) {
  const auto state = kernel_state(in, threads);
  std::vector<Phase> phases;
  std::vector<std::uint64_t> probe(static_cast<std::size_t>(in.m * in.n));
  const bool fast = fused_tile_fast(in, arch, std::span(state->finite[0].a).first(in.m * in.k),
                                    std::span(state->finite[0].b).first(in.k * in.n),
                                    std::span(state->finite[0].c).first(in.m * in.n), probe);
  for (const TileIsa isa : {TileIsa::avx2, TileIsa::avx512})
    if (fast && tile_isa_available(isa))
      phases.push_back({"fast path, " + std::string(tile_isa_name(isa)) + " kernels",
                        over_batch(in, state, false,
                                   [&in, &arch, isa](std::span<const std::uint64_t> a, std::span<const std::uint64_t> b,
                                                     std::span<const std::uint64_t> c, std::span<std::uint64_t> d) {
                                     fused_tile_fast(in, arch, a, b, c, d, isa);
                                   })});
  const FloatTileKernel& used = eigen_tile_kernel(in.m, in.n, in.k);
  for (const FloatTileKernel* other :
       {eigen_tile_kernel_avx2(in.m, in.n, in.k), eigen_tile_kernel_avx512(in.m, in.n, in.k)})
    if (other && other->name != used.name) phases.push_back({std::string(other->name), float_baseline(state, *other)});
  return phases;
}

}  // namespace mmacheck::sim
