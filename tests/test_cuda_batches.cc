// The CPU side of the batched differential run, no GPU needed: --devices
// parsing, the split of cases into batches over devices and slots, the
// worker pool, and the pipeline of cuda/differential.h against a device
// model that computes D on the CPU only when the host waits for it (so a
// pipeline that refills a slot too early gives wrong numbers).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <set>
#include <stdexcept>

#include "core/base/error.h"
#include "core/base/worker_pool.h"
#include "core/gemm/dispatch.h"
#include "core/program/read/read_program.h"
#include "cuda/case_batches.h"
#include "cuda/case_words.h"
#include "cuda/device_selection.h"
#include "cuda/differential.h"
#include "sim/machine/warp_machine.h"
#include "tests/test_cuda_support.h"

namespace test_cuda_batches {

using namespace mmacheck;
using namespace mmacheck::cuda;

TEST_CASE("device selection takes all or distinct ordinals", "[cuda][batches]") {
  CHECK(parse_device_selection("all").all);
  CHECK(parse_device_selection("0").ordinals == std::vector<int>{0});
  CHECK(parse_device_selection("0,1,3").ordinals == std::vector<int>{0, 1, 3});
  CHECK(parse_device_selection(" 2 , 0 ").ordinals == std::vector<int>{2, 0});
  for (const char* bad : {"", "1,,2", "-1", "x", "1,1", "0x1", "1.5", "all,0", ",", "2,"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_device_selection(bad), Error);
  }
  CHECK(resolve_devices(parse_device_selection("all"), 3) == std::vector<int>{0, 1, 2});
  CHECK(resolve_devices(parse_device_selection("1,0"), 2) == std::vector<int>{1, 0});
  CHECK_THROWS_WITH(resolve_devices(parse_device_selection("0,2"), 2), Catch::Contains("no CUDA device 2"));
  CHECK_THROWS_AS(resolve_devices(parse_device_selection("all"), 0), Error);
}

TEST_CASE("cases split into batches round the devices' slots", "[cuda][batches]") {
  const std::vector<CaseBatch> small = plan_case_batches(10, 4, 2, 2);
  REQUIRE(small.size() == 3);
  CHECK((small[0].first == 0 && small[0].count == 4 && small[0].device == 0 && small[0].slot == 0));
  CHECK((small[1].first == 4 && small[1].count == 4 && small[1].device == 1 && small[1].slot == 0));
  CHECK((small[2].first == 8 && small[2].count == 2 && small[2].device == 0 && small[2].slot == 1));
  CHECK(plan_case_batches(0, 4, 1, 1).empty());
  for (const auto& [cases, batch, devices, slots] :
       {std::tuple{1, 1, 1, 1}, {37, 5, 3, 2}, {64, 64, 8, 2}, {1000, 7, 2, 3}, {5, 100, 4, 2}}) {
    const std::vector<CaseBatch> plan = plan_case_batches(cases, batch, devices, slots);
    std::int64_t next = 0;
    for (std::size_t b = 0; b < plan.size(); ++b) {
      CHECK(plan[b].first == next);  // contiguous, in order, nothing lost
      CHECK((plan[b].count >= 1 && plan[b].count <= batch));
      CHECK(plan[b].device == static_cast<int>(b % devices));
      CHECK(plan[b].slot == static_cast<int>(b / devices % slots));
      next += plan[b].count;
    }
    CHECK(next == cases);
  }
  CHECK_THROWS_AS(plan_case_batches(10, 0, 1, 1), Error);
  CHECK_THROWS_AS(plan_case_batches(10, 4, 0, 1), Error);
  CHECK_THROWS_AS(plan_case_batches(-1, 4, 1, 1), Error);

  // The default batch: within the memory budget, a share of the run per
  // slot (so batches overlap), never 0 and never above the cases.
  CHECK(default_batch_cases(131072, 1000, 1, 2, 1 << 20) == 1048);
  CHECK(default_batch_cases(64, 1000, 1, 2, 1 << 20) == 16);
  CHECK(default_batch_cases(1, 1000, 8, 2, 1 << 20) == 1);
  CHECK(default_batch_cases(1000, std::int64_t{1} << 30, 1, 2, 1 << 20) == 1);
}

TEST_CASE("WorkerPool runs every item once and rethrows the first error", "[cuda][batches]") {
  WorkerPool pool(4);
  REQUIRE(pool.size() == 4);
  for (const std::int64_t n : {0, 1, 3, 1000}) {
    std::vector<std::atomic<int>> seen(static_cast<std::size_t>(n));
    std::atomic<bool> bad_worker = false;
    pool.for_each(n, [&](int w, std::int64_t i) {
      if (w < 0 || w >= pool.size()) bad_worker = true;
      ++seen[static_cast<std::size_t>(i)];
    });
    CHECK_FALSE(bad_worker);
    for (const std::atomic<int>& s : seen) CHECK(s == 1);
  }
  CHECK_THROWS_WITH(pool.for_each(100,
                                  [](int, std::int64_t i) {
                                    if (i == 37) throw Error("item 37");
                                  }),
                    Catch::Contains("item 37"));
  std::atomic<std::int64_t> sum = 0;
  pool.for_each(100, [&](int, std::int64_t i) { sum += i; });  // still usable
  CHECK(sum == 4950);
}

namespace {

// A device that computes D on the CPU (a warp machine) from the host words
// when the host waits for it, and checks the slot discipline: no launch on
// a slot still in flight, no wait without a launch.
class CpuDevice final : public BatchDevice {
 public:
  CpuDevice(const Nest& nest, const Staging& staging, std::int64_t capacity, int slots)
      : staging_(staging),
        words_(case_words(staging)),
        machine_(nest, staging, sim::arch_params("sm_90")),
        capacity_(capacity),
        slots_(static_cast<std::size_t>(slots)) {
    for (Slot& s : slots_) s.bytes.resize(static_cast<std::size_t>(capacity) * words_.case_bytes());
  }
  std::string name() const override { return "cpu"; }
  int slots() const override { return static_cast<int>(slots_.size()); }
  std::int64_t capacity() const override { return capacity_; }
  HostBatch host(int slot) override {
    std::byte* p = slots_.at(slot).bytes.data();
    const auto n = static_cast<std::size_t>(capacity_);
    std::byte* b = p + n * words_.a.case_bytes();
    std::byte* c = b + n * words_.b.case_bytes();
    return {p, b, c, c + n * words_.c.case_bytes()};
  }
  void launch(int slot, std::int64_t cases) override {
    Slot& s = slots_.at(slot);
    if (s.pending || cases < 1 || cases > capacity_) violations.push_back("launch on slot " + std::to_string(slot));
    s.pending = cases;
    launched += cases;
  }
  void wait(int slot) override {
    Slot& s = slots_.at(slot);
    if (!s.pending) violations.push_back("wait on idle slot " + std::to_string(slot));
    const HostBatch h = host(slot);
    for (std::int64_t i = 0; i < s.pending; ++i) {
      const auto at = static_cast<std::size_t>(i);
      const sim::GemmInputs in{matrix(h.a + at * words_.a.case_bytes(), staging_.a, words_.a),
                               matrix(h.b + at * words_.b.case_bytes(), staging_.b, words_.b),
                               matrix(h.c + at * words_.c.case_bytes(), staging_.c, words_.c)};
      write_result(machine_.run(in), staging_.d, words_.d, h.d + at * words_.d.case_bytes());
    }
    s.pending = 0;
  }

