// A progress line on stderr for long runs: shown only when stderr is a
// terminal, `total` > 0 and the run has lasted over a second, redrawn at most ten times a
// second, erased when done.  `[########........] 12/40 cases`.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace mmacheck::cli {

class Progress {
 public:
  Progress(std::int64_t total, std::string noun);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(std::int64_t done);

 private:
  using Clock = std::chrono::steady_clock;
  std::int64_t total_;
  std::string noun_;
  bool tty_;
  bool shown_ = false;
  Clock::time_point start_, last_;
};

}  // namespace mmacheck::cli
