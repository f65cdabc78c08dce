// What every harness shares: the input as text, and the contract that bad
// input is an mmacheck::Error and nothing else.  Any other exception, a
// crash, a sanitizer report, a hang or an allocation past libFuzzer's
// -rss_limit_mb is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/base/error.h"
#include "core/base/limits.h"

namespace mmacheck::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Limits well below the defaults, so that each execution takes
// milliseconds: the fuzzer looks for wrong handling, not slow layouts.
inline Limits small_limits() {
  Limits limits;
  limits.set(Resource::mma, 64);
  limits.set(Resource::elements, 1 << 14);
  limits.set(Resource::span, 1 << 10);
  limits.set(Resource::replicas, 64);
  return limits;
}

// Runs `body`; an Error is the expected outcome of bad input.
template <class Body>
int run_one(Body body) {
  try {
    body();
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace mmacheck::fuzz
