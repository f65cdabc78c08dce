// The float conversions PTX's cvt performs, bit-exact (round to nearest
// even, subnormals kept, NaN made quiet), on bit patterns:
//
//     f32_to_f16_rn(0x3F800000) == 0x3C00          // 1.0f
//     f16_to_f32(0x3C00)        == 0x3F800000
//     f32_to_bf16_rn(0x3F808000) == 0x3F80          // ties to even
#pragma once

#include <cstdint>

namespace mmacheck::ptx {

std::uint32_t f16_to_f32(std::uint16_t h);
std::uint16_t f32_to_f16_rn(std::uint32_t f);
std::uint32_t bf16_to_f32(std::uint16_t h);
std::uint16_t f32_to_bf16_rn(std::uint32_t f);

float bits_f32(std::uint32_t b);
std::uint32_t f32_bits(float f);
double bits_f64(std::uint64_t b);
std::uint64_t f64_bits(double d);

}  // namespace mmacheck::ptx
