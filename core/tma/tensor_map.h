// TensorMap — the parameters of cuTensorMapEncodeTiled (CUDA driver API,
// "Tensor Map Object Management"), the tiled TMA tensor map that
// cp.async.bulk.tensor.Nd.shared::cluster.global.tile copies a box of a
// global tensor with, into shared memory:
//
//   dtype            CUtensorMapDataType: its element bytes (a table:
//                    uint8 .. tfloat32_ftz; the packed 16U4/16U6 types are
//                    not modelled)
//   rank             1..5 (3..5 with interleave)
//   dims[i]          globalDim, innermost first, 1..2^32
//   strides[i]       globalStrides of dims 1..rank-1 in bytes: multiples of
//                    16 (32 with INTERLEAVE_32B) below 2^40; strides[0] at
//                    least dims[0] * bytes (the docs' padding >= 0)
//   box[i]           boxDim, 1..256; without interleave box[0] * bytes a
//                    multiple of 16
//   element_strides  1..8; TMA traverses ceil(box[i] / element_strides[i])
//                    elements of dim i (element_strides[0] ignored without
//                    interleave)
//   interleave       NONE, 16B, 32B (32B needs swizzle 32B)
//   swizzle          NONE, 32B, 64B, 128B: with swizzle and no interleave,
//                    box[0] * bytes at most the swizzle span (32, 64, 128)
//   oob_fill         NONE (zeros) or NAN_REQUEST_ZERO_FMA (float types only)
//   address          globalAddress: 16-byte aligned (32 with INTERLEAVE_32B)
//
// problems() lists every rule a map breaks, each as the driver documents it
// (cuTensorMapEncodeTiled returns CUDA_ERROR_INVALID_VALUE for them); an
// empty list is a map the driver encodes.  The swizzle modes are the
// descriptor's table (core/wgmma/descriptor.h): the same Swizzle<B, 4, 3> on
// byte addresses, CU_TENSOR_MAP_SWIZZLE_32B/64B/128B = 1/2/3 where the
// wgmma descriptor codes 3/2/1.  Sm100's 128B_ATOM_* modes are not modelled.
//
//     TensorMap m{.dtype = find_tma_type("f16"), .dims = {64, 64}, .strides = {128}, .box = {64, 64},
//                 .swizzle = SwizzleMode::b128};
//     m.problems().empty();   // a 64 x 64 f16 tile, 128-byte rows, SWIZZLE_128B
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/wgmma/descriptor.h"

namespace mmacheck {

inline constexpr int kTensorMapMaxRank = 5;  // tensorRank 1..5

struct TmaType {
  std::string_view name;   // CU_TENSOR_MAP_DATA_TYPE_ lowercased: "float16", "bfloat16", "uint8", ...
  std::string_view alias;  // the PTX type name: "f16", "bf16", "u8", ... ("" when none)
  int bytes;
  bool floating;  // may use OOB_FILL_NAN_REQUEST_ZERO_FMA
};
std::span<const TmaType> tma_types();
const TmaType* find_tma_type(std::string_view name);  // either name; nullptr when none
// The driver's CUtensorMapDataType of a row of tma_types() (the table is in the enum's order).
int tma_type_code(const TmaType& type);

enum class TmaInterleave : std::uint8_t { none, b16, b32 };
std::string_view interleave_name(TmaInterleave i);  // "none", "16B", "32B"

struct TensorMap {
  const TmaType* dtype = nullptr;
  std::vector<std::int64_t> dims;             // globalDim, innermost first
  std::vector<std::int64_t> strides;          // globalStrides (bytes) of dims 1..rank-1
  std::vector<std::int64_t> box;              // boxDim
  std::vector<std::int64_t> element_strides;  // empty: all 1
  TmaInterleave interleave = TmaInterleave::none;
  SwizzleMode swizzle = SwizzleMode::none;
  bool oob_nan = false;
  std::int64_t address = 0;  // globalAddress

  int rank() const { return static_cast<int>(dims.size()); }
  std::int64_t element_stride(int d) const;
  // The elements the copy traverses along dim d (ceil(box / element stride)).
  std::int64_t box_extent(int d) const;
  // The bytes from one box row (dim 0) to the next in shared memory: the inner
  // extent's bytes, padded up to the swizzle span when the map swizzles.  The
  // H200 does so (tests/data/tma/h200_probe.txt, copy sw128_inner64: rows of
  // 64 bytes under SWIZZLE_128B land 128 bytes apart, the rest untouched).
  std::int64_t smem_row_bytes() const;
  // The shared memory one copy spans: smem_row_bytes() times the outer extents.
  std::int64_t box_bytes() const;
  // Whether globalStrides[0] is less than a row (globalDim[0] elements): rows
  // overlap in global memory.  The driver encodes such a map (the H200's
  // probe, stride_below_row), so it is no rule of problems(); the check notes it.
  bool rows_overlap() const;
  // Every cuTensorMapEncodeTiled rule the map breaks, in the docs' order.
  std::vector<std::string> problems() const;
  // "float16 dims=64x64 strides=128 box=64x64 swizzle=128B"
  std::string str() const;
};

// The swizzle span of a TMA mode (32, 64, 128; none: 0) and the driver's
// enum value (CU_TENSOR_MAP_SWIZZLE_NONE = 0, 32B = 1, 64B = 2, 128B = 3).
int tma_swizzle_span(SwizzleMode mode);
int tma_swizzle_code(SwizzleMode mode);

}  // namespace mmacheck
