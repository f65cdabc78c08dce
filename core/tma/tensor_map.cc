#include "core/tma/tensor_map.h"

#include <algorithm>
#include <array>
#include <sstream>

namespace mmacheck {

namespace {

// CUtensorMapDataType, in the enum's order (CUDA driver API; the packed
// 16U4_ALIGN8B, 16U4_ALIGN16B and 16U6_ALIGN16B types are left out).
constexpr std::array<TmaType, 13> kTypes{{
    {"uint8", "u8", 1, false},
    {"uint16", "u16", 2, false},
    {"uint32", "u32", 4, false},
    {"int32", "s32", 4, false},
    {"uint64", "u64", 8, false},
    {"int64", "s64", 8, false},
    {"float16", "f16", 2, true},
    {"float32", "f32", 4, true},
    {"float64", "f64", 8, true},
    {"bfloat16", "bf16", 2, true},
    {"float32_ftz", "", 4, true},
    {"tfloat32", "tf32", 4, true},
    {"tfloat32_ftz", "", 4, true},
}};

constexpr std::int64_t kMaxDim = std::int64_t{1} << 32;
constexpr std::int64_t kStrideLimit = std::int64_t{1} << 40;
constexpr std::int64_t kMaxBox = 256;
constexpr std::int64_t kMaxElementStride = 8;

std::string joined(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::int64_t x : v) s += (s.empty() ? "" : "x") + std::to_string(x);
  return s;
}

}  // namespace

std::span<const TmaType> tma_types() { return kTypes; }

int tma_type_code(const TmaType& type) { return static_cast<int>(&type - kTypes.data()); }

const TmaType* find_tma_type(std::string_view name) {
  for (const TmaType& t : kTypes)
    if (t.name == name || (!t.alias.empty() && t.alias == name)) return &t;
  return nullptr;
}

std::string_view interleave_name(TmaInterleave i) {
  switch (i) {
    case TmaInterleave::none: return "none";
    case TmaInterleave::b16: return "16B";
    case TmaInterleave::b32: return "32B";
  }
  return "?";
}

int tma_swizzle_span(SwizzleMode mode) { return mode == SwizzleMode::none ? 0 : swizzle_mode(mode).row_bytes; }

int tma_swizzle_code(SwizzleMode mode) {
  switch (mode) {
    case SwizzleMode::none: return 0;
    case SwizzleMode::b32: return 1;
    case SwizzleMode::b64: return 2;
    case SwizzleMode::b128: return 3;
  }
  return -1;
}

std::int64_t TensorMap::element_stride(int d) const {
  // Without interleave TMA has no stride along dim 0: the docs say the first element is ignored.
  if (d == 0 && interleave == TmaInterleave::none) return 1;
  return element_strides.empty() ? 1 : element_strides[static_cast<std::size_t>(d)];
}

std::int64_t TensorMap::box_extent(int d) const {
  const std::int64_t s = std::max<std::int64_t>(element_stride(d), 1);
  return (box[static_cast<std::size_t>(d)] + s - 1) / s;
}

bool TensorMap::rows_overlap() const {
  return interleave == TmaInterleave::none && !strides.empty() && !dims.empty() && dtype &&
         strides[0] < dims[0] * dtype->bytes;
}

std::int64_t TensorMap::smem_row_bytes() const {
  if (rank() < 1 || !dtype) return 0;
  const std::int64_t inner = box_extent(0) * dtype->bytes;
  const std::int64_t span = tma_swizzle_span(swizzle);
  return span == 0 ? inner : (inner + span - 1) / span * span;
}

std::int64_t TensorMap::box_bytes() const {
  std::int64_t n = smem_row_bytes();
  for (int d = 1; d < rank(); ++d) n *= box_extent(d);
  return n;
}