  std::vector<std::string> violations;
  std::int64_t launched = 0;

 private:
  static sim::Matrix matrix(const std::byte* p, const SlotTable& t, const OperandWords& w) {
    sim::Matrix m{t.rows, t.cols, t.dtype, std::vector<std::uint64_t>(static_cast<std::size_t>(t.elements()))};
    for (std::uint64_t& x : m.bits) {
      x = read_word(p, w.word_bytes);
      p += w.word_bytes;
    }
    return m;
  }
  struct Slot {
    std::vector<std::byte> bytes;
    std::int64_t pending = 0;
  };
  const Staging& staging_;
  CaseWords words_;
  sim::WarpMachine machine_;
  std::int64_t capacity_;
  std::vector<Slot> slots_;
};

struct Setup {
  Program program = parse_program(test::kSeedProgram, "seed.txt");
  Plan plan = dispatch(program);
  Staging staging = build_staging(program, plan.nest);
  sim::InputSpecs specs = sim::input_specs(program);
};

// Runs `cases` cases on `devices` CPU devices with `threads` simulators; the
// simulators flip bit 0 of D[3][5] in the cases listed in `planted`
// (recognised by their inputs, whatever batch or worker they land in).
DiffReport run(const Setup& s, std::int64_t cases, std::int64_t batch, int devices, int threads,
               const std::set<int>& planted, std::int64_t* launched = nullptr) {
  std::vector<std::unique_ptr<CpuDevice>> owned;
  std::vector<BatchDevice*> devs;
  for (int d = 0; d < devices; ++d) {
    owned.push_back(std::make_unique<CpuDevice>(s.plan.nest, s.staging, batch, 2));
    devs.push_back(owned.back().get());
  }
  std::vector<std::vector<std::uint64_t>> planted_a;
  for (int i : planted)
    planted_a.push_back(
        sim::random_gemm_inputs(s.specs.a, s.specs.b, s.specs.c, sim::case_distribution(i), 7, i).a.bits);
  WorkerPool pool(threads);
  std::vector<sim::WarpMachine> machines(static_cast<std::size_t>(threads),
                                         sim::WarpMachine(s.plan.nest, s.staging, sim::arch_params("sm_90")));
  std::vector<CaseSimulator> sims;
  for (sim::WarpMachine& m : machines)
    sims.emplace_back([&m, &planted_a](const sim::GemmInputs& in) {
      std::vector<std::uint64_t> d = m.run(in);
      for (const std::vector<std::uint64_t>& a : planted_a)
        if (in.a.bits == a) d[3 * 8 + 5] ^= 1;
      return d;
    });
  std::int64_t progress_calls = 0, last = 0;
  const DiffReport r =
      run_differential(devs, s.staging, s.specs, pool, sims,
                       {.cases = cases, .seed = 7, .max_mismatches = 100, .progress = [&](std::int64_t done) {
                          ++progress_calls;
                          CHECK(done > last);
                          last = done;
                        }});
  CHECK(last == cases);
  std::int64_t total = 0;
  for (const auto& d : owned) {
    CHECK(d->violations.empty());
    total += d->launched;
  }
  if (launched) *launched = total;
  CHECK(r.timing.batches == progress_calls);
  return r;
}

}  // namespace

TEST_CASE("the differential pipeline finds planted wrong results in case order", "[cuda][batches]") {
  const Setup s;
  REQUIRE(s.plan.ok);
  std::int64_t launched = 0;
  const DiffReport clean = run(s, 37, 5, 3, 4, {}, &launched);
  CHECK(launched == 37);  // every case on some device, once
  CHECK(clean.cases == 37);
  CHECK(clean.failed_cases == 0);
  CHECK(clean.mismatched_elements == 0);
  CHECK(clean.timing.batches == 8);
  CHECK(clean.timing.batch_cases == 5);

  // The same planted cases, however the run is cut up: one device, one
  // thread, one batch; or many small batches over three devices.
  const std::set<int> planted{0, 4, 5, 21, 36};
  for (const auto& [batch, devices, threads] : {std::tuple{64, 1, 1}, {5, 3, 4}, {1, 2, 3}, {7, 1, 2}}) {
    INFO("batch " << batch << ", devices " << devices << ", threads " << threads);
    const DiffReport r = run(s, 37, batch, devices, threads, planted);
    CHECK(r.failed_cases == 5);
    CHECK(r.mismatched_elements == 5);
    REQUIRE(r.mismatches.size() == 5);
    std::vector<int> at;
    for (const DiffMismatch& m : r.mismatches) {
      at.push_back(static_cast<int>(m.case_index));
      CHECK((m.row == 3 && m.col == 5));
      CHECK((m.expected ^ m.got) == 1);
      CHECK(m.dist == sim::case_distribution(static_cast<int>(m.case_index)));
    }
    CHECK(at == std::vector<int>(planted.begin(), planted.end()));
  }
}

TEST_CASE("the differential pipeline rejects a simulator's D of the wrong shape or width", "[cuda][batches]") {
  const Setup s;
  CpuDevice dev(s.plan.nest, s.staging, 4, 2);
  BatchDevice* devs[] = {&dev};
  WorkerPool pool(2);
  const std::vector<CaseSimulator> short_d(2, [](const sim::GemmInputs&) { return std::vector<std::uint64_t>(3); });
  CHECK_THROWS_WITH(run_differential(devs, s.staging, s.specs, pool, short_d, {.cases = 8}),
                    Catch::Contains("returned 3 D elements"));
  const std::vector<CaseSimulator> wide(2, [](const sim::GemmInputs&) {
    std::vector<std::uint64_t> d(16 * 8);
    d[1] = std::uint64_t{1} << 40;
    return d;
  });
  CHECK_THROWS_WITH(run_differential(devs, s.staging, s.specs, pool, wide, {.cases = 8}), Catch::Contains("wider"));
}

}  // namespace test_cuda_batches
