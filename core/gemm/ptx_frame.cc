#include "core/gemm/ptx_frame.h"

#include <string>

#include "core/base/error.h"

namespace mmacheck {

namespace {
using A4 = std::array<int, 4>;

// Rows transcribe PTX ISA §9.7.14.5.  Columns: shape, operand, element bits,
// tile rows x cols, registers x register bits, then row = (g, t, bits) and
// col = (g, t, bits).
constexpr Frame kFrames[] = {
    // m16n8k16, f16/bf16 inputs: a0..a7, b0..b3; f32 or f16 accumulators c0..c3.
    {"m16n8k16", Operand::A, 16, 16, 16, 4, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 8, 0}}},
    {"m16n8k16", Operand::B, 16, 16, 8, 2, 32, {0, 2, A4{1, 8, 0, 0}}, {1, 0, A4{}}},
    {"m16n8k16", Operand::C, 32, 16, 8, 4, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    {"m16n8k16", Operand::C, 16, 16, 8, 2, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    // m16n8k16, s8/u8 inputs: a0..a7, b0..b3 (four per register); s32 accumulators
    // share the 32-bit C row above.
    {"m16n8k16", Operand::A, 8, 16, 16, 2, 32, {1, 0, A4{0, 0, 8, 0}}, {0, 4, A4{1, 2, 0, 0}}},
    {"m16n8k16", Operand::B, 8, 16, 8, 1, 32, {0, 4, A4{1, 2, 0, 0}}, {1, 0, A4{}}},
    // m16n8k8, f16/bf16 inputs: a0..a3, b0..b1.
    {"m16n8k8", Operand::A, 16, 16, 8, 2, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    {"m16n8k8", Operand::B, 16, 8, 8, 1, 32, {0, 2, A4{1, 0, 0, 0}}, {1, 0, A4{}}},
    {"m16n8k8", Operand::C, 32, 16, 8, 4, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    {"m16n8k8", Operand::C, 16, 16, 8, 2, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    // m16n8k8, tf32 inputs: a0..a3 (row g / g+8 alternate), b0..b1.
    {"m16n8k8", Operand::A, 32, 16, 8, 4, 32, {1, 0, A4{8, 0, 0, 0}}, {0, 1, A4{0, 4, 0, 0}}},
    {"m16n8k8", Operand::B, 32, 8, 8, 2, 32, {0, 1, A4{4, 0, 0, 0}}, {1, 0, A4{}}},
    // m16n8k4, tf32 inputs: a0..a1, b0.
    {"m16n8k4", Operand::A, 32, 16, 4, 2, 32, {1, 0, A4{8, 0, 0, 0}}, {0, 1, A4{}}},
    {"m16n8k4", Operand::B, 32, 4, 8, 1, 32, {0, 1, A4{}}, {1, 0, A4{}}},
    {"m16n8k4", Operand::C, 32, 16, 8, 4, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    // m16n8k32, s8/u8/e4m3/e5m2 inputs: a0..a15, b0..b7 (four per register).
    {"m16n8k32", Operand::A, 8, 16, 32, 4, 32, {1, 0, A4{0, 0, 8, 0}}, {0, 4, A4{1, 2, 0, 16}}},
    {"m16n8k32", Operand::B, 8, 32, 8, 2, 32, {0, 4, A4{1, 2, 16, 0}}, {1, 0, A4{}}},
    {"m16n8k32", Operand::C, 32, 16, 8, 4, 32, {1, 0, A4{0, 8, 0, 0}}, {0, 2, A4{1, 0, 0, 0}}},
    // m8n8k4, f64: one 64-bit register each for A and B, two for C.
    {"m8n8k4", Operand::A, 64, 8, 4, 1, 64, {1, 0, A4{}}, {0, 1, A4{}}},
    {"m8n8k4", Operand::B, 64, 4, 8, 1, 64, {0, 1, A4{}}, {1, 0, A4{}}},
    {"m8n8k4", Operand::C, 64, 8, 8, 2, 64, {1, 0, A4{}}, {0, 2, A4{1, 0, 0, 0}}},
};
}  // namespace

std::string_view operand_name(Operand op) {
  switch (op) {
    case Operand::A: return "A";
    case Operand::B: return "B";
    case Operand::C: return "C";
  }
  return "?";
}

std::span<const Frame> all_frames() { return kFrames; }

const Frame& find_frame(std::string_view shape, Operand op, int elem_bits) {
  for (const Frame& f : kFrames)
    if (f.shape == shape && f.operand == op && f.elem_bits == elem_bits) return f;
  throw Error("no PTX fragment frame for " + std::string(shape) + " operand " +
              std::string(operand_name(op)) + " with " + std::to_string(elem_bits) +
              "-bit elements");
}

}  // namespace mmacheck
