// PtxLaunch — one launch of a PTX kernel, from a launch file (JSON, beside
// the PTX as `NAME.launch.json` for `NAME.ptx`; docs/ptx.md):
//
//     {
//       "kernel": "gemm_m16n8k16",            // optional: the module's only .entry
//       "grid": [2, 4], "block": [32],        // up to 3 numbers each; block defaults to .reqntid
//       "dynamic_shared": 0,                  // bytes of `.extern .shared` arrays (optional)
//       "params": [                           // one per .param, in order
//         {"tensor": "A", "dtype": "float16", "shape": [64, 32]},
//         {"tensor": "B", "dtype": "float16", "shape": [32, 16], "strides": [16, 1]},
//         {"tensor": "D", "dtype": "float32", "shape": [64, 16]},
//         {"value": 64}, {"value": 16}, {"value": 32}
//       ],
//       "tensors": [],                          // optional: gemm tensors the kernel is not given
//       "gemm": {"D": "D", "A": "A", "B": "B"}  // optional when tensors are named A, B, D (and C)
//     }
//
// A tensor-map parameter (`.param .align 64 .b8 name[128]`, a CUtensorMap
// passed by value: Triton's host TensorDescriptor) is cuTensorMapEncodeTiled's
// arguments, the dims and strides those of the tensor it names (a parameter's
// or one of "tensors"), the box innermost first as the driver takes it:
//
//         {"tensor_map": {"tensor": "A", "box": [32, 64], "swizzle": "64B"}}
//
// with optional "dtype" (the tensor's), "element_strides" (all 1),
// "interleave" ("none"), "l2_promotion" (any of the driver's; no effect on
// what is copied), "oob_fill" ("none": zeros; "nan" is not modelled).
//
// A tensor parameter is a .u64 pointer to its elements (strides in
// elements, row-major by default); a value parameter takes the parameter's
// type (integers; floats for .f32/.f64).  The gemm is D = A·B (+ C): A is
// M × K, B is K × N, C and D are M × N; "C" may also be a number, a scalar C
// the kernel starts its accumulators from.  Every mistake is an Error at the
// value's line and column.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/cta_machine.h"
#include "core/ptx/ptx_module.h"

namespace mmacheck::ptx {

// A tensor-map parameter: the map without its tensor's dims, strides and
// address (placed with the tensor: tensor_map_of()).
struct TensorMapSpec {
  std::string tensor;
  SourceLoc loc;
  int tensor_index = -1;  // into PtxLaunch::tensors, once read
  TensorMap map;
  int l2_promotion = 0;  // CU_TENSOR_MAP_L2_PROMOTION_*: 0 none, 1 64B, 2 128B, 3 256B (no effect on values)
};

struct ParamBinding {
  int tensor = -1;         // index into PtxLaunch::tensors, or -1 for a value
  int tensor_map = -1;     // index into PtxLaunch::tensor_maps (tensor is then -1)
  std::uint64_t bits = 0;  // a value's bits (by the parameter's type)
  SourceLoc loc;
};

struct PtxLaunch {
  std::string file;
  std::string kernel;    // empty: the module's only kernel
  SourceLoc kernel_loc;  // where it was named (none: on the command line)
  GridShape shape;
  bool block_given = false;
  std::vector<TensorArg> tensors;
  std::vector<SourceLoc> tensor_locs;
  std::vector<ParamBinding> params;
  std::vector<TensorMapSpec> tensor_maps;
  int d = -1, a = -1, b = -1, c = -1;  // the gemm's tensors (indices into `tensors`)
  std::optional<double> c_scalar;      // "C": a number: D = A·B + that constant
};

// The tensor map of `spec` over its tensor placed at `base`.
TensorMap tensor_map_of(const PtxLaunch& launch, const TensorMapSpec& spec, std::uint64_t base);

// Reads a launch file; the parameters are typed against the kernel later
// (bind_launch), since the file may name the kernel.
PtxLaunch read_launch(std::string_view text, const std::string& file);

// The kernel the launch runs; checks the parameters against its .params
// (count, pointers for tensors, value widths) and the block against
// .reqntid/.maxntid, and fills the block from .reqntid when the file gives
// none.  Throws Error at the launch file's values.
const PtxKernel& bind_launch(PtxLaunch& launch, const PtxModule& module);

// "dir/k.launch.json" for "dir/k.ptx" (and "dir/k.cu").
std::string launch_path_for(const std::string& kernel_path);

// What the command line says of a launch (`--launch FILE`, `--kernel NAME`,
// `--grid`, `--block`, `--dynamic-shared`): each, where given, in place of
// the launch file's.
//
//     LaunchChoice c{.kernel = "gemm_shared", .grid = {{4, 1, 1}}};
//     read_launch_for("k.ptx", c).shape.grid == {4, 1, 1}   // params from k.launch.json
struct LaunchChoice {
  std::string file;    // the launch file; empty: the one beside the kernel
  std::string kernel;  // the .entry to run; empty: the file's, else the module's only one
  std::optional<std::array<int, 3>> grid, block;
  std::optional<std::int64_t> dynamic_shared;
  std::optional<std::uint64_t> max_steps;  // the run's bound (RunOptions::max_steps), not the launch's
  bool any() const { return !file.empty() || !kernel.empty() || grid || block || dynamic_shared || max_steps; }
};

// The launch file for a kernel file (`choice.file`, else the one beside
// it), read, with the choice's values over the file's.  A missing file (or
// a kernel read from standard input, "-", with no --launch) is an Error at
// the kernel file saying what it holds; values out of range are Errors
// naming the option.
PtxLaunch read_launch_for(const std::string& kernel_path, const LaunchChoice& choice = {});

}  // namespace mmacheck::ptx
