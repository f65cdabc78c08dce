#include "core/layout/swizzle.h"

namespace mmacheck {

std::int64_t Swizzle::apply(std::int64_t x) const {
  const std::int64_t mask = (std::int64_t{1} << bits) - 1;
  if (inner) return x ^ ((x & (mask << (base + shift))) >> shift);
  const std::int64_t low = x & ((std::int64_t{1} << base) - 1);
  std::int64_t chunk = x >> base;
  chunk ^= (chunk & mask) << shift;
  return (chunk << base) | low;
}

std::string Swizzle::str() const {
  if (!tirx)
    return "Swizzle(" + std::to_string(bits) + ", " + std::to_string(base) + ", " + std::to_string(shift) + ")";
  return "SwizzleLayout(per_element=" + std::to_string(base) + ", swizzle_len=" + std::to_string(bits) +
         ", atom_len=" + std::to_string(shift) + (inner ? "" : ", swizzle_inner=False") + ")";
}

}  // namespace mmacheck
