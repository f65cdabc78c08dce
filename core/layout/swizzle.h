// Swizzle — the XOR permutation of shared-memory element offsets that CuTe
// writes Swizzle<B, M, S> and TIRx SwizzleLayout(per_element=M,
// swizzle_len=B, atom_len=S, swizzle_inner=...) (the swizzle half of a TIRx
// ComposeLayout).  On an element offset x:
//
//   inner (CuTe, TIRx's default)   x ^ ((x & ((2^B - 1) << (M + S))) >> S)
//   outer (swizzle_inner=False)    chunk c = x >> M;  c ^= (c & (2^B - 1)) << S
//
// so the B bits at M + S (inner) pick which of the 2^B chunks of 2^M
// elements an offset moves to.  For f16 the common swizzles are Swizzle(1,
// 3, 3), Swizzle(2, 3, 3), Swizzle(3, 3, 3): 32-, 64- and 128-byte (16-byte
// chunks XOR-ed by the 128-byte row index).  period() is the span after
// which the pattern repeats: the swizzle on an address equals the swizzle on
// an offset only when the base is a multiple of it (what TMA's and wgmma's
// hardware swizzle assume).  B = 0 is the identity.  Nothing is checked
// here: whether a given swizzle is a bijection is the prover's question
// (S = 0 with B > 0, e.g., is not).
//
//     Swizzle s{3, 3, 3};          // 128-byte swizzle of f16
//     s.apply(64) == 72;           // row 1, chunk 0 -> chunk 1
#pragma once

#include <cstdint>
#include <string>

namespace mmacheck {

struct Swizzle {
  int bits = 0;   // B (TIRx swizzle_len)
  int base = 0;   // M (TIRx per_element): log2 of the elements a chunk keeps together
  int shift = 0;  // S (TIRx atom_len)
  bool inner = true;
  bool tirx = false;  // spelled SwizzleLayout(...) (for printing only)

  std::int64_t apply(std::int64_t x) const;
  // 2^(B + M + S) elements.
  std::int64_t period() const { return std::int64_t{1} << (bits + base + shift); }
  bool identity() const { return bits == 0; }
  // As the file spells it: "Swizzle(3, 3, 3)" or
  // "SwizzleLayout(per_element=3, swizzle_len=3, atom_len=3)".
  std::string str() const;
  bool operator==(const Swizzle& o) const {
    return bits == o.bits && base == o.base && shift == o.shift && (inner == o.inner || bits == 0);
  }
};

}  // namespace mmacheck
