// Tcgen05Instr and its instruction descriptor — what one tcgen05.mma
// computes (kind, CTA group, M x N x K, D/A/B formats, negation, the
// operands' major-ness) and the 32-bit instruction descriptor that tells the
// hardware so (PTX ISA §9.7.16.4.2, Table 42, for .kind::tf32, ::f16,
// ::f8f6f4 and ::i8; CUTLASS's UMMA::InstrDescriptor has the same bits):
//
//   bits  0-1  sparsity selector        bit  13  negate A
//   bit   2    sparsity (dense 0)       bit  14  negate B
//   bit   3    saturate (.kind::i8)     bit  15  transpose A (0 K-major, 1 MN-major)
//   bits  4-5  dtype: F16 0, F32 1, S32 2      bit  16  transpose B
//   bit   6    reserved                 bits 17-22  N >> 3
//   bits  7-9  atype                    bit  23  reserved
//   bits 10-12 btype                    bits 24-28  M >> 4
//                                       bit  29  reserved
//                                       bits 30-31  maximum shift (.ws only)
//
// atype/btype codes by kind: tf32 TF32 = 2; f16 F16 = 0, BF16 = 1; f8f6f4
// E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5; i8 U8 = 0, S8 = 1 (a
// table, kFormats).  M is the whole instruction's (with cta_group::2 the pair's:
// 128 or 256); K is 32 bytes of the operand type (tf32 8, f16 16, 8-bit 32).
// MN-major (transpose) exists for tf32, f16, bf16, e4m3, e5m2, s8, u8 (CUTLASS's
// note on a_major_); shapes (Table 39, dense, no .ws): cta_group::1 M = 64 or
// 128, N = 8..256 in steps of 8; cta_group::2 M = 128 or 256, N = 16..256 in
// steps of 16.
//
//     Tcgen05Instr i{.kind = Tcgen05Kind::f16, .m = 128, .n = 256, .d = find_tcgen05_d(Tcgen05Kind::f16, "f32"),
//                    .a = find_tcgen05_format(Tcgen05Kind::f16, "bf16"), .b = ...bf16};
//     i.idesc() == 0x08400490;   // dtype 1 at 4, atype/btype 1 at 7/10, N>>3 = 32 at 17, M>>4 = 8 at 24
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/wgmma/canonical_layout.h"

namespace mmacheck {

enum class Tcgen05Kind : std::uint8_t { tf32, f16, f8f6f4, i8 };
std::string_view tcgen05_kind_name(Tcgen05Kind kind);             // "tf32", "f16", "f8f6f4", "i8"
bool find_tcgen05_kind(std::string_view name, Tcgen05Kind& out);  // false when no kind has the name

// An A/B operand format of one kind: its code in atype/btype, its bytes in
// shared memory (the 6- and 4-bit types of f8f6f4 sit one a byte) and
// whether it may be MN-major.
struct Tcgen05Format {
  Tcgen05Kind kind;
  std::string_view name;  // PTX: "tf32", "f16", "bf16", "e4m3", "e5m2", "e2m3", "e3m2", "e2m1", "u8", "s8"
  int code;
  WgmmaType operand;  // bytes, K and transposability, for the canonical layouts
};
// A D format of one kind and its dtype code.
struct Tcgen05DFormat {
  Tcgen05Kind kind;
  std::string_view name;  // "f16", "f32", "s32"
  int code;
};
std::span<const Tcgen05Format> tcgen05_formats();
const Tcgen05Format* find_tcgen05_format(Tcgen05Kind kind, std::string_view name);  // nullptr when none
const Tcgen05DFormat* find_tcgen05_d(Tcgen05Kind kind, std::string_view name);      // nullptr when none
// The names of a kind's formats, "f16, bf16" (for messages).
std::string tcgen05_format_names(Tcgen05Kind kind, bool d);

struct Tcgen05Instr {
  Tcgen05Kind kind = Tcgen05Kind::f16;
  int cta_group = 1;
  int m = 128, n = 128;
  const Tcgen05DFormat* d = nullptr;
  const Tcgen05Format* a = nullptr;
  const Tcgen05Format* b = nullptr;
  Major a_major = Major::k, b_major = Major::k;
  bool negate_a = false, negate_b = false, saturate = false;

  int k() const { return a ? a->operand.k : 0; }
  // "" when tcgen05.mma has this form (Table 39, Table 42), else why not.
  std::string problem() const;
  // "tcgen05.mma.cta_group::1.kind::f16 m128n256k16 f32 += bf16 * bf16 (A K-major, B K-major)"
  std::string str() const;
  // The instruction descriptor that describes it (needs problem() == "").
  std::uint32_t idesc() const;
};

// One field of the instruction descriptor (a table row, kIdescFields).
struct IdescField {
  std::string_view name;  // "dtype", "N >> 3", "transpose A", ...
  int low, width;
  std::uint32_t get(std::uint32_t bits) const { return (bits >> low) & ((1u << width) - 1); }
};
std::span<const IdescField> idesc_fields();

// The instruction a descriptor describes for a kind and CTA group (which
// the PTX spelling, not the descriptor, carries): what the tensor core runs
// when a program passes `bits`.  nullopt when a field names no format of
// the kind, the shape is no tcgen05.mma's, or a field the instruction does
// not state is set (sparsity, max shift, reserved bits).
//     instr_of_idesc(Tcgen05Kind::f16, 1, 0x08400490)->n == 256
std::optional<Tcgen05Instr> instr_of_idesc(Tcgen05Kind kind, int cta_group, std::uint32_t bits);

// A field where the descriptor differs from the instruction's: both values
// and what each means ("dtype (bits 4-5) is 0 (f16) but the instruction's D
// is f32 (1)").
struct IdescDifference {
  const IdescField* field;
  std::uint32_t got, want;
  std::string message;
};
std::vector<IdescDifference> idesc_differences(const Tcgen05Instr& instr, std::uint32_t got);

}  // namespace mmacheck
