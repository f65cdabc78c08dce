// How the random inputs' elements are made of Philox words (an internal
// header of sim/numerics/random_inputs.cc and edge_inputs.cc; the layout is
// docs/numerics.md's "The generator"): each element of a matrix reads a
// fixed slice of its operand's stream, a payload and a control field, and is
// computed from them by a function without a branch, one loop per matrix.
//
//     element::fill<16>(out, n, philox_stream(seed, index, 0), path,
//                       [](std::uint32_t p, std::uint32_t c) { return p; });  // the payloads
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "sim/numerics/philox_blocks.h"

namespace mmacheck::sim::element {

// How an element's random bits are laid out: its storage width rounded up
// to S = 16, 32 or 64 bits of *payload* (sign at bit S - 1, three flag bits
// below it at S - 4 .. S - 2, fraction and tf32's ignored bits from bit 0:
// a field the value does not use is left unread) and a *control* word of 16
// (S = 16) or 32 bits for the choice among values.  S = 16: one 32-bit word,
// payload the low half, control the high half; S = 32: two words, payload
// then control; S = 64: three, the payload's low and high words then control.
// Values are computed in T, 32 bits where the element fits, so that the
// element loops vectorise on 32-bit lanes.
template <int S>
struct Bits {
  using T = std::conditional_t<S == 64, std::uint64_t, std::uint32_t>;
  static constexpr int kWords = S == 16 ? 1 : S == 32 ? 2 : 3;
  static constexpr int kControlBits = S == 16 ? 16 : 32;

  static T sign(T payload) { return (payload >> (S - 1)) & 1; }
  static T flags(T payload) { return (payload >> (S - 4)) & 7; }
  // A value in [0, n), n <= 2^32, by multiply and shift (Lemire's method
  // without rejection): each value's probability within 2^-kControlBits of
  // 1/n (for n > 2^kControlBits, 2^kControlBits values evenly spread).
  static T choice(T control, std::uint64_t n) {
    // n is a constant of the loop: the 64-bit product only where 32 bits
    // would overflow (a 16-bit control and n > 2^16, e.g. an 8-bit C's nearsum).
    if constexpr (S == 16)
      return n <= 0x10000u ? (control * static_cast<T>(n)) >> 16 : static_cast<T>((std::uint64_t{control} * n) >> 16);
    else return static_cast<T>((static_cast<std::uint64_t>(static_cast<std::uint32_t>(control)) * n) >> 32);
  }
};

// cond ? a : b without a branch (GCC keeps a branch for some ternaries,
// which stops the element loops from vectorising).
template <class T>
T select(bool cond, T a, T b) {
  const T all = T{0} - static_cast<T>(cond);
  return (a & all) | (b & ~all);
}

inline int payload_bits(int storage_bits) { return storage_bits <= 16 ? 16 : storage_bits <= 32 ? 32 : 64; }

// Element e of a matrix of `count` elements: the kWords words of stream
// `stream` from kWords * e on, handed to `draw(payload, control)`.  Words
// are made a chunk at a time on the stack; the caller's switch over the
// distribution is outside this loop, so the loop has no branch per element.
template <int S, class Draw>
[[gnu::always_inline]] inline void fill(std::uint64_t* out, std::int64_t count, const PhiloxStream& stream,
                                        PhiloxPath path, Draw draw) {
  using B = Bits<S>;
  using T = typename B::T;
  constexpr std::int64_t kChunk = 256;  // elements; 256 * kWords words is a whole number of blocks
  alignas(64) std::uint32_t w[B::kWords * kChunk];
  for (std::int64_t first = 0; first < count; first += kChunk) {
    const std::int64_t n = std::min(kChunk, count - first);
    const auto block = static_cast<std::uint32_t>(first * B::kWords / 4);
    philox_blocks(stream, block, static_cast<int>((n * B::kWords + 3) / 4), w, path);
    std::uint64_t* __restrict o = out + first;
    if constexpr (S == 16)
      for (std::int64_t i = 0; i < n; ++i) o[i] = draw(static_cast<T>(w[i] & 0xffffu), static_cast<T>(w[i] >> 16));
    else if constexpr (S == 32)
      for (std::int64_t i = 0; i < n; ++i) o[i] = draw(w[2 * i], w[2 * i + 1]);
    else
      for (std::int64_t i = 0; i < n; ++i) o[i] = draw(w[3 * i] | static_cast<T>(w[3 * i + 1]) << 32, w[3 * i + 2]);
  }
}

}  // namespace mmacheck::sim::element
