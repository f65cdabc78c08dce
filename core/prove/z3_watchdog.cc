#include "core/prove/z3_watchdog.h"

namespace mmacheck::prove_detail {

Z3Watchdog::Z3Watchdog(z3::context& ctx, std::chrono::steady_clock::time_point deadline)
    : thread_([this, &ctx, deadline] {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!wake_.wait_until(lock, deadline, [this] { return done_; })) ctx.interrupt();
      }) {}

Z3Watchdog::~Z3Watchdog() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

}  // namespace mmacheck::prove_detail
