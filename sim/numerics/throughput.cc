#include "sim/numerics/throughput.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <random>
#include <system_error>
#include <thread>
#include <vector>

#include "core/base/error.h"
#include "sim/numerics/eigen_baseline.h"
#include "sim/numerics/float_format.h"

namespace mmacheck::sim {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kMaxSeconds = 86400;  // a day per phase
constexpr int kBatch = 64;  // tiles per thread; small enough to stay in cache

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

float to_float(DType t, std::uint64_t bits) {
  if (!dtype_info(t).is_float) return static_cast<float>(int_value(t, bits));
  const FpValue v = decode(float_format(t), bits);
  const float mag = std::ldexp(static_cast<float>(v.sig), v.exp - v.frac);
  return v.neg ? -mag : mag;
}

PhaseResult eigen_phase(const MmaInst& in, const std::vector<Batch>& batches, int threads, double seconds,
                        const FloatTileKernel& kernel) {
  struct Tiles {
    std::vector<float> a, b, c, d;
  };
  std::vector<Tiles> tiles(threads);
  for (int t = 0; t < threads; ++t) {
    for (const std::uint64_t x : batches[t].a) tiles[t].a.push_back(to_float(in.a, x));
    for (const std::uint64_t x : batches[t].b) tiles[t].b.push_back(to_float(in.b, x));
    for (const std::uint64_t x : batches[t].c) tiles[t].c.push_back(to_float(in.c, x));
    tiles[t].d.resize(tiles[t].c.size());
  }
  return timed(threads, seconds, [&](int t) {
    Tiles& w = tiles[t];
    kernel.run(w.a.data(), w.b.data(), w.c.data(), w.d.data(), kBatch);
    return std::uint64_t{kBatch};
  });
}

}  // namespace

PhaseResult timed(int threads, double seconds, const std::function<std::uint64_t(int thread)>& work) {
  if (threads < 1) throw Error("bench: threads must be at least 1");
  // A duration past kMaxSeconds (or inf) would overflow the clock's ticks.
  if (!(seconds > 0) || !(seconds <= kMaxSeconds))
    throw Error("bench: --seconds must be positive and at most " + std::to_string(static_cast<int>(kMaxSeconds)) +
                " (one phase), got " + std::to_string(seconds));
  std::atomic<std::uint64_t> total{0};
  std::atomic<bool> abandon{false};
  const std::clock_t cpu_start = std::clock();
  const Clock::time_point start = Clock::now();
  const Clock::time_point stop = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> pool;
  try {
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        std::uint64_t done = 0;
        while (!abandon && Clock::now() < stop) done += work(t);
        total += done;
      });
  } catch (const std::system_error& e) {
    abandon = true;
    for (std::thread& th : pool) th.join();
    throw Error("bench: cannot start thread " + std::to_string(pool.size() + 1) + " of " +
                std::to_string(threads) + ": " + e.what() + " (use fewer --threads)");
  }
  for (std::thread& th : pool) th.join();
  return {std::chrono::duration<double>(Clock::now() - start).count(),
          static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC, total.load()};
}

ThroughputResult measure_throughput(const MmaInst& in, const ArchParams& arch, double seconds, int threads) {
  if (threads < 1) throw Error("bench: threads must be at least 1");
  // A duration past kMaxSeconds (or inf) would overflow the clock's ticks.
  if (!(seconds > 0) || !(seconds <= kMaxSeconds))
    throw Error("bench: --seconds must be positive and at most " + std::to_string(static_cast<int>(kMaxSeconds)) +
                " (one phase), got " + std::to_string(seconds));
  std::vector<Batch> batches;
  for (int t = 0; t < threads; ++t) batches.push_back(random_batch(in, 0x5eed + t));

  ThroughputResult r;
  r.threads = threads;
  const std::size_t a_len = in.m * in.k, b_len = in.k * in.n, c_len = in.m * in.n;
  std::vector<std::vector<std::uint64_t>> outputs(threads, std::vector<std::uint64_t>(c_len * kBatch));
  const auto simulate = [&](const std::vector<Batch>& tiles) {
    return timed(threads, seconds, [&](int t) {
      const Batch& bt = tiles[t];
      for (std::size_t n = 0; n < kBatch; ++n)
        mma_tile(in, arch, std::span(bt.a).subspan(n * a_len, a_len), std::span(bt.b).subspan(n * b_len, b_len),
                 std::span(bt.c).subspan(n * c_len, c_len), std::span(outputs[t]).subspan(n * c_len, c_len));
      return std::uint64_t{kBatch};
    });
  };
  r.sim = simulate(batches);
  std::vector<Batch> special_batches;
  for (const Batch& b : batches) special_batches.push_back(with_specials(in, b));
  r.sim_specials = simulate(special_batches);
  const FloatTileKernel& baseline = eigen_tile_kernel(in.m, in.n, in.k);
  r.baseline = baseline.name;
  r.eigen = eigen_phase(in, batches, threads, seconds, baseline);
  return r;
}

}  // namespace mmacheck::sim
