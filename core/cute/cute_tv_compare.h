// compare_tv() — does a CuTe TV layout (thread, value) -> index give every
// (thread, value) the coordinate an instruction's frame gives it?
//
// The expectation is a TvFrame: how many threads and values per thread the
// frame has, the operand's tile (M x K, N x K or M x N, CuTe indexing it
// column-major: index = a + dims[0] * b), and at(t, v), the coordinate the
// frame puts at thread t's value v.  `holders` says how many threads hold
// each element: 1 for a register fragment (mma.sync, wgmma's D and RS A)
// and for UMMA's CTA "threads" (each holds its share once), every thread for
// an operand CuTe hands to each thread whole (wgmma's shared-memory operands).
//
// `by` names the placement in a counterexample: PTX's for a fragment, "the
// tile order" for an operand handed over whole.
//
// The result is proved when every point agrees (then the layout is onto the
// tile, each element held by exactly `holders` (thread, value) pairs), else
// refuted with the first (thread, value) that differs, in thread order, and
// what the layout does instead (an index outside the tile, an element held
// too often, elements never reached).  ill_formed when the layout is no TV
// layout (not two modes, shape and stride not congruent).
//
//     compare_tv(Operand::C, clayout_64x8, wgmma_d_frame)  // proved: 128 x 4 onto 64x8
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/cute/cute_layout.h"
#include "core/gemm/ptx_frame.h"  // Operand
#include "core/prove/frame_verdict.h"

namespace mmacheck {

struct CuteCounterexample {
  int thread = 0;
  int value = 0;
  int lane = 0;                              // ThrID(thread)
  std::int64_t index = 0;                    // the layout's index
  std::array<std::string_view, 2> axes{};    // ("m", "k"), ("n", "k") or ("m", "n")
  std::array<std::int64_t, 2> coordinate{};  // where the layout puts the value
  std::array<std::int64_t, 2> ptx{};         // where the instruction's frame puts it
  bool in_tile = true;                       // the index lies inside the operand's tile
  std::string_view by = "PTX";               // whose placement `ptx` is, in messages
};

struct CuteOperandReport {
  Operand operand;
  FrameVerdict result = FrameVerdict::unchecked;
  std::optional<CuteCounterexample> counterexample;
  std::string message;

  // A verdict without a counterexample.
  static CuteOperandReport of(Operand op, FrameVerdict v, std::string message) {
    return {op, v, std::nullopt, std::move(message)};
  }
};

// The axes of an operand's tile: ("m", "k"), ("n", "k") or ("m", "n").
std::array<std::string_view, 2> operand_axes(Operand op);

// The trait member that holds the operand's layout: "ALayout", ...
std::string layout_member(Operand op);

struct TvFrame {
  std::string_view what;        // "the PTX frame", in messages
  std::string_view by = "PTX";  // "PTX puts (m=0, k=8) there"
  int threads = 0;
  int values = 0;
  int holders = 1;
  std::array<std::string_view, 2> axes{};
  std::array<int, 2> dims{};
  std::function<std::array<std::int64_t, 2>(int thread, int value)> at;
  std::function<int(int thread)> lane = [](int t) { return t; };  // ThrID, for messages
};

CuteOperandReport compare_tv(Operand op, const CuteLayout& tv, const TvFrame& frame);

// "thread 1 value 0 holds (n=0, k=4), PTX puts (n=0, k=8) there"
std::string describe(const CuteCounterexample& cex);

}  // namespace mmacheck
