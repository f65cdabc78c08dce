// Layer sim/wgmma: one whole wgmma.mma_async, as the warpgroup runs it.  Uses
// core (up to core/wgmma) and sim/numerics.
//
// A WgmmaRun is the instruction (sim/numerics/wgmma_model.h) and, for A and
// B, the matrix descriptor and major-ness it is issued with.  Shared memory
// is a byte image (address 0 = byte 0, the descriptors' start addresses
// absolute in it, little-endian elements); the instruction reads operand
// element (i, k) at canonical_address (core/wgmma/canonical_layout.h) — so
// a descriptor that does not fit the buffer reads the wrong bytes here, as
// on the device.  C and D are the warpgroup's registers, thread-major: 128
// threads x regs 32-bit words each, element e of thread t at the place the
// accumulator frame (core/wgmma/wgmma_frame.h) gives, two f16 per word (the
// first in the low half).
//
//     WgmmaRun run = dense_wgmma_run(inst, Major::k, SwizzleMode::b128, Major::k, SwizzleMode::b128);
//     std::vector<std::byte> image(run.image_bytes);
//     stage_operand(run, 'A', a, image);  stage_operand(run, 'B', b, image);
//     std::vector<std::uint32_t> d = run_wgmma(run, wgmma_arith("sm_90"), image, accumulator_words(run.inst, c));
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/wgmma/canonical_layout.h"
#include "core/wgmma/descriptor.h"
#include "sim/numerics/wgmma_model.h"

namespace mmacheck::sim {

struct WgmmaSmemOperand {
  MatrixDescriptor descriptor;
  Major major = Major::k;
};

struct WgmmaRun {
  WgmmaInst inst;
  WgmmaSmemOperand a, b;
  std::int64_t image_bytes = 0;  // the shared memory the run needs (a multiple of 16)
};

// LBO and SBO of an operand tile packed densely in `mode` and its
// major-ness, and its bytes (the canonical layouts of
// core/wgmma/canonical_layout.h, read backwards).  Any row count: wgmma's
// 64-row A, tcgen05.mma's 128-row A.
struct DenseLayout {
  std::int64_t lbo, sbo, bytes;
};
DenseLayout dense_layout(const WgmmaOperand& op, SwizzleMode mode);

// Writes a logical tile (A: rows x K, B: K x rows, row-major) at the
// addresses `d` reads for `operand`; throws Error when an address is outside
// the image.  read_tile: the logical tile `d` reads.
void stage_tile(const WgmmaOperand& operand, const MatrixDescriptor& d, std::span<const std::uint64_t> tile,
                std::span<std::byte> image);
std::vector<std::uint64_t> read_tile(const WgmmaOperand& operand, const MatrixDescriptor& d,
                                     std::span<const std::byte> image);

// The core/wgmma operand of `op` ('A': 64 x K, 'B': N x K).
WgmmaOperand wgmma_operand(const WgmmaInst& inst, char op, Major major);

// A run with A and B each packed densely in the canonical layout of its
// swizzle mode and major-ness (LBO and SBO the tile's own), A at 0 and B at
// the next 1024-byte boundary.  Throws Error when the instruction is
// invalid or MN-major is asked of a type without it.
WgmmaRun dense_wgmma_run(const WgmmaInst& inst, Major a_major, SwizzleMode a_mode, Major b_major, SwizzleMode b_mode);
// A run whose operand `given` ('A' or 'B') is read as the program placed it
// (its descriptor and major-ness; `used_bytes`: where its buffer ends), the
// other packed densely K-major in `partner_mode` at the next 1024-byte
// boundary after it.
WgmmaRun partnered_wgmma_run(const WgmmaInst& inst, char given, const WgmmaSmemOperand& operand,
                             std::int64_t used_bytes, SwizzleMode partner_mode);
// "A K-major 128B, B MN-major none" for reports.
std::string layout_name(const WgmmaRun& run);

// Writes the logical tile (A: 64 x K, B: K x N, row-major) at the addresses
// the instruction reads; throws Error when an address is outside the image.
void stage_operand(const WgmmaRun& run, char op, std::span<const std::uint64_t> tile, std::span<std::byte> image);
// The logical tile the instruction reads.
std::vector<std::uint64_t> read_operand(const WgmmaRun& run, char op, std::span<const std::byte> image);

// 32-bit accumulator registers per thread: N / 2 (f32, s32) or N / 4 (f16).
int accumulator_regs(const WgmmaInst& inst);
// 64 x N logical tile <-> thread-major register words.
std::vector<std::uint32_t> accumulator_words(const WgmmaInst& inst, std::span<const std::uint64_t> tile);
std::vector<std::uint64_t> accumulator_tile(const WgmmaInst& inst, std::span<const std::uint32_t> words);

// D = A * B + C through shared memory and the frames: A and B read from
// `image` through the descriptors, C from and D to register words.
std::vector<std::uint32_t> run_wgmma(const WgmmaRun& run, const ArchParams& arith, std::span<const std::byte> image,
                                     std::span<const std::uint32_t> c_words);

}  // namespace mmacheck::sim
