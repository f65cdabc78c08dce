// The one way reports write an address, a descriptor or an encoded field:
// "0x" and lower-case hex digits, as the PTX ISA and CUTLASS print them.
//
//   hex(0x480) == "0x480";  hex(0) == "0x0"
#pragma once

#include <cstdint>
#include <string>

namespace mmacheck {

// A signed value converts to its two's complement bits (hex(-1) is sixteen f's).
std::string hex(std::uint64_t v);

}  // namespace mmacheck
