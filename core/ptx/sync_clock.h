// SyncClock — a vector clock over a CTA's threads: the happens-before order
// that barriers of part of the CTA (a named barrier with a thread count,
// bar.arrive) and mbarriers give, which the CTA machine's barrier epochs
// (one per barrier of the whole CTA) cannot express.
//
// Each thread keeps a clock: its own entry counts its releases, the others
// what it has acquired of theirs.  A release (bar.arrive / bar.sync with a
// count, mbarrier.arrive) joins the thread's clock into the barrier's and
// then advances the thread's own entry; an acquire (the barrier completing
// for a waiter, a successful mbarrier.try_wait) joins the barrier's clock
// into the thread's.  An access stamped with its thread's own entry s is
// ordered before thread T's later access when T's clock holds s or more for
// that thread.
//
//     SyncClock producer(4, 0), bar(4, 0);     // thread 0 of 4
//     producer.tick(0);                        // its own entry starts at 1
//     bar.join(producer); producer.tick(0);    // release: bar[0] = 1, producer[0] = 2
//     SyncClock consumer(4, 1); consumer.join(bar);
//     consumer.at(0) >= 1                      // what thread 0 did at stamp 1 is ordered before
//
// Invariant: entries only grow (join is the element-wise maximum).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace mmacheck::ptx {

class SyncClock {
 public:
  SyncClock() = default;
  // A clock over `threads` threads, every entry `self`'s start (0) but its own (1).
  SyncClock(int threads, int self) : c_(static_cast<std::size_t>(threads), 0) {
    if (self >= 0) c_[static_cast<std::size_t>(self)] = 1;
  }
  std::uint32_t at(int thread) const {
    return static_cast<std::size_t>(thread) < c_.size() ? c_[static_cast<std::size_t>(thread)] : 0;
  }
  void join(const SyncClock& o) {
    if (c_.size() < o.c_.size()) c_.resize(o.c_.size(), 0);
    for (std::size_t i = 0; i < o.c_.size(); ++i) c_[i] = std::max(c_[i], o.c_[i]);
  }
  void tick(int self) { ++c_[static_cast<std::size_t>(self)]; }
  void clear() { std::fill(c_.begin(), c_.end(), 0); }

 private:
  std::vector<std::uint32_t> c_;
};

// A read of a shared byte as the clocks keep it: 1 + the reading thread (0:
// none) and its own clock entry at the read.
struct ReadStamp {
  std::uint32_t thread = 0;
  std::uint32_t stamp = 0;
};
// The readers of a byte kept per byte since its last write (more: the byte
// counts as read by many threads, which only a barrier of the whole CTA orders).
inline constexpr int kStampedReaders = 4;

}  // namespace mmacheck::ptx
