// The frame rows added for CUTLASS's trait headers (int4, binary, f64 on
// sm_90, s8 m8n8k16) against the PTX ISA's formulas (§9.7.14.5.3-13),
// written here as the ISA writes them, independently of the table's
// coefficient form.
#include <catch2/catch.hpp>

#include <functional>

#include "core/gemm/ptx_frame.h"

namespace test_ptx_frame_shapes {

using namespace mmacheck;

namespace {
using Formula = std::function<TileCoord(int g, int t, int i)>;

void check_frame(std::string_view shape, Operand op, int bits, int elems, const Formula& formula) {
  const Frame* f = lookup_frame(shape, op, bits);
  INFO("shape " << shape << " operand " << operand_name(op) << " bits " << bits);
  REQUIRE(f != nullptr);
  REQUIRE(f->elems() == elems);
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < elems; ++i) {
      INFO("lane " << lane << " element " << i);
      CHECK(f->at(lane, i) == formula(lane / 4, lane % 4, i));
    }
}

TileCoord c_8x8(int g, int t, int i) { return {g, t * 2 + i}; }
TileCoord c_16x8(int g, int t, int i) { return {i < 2 ? g : g + 8, t * 2 + (i & 1)}; }
}  // namespace

TEST_CASE("m8n8k16 s8, m8n8k32 s4 and m8n8k128 b1 frames follow the PTX formulas", "[frame]") {
  check_frame("m8n8k16", Operand::A, 8, 4, [](int g, int t, int i) { return TileCoord{g, t * 4 + i}; });
  check_frame("m8n8k16", Operand::B, 8, 4, [](int g, int t, int i) { return TileCoord{t * 4 + i, g}; });
  check_frame("m8n8k32", Operand::A, 4, 8, [](int g, int t, int i) { return TileCoord{g, t * 8 + i}; });
  check_frame("m8n8k32", Operand::B, 4, 8, [](int g, int t, int i) { return TileCoord{t * 8 + i, g}; });
  check_frame("m8n8k128", Operand::A, 1, 32, [](int g, int t, int i) { return TileCoord{g, t * 32 + i}; });
  check_frame("m8n8k128", Operand::B, 1, 32, [](int g, int t, int i) { return TileCoord{t * 32 + i, g}; });
  for (const char* shape : {"m8n8k16", "m8n8k32", "m8n8k128"}) check_frame(shape, Operand::C, 32, 2, c_8x8);
}

TEST_CASE("m16n8k32 and m16n8k64 s4 frames follow the PTX formulas", "[frame]") {
  check_frame("m16n8k32", Operand::A, 4, 16, [](int g, int t, int i) {
    return TileCoord{i < 8 ? g : g + 8, t * 8 + (i & 7)};
  });
  check_frame("m16n8k32", Operand::B, 4, 8, [](int g, int t, int i) { return TileCoord{t * 8 + (i & 7), g}; });
  check_frame("m16n8k64", Operand::A, 4, 32, [](int g, int t, int i) {
    const bool low_row = i < 8 || (i >= 16 && i < 24);
    return TileCoord{low_row ? g : g + 8, t * 8 + (i & 7) + (i >= 16 ? 32 : 0)};
  });
  check_frame("m16n8k64", Operand::B, 4, 16, [](int g, int t, int i) {
    return TileCoord{t * 8 + (i & 7) + (i >= 8 ? 32 : 0), g};
  });
  check_frame("m16n8k64", Operand::C, 32, 4, c_16x8);
}

TEST_CASE("m16n8k128 and m16n8k256 b1 frames follow the PTX formulas", "[frame]") {
  check_frame("m16n8k128", Operand::A, 1, 64, [](int g, int t, int i) {
    return TileCoord{i < 32 ? g : g + 8, t * 32 + (i & 31)};
  });
  check_frame("m16n8k128", Operand::B, 1, 32, [](int g, int t, int i) { return TileCoord{t * 32 + i, g}; });
  // The ISA prints "32t + i for i < 64"; its figure (and the bijection the
  // frame must be) has 32t + (i & 31), as for m16n8k128.
  check_frame("m16n8k256", Operand::A, 1, 128, [](int g, int t, int i) {
    const bool low_row = i < 32 || (i >= 64 && i < 96);
    return TileCoord{low_row ? g : g + 8, t * 32 + (i & 31) + (i >= 64 ? 128 : 0)};
  });
  check_frame("m16n8k256", Operand::B, 1, 64, [](int g, int t, int i) {
    return TileCoord{t * 32 + (i & 31) + (i >= 32 ? 128 : 0), g};
  });
  for (const char* shape : {"m16n8k128", "m16n8k256"}) check_frame(shape, Operand::C, 32, 4, c_16x8);
}

TEST_CASE("f64 m16n8k4, m16n8k8 and m16n8k16 frames follow the PTX formulas", "[frame]") {
  check_frame("m16n8k4", Operand::A, 64, 2, [](int g, int t, int i) { return TileCoord{i == 0 ? g : g + 8, t}; });
  check_frame("m16n8k4", Operand::B, 64, 1, [](int g, int t, int) { return TileCoord{t, g}; });
  check_frame("m16n8k8", Operand::A, 64, 4, [](int g, int t, int i) {
    return TileCoord{(i == 0 || i == 2) ? g : g + 8, i < 2 ? t : t + 4};
  });
  check_frame("m16n8k8", Operand::B, 64, 2, [](int g, int t, int i) { return TileCoord{i == 0 ? t : t + 4, g}; });
  check_frame("m16n8k16", Operand::A, 64, 8, [](int g, int t, int i) {
    return TileCoord{i % 2 == 0 ? g : g + 8, i % 2 == 0 ? i * 2 + t : i * 2 - 2 + t};
  });
  check_frame("m16n8k16", Operand::B, 64, 4, [](int g, int t, int i) { return TileCoord{t + i * 4, g}; });
  for (const char* shape : {"m16n8k4", "m16n8k8", "m16n8k16"}) check_frame(shape, Operand::C, 64, 4, c_16x8);
}

TEST_CASE("lookup_frame answers nullptr where find_frame throws", "[frame]") {
  CHECK(lookup_frame("m16n8k256", Operand::A, 4) == nullptr);
  CHECK(lookup_frame("m16n8k16", Operand::A, 16) == &find_frame("m16n8k16", Operand::A, 16));
}

}  // namespace test_ptx_frame_shapes