std::vector<std::string> TensorMap::problems() const {
  std::vector<std::string> out;
  const auto add = [&](std::string s) { out.push_back(std::move(s)); };
  if (!dtype) add("tensorDataType: no data type");
  const int bytes = dtype ? dtype->bytes : 1;
  const int r = rank();
  if (r < 1 || r > kTensorMapMaxRank) add("tensorRank " + std::to_string(r) + " is not in 1..5");
  if (interleave != TmaInterleave::none && r < 3)
    add("tensorRank " + std::to_string(r) + ": with interleave the rank must be at least 3");
  const std::int64_t align = interleave == TmaInterleave::b32 ? 32 : 16;
  if (address % align != 0)
    add("globalAddress " + std::to_string(address) + " is not " + std::to_string(align) + "-byte aligned");
  for (int d = 0; d < r; ++d)
    if (dims[static_cast<std::size_t>(d)] < 1 || dims[static_cast<std::size_t>(d)] > kMaxDim)
      add("globalDim[" + std::to_string(d) + "] = " + std::to_string(dims[static_cast<std::size_t>(d)]) +
          " is not in 1..2^32");
  if (static_cast<int>(strides.size()) != std::max(r - 1, 0))
    add("globalStrides has " + std::to_string(strides.size()) + " values, the rank " + std::to_string(r) + " needs " +
        std::to_string(std::max(r - 1, 0)));
  const std::int64_t stride_align = interleave == TmaInterleave::b32 ? 32 : 16;
  for (std::size_t s = 0; s < strides.size(); ++s) {
    if (strides[s] % stride_align != 0 || strides[s] >= kStrideLimit || strides[s] <= 0)
      add("globalStrides[" + std::to_string(s) + "] = " + std::to_string(strides[s]) +
          " is not a positive multiple of " + std::to_string(stride_align) + " below 2^40");
  }
  if (static_cast<int>(box.size()) != r)
    add("boxDim has " + std::to_string(box.size()) + " values, the rank is " + std::to_string(r));
  for (std::size_t d = 0; d < box.size(); ++d)
    if (box[d] < 1 || box[d] > kMaxBox)
      add("boxDim[" + std::to_string(d) + "] = " + std::to_string(box[d]) + " is not in 1..256");
  const std::int64_t inner = box.empty() ? 0 : box[0] * bytes;
  if (interleave == TmaInterleave::none && !box.empty() && inner % 16 != 0)
    add("boxDim[0] * " + std::to_string(bytes) + " = " + std::to_string(inner) +
        " bytes is not a multiple of 16 (the box's inner dimension)");
  if (!element_strides.empty() && static_cast<int>(element_strides.size()) != r)
    add("elementStrides has " + std::to_string(element_strides.size()) + " values, the rank is " + std::to_string(r));
  for (std::size_t d = 0; d < element_strides.size(); ++d)
    if (element_strides[d] < 1 || element_strides[d] > kMaxElementStride)
      add("elementStrides[" + std::to_string(d) + "] = " + std::to_string(element_strides[d]) + " is not in 1..8");
  if (interleave == TmaInterleave::none && swizzle != SwizzleMode::none && !box.empty() &&
      inner > tma_swizzle_span(swizzle))
    add("the box's inner dimension, boxDim[0] * " + std::to_string(bytes) + " = " + std::to_string(inner) +
        " bytes, exceeds the " + std::string(swizzle_mode(swizzle).name) + " swizzle span of " +
        std::to_string(tma_swizzle_span(swizzle)) + " bytes");
  if (interleave == TmaInterleave::b32 && swizzle != SwizzleMode::b32)
    add("INTERLEAVE_32B needs SWIZZLE_32B, got " + std::string(swizzle_mode(swizzle).name));
  if (oob_nan && dtype && !dtype->floating)
    add("OOB_FILL_NAN_REQUEST_ZERO_FMA needs a floating-point type, got " + std::string(dtype->name));
  return out;
}

std::string TensorMap::str() const {
  std::ostringstream s;
  s << (dtype ? dtype->name : "?") << " dims=" << joined(dims);
  if (!strides.empty()) s << " strides=" << joined(strides);
  s << " box=" << joined(box);
  if (!element_strides.empty()) s << " element_strides=" << joined(element_strides);
  if (interleave != TmaInterleave::none) s << " interleave=" << interleave_name(interleave);
  s << " swizzle=" << swizzle_mode(swizzle).name;
  return s.str();
}

}  // namespace mmacheck
