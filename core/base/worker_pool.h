// WorkerPool — a fixed set of threads that run one indexed loop at a time.
//
// `for_each(n, body)` calls body(worker, item) for every item in [0, n) and
// returns when all are done; the items are handed out in small chunks from
// a shared counter, so a slow item does not hold up a whole share.  `worker`
// (0 <= worker < size()) names the thread, so a body can keep per-thread
// state (a simulator, scratch buffers) in a vector indexed by it.  The first
// exception a body throws is rethrown by for_each after every thread has
// stopped taking items.  The calling thread waits; it does not run items.
//
//     WorkerPool pool(WorkerPool::hardware_threads());
//     std::vector<Scratch> scratch(pool.size());
//     pool.for_each(cases, [&](int w, std::int64_t i) { run_case(scratch[w], i); });
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace mmacheck {

class WorkerPool {
 public:
  using Body = std::function<void(int worker, std::int64_t item)>;

  // threads >= 1 (fewer is taken as 1).
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int size() const { return static_cast<int>(threads_.size()); }
  // std::thread::hardware_concurrency(), at least 1.
  static int hardware_threads();

  // Runs body over [0, n); not reentrant (one loop at a time).
  void for_each(std::int64_t n, const Body& body);

 private:
  void work(int worker);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  // The current loop, guarded by mutex_ (next_ is taken under it too: items
  // are handed out in chunks, so the lock is taken once per chunk).
  const Body* body_ = nullptr;
  std::int64_t items_ = 0, next_ = 0, chunk_ = 1;
  std::uint64_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

}  // namespace mmacheck
