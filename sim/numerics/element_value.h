// The numeric value of an element's bits, for references and messages.
//
// Floats decode exactly (sim/numerics/float_format.h: tf32's ignored low bits
// dropped, fp8 NaN-only encodings honoured) to ±Inf, NaN or a finite value;
// integers (s8, u8, s32) sign- or zero-extend.  long double holds every
// element type exactly.
//
//     element_value(DType::f16, 0xc000) == -2.0L
//     element_value(DType::s8, 0xff)    == -1.0L
#pragma once

#include <cstdint>
#include <string>

#include "core/program/dtype.h"

namespace mmacheck::sim {

long double element_value(DType type, std::uint64_t bits);

// "0x3f800000 (1)": the bits in hex, as wide as the type, and the value.
std::string element_text(DType type, std::uint64_t bits);

}  // namespace mmacheck::sim
