// One double-precision fused multiply-add on raw bits, as the H200's DFMA
// does it inside mma.sync.m8n8k4.f64: IEEE 754 round-to-nearest-even with
// subnormals, plus the GPU's NaN rules:
//   - an invalid operation (Inf * 0, Inf - Inf) with no NaN operand gives
//     0xFFF8000000000000;
//   - a NaN operand propagates its payload, quieted (bit 51 set); when
//     several operands are NaN, see f64_fma.cc (docs/numerics.md: open).
//
//     f64_fma(0x3ff0000000000000, 0x4000000000000000, 0) == 0x4000000000000000  // 1*2+0
#pragma once

#include <cstdint>

namespace mmacheck::sim {

std::uint64_t f64_fma(std::uint64_t a, std::uint64_t b, std::uint64_t c);

}  // namespace mmacheck::sim
