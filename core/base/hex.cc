#include "core/base/hex.h"

#include <cinttypes>
#include <cstdio>

namespace mmacheck {

std::string hex(std::uint64_t v) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%" PRIx64, v);
  return text;
}

}  // namespace mmacheck
