// tcgen05's shared-memory descriptor and instruction descriptor: the field
// positions (PTX ISA §9.7.16.4.1 and Table 42, CUTLASS's UMMA::SmemDescriptor
// and InstrDescriptor), round trips, hand-checked encodings, refusals.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/tcgen05/tcgen05_descriptor.h"
#include "core/tcgen05/tcgen05_instr.h"

namespace test_tcgen05_descriptor {

using namespace mmacheck;

namespace {

std::string decode_error(std::uint64_t bits) {
  try {
    Tcgen05SmemDescriptor::decode(bits);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

Tcgen05Instr instr(Tcgen05Kind kind, int cta_group, int m, int n, const char* d, const char* a, const char* b) {
  Tcgen05Instr i;
  i.kind = kind;
  i.cta_group = cta_group;
  i.m = m;
  i.n = n;
  i.d = find_tcgen05_d(kind, d);
  i.a = find_tcgen05_format(kind, a);
  i.b = find_tcgen05_format(kind, b);
  REQUIRE(i.d);
  REQUIRE(i.a);
  REQUIRE(i.b);
  return i;
}

}  // namespace

TEST_CASE("tcgen05 smem descriptor: each field at its bits", "[tcgen05][descriptor]") {
  // One field at a time, its lowest unit: start 16 bytes -> bit 0, LBO -> bit
  // 16, SBO -> bit 32, base offset -> bit 49, LBO mode -> bit 52, swizzle
  // code -> bits 61-63; bit 46 (the fixed 0b001) always set.
  const std::uint64_t fixed = std::uint64_t{1} << 46;
  CHECK(Tcgen05SmemDescriptor{}.encode() == fixed);
  CHECK(Tcgen05SmemDescriptor{.start = 16}.encode() == (fixed | 1));
  CHECK(Tcgen05SmemDescriptor{.lbo = 16}.encode() == (fixed | std::uint64_t{1} << 16));
  CHECK(Tcgen05SmemDescriptor{.sbo = 16}.encode() == (fixed | std::uint64_t{1} << 32));
  CHECK(Tcgen05SmemDescriptor{.base_offset = 1}.encode() == (fixed | std::uint64_t{1} << 49));
  CHECK(Tcgen05SmemDescriptor{.lbo_absolute = true}.encode() == (fixed | std::uint64_t{1} << 52));
  CHECK(Tcgen05SmemDescriptor{.swizzle = Tcgen05Swizzle::b128_base32b}.encode() == (fixed | std::uint64_t{1} << 61));
  CHECK(Tcgen05SmemDescriptor{.swizzle = Tcgen05Swizzle::b128}.encode() == (fixed | std::uint64_t{2} << 61));
  CHECK(Tcgen05SmemDescriptor{.swizzle = Tcgen05Swizzle::b64}.encode() == (fixed | std::uint64_t{4} << 61));
  CHECK(Tcgen05SmemDescriptor{.swizzle = Tcgen05Swizzle::b32}.encode() == (fixed | std::uint64_t{6} << 61));
  // The 14-bit fields keep (x & 0x3FFFF) >> 4: the largest is 2^18 - 16.
  CHECK(Tcgen05SmemDescriptor{.start = (1 << 18) - 16}.encode() == (fixed | 0x3FFF));
  CHECK_THROWS_AS(Tcgen05SmemDescriptor{.start = 1 << 18}.encode(), Error);
  CHECK_THROWS_AS(Tcgen05SmemDescriptor{.sbo = 8}.encode(), Error);
  CHECK_THROWS_AS(Tcgen05SmemDescriptor{.base_offset = 8}.encode(), Error);
}

TEST_CASE("tcgen05 smem descriptor: hand-checked encodings", "[tcgen05][descriptor]") {
  // What CUTLASS's make_umma_desc<Major::K> gives a Layout_K_SW128_Atom<bf16>
  // tile at shared address 0x400: version_ 1, layout_type_ SWIZZLE_128B = 2,
  // start_address_ 0x400 >> 4 = 0x40, leading_byte_offset_ 1 (unused by a
  // swizzled K-major layout, "assumed 1"), stride_byte_offset_ 8 rows x 128
  // bytes >> 4 = 64.  By hand: 2 << 61 | 1 << 46 | 64 << 32 | 1 << 16 | 0x40.
  const Tcgen05SmemDescriptor d{.start = 0x400, .lbo = 16, .sbo = 1024, .swizzle = Tcgen05Swizzle::b128};
  CHECK(d.encode() == 0x4000404000010040ull);
  CHECK(Tcgen05SmemDescriptor::decode(0x4000404000010040ull) == d);
  // K-major without swizzle (examples/tcgen05/f16_pair_m128.txt): LBO 128 >> 4 = 8 << 16, SBO 256 >> 4 = 16 << 32.
  CHECK(Tcgen05SmemDescriptor{.start = 0, .lbo = 128, .sbo = 256}.encode() == 0x0000401000080000ull);
  CHECK(d.str() == "start=0x400 lbo=16 sbo=1024 base_offset=0 lbo_mode=relative swizzle=128B");
}

TEST_CASE("tcgen05 smem descriptor: round trips for every mode", "[tcgen05][descriptor]") {
  for (const Tcgen05SwizzleRow& row : tcgen05_swizzles())
    for (std::int64_t start : {0, 0x20, 0x3FFF0})
      for (int base : {0, 3, 7})
        for (bool absolute : {false, true}) {
          const Tcgen05SmemDescriptor d{.start = start,
                                        .lbo = 0x1230,
                                        .sbo = 0x20000,
                                        .base_offset = base,
                                        .lbo_absolute = absolute,
                                        .swizzle = row.mode};
          INFO(d.str());
          CHECK(Tcgen05SmemDescriptor::decode(d.encode()) == d);
          CHECK(find_tcgen05_swizzle(row.name) == &row);
        }
  CHECK(find_tcgen05_swizzle("interleave")->mode == Tcgen05Swizzle::none);
  CHECK(find_tcgen05_swizzle("128b_32b")->mode == Tcgen05Swizzle::b128_base32b);
  CHECK(find_tcgen05_swizzle("16B") == nullptr);
  // The four wgmma modes map both ways (their canonical layouts are shared).
  for (SwizzleMode m : {SwizzleMode::none, SwizzleMode::b128, SwizzleMode::b64, SwizzleMode::b32})
    CHECK(tcgen05_swizzle(tcgen05_swizzle_of(m)).canonical == m);
  CHECK_FALSE(tcgen05_swizzle(Tcgen05Swizzle::b128_base32b).canonical);
}

TEST_CASE("tcgen05 smem descriptor: decode names what is wrong", "[tcgen05][descriptor]") {
  // A Hopper wgmma descriptor (examples/wgmma/k_sw128_f16.txt's B) has bits 46-48 clear.
  CHECK(decode_error(0x4000004000010240ull).find("bits 46-48 are 0") != std::string::npos);
  CHECK(decode_error(0x4000004000010240ull).find("Hopper wgmma") != std::string::npos);
  CHECK(decode_error(0x0000C00000000000ull).find("bits 46-48 are 3") != std::string::npos);
  for (std::uint64_t code : {3, 5, 7})
    CHECK(decode_error(std::uint64_t{1} << 46 | code << 61).find("swizzle code " + std::to_string(code)) !=
          std::string::npos);
  CHECK(decode_error(std::uint64_t{1} << 46 | std::uint64_t{1} << 14).find("bits 14-15") != std::string::npos);
  CHECK(decode_error(std::uint64_t{1} << 46 | std::uint64_t{1} << 31).find("bits 30-31") != std::string::npos);
  CHECK(decode_error(std::uint64_t{1} << 46 | std::uint64_t{1} << 53).find("bits 53-60") != std::string::npos);
}

TEST_CASE("tcgen05 instruction descriptor: hand-checked encodings", "[tcgen05][idesc]") {
  // kind::f16, f32 += bf16 * bf16, M = 128, N = 256, both K-major: dtype F32 1
  // << 4 | atype BF16 1 << 7 | btype BF16 1 << 10 | N >> 3 = 32 << 17 | M >> 4 =
  // 8 << 24 (CUTLASS's make_instr_desc<bfloat16_t, bfloat16_t, float, 128, 256, K, K> sets the same fields).
  CHECK(instr(Tcgen05Kind::f16, 1, 128, 256, "f32", "bf16", "bf16").idesc() == 0x08400490u);
  // kind::f16, f16 += f16 * f16, M = 64, N = 8: only N >> 3 = 1 << 17 and M >> 4 = 4 << 24.
  CHECK(instr(Tcgen05Kind::f16, 1, 64, 8, "f16", "f16", "f16").idesc() == 0x04020000u);
  // kind::tf32 MN-major A and B, M = 64, N = 128: TF32 = 2 in atype and btype, bits 15 and 16.
  Tcgen05Instr tf = instr(Tcgen05Kind::tf32, 1, 64, 128, "f32", "tf32", "tf32");
  tf.a_major = tf.b_major = Major::mn;
  CHECK(tf.idesc() == 0x04218910u);
  // kind::i8 s32 += s8 * u8, saturating, M = 128, N = 16: saturate bit 3, dtype S32 2 << 4, atype S8 1 << 7.
  Tcgen05Instr i8 = instr(Tcgen05Kind::i8, 1, 128, 16, "s32", "s8", "u8");
  i8.saturate = true;
  CHECK(i8.idesc() == 0x080400A8u);
  // kind::f8f6f4 with a pair, M = 256: M >> 4 = 16 fills bit 28; E5M2 B 1 << 10; e2m1 A code 5.
  CHECK(instr(Tcgen05Kind::f8f6f4, 2, 256, 256, "f32", "e4m3", "e5m2").idesc() == 0x10400410u);
  CHECK(instr(Tcgen05Kind::f8f6f4, 1, 128, 8, "f32", "e2m1", "e3m2").idesc() == 0x08021290u);
  // negation: bits 13 and 14
  Tcgen05Instr neg = instr(Tcgen05Kind::f16, 1, 64, 8, "f16", "f16", "f16");
  neg.negate_a = neg.negate_b = true;
  CHECK(neg.idesc() == (0x04020000u | 1u << 13 | 1u << 14));
}

TEST_CASE("tcgen05 instruction descriptor: differences name the field and both meanings", "[tcgen05][idesc]") {
  const Tcgen05Instr in = instr(Tcgen05Kind::f16, 1, 128, 256, "f32", "bf16", "bf16");
  CHECK(idesc_differences(in, 0x08400490u).empty());
  const auto m = idesc_differences(in, 0x04400490u);
  REQUIRE(m.size() == 1);
  CHECK(m[0].field->name == "M >> 4");
  CHECK(m[0].message ==
        "instruction descriptor M >> 4 (bits 24-28) is 4 (M = 64) but the instruction needs 8 (M = 128)");
  const auto two = idesc_differences(in, 0x08200410u);
  REQUIRE(two.size() == 2);
  CHECK(two[0].field->name == "atype");
  CHECK(two[0].message.find("is 0 (f16) but the instruction needs 1 (bf16)") != std::string::npos);
  CHECK(two[1].field->name == "N >> 3");
  // transpose, a reserved bit, sparsity, max shift: each its own field
  const auto more = idesc_differences(in, 0x08400490u | 1u << 15 | 1u << 23 | 1u << 2 | 3u << 30);
  REQUIRE(more.size() == 4);
  CHECK(more[0].field->name == "sparsity");
  CHECK(more[1].message.find("transpose A (bit 15) is 1 (MN-major) but the instruction needs 0 (K-major)") !=
        std::string::npos);
  CHECK(more[2].field->name == "reserved bit 23");
  CHECK(more[3].field->name == "max shift");
  // The fields tile the 32 bits exactly once.
  std::uint32_t covered = 0;
  for (const IdescField& f : idesc_fields()) {
    const std::uint32_t mask = ((1u << f.width) - 1) << f.low;
    CHECK((covered & mask) == 0);
    covered |= mask;
  }
  CHECK(covered == 0xFFFFFFFFu);
}

TEST_CASE("tcgen05 instruction: the forms Table 39 has", "[tcgen05][idesc]") {
  CHECK(instr(Tcgen05Kind::f16, 1, 64, 8, "f32", "f16", "f16").problem() == "");
  CHECK(instr(Tcgen05Kind::f16, 1, 256, 64, "f32", "f16", "f16").problem().find("M = 64 or 128") != std::string::npos);
  CHECK(instr(Tcgen05Kind::f16, 2, 64, 64, "f32", "f16", "f16").problem().find("M = 128 or 256") != std::string::npos);
  CHECK(instr(Tcgen05Kind::f16, 2, 128, 24, "f32", "f16", "f16").problem().find("steps of 16") != std::string::npos);
  CHECK(instr(Tcgen05Kind::f16, 1, 128, 264, "f32", "f16", "f16").problem().find("steps of 8") != std::string::npos);
  CHECK(instr(Tcgen05Kind::f16, 1, 128, 64, "f16", "bf16", "bf16").problem().find("f16 D takes f16") !=
        std::string::npos);
  CHECK(instr(Tcgen05Kind::f16, 1, 128, 64, "f32", "f16", "bf16").problem().find("one type") != std::string::npos);
  Tcgen05Instr f4 = instr(Tcgen05Kind::f8f6f4, 1, 128, 64, "f32", "e2m1", "e4m3");
  f4.a_major = Major::mn;
  CHECK(f4.problem().find("A of e2m1 must be K-major") != std::string::npos);
  Tcgen05Instr i8 = instr(Tcgen05Kind::i8, 1, 128, 64, "s32", "s8", "s8");
  i8.negate_a = true;
  CHECK(i8.problem().find("cannot negate") != std::string::npos);
  Tcgen05Instr sat = instr(Tcgen05Kind::f16, 1, 128, 64, "f32", "f16", "f16");
  sat.saturate = true;
  CHECK(sat.problem().find("saturate") != std::string::npos);
  CHECK(find_tcgen05_d(Tcgen05Kind::tf32, "f16") == nullptr);
  CHECK(find_tcgen05_format(Tcgen05Kind::f16, "tf32") == nullptr);
  CHECK(instr(Tcgen05Kind::tf32, 1, 64, 8, "f32", "tf32", "tf32").k() == 8);
  CHECK(instr(Tcgen05Kind::i8, 1, 64, 8, "s32", "u8", "u8").k() == 32);
}

}  // namespace test_tcgen05_descriptor
