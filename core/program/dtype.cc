#include "core/program/dtype.h"

#include <array>

namespace mmacheck {

namespace {
constexpr std::array kDTypes = {
    DTypeInfo{DType::f16, "float16", "f16", 16, true},
    DTypeInfo{DType::bf16, "bfloat16", "bf16", 16, true},
    DTypeInfo{DType::f32, "float32", "f32", 32, true},
    DTypeInfo{DType::f64, "float64", "f64", 64, true},
    DTypeInfo{DType::tf32, "tfloat32", "tf32", 32, true},
    DTypeInfo{DType::s8, "int8", "s8", 8, false},
    DTypeInfo{DType::u8, "uint8", "u8", 8, false},
    DTypeInfo{DType::s32, "int32", "s32", 32, false},
    DTypeInfo{DType::e4m3, "float8_e4m3fn", "e4m3", 8, true},
    DTypeInfo{DType::e5m2, "float8_e5m2", "e5m2", 8, true},
};
}  // namespace

std::span<const DTypeInfo> all_dtypes() { return kDTypes; }

const DTypeInfo& dtype_info(DType t) {
  for (const DTypeInfo& info : kDTypes)
    if (info.type == t) return info;
  return kDTypes.front();  // unreachable: every enumerator has a row
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (const DTypeInfo& info : kDTypes)
    if (info.tvm == name || info.ptx == name) return info.type;
  return std::nullopt;
}

}  // namespace mmacheck
