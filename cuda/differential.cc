#include "cuda/differential.h"

#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include "core/base/error.h"
#include "cuda/case_batches.h"
#include "cuda/case_words.h"

namespace mmacheck::cuda {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The simulator's D of every case of a slot, in the kernel's words.
struct Expected {
  std::vector<std::byte> words;
};

class Pipeline {
 public:
  Pipeline(std::span<BatchDevice* const> devices, const Staging& staging, const sim::InputSpecs& specs,
           WorkerPool& pool, std::span<const CaseSimulator> simulators, const DiffOptions& options)
      : devices_(devices),
        staging_(staging),
        specs_(specs),
        pool_(pool),
        simulators_(simulators),
        options_(options),
        words_(case_words(staging)) {
    if (devices.empty()) throw Error("differential: no device");
    if (static_cast<int>(simulators.size()) != pool.size())
      throw Error("differential: " + std::to_string(simulators.size()) + " simulators for " +
                  std::to_string(pool.size()) + " workers");
    capacity_ = devices.front()->capacity();
    slots_ = devices.front()->slots();
    for (BatchDevice* d : devices)
      if (d->capacity() != capacity_ || d->slots() != slots_)
        throw Error("differential: devices with different batch sizes or slots");
    expected_.resize(devices.size() * slots_);
    for (Expected& e : expected_) e.words.resize(static_cast<std::size_t>(capacity_) * words_.d.case_bytes());
  }

  DiffReport run() {
    const Clock::time_point start = Clock::now();
    const std::vector<CaseBatch> plan =
        plan_case_batches(options_.cases, capacity_, static_cast<int>(devices_.size()), slots_);
    std::vector<std::optional<CaseBatch>> pending(expected_.size());
    std::int64_t simulated = 0;
    for (const CaseBatch& b : plan) {
      std::optional<CaseBatch>& slot = pending[key(b)];
      if (slot) finish(*std::exchange(slot, std::nullopt));
      prepare(b);
      devices_[b.device]->launch(b.slot, b.count);
      slot = b;
      simulated += b.count;
      if (options_.progress) options_.progress(simulated);
    }
    // The rest in batch order: the batches still pending are the last ones.
    for (std::size_t i = plan.size() > pending.size() ? plan.size() - pending.size() : 0; i < plan.size(); ++i)
      if (std::optional<CaseBatch>& slot = pending[key(plan[i])]) finish(*std::exchange(slot, std::nullopt));
    report_.cases = options_.cases;
    report_.timing.batches = static_cast<std::int64_t>(plan.size());
    report_.timing.batch_cases = plan.empty() ? 0 : plan.front().count;
    report_.timing.total = seconds_since(start);
    return std::move(report_);
  }

 private:
  std::size_t key(const CaseBatch& b) const { return static_cast<std::size_t>(b.device) * slots_ + b.slot; }

  // Inputs into the device's host buffers, the simulator's D into expected_.
  void prepare(const CaseBatch& b) {
    const Clock::time_point t = Clock::now();
    const HostBatch host = devices_[b.device]->host(b.slot);
    std::byte* expected = expected_[key(b)].words.data();
    pool_.for_each(b.count, [&](int worker, std::int64_t i) {
      const std::int64_t index = b.first + i;
      const sim::GemmInputs in = sim::random_gemm_inputs(
          specs_.a, specs_.b, specs_.c, sim::case_distribution(static_cast<int>(index), options_.inputs), options_.seed,
          static_cast<int>(index));
      const auto at = static_cast<std::size_t>(i);
      write_matrix(in.a, staging_.a, words_.a, host.a + at * words_.a.case_bytes(), "A");
      write_matrix(in.b, staging_.b, words_.b, host.b + at * words_.b.case_bytes(), "B");
      write_matrix(in.c, staging_.c, words_.c, host.c + at * words_.c.case_bytes(), "C");
      write_result(simulators_[worker](in), staging_.d, words_.d, expected + at * words_.d.case_bytes());
    });
    report_.timing.prepare += seconds_since(t);
  }

  // Waits for the batch and compares it, case by case.
  void finish(const CaseBatch& b) {
    Clock::time_point t = Clock::now();
    devices_[b.device]->wait(b.slot);
    report_.timing.wait += seconds_since(t);
    t = Clock::now();
    const std::byte* got = devices_[b.device]->host(b.slot).d;
    const std::byte* expected = expected_[key(b)].words.data();
    const std::size_t bytes = words_.d.case_bytes();
    const int wb = words_.d.word_bytes;
    // Which cases differ, on the pool; their elements, in case order, here.
    differs_.assign(static_cast<std::size_t>(b.count), 0);
    pool_.for_each(b.count, [&](int, std::int64_t i) {
      const std::size_t at = static_cast<std::size_t>(i) * bytes;
      differs_[static_cast<std::size_t>(i)] = std::memcmp(got + at, expected + at, bytes) != 0;
    });
    for (std::int64_t i = 0; i < b.count; ++i) {
      if (!differs_[static_cast<std::size_t>(i)]) continue;
      const std::byte* g = got + static_cast<std::size_t>(i) * bytes;
      const std::byte* e = expected + static_cast<std::size_t>(i) * bytes;
      ++report_.failed_cases;
      const std::int64_t index = b.first + i;
      for (std::int64_t x = 0; x < words_.d.elements; ++x) {
        const std::uint64_t want = read_word(e + x * wb, wb), have = read_word(g + x * wb, wb);
        if (want == have) continue;
        ++report_.mismatched_elements;
        if (report_.mismatches.size() < options_.max_mismatches)
          report_.mismatches.push_back({index, sim::case_distribution(static_cast<int>(index), options_.inputs),
                                        x / staging_.d.cols, x % staging_.d.cols, want, have});
      }
    }
    report_.timing.compare += seconds_since(t);
  }

  std::span<BatchDevice* const> devices_;
  const Staging& staging_;
  const sim::InputSpecs& specs_;
  WorkerPool& pool_;
  std::span<const CaseSimulator> simulators_;
  const DiffOptions& options_;
  CaseWords words_;
  std::int64_t capacity_ = 0;
  int slots_ = 0;
  std::vector<Expected> expected_;  // per device slot
  std::vector<char> differs_;       // per case of the batch being compared
  DiffReport report_;
};

}  // namespace

DiffReport run_differential(std::span<BatchDevice* const> devices, const Staging& staging, const sim::InputSpecs& specs,
                            WorkerPool& pool, std::span<const CaseSimulator> simulators, const DiffOptions& options) {
  return Pipeline(devices, staging, specs, pool, simulators, options).run();
}

}  // namespace mmacheck::cuda
