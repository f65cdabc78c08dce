// WgmmaFrame — the register fragments of wgmma.mma_async: which element of
// the warpgroup's tile each (thread, element index) holds, for the
// accumulator D and for A read from registers (PTX ISA §9.7.15.5.1.1,
// "Register Fragments", Figures 148-153 for m64nNk16, m64nNk8, m64nNk32).
//
// A warpgroup is 128 threads; warp w = thread / 32 owns rows 16w .. 16w+15,
// and inside its 16 rows a warp's lanes hold what mma.m16n8k* holds
// (g = lane / 4, t = lane % 4, core/gemm/ptx_frame.h).  Every fragment is
// linear in (w, g, t, bits of the element index i):
//
//     row = 16 w + row.g g + row.t t + sum_b row.bit[b] ((i >> b) & 1)
//
// e.g. D (f32, m64nNk16): row = 16w + g + 8 bit1, col = 2t + bit0 + 8 (i >> 2),
// so d5 of thread 37 (w 1, g 1, t 1) is D[17][11].  D's row of the table
// holds for every N (8 columns per four elements); at(N) gives it that width.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace mmacheck {

enum class WgmmaFragment : std::uint8_t { A, D };

struct WgmmaFrameAxis {
  int warp = 0;
  int g = 0;
  int t = 0;
  std::array<int, 8> bit{};

  int at(int thread, int elem) const {
    const int lane = thread % 32;
    int v = warp * (thread / 32) + g * (lane / 4) + t * (lane % 4);
    for (std::size_t b = 0; b < bit.size(); ++b) v += bit[b] * ((elem >> b) & 1);
    return v;
  }
};

struct WgmmaFrame {
  std::string_view shape;  // "m64nNk16", "m64nNk8", "m64nNk32"
  WgmmaFragment fragment;
  int elem_bits;  // bits of one element in its register (D f32/s32: 32, D f16: 16)
  int cols;       // A: K; D: 0 (N, given to elems())
  WgmmaFrameAxis row;
  WgmmaFrameAxis col;

  static constexpr int kThreads = 128;
  static constexpr int kRows = 64;
  int per_reg() const { return 32 / elem_bits; }
  // Elements per thread: A: 64 K / 128; D: N / 2.
  int elems(int n = 0) const { return fragment == WgmmaFragment::A ? kRows * cols / kThreads : n / 2; }
  int regs(int n = 0) const { return elems(n) / per_reg(); }
  std::array<int, 2> at(int thread, int elem) const { return {row.at(thread, elem), col.at(thread, elem)}; }
};

std::span<const WgmmaFrame> wgmma_frames();
// The frame of `shape` ("m64nNk16") and fragment with `elem_bits`-bit
// elements; nullptr when the table has none.
const WgmmaFrame* find_wgmma_frame(std::string_view shape, WgmmaFragment fragment, int elem_bits);

}  // namespace mmacheck
