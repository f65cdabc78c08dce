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
    DTypeInfo{DType::s8, "int8", "s8", 8, false, true},
    DTypeInfo{DType::u8, "uint8", "u8", 8, false},
    DTypeInfo{DType::s32, "int32", "s32", 32, false, true},
    DTypeInfo{DType::e4m3, "float8_e4m3fn", "e4m3", 8, true},
    DTypeInfo{DType::e5m2, "float8_e5m2", "e5m2", 8, true},
    // Sub-byte integer inputs (mma.sync m8n8k32/m16n8k32/m16n8k64 and the
    // single-bit m8n8k128/m16n8k128/m16n8k256): eight or thirty-two per register.
    DTypeInfo{DType::s4, "int4", "s4", 4, false, true},
    DTypeInfo{DType::u4, "uint4", "u4", 4, false},
    DTypeInfo{DType::b1, "uint1", "b1", 1, false},
    // kind::f8f6f4 (sm_120): fp6 and fp4 in 8-bit containers, as the fp8
    // types are laid out (fp6 in bits 5:0, fp4 in bits 5:2).
    DTypeInfo{DType::e3m2, "float6_e3m2fn", "e3m2", 8, true},
    DTypeInfo{DType::e2m3, "float6_e2m3fn", "e2m3", 8, true},
    DTypeInfo{DType::e2m1, "float4_e2m1fn", "e2m1", 8, true},
};
}  // namespace

std::span<const DTypeInfo> all_dtypes() { return kDTypes; }

const DTypeInfo& dtype_info(DType t) {
  for (const DTypeInfo& info : kDTypes)
    if (info.type == t) return info;
  return kDTypes.front();  // unreachable: every enumerator has a row
}

std::int64_t int_value(DType t, std::uint64_t bits) {
  const int n = dtype_bits(t);
  const std::uint64_t v = n >= 64 ? bits : bits & ((std::uint64_t{1} << n) - 1);
  if (!dtype_info(t).is_signed || n >= 64 || !(v >> (n - 1))) return static_cast<std::int64_t>(v);
  return static_cast<std::int64_t>(v) - (std::int64_t{1} << n);
}

std::optional<DType> parse_dtype(std::string_view name) {
  for (const DTypeInfo& info : kDTypes)
    if (info.tvm == name || info.ptx == name) return info.type;
  return std::nullopt;
}

}  // namespace mmacheck
