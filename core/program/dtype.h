// DType — the element types an mma operand can have, with TVM's and PTX's
// names for each.
//
// The table in dtype.cc is the single place where a type's names and width
// live; add a row to support a new type.
//
//     dtype_info(DType::bf16).tvm   == "bfloat16"
//     dtype_info(DType::bf16).ptx   == "bf16"
//     parse_dtype("float8_e4m3fn")  == DType::e4m3
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace mmacheck {

enum class DType : std::uint8_t { f16, bf16, f32, f64, tf32, s8, u8, s32, e4m3, e5m2 };

struct DTypeInfo {
  DType type;
  std::string_view tvm;  // TVM's dtype string ("float16", "tfloat32", ...)
  std::string_view ptx;  // PTX type suffix ("f16", "tf32", "e4m3", ...)
  int bits;              // bits of one element as stored in a register
                         // (tf32 is stored as a full f32 bit pattern: 32)
  bool is_float;
};

const DTypeInfo& dtype_info(DType t);
std::span<const DTypeInfo> all_dtypes();
// By TVM name; also accepts the PTX name.  nullopt when unknown.
std::optional<DType> parse_dtype(std::string_view name);
inline int dtype_bits(DType t) { return dtype_info(t).bits; }

}  // namespace mmacheck
