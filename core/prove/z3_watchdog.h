// Z3Watchdog — interrupts a Z3 context at a deadline.  Z3's own "timeout"
// parameter is a hint that some tactics and preprocessing steps do not poll,
// so a query can run far past it; `--timeout-ms` must hold whatever Z3 does.
// One thread per watchdog, waiting on a condition variable: it ends at the
// deadline (after interrupting the context) or when the watchdog is
// destroyed, whichever comes first.  Destroy the watchdog before its context.
//
//     z3::context ctx;
//     const Z3Watchdog watchdog(ctx, std::chrono::steady_clock::now() + std::chrono::seconds(10));
//     solver.check();  // returns unknown ("canceled") once the deadline passes
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <z3++.h>

namespace mmacheck::prove_detail {

class Z3Watchdog {
 public:
  Z3Watchdog(z3::context& ctx, std::chrono::steady_clock::time_point deadline);
  ~Z3Watchdog();
  Z3Watchdog(const Z3Watchdog&) = delete;
  Z3Watchdog& operator=(const Z3Watchdog&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace mmacheck::prove_detail
