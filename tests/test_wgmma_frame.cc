// The wgmma register fragments (core/wgmma/wgmma_frame.h): each frame covers
// its tile exactly once over the warpgroup's 128 threads; each agrees with
// the PTX ISA's description written out here (warp w owns rows 16w..16w+15,
// inside them the m16n8 pattern of groupID g and threadID_in_group t), and,
// warp by warp, with the mma.sync frames of core/gemm/ptx_frame.cc.
#include <catch2/catch.hpp>

#include <vector>

#include "core/gemm/ptx_frame.h"
#include "core/wgmma/wgmma_frame.h"

namespace test_wgmma_frame {

namespace {

using namespace mmacheck;

// The ISA's figures as formulas, independent of the table's coefficients.
std::array<int, 2> isa_a(int k, int thread, int e) {
  const int w = thread / 32, g = (thread % 32) / 4, t = thread % 4;
  if (k == 16) return {16 * w + g + 8 * ((e / 2) % 2), 2 * t + e % 2 + 8 * (e / 4)};  // a0..a7
  if (k == 8) return {16 * w + g + 8 * (e % 2), t + 4 * (e / 2)};                     // a0..a3 (tf32)
  return {16 * w + g + 8 * ((e / 4) % 2), 4 * t + e % 4 + 16 * (e / 8)};              // a0..a15 (8-bit)
}
std::array<int, 2> isa_d(int thread, int e) {
  const int w = thread / 32, g = (thread % 32) / 4, t = thread % 4;
  return {16 * w + g + 8 * ((e / 2) % 2), 8 * (e / 4) + 2 * t + e % 2};
}

}  // namespace

TEST_CASE("wgmma A frames cover the 64 x K tile once and match the ISA", "[wgmma][frame]") {
  int frames = 0;
  for (const WgmmaFrame& f : wgmma_frames()) {
    if (f.fragment != WgmmaFragment::A) continue;
    ++frames;
    INFO(f.shape << " " << f.elem_bits);
    std::vector<int> hits(static_cast<std::size_t>(WgmmaFrame::kRows * f.cols));
    for (int thread = 0; thread < WgmmaFrame::kThreads; ++thread)
      for (int e = 0; e < f.elems(); ++e) {
        const auto [r, c] = f.at(thread, e);
        REQUIRE(r >= 0);
        REQUIRE(r < WgmmaFrame::kRows);
        REQUIRE(c >= 0);
        REQUIRE(c < f.cols);
        ++hits[static_cast<std::size_t>(r * f.cols + c)];
        CHECK(f.at(thread, e) == isa_a(f.cols, thread, e));
      }
    CHECK(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
    CHECK(f.regs() == 4);  // four 32-bit registers of A for every type (ISA tables)
  }
  CHECK(frames == 3);
}

TEST_CASE("wgmma D frames cover the 64 x N tile once for every N", "[wgmma][frame]") {
  for (const WgmmaFrame& f : wgmma_frames()) {
    if (f.fragment != WgmmaFragment::D) continue;
    INFO(f.shape << " " << f.elem_bits);
    for (int n = 8; n <= 256; n += 8) {
      INFO("N = " << n);
      std::vector<int> hits(static_cast<std::size_t>(64 * n));
      for (int thread = 0; thread < WgmmaFrame::kThreads; ++thread)
        for (int e = 0; e < f.elems(n); ++e) {
          const auto [r, c] = f.at(thread, e);
          REQUIRE(r < 64);
          REQUIRE(c < n);
          ++hits[static_cast<std::size_t>(r * n + c)];
          REQUIRE(f.at(thread, e) == isa_d(thread, e));
        }
      REQUIRE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; }));
      // N/2 f32 registers, N/4 f16x2 registers (ISA tables).
      CHECK(f.regs(n) == (f.elem_bits == 32 ? n / 2 : n / 4));
    }
  }
  CHECK(find_wgmma_frame("m64nNk16", WgmmaFragment::D, 32) != nullptr);
  CHECK(find_wgmma_frame("m64nNk16", WgmmaFragment::D, 8) == nullptr);
}

TEST_CASE("each warp's share is the mma.sync fragment of its 16 rows", "[wgmma][frame]") {
  // wgmma A k16/k8/k32 is mma.m16n8k16/k8/k32's A, D's 8-column blocks are m16n8's C.
  struct Pair {
    const char* wgmma;
    const char* mma;
    int bits;
  };
  for (const Pair& p :
       {Pair{"m64nNk16", "m16n8k16", 16}, Pair{"m64nNk8", "m16n8k8", 32}, Pair{"m64nNk32", "m16n8k32", 8}}) {
    INFO(p.wgmma);
    const WgmmaFrame* a = find_wgmma_frame(p.wgmma, WgmmaFragment::A, p.bits);
    REQUIRE(a);
    const Frame& mma_a = find_frame(p.mma, Operand::A, p.bits);
    REQUIRE(mma_a.elems() == a->elems());
    const WgmmaFrame* d = find_wgmma_frame(p.wgmma, WgmmaFragment::D, 32);
    REQUIRE(d);
    const Frame& mma_c = find_frame(p.mma, Operand::C, 32);
    for (int thread = 0; thread < WgmmaFrame::kThreads; ++thread) {
      const int w = thread / 32, lane = thread % 32;
      for (int e = 0; e < a->elems(); ++e) {
        const TileCoord m = mma_a.at(lane, e);
        CHECK(a->at(thread, e) == std::array<int, 2>{16 * w + m.row, m.col});
      }
      for (int e = 0; e < d->elems(64); ++e) {
        const TileCoord m = mma_c.at(lane, e % 4);
        CHECK(d->at(thread, e) == std::array<int, 2>{16 * w + m.row, 8 * (e / 4) + m.col});
      }
    }
  }
}

}  // namespace test_wgmma_frame
