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

enum class DType : std::uint8_t { f16, bf16, f32, f64, tf32, s8, u8, s32, e4m3, e5m2, s4, u4, b1, e3m2, e2m3, e2m1 };

struct DTypeInfo {
  DType type;
  std::string_view tvm;  // TVM's dtype string ("float16", "tfloat32", ...)
  std::string_view ptx;  // PTX type suffix ("f16", "tf32", "e4m3", ...)
  int bits;              // bits of one element as stored in a register
                         // (tf32 is stored as a full f32 bit pattern: 32)
  bool is_float;
  bool is_signed = false;  // integer types: two's complement (s4, s8, s32)
};

const DTypeInfo& dtype_info(DType t);
std::span<const DTypeInfo> all_dtypes();
// By TVM name; also accepts the PTX name.  nullopt when unknown.
std::optional<DType> parse_dtype(std::string_view name);
inline int dtype_bits(DType t) { return dtype_info(t).bits; }
// The element's bits in a word (f64: all 64).
inline std::uint64_t dtype_mask(DType t) {
  return dtype_bits(t) >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << dtype_bits(t)) - 1;
}
// Hex digits of one element's word in a vector file: ceil(bits / 4) (b1: 1).
inline int hex_digits(DType t) { return (dtype_bits(t) + 3) / 4; }
// An integer element's value: the low dtype_bits(t) bits of `bits`,
// sign-extended for s4/s8/s32 (int_value(DType::s4, 0xF) == -1).
std::int64_t int_value(DType t, std::uint64_t bits);

}  // namespace mmacheck
