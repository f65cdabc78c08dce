#include "core/gemm/mma_inst.h"

namespace mmacheck {

namespace {
using D = DType;
// One instruction a row, however long.
// clang-format off
constexpr MmaInst kInstructions[] = {
    // TVM's MMA_INSTRUCTIONS, in TVM's order (k16 before k8).
    {"m16n8k16.bf16", 16, 8, 16, D::bf16, D::bf16, D::f32, D::f32, 2, true, 80, false, BitOp::none, ""},
    {"m16n8k16.f16", 16, 8, 16, D::f16, D::f16, D::f32, D::f32, 2, true, 80, false, BitOp::none, ""},
    {"m16n8k8.bf16", 16, 8, 8, D::bf16, D::bf16, D::f32, D::f32, 2, true, 80, false, BitOp::none, ""},
    {"m16n8k8.f16", 16, 8, 8, D::f16, D::f16, D::f32, D::f32, 2, true, 75, false, BitOp::none, ""},
    // --inst-set extended.
    {"m16n8k16.f16.f16acc", 16, 8, 16, D::f16, D::f16, D::f16, D::f16, 2, false, 80, false, BitOp::none, ""},
    {"m16n8k8.f16.f16acc", 16, 8, 8, D::f16, D::f16, D::f16, D::f16, 2, false, 75, false, BitOp::none, ""},
    {"m16n8k8.tf32", 16, 8, 8, D::tf32, D::tf32, D::f32, D::f32, 1, false, 80, false, BitOp::none, ""},
    {"m16n8k4.tf32", 16, 8, 4, D::tf32, D::tf32, D::f32, D::f32, 1, false, 80, false, BitOp::none, ""},
    {"m16n8k32.s8", 16, 8, 32, D::s8, D::s8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k32.u8", 16, 8, 32, D::u8, D::u8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k16.s8", 16, 8, 16, D::s8, D::s8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k16.u8", 16, 8, 16, D::u8, D::u8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k32.e4m3", 16, 8, 32, D::e4m3, D::e4m3, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k32.e5m2", 16, 8, 32, D::e5m2, D::e5m2, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m8n8k4.f64", 8, 8, 4, D::f64, D::f64, D::f64, D::f64, 1, false, 80, false, BitOp::none, ""},
    // fp8 with mixed types, f16 accumulators, and m16n8k16 (PTX ISA 8.7).
    {"m16n8k32.e4m3.e5m2", 16, 8, 32, D::e4m3, D::e5m2, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k32.e5m2.e4m3", 16, 8, 32, D::e5m2, D::e4m3, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k32.e4m3.f16acc", 16, 8, 32, D::e4m3, D::e4m3, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k32.e4m3.e5m2.f16acc", 16, 8, 32, D::e4m3, D::e5m2, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k32.e5m2.e4m3.f16acc", 16, 8, 32, D::e5m2, D::e4m3, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k32.e5m2.f16acc", 16, 8, 32, D::e5m2, D::e5m2, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e4m3", 16, 8, 16, D::e4m3, D::e4m3, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e4m3.e5m2", 16, 8, 16, D::e4m3, D::e5m2, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e5m2.e4m3", 16, 8, 16, D::e5m2, D::e4m3, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e5m2", 16, 8, 16, D::e5m2, D::e5m2, D::f32, D::f32, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e4m3.f16acc", 16, 8, 16, D::e4m3, D::e4m3, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e4m3.e5m2.f16acc", 16, 8, 16, D::e4m3, D::e5m2, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e5m2.e4m3.f16acc", 16, 8, 16, D::e5m2, D::e4m3, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    {"m16n8k16.e5m2.f16acc", 16, 8, 16, D::e5m2, D::e5m2, D::f16, D::f16, 4, false, 89, false, BitOp::none, ""},
    // f64 m16n8k4/k8/k16 (sm_90).
    {"m16n8k4.f64", 16, 8, 4, D::f64, D::f64, D::f64, D::f64, 1, false, 90, false, BitOp::none, ""},
    {"m16n8k8.f64", 16, 8, 8, D::f64, D::f64, D::f64, D::f64, 1, false, 90, false, BitOp::none, ""},
    {"m16n8k16.f64", 16, 8, 16, D::f64, D::f64, D::f64, D::f64, 1, false, 90, false, BitOp::none, ""},
    // Integers: mixed signedness, .satfinite, m8n8k16 (sm_75), 4-bit inputs.
    {"m16n8k32.s8.u8", 16, 8, 32, D::s8, D::u8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k32.u8.s8", 16, 8, 32, D::u8, D::s8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k32.s8.satfinite", 16, 8, 32, D::s8, D::s8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k32.s8.u8.satfinite", 16, 8, 32, D::s8, D::u8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k32.u8.s8.satfinite", 16, 8, 32, D::u8, D::s8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k32.u8.satfinite", 16, 8, 32, D::u8, D::u8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k16.s8.u8", 16, 8, 16, D::s8, D::u8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k16.u8.s8", 16, 8, 16, D::u8, D::s8, D::s32, D::s32, 4, false, 80, false, BitOp::none, ""},
    {"m16n8k16.s8.satfinite", 16, 8, 16, D::s8, D::s8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k16.s8.u8.satfinite", 16, 8, 16, D::s8, D::u8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k16.u8.s8.satfinite", 16, 8, 16, D::u8, D::s8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m16n8k16.u8.satfinite", 16, 8, 16, D::u8, D::u8, D::s32, D::s32, 4, false, 80, true, BitOp::none, ""},
    {"m8n8k16.s8", 8, 8, 16, D::s8, D::s8, D::s32, D::s32, 4, false, 75, false, BitOp::none, ""},
    {"m8n8k16.s8.u8", 8, 8, 16, D::s8, D::u8, D::s32, D::s32, 4, false, 75, false, BitOp::none, ""},
    {"m8n8k16.u8.s8", 8, 8, 16, D::u8, D::s8, D::s32, D::s32, 4, false, 75, false, BitOp::none, ""},
    {"m8n8k16.u8", 8, 8, 16, D::u8, D::u8, D::s32, D::s32, 4, false, 75, false, BitOp::none, ""},
    {"m8n8k16.s8.satfinite", 8, 8, 16, D::s8, D::s8, D::s32, D::s32, 4, false, 75, true, BitOp::none, ""},
    {"m8n8k16.s8.u8.satfinite", 8, 8, 16, D::s8, D::u8, D::s32, D::s32, 4, false, 75, true, BitOp::none, ""},
    {"m8n8k16.u8.s8.satfinite", 8, 8, 16, D::u8, D::s8, D::s32, D::s32, 4, false, 75, true, BitOp::none, ""},
    {"m8n8k16.u8.satfinite", 8, 8, 16, D::u8, D::u8, D::s32, D::s32, 4, false, 75, true, BitOp::none, ""},
    {"m8n8k32.s4", 8, 8, 32, D::s4, D::s4, D::s32, D::s32, 8, false, 75, false, BitOp::none, ""},
    {"m8n8k32.s4.u4", 8, 8, 32, D::s4, D::u4, D::s32, D::s32, 8, false, 75, false, BitOp::none, ""},
    {"m8n8k32.u4.s4", 8, 8, 32, D::u4, D::s4, D::s32, D::s32, 8, false, 75, false, BitOp::none, ""},
    {"m8n8k32.u4", 8, 8, 32, D::u4, D::u4, D::s32, D::s32, 8, false, 75, false, BitOp::none, ""},
    {"m8n8k32.s4.satfinite", 8, 8, 32, D::s4, D::s4, D::s32, D::s32, 8, false, 75, true, BitOp::none, ""},
    {"m8n8k32.s4.u4.satfinite", 8, 8, 32, D::s4, D::u4, D::s32, D::s32, 8, false, 75, true, BitOp::none, ""},
    {"m8n8k32.u4.s4.satfinite", 8, 8, 32, D::u4, D::s4, D::s32, D::s32, 8, false, 75, true, BitOp::none, ""},
    {"m8n8k32.u4.satfinite", 8, 8, 32, D::u4, D::u4, D::s32, D::s32, 8, false, 75, true, BitOp::none, ""},
    {"m16n8k32.s4", 16, 8, 32, D::s4, D::s4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k32.s4.u4", 16, 8, 32, D::s4, D::u4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k32.u4.s4", 16, 8, 32, D::u4, D::s4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k32.u4", 16, 8, 32, D::u4, D::u4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k32.s4.satfinite", 16, 8, 32, D::s4, D::s4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k32.s4.u4.satfinite", 16, 8, 32, D::s4, D::u4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k32.u4.s4.satfinite", 16, 8, 32, D::u4, D::s4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k32.u4.satfinite", 16, 8, 32, D::u4, D::u4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k64.s4", 16, 8, 64, D::s4, D::s4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k64.s4.u4", 16, 8, 64, D::s4, D::u4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k64.u4.s4", 16, 8, 64, D::u4, D::s4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k64.u4", 16, 8, 64, D::u4, D::u4, D::s32, D::s32, 8, false, 80, false, BitOp::none, ""},
    {"m16n8k64.s4.satfinite", 16, 8, 64, D::s4, D::s4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k64.s4.u4.satfinite", 16, 8, 64, D::s4, D::u4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k64.u4.s4.satfinite", 16, 8, 64, D::u4, D::s4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    {"m16n8k64.u4.satfinite", 16, 8, 64, D::u4, D::u4, D::s32, D::s32, 8, false, 80, true, BitOp::none, ""},
    // Single-bit inputs: D = C + popc(A_row AND/XOR B_col); .xor from sm_75 (m8n8k128), .and from sm_80.
    {"m8n8k128.b1.xor", 8, 8, 128, D::b1, D::b1, D::s32, D::s32, 32, false, 75, false, BitOp::xor_popc, ""},
    {"m8n8k128.b1.and", 8, 8, 128, D::b1, D::b1, D::s32, D::s32, 32, false, 80, false, BitOp::and_popc, ""},
    {"m16n8k128.b1.xor", 16, 8, 128, D::b1, D::b1, D::s32, D::s32, 32, false, 80, false, BitOp::xor_popc, ""},
    {"m16n8k128.b1.and", 16, 8, 128, D::b1, D::b1, D::s32, D::s32, 32, false, 80, false, BitOp::and_popc, ""},
    {"m16n8k256.b1.xor", 16, 8, 256, D::b1, D::b1, D::s32, D::s32, 32, false, 80, false, BitOp::xor_popc, ""},
    {"m16n8k256.b1.and", 16, 8, 256, D::b1, D::b1, D::s32, D::s32, 32, false, 80, false, BitOp::and_popc, ""},
    // sm_120's kind::f8f6f4: any two of e4m3, e5m2, e3m2, e2m3, e2m1 (8-bit containers).
    {"m16n8k32.f8f6f4.e4m3.e4m3", 16, 8, 32, D::e4m3, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e5m2", 16, 8, 32, D::e4m3, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e3m2", 16, 8, 32, D::e4m3, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e2m3", 16, 8, 32, D::e4m3, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e2m1", 16, 8, 32, D::e4m3, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e4m3", 16, 8, 32, D::e5m2, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e5m2", 16, 8, 32, D::e5m2, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e3m2", 16, 8, 32, D::e5m2, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e2m3", 16, 8, 32, D::e5m2, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e2m1", 16, 8, 32, D::e5m2, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e4m3", 16, 8, 32, D::e3m2, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e5m2", 16, 8, 32, D::e3m2, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e3m2", 16, 8, 32, D::e3m2, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e2m3", 16, 8, 32, D::e3m2, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e2m1", 16, 8, 32, D::e3m2, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e4m3", 16, 8, 32, D::e2m3, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e5m2", 16, 8, 32, D::e2m3, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e3m2", 16, 8, 32, D::e2m3, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e2m3", 16, 8, 32, D::e2m3, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e2m1", 16, 8, 32, D::e2m3, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e4m3", 16, 8, 32, D::e2m1, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e5m2", 16, 8, 32, D::e2m1, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e3m2", 16, 8, 32, D::e2m1, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e2m3", 16, 8, 32, D::e2m1, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e2m1", 16, 8, 32, D::e2m1, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e4m3.f16acc", 16, 8, 32, D::e4m3, D::e4m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e5m2.f16acc", 16, 8, 32, D::e4m3, D::e5m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e3m2.f16acc", 16, 8, 32, D::e4m3, D::e3m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e2m3.f16acc", 16, 8, 32, D::e4m3, D::e2m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e4m3.e2m1.f16acc", 16, 8, 32, D::e4m3, D::e2m1, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e4m3.f16acc", 16, 8, 32, D::e5m2, D::e4m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e5m2.f16acc", 16, 8, 32, D::e5m2, D::e5m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e3m2.f16acc", 16, 8, 32, D::e5m2, D::e3m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e2m3.f16acc", 16, 8, 32, D::e5m2, D::e2m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e5m2.e2m1.f16acc", 16, 8, 32, D::e5m2, D::e2m1, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e4m3.f16acc", 16, 8, 32, D::e3m2, D::e4m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e5m2.f16acc", 16, 8, 32, D::e3m2, D::e5m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e3m2.f16acc", 16, 8, 32, D::e3m2, D::e3m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e2m3.f16acc", 16, 8, 32, D::e3m2, D::e2m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e3m2.e2m1.f16acc", 16, 8, 32, D::e3m2, D::e2m1, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e4m3.f16acc", 16, 8, 32, D::e2m3, D::e4m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e5m2.f16acc", 16, 8, 32, D::e2m3, D::e5m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e3m2.f16acc", 16, 8, 32, D::e2m3, D::e3m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e2m3.f16acc", 16, 8, 32, D::e2m3, D::e2m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m3.e2m1.f16acc", 16, 8, 32, D::e2m3, D::e2m1, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e4m3.f16acc", 16, 8, 32, D::e2m1, D::e4m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e5m2.f16acc", 16, 8, 32, D::e2m1, D::e5m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e3m2.f16acc", 16, 8, 32, D::e2m1, D::e3m2, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e2m3.f16acc", 16, 8, 32, D::e2m1, D::e2m3, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
    {"m16n8k32.f8f6f4.e2m1.e2m1.f16acc", 16, 8, 32, D::e2m1, D::e2m1, D::f16, D::f16, 4, false, 120, false, BitOp::none, "f8f6f4"},
};

// m8n8k4 with f16 inputs (sm_70): .alayout and .blayout both free, D and C
// f32 (tag m8n8k4.f16), f16 (.f16acc) or D f32 from an f16 C (.f16c): the
// three forms MMA-Sim models (its mma_shape_and_type_from_sm_70).
constexpr MmaInst kQuadPairInstructions[] = {
    {"m8n8k4.f16.row.col", 8, 8, 4, D::f16, D::f16, D::f32, D::f32, 2, false, 70, false, BitOp::none, "", "row", "col", 4},
    {"m8n8k4.f16.row.row", 8, 8, 4, D::f16, D::f16, D::f32, D::f32, 2, false, 70, false, BitOp::none, "", "row", "row", 4},
    {"m8n8k4.f16.col.col", 8, 8, 4, D::f16, D::f16, D::f32, D::f32, 2, false, 70, false, BitOp::none, "", "col", "col", 4},
    {"m8n8k4.f16.col.row", 8, 8, 4, D::f16, D::f16, D::f32, D::f32, 2, false, 70, false, BitOp::none, "", "col", "row", 4},
    {"m8n8k4.f16.f16acc.row.col", 8, 8, 4, D::f16, D::f16, D::f16, D::f16, 2, false, 70, false, BitOp::none, "", "row", "col", 4},
    {"m8n8k4.f16.f16acc.row.row", 8, 8, 4, D::f16, D::f16, D::f16, D::f16, 2, false, 70, false, BitOp::none, "", "row", "row", 4},
    {"m8n8k4.f16.f16acc.col.col", 8, 8, 4, D::f16, D::f16, D::f16, D::f16, 2, false, 70, false, BitOp::none, "", "col", "col", 4},
    {"m8n8k4.f16.f16acc.col.row", 8, 8, 4, D::f16, D::f16, D::f16, D::f16, 2, false, 70, false, BitOp::none, "", "col", "row", 4},
    {"m8n8k4.f16.f16c.row.col", 8, 8, 4, D::f16, D::f16, D::f16, D::f32, 2, false, 70, false, BitOp::none, "", "row", "col", 4},
    {"m8n8k4.f16.f16c.row.row", 8, 8, 4, D::f16, D::f16, D::f16, D::f32, 2, false, 70, false, BitOp::none, "", "row", "row", 4},
    {"m8n8k4.f16.f16c.col.col", 8, 8, 4, D::f16, D::f16, D::f16, D::f32, 2, false, 70, false, BitOp::none, "", "col", "col", 4},
    {"m8n8k4.f16.f16c.col.row", 8, 8, 4, D::f16, D::f16, D::f16, D::f32, 2, false, 70, false, BitOp::none, "", "col", "row", 4},
};

// sm_120's block-scaled mma (PTX ISA 9.7.14.3, Table 36): mxf8f6f4 any two
// of the five types, one ue8m0 scale per row/column (scale_vec::1X, K 32);
// mxf4 e2m1 packed two to a byte, scale_vec::2X ue8m0 (a scale per 32 K);
// mxf4nvf4 2X ue8m0, 4X ue8m0 and 4X ue4m3 (a scale per 16 K).  The
// columns after min_sm: satfinite, bop, kind, alayout, blayout, products,
// scale_vec, stype.
constexpr MmaInst kBlockScaleInstructions[] = {
    {"m16n8k32.mxf8f6f4.e4m3.e4m3", 16, 8, 32, D::e4m3, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e4m3.e5m2", 16, 8, 32, D::e4m3, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e4m3.e3m2", 16, 8, 32, D::e4m3, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e4m3.e2m3", 16, 8, 32, D::e4m3, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e4m3.e2m1", 16, 8, 32, D::e4m3, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e5m2.e4m3", 16, 8, 32, D::e5m2, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e5m2.e5m2", 16, 8, 32, D::e5m2, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e5m2.e3m2", 16, 8, 32, D::e5m2, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e5m2.e2m3", 16, 8, 32, D::e5m2, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e5m2.e2m1", 16, 8, 32, D::e5m2, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e3m2.e4m3", 16, 8, 32, D::e3m2, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e3m2.e5m2", 16, 8, 32, D::e3m2, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e3m2.e3m2", 16, 8, 32, D::e3m2, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e3m2.e2m3", 16, 8, 32, D::e3m2, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e3m2.e2m1", 16, 8, 32, D::e3m2, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m3.e4m3", 16, 8, 32, D::e2m3, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m3.e5m2", 16, 8, 32, D::e2m3, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m3.e3m2", 16, 8, 32, D::e2m3, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m3.e2m3", 16, 8, 32, D::e2m3, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m3.e2m1", 16, 8, 32, D::e2m3, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m1.e4m3", 16, 8, 32, D::e2m1, D::e4m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m1.e5m2", 16, 8, 32, D::e2m1, D::e5m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m1.e3m2", 16, 8, 32, D::e2m1, D::e3m2, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m1.e2m3", 16, 8, 32, D::e2m1, D::e2m3, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k32.mxf8f6f4.e2m1.e2m1", 16, 8, 32, D::e2m1, D::e2m1, D::f32, D::f32, 4, false, 120, false, BitOp::none, "mxf8f6f4", "", "", 1, 1, ScaleType::ue8m0},
    {"m16n8k64.mxf4.2x.ue8m0", 16, 8, 64, D::e2m1, D::e2m1, D::f32, D::f32, 8, false, 120, false, BitOp::none, "mxf4", "", "", 1, 2, ScaleType::ue8m0},
    {"m16n8k64.mxf4nvf4.2x.ue8m0", 16, 8, 64, D::e2m1, D::e2m1, D::f32, D::f32, 8, false, 120, false, BitOp::none, "mxf4nvf4", "", "", 1, 2, ScaleType::ue8m0},
    {"m16n8k64.mxf4nvf4.4x.ue8m0", 16, 8, 64, D::e2m1, D::e2m1, D::f32, D::f32, 8, false, 120, false, BitOp::none, "mxf4nvf4", "", "", 1, 4, ScaleType::ue8m0},
    {"m16n8k64.mxf4nvf4.4x.ue4m3", 16, 8, 64, D::e2m1, D::e2m1, D::f32, D::f32, 8, false, 120, false, BitOp::none, "mxf4nvf4", "", "", 1, 4, ScaleType::ue4m3},
};
// clang-format on
}  // namespace

std::string_view scale_type_name(ScaleType t) {
  switch (t) {
    case ScaleType::ue8m0: return "ue8m0";
    case ScaleType::ue4m3: return "ue4m3";
    case ScaleType::none: break;
  }
  return "";
}

int MmaInst::elem_bits(Operand op) const {
  const bool packed_fp4 = kind == "mxf4" || kind == "mxf4nvf4";
  if (op != Operand::C && packed_fp4) return 4;
  return dtype_bits(op == Operand::A ? a : op == Operand::B ? b : c);
}

std::string MmaInst::shape() const {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

std::string MmaInst::ptx() const {
  std::string s = "mma.sync.aligned." + shape() + "." + std::string(alayout.empty() ? "row" : alayout) + "." +
                  std::string(blayout.empty() ? "col" : blayout);
  if (satfinite) s += ".satfinite";
  if (!kind.empty()) s += ".kind::" + std::string(kind);
  if (block_scaled()) s += ".block_scale.scale_vec::" + std::to_string(scale_vec) + "X";
  for (DType t : {d, a, b, c}) s += "." + std::string(dtype_info(t).ptx);
  if (block_scaled()) s += "." + std::string(scale_type_name(stype));
  if (bop == BitOp::and_popc) s += ".and.popc";
  if (bop == BitOp::xor_popc) s += ".xor.popc";
  return s;
}

const Frame& MmaInst::frame(Operand op) const {
  return find_frame(shape(), op, elem_bits(op), op == Operand::A ? alayout : op == Operand::B ? blayout : "");
}

const Frame& MmaInst::d_frame() const { return find_frame(shape(), Operand::C, dtype_bits(d)); }

std::vector<std::int64_t> MmaInst::view_coord(Operand op, int elem) const {
  switch (op) {
    case Operand::A: {
      const int q = elem / k_pack;
      return {q % m_regs(), q / m_regs(), elem % k_pack};
    }
    case Operand::B: return {elem / k_pack, elem % k_pack};
    case Operand::C: return {elem / n_regs(), elem % n_regs()};
  }
  return {};
}

std::span<const MmaInst> mma_instructions() { return kInstructions; }

std::span<const MmaInst> quad_pair_instructions() { return kQuadPairInstructions; }

std::span<const MmaInst> block_scale_instructions() { return kBlockScaleInstructions; }

const MmaInst* find_mma_inst(std::string_view ptx) {
  for (const std::span<const MmaInst> table :
       {mma_instructions(), quad_pair_instructions(), block_scale_instructions()})
    for (const MmaInst& inst : table)
      if (inst.ptx() == ptx) return &inst;
  return nullptr;
}

}  // namespace mmacheck
