#include "core/base/worker_pool.h"

#include <algorithm>
#include <utility>

namespace mmacheck {

WorkerPool::WorkerPool(int threads) {
  const int n = std::max(1, threads);
  threads_.reserve(n);
  for (int w = 0; w < n; ++w) threads_.emplace_back([this, w] { work(w); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

int WorkerPool::hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void WorkerPool::for_each(std::int64_t n, const Body& body) {
  if (n <= 0) return;
  std::unique_lock lock(mutex_);
  body_ = &body;
  items_ = n;
  next_ = 0;
  // About eight chunks per thread: few lock round trips, still balanced.
  chunk_ = std::max<std::int64_t>(1, n / (8 * static_cast<std::int64_t>(threads_.size())));
  error_ = nullptr;
  busy_ = size();
  ++generation_;
  start_.notify_all();
  done_.wait(lock, [&] { return busy_ == 0; });
  body_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void WorkerPool::work(int worker) {
  std::uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    start_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    while (next_ < items_ && !error_) {
      const std::int64_t first = next_, last = std::min(items_, next_ + chunk_);
      next_ = last;
      lock.unlock();
      try {
        for (std::int64_t i = first; i < last; ++i) (*body_)(worker, i);
      } catch (...) {
        lock.lock();
        if (!error_) error_ = std::current_exception();
        continue;
      }
      lock.lock();
    }
    if (--busy_ == 0) done_.notify_one();
  }
}

}  // namespace mmacheck
