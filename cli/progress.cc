#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <iostream>

namespace mmacheck::cli {

Progress::Progress(std::int64_t total, std::string noun)
    : total_(std::max<std::int64_t>(total, 1)),
      noun_(std::move(noun)),
      tty_(total > 0 && isatty(STDERR_FILENO)),
      start_(Clock::now()) {}

Progress::~Progress() {
  if (shown_) std::cerr << "\r" << std::string(72, ' ') << "\r" << std::flush;
}

void Progress::update(std::int64_t done) {
  if (!tty_) return;
  const Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  const std::int64_t width = 40, filled = std::clamp<std::int64_t>(width * done / total_, 0, width);
  std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
            << std::string(static_cast<std::size_t>(width - filled), '.') << "] " << done << "/" << total_ << " "
            << noun_ << std::flush;
}

}  // namespace mmacheck::cli
