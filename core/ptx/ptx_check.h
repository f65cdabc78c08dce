// check_ptx_launch() — does one launch of a PTX kernel compute its gemm?
// The kernel runs on the CTA machine (core/ptx/cta_machine.h) with every
// element of its input tensors tagged; at the end every element of D must
// hold exactly Σ_k A[i][k]·B[k][j] (+ C[i][j] when the launch names C):
// each product of its row and column once, nothing else, converted at most
// once to D's type.  Otherwise refuted, at the PTX line that broke it:
//
//   k.ptx:88:2: D[3][5] includes A[3][4]·B[6][5], which pairs A's column 4
//               with B's row 6 (the mma.sync at line 88, CTA (0,0,0), thread 5)
//   k.ptx:120:2: D[0][1] lacks the products of k = 16..31 (written at line 120)
//
// besides the machine's own refutations (races, cp.async reads before the
// wait, out-of-bounds accesses, divergent warps).  A proof covers this
// launch's problem size and grid only; the report says so.
//
//     PtxLaunch launch = read_launch(text, "k.launch.json");
//     const PtxReport r = check_ptx_launch(read_ptx(ptx, "k.ptx"), launch, {});
//     r.verdict == FrameVerdict::proved
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/prove/frame_verdict.h"
#include "core/ptx/cta_machine.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

struct PtxReport {
  FrameVerdict verdict = FrameVerdict::unchecked;
  std::string kernel;
  GridShape shape;
  std::int64_t m = 0, n = 0, k = 0;
  std::string message;             // the verdict in one line
  std::optional<Finding> finding;  // refuted or unchecked: where
  // The element of D the finding is about, when it is one (D's check).
  std::optional<std::array<std::int64_t, 2>> element;
  std::uint64_t steps = 0;  // thread-instructions the run executed
};

// The launch's tensors, placed in `memory`: their parameters' bits, in the
// kernel's order; input tensors (every tensor but D) tagged element by
// element in `provenance`, with `fill` (when given) writing their bits.
struct PlacedLaunch {
  std::vector<std::uint64_t> params;
  std::vector<std::uint64_t> input_base;    // per tensor: its first element's id (D: 0)
  std::vector<TensorMapParam> tensor_maps;  // the tensor-map parameters, over their tensors' bases (RunOptions)
};
using TensorFill = std::function<void(int tensor, const TensorArg& t, std::span<std::uint8_t> bytes)>;
PlacedLaunch place_launch(const PtxLaunch& launch, GlobalMemory& memory, Provenance& provenance,
                          const TensorFill& fill);

// Who wrote an element of D: the store's instruction (its PTX line), the
// CTA (linear) and the thread in it; inst -1 for an element nothing wrote.
struct DWrite {
  std::int32_t inst = -1;
  int line = 0;
  std::int64_t cta = 0;
  int thread = 0;
};

// `d_writes`, when given, receives D's writers, one per element (row-major
// over M x N), whatever the verdict (what the run wrote before it stopped).
PtxReport check_ptx_launch(const PtxModule& module, PtxLaunch launch, const RunOptions& options,
                           std::vector<DWrite>* d_writes = nullptr);

}  // namespace mmacheck::ptx
