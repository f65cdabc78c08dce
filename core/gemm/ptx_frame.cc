#include "core/gemm/ptx_frame.h"

#include <string>

#include "core/base/error.h"

namespace mmacheck {

namespace {
using Bits = std::array<int, 8>;
using LaneBits = std::array<int, 5>;

// Rows transcribe PTX ISA §9.7.14.5.  Columns: shape, operand, element bits,
// tile rows x cols, registers x register bits, then row = (g, t, bits[, lane
// bits]) and col = (g, t, bits[, lane bits]) (and, for m8n8k4 f16 only, the
// layout and the products).
constexpr Frame kFrames[] = {
    // m16n8k16, f16/bf16 inputs: a0..a7, b0..b3; f32 or f16 accumulators c0..c3.
    {"m16n8k16", Operand::A, 16, 16, 16, 4, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 8, 0}}},
    {"m16n8k16", Operand::B, 16, 16, 8, 2, 32, {0, 2, Bits{1, 8, 0, 0}}, {1, 0, Bits{}}},
    {"m16n8k16", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    {"m16n8k16", Operand::C, 16, 16, 8, 2, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    // m16n8k16, s8/u8 inputs: a0..a7, b0..b3 (four per register); s32 accumulators
    // share the 32-bit C row above.
    {"m16n8k16", Operand::A, 8, 16, 16, 2, 32, {1, 0, Bits{0, 0, 8, 0}}, {0, 4, Bits{1, 2, 0, 0}}},
    {"m16n8k16", Operand::B, 8, 16, 8, 1, 32, {0, 4, Bits{1, 2, 0, 0}}, {1, 0, Bits{}}},
    // m16n8k8, f16/bf16 inputs: a0..a3, b0..b1.
    {"m16n8k8", Operand::A, 16, 16, 8, 2, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    {"m16n8k8", Operand::B, 16, 8, 8, 1, 32, {0, 2, Bits{1, 0, 0, 0}}, {1, 0, Bits{}}},
    {"m16n8k8", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    {"m16n8k8", Operand::C, 16, 16, 8, 2, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    // m16n8k8, tf32 inputs: a0..a3 (row g / g+8 alternate), b0..b1.
    {"m16n8k8", Operand::A, 32, 16, 8, 4, 32, {1, 0, Bits{8, 0, 0, 0}}, {0, 1, Bits{0, 4, 0, 0}}},
    {"m16n8k8", Operand::B, 32, 8, 8, 2, 32, {0, 1, Bits{4, 0, 0, 0}}, {1, 0, Bits{}}},
    // m16n8k4, tf32 inputs: a0..a1, b0.
    {"m16n8k4", Operand::A, 32, 16, 4, 2, 32, {1, 0, Bits{8, 0, 0, 0}}, {0, 1, Bits{}}},
    {"m16n8k4", Operand::B, 32, 4, 8, 1, 32, {0, 1, Bits{}}, {1, 0, Bits{}}},
    {"m16n8k4", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    // m16n8k32, s8/u8/e4m3/e5m2 inputs: a0..a15, b0..b7 (four per register).
    {"m16n8k32", Operand::A, 8, 16, 32, 4, 32, {1, 0, Bits{0, 0, 8, 0}}, {0, 4, Bits{1, 2, 0, 16}}},
    {"m16n8k32", Operand::B, 8, 32, 8, 2, 32, {0, 4, Bits{1, 2, 16, 0}}, {1, 0, Bits{}}},
    {"m16n8k32", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8, 0, 0}}, {0, 2, Bits{1, 0, 0, 0}}},
    // m8n8k4, f64: one 64-bit register each for A and B, two for C.
    {"m8n8k4", Operand::A, 64, 8, 4, 1, 64, {1, 0, Bits{}}, {0, 1, Bits{}}},
    {"m8n8k4", Operand::B, 64, 4, 8, 1, 64, {0, 1, Bits{}}, {1, 0, Bits{}}},
    {"m8n8k4", Operand::C, 64, 8, 8, 2, 64, {1, 0, Bits{}}, {0, 2, Bits{1, 0, 0, 0}}},
    // m16n8k32, f16 accumulators (fp8 inputs): c0..c3 as for the 32-bit row.
    {"m16n8k32", Operand::C, 16, 16, 8, 2, 32, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},
    // m16n8k32, f16/bf16 B (mma.sp's dense operand, §9.7.14.6.2.2): b0..b7,
    // row = 2t + (i & 1) + 8 ((i >> 1) & 1) + 16 (i >> 2).
    {"m16n8k32", Operand::B, 16, 32, 8, 4, 32, {0, 2, Bits{1, 8, 16}}, {1, 0, Bits{}}},
    // m16n8k16, tf32 B (mma.sp's dense operand): b0..b3, row = t + 4 i, as
    // m16n8k8's tf32 B twice over.
    {"m16n8k16", Operand::B, 32, 16, 8, 4, 32, {0, 1, Bits{4, 8}}, {1, 0, Bits{}}},
    // m16n8k64, s8/u8 B (mma.sp's dense operand, §9.7.14.6.2.3): b0..b15,
    // row = 4t + (i & 3) + 16 (i >> 2), as m16n8k32's 8-bit B twice over.
    {"m16n8k64", Operand::B, 8, 64, 8, 4, 32, {0, 4, Bits{1, 2, 16, 32}}, {1, 0, Bits{}}},

    // The shapes CUTLASS's CuTe trait headers name beyond the dispatch's set
    // (judged by `mmacheck cute`; no instruction row uses them yet).
    // m8n8k16, s8/u8 (§9.7.14.5.3): a0..a3 and b0..b3 in one register.
    {"m8n8k16", Operand::A, 8, 8, 16, 1, 32, {1, 0, Bits{}}, {0, 4, Bits{1, 2}}},
    {"m8n8k16", Operand::B, 8, 16, 8, 1, 32, {0, 4, Bits{1, 2}}, {1, 0, Bits{}}},
    {"m8n8k16", Operand::C, 32, 8, 8, 2, 32, {1, 0, Bits{}}, {0, 2, Bits{1}}},
    // m8n8k32, s4/u4 (§9.7.14.5.4): eight 4-bit elements per register.
    {"m8n8k32", Operand::A, 4, 8, 32, 1, 32, {1, 0, Bits{}}, {0, 8, Bits{1, 2, 4}}},
    {"m8n8k32", Operand::B, 4, 32, 8, 1, 32, {0, 8, Bits{1, 2, 4}}, {1, 0, Bits{}}},
    {"m8n8k32", Operand::C, 32, 8, 8, 2, 32, {1, 0, Bits{}}, {0, 2, Bits{1}}},
    // m8n8k128, b1 (§9.7.14.5.5): thirty-two 1-bit elements per register.
    {"m8n8k128", Operand::A, 1, 8, 128, 1, 32, {1, 0, Bits{}}, {0, 32, Bits{1, 2, 4, 8, 16}}},
    {"m8n8k128", Operand::B, 1, 128, 8, 1, 32, {0, 32, Bits{1, 2, 4, 8, 16}}, {1, 0, Bits{}}},
    {"m8n8k128", Operand::C, 32, 8, 8, 2, 32, {1, 0, Bits{}}, {0, 2, Bits{1}}},
    // m16n8k32, s4/u4 (§9.7.14.5.10): a0..a7 row g, a8..a15 row g+8.
    {"m16n8k32", Operand::A, 4, 16, 32, 2, 32, {1, 0, Bits{0, 0, 0, 8}}, {0, 8, Bits{1, 2, 4}}},
    {"m16n8k32", Operand::B, 4, 32, 8, 1, 32, {0, 8, Bits{1, 2, 4}}, {1, 0, Bits{}}},
    // m16n8k64, s4/u4 (§9.7.14.5.11): a16..a31 and b8..b15 are K + 32.
    {"m16n8k64", Operand::A, 4, 16, 64, 4, 32, {1, 0, Bits{0, 0, 0, 8}}, {0, 8, Bits{1, 2, 4, 0, 32}}},
    {"m16n8k64", Operand::B, 4, 64, 8, 2, 32, {0, 8, Bits{1, 2, 4, 32}}, {1, 0, Bits{}}},
    {"m16n8k64", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},
    // m16n8k128, b1 (§9.7.14.5.12): a32..a63 row g+8.
    {"m16n8k128", Operand::A, 1, 16, 128, 2, 32, {1, 0, Bits{0, 0, 0, 0, 0, 8}}, {0, 32, Bits{1, 2, 4, 8, 16}}},
    {"m16n8k128", Operand::B, 1, 128, 8, 1, 32, {0, 32, Bits{1, 2, 4, 8, 16}}, {1, 0, Bits{}}},
    {"m16n8k128", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},
    // m16n8k256, b1 (§9.7.14.5.13): a32..a63 and a96..a127 row g+8, a64.. and
    // b32.. K + 128.  The ISA's A formula reads "32t + i for i < 64", which
    // puts a32..a63 at K 32..95 and overlaps a96..a127; its figure and the
    // m16n8k128 pattern give 32t + (i & 31), which is the row here.
    {"m16n8k256", Operand::A, 1, 16, 256, 4, 32, {1, 0, Bits{0, 0, 0, 0, 0, 8}}, {0, 32, Bits{1, 2, 4, 8, 16, 0, 128}}},
    {"m16n8k256", Operand::B, 1, 256, 8, 2, 32, {0, 32, Bits{1, 2, 4, 8, 16, 128}}, {1, 0, Bits{}}},
    {"m16n8k256", Operand::C, 32, 16, 8, 4, 32, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},
    // f64 m16n8k4 / k8 / k16 (sm_90; §9.7.14.5.6-8): A rows alternate g, g+8.
    {"m16n8k4", Operand::A, 64, 16, 4, 2, 64, {1, 0, Bits{8}}, {0, 1, Bits{}}},
    {"m16n8k4", Operand::B, 64, 4, 8, 1, 64, {0, 1, Bits{}}, {1, 0, Bits{}}},
    {"m16n8k4", Operand::C, 64, 16, 8, 4, 64, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},
    {"m16n8k8", Operand::A, 64, 16, 8, 4, 64, {1, 0, Bits{8}}, {0, 1, Bits{0, 4}}},
    {"m16n8k8", Operand::B, 64, 8, 8, 2, 64, {0, 1, Bits{4}}, {1, 0, Bits{}}},
    {"m16n8k8", Operand::C, 64, 16, 8, 4, 64, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},
    {"m16n8k16", Operand::A, 64, 16, 16, 8, 64, {1, 0, Bits{8}}, {0, 1, Bits{0, 4, 8}}},
    {"m16n8k16", Operand::B, 64, 16, 8, 4, 64, {0, 1, Bits{4, 8}}, {1, 0, Bits{}}},
    {"m16n8k16", Operand::C, 64, 16, 8, 4, 64, {1, 0, Bits{0, 8}}, {0, 2, Bits{1}}},

    // m8n8k4, f16 inputs (sm_70; §9.7.14.5.1): four products, one per quad pair
    // (QP = lane bits 2, 3), stacked along the rows (header); within a QP the
    // high half (lane bit 4) is rows or columns 4..7.  Then layout, products.
    // One row a line, however long.
    // clang-format off
    // A .row: row = lane % 4 (+4), col = i.  A .col: row = i (+4), col = lane % 4.
    {"m8n8k4", Operand::A, 16, 32, 4, 2, 32, {0, 1, Bits{}, LaneBits{0, 0, 8, 16, 4}}, {0, 0, Bits{1, 2}}, "row", 4},
    {"m8n8k4", Operand::A, 16, 32, 4, 2, 32, {0, 0, Bits{1, 2}, LaneBits{0, 0, 8, 16, 4}}, {0, 1, Bits{}}, "col", 4},
    // B .col: row = i, col = lane % 4 (+4).  B .row: row = lane % 4, col = i (+4).
    {"m8n8k4", Operand::B, 16, 16, 8, 2, 32, {0, 0, Bits{1, 2}, LaneBits{0, 0, 4, 8}}, {0, 1, Bits{}, LaneBits{0, 0, 0, 0, 4}}, "col", 4},
    {"m8n8k4", Operand::B, 16, 16, 8, 2, 32, {0, 1, Bits{}, LaneBits{0, 0, 4, 8}}, {0, 0, Bits{1, 2}, LaneBits{0, 0, 0, 0, 4}}, "row", 4},
    // C/D f16 (c0..c7 in four registers): row = lane % 4 (+4), col = i.
    {"m8n8k4", Operand::C, 16, 32, 8, 4, 32, {0, 1, Bits{}, LaneBits{0, 0, 8, 16, 4}}, {0, 0, Bits{1, 2, 4}}, {}, 4},
    // C/D f32 (c0..c7): row = (lane & 1) + (i & 2) (+4), col = (i & 4) + (lane & 2) + (i & 1).
    {"m8n8k4", Operand::C, 32, 32, 8, 8, 32, {0, 0, Bits{0, 2}, LaneBits{1, 0, 8, 16, 4}}, {0, 0, Bits{1, 0, 4}, LaneBits{0, 2}}, {}, 4},
    // clang-format on
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

const Frame* lookup_frame(std::string_view shape, Operand op, int elem_bits, std::string_view layout) {
  for (const Frame& f : kFrames)
    if (f.shape == shape && f.operand == op && f.elem_bits == elem_bits && f.layout == layout) return &f;
  return nullptr;
}

const Frame& find_frame(std::string_view shape, Operand op, int elem_bits, std::string_view layout) {
  if (const Frame* f = lookup_frame(shape, op, elem_bits, layout)) return *f;
  throw Error("no PTX fragment frame for " + std::string(shape) + " operand " + std::string(operand_name(op)) +
              " with " + std::to_string(elem_bits) + "-bit elements" +
              (layout.empty() ? std::string() : " (." + std::string(layout) + ")"));
}

}  // namespace mmacheck
