// Layer sim/tcgen05: one whole tcgen05.mma, as the tensor core runs it.  Uses
// core (up to core/tcgen05), sim/numerics and sim/wgmma (its operand staging
// and reads, the vector words).
//
// One tcgen05.mma (cta_group::1): A and B read from shared memory through
// tcgen05 shared-memory descriptors (core/tcgen05/tcgen05_descriptor.h), C
// read from and D written to tensor memory through the data-path layout
// (core/tcgen05/tcgen05_tmem.h), the arithmetic of an architecture's tcgen05
// row (sim/tcgen05/tcgen05_arith.h).
//
// Shared memory is a byte image (address 0 = byte 0, the descriptors' start
// addresses absolute in it, little-endian elements); operand element (i, k)
// is read at canonical_address (core/wgmma/canonical_layout.h: the ISA's
// tcgen05 canonical layouts are wgmma's), A an M x K tile, B an N x K one.
// Tmem is one CTA's 128 lanes x 512 columns of 32-bit words; D[m][n] sits
// where tmem_position puts it for D at (d_lane, d_col).  A 16-bit D (f16)
// takes one column an element, in the column's low 16 bits (CUTLASS's
// tmem_frg<half_t, uint32_t> steps two 16-bit units a column; a packing the
// ISA's pictures do not state): C is read from the low half, D written
// there, the high half left as it was.
//
//     Tcgen05Run run = dense_tcgen05_run(instr, SwizzleMode::b128, SwizzleMode::none, 0, 64);
//     std::vector<std::byte> image(run.image_bytes);
//     stage_tcgen05_operand(run, 'A', a, image);  stage_tcgen05_operand(run, 'B', b, image);
//     Tmem tmem;  store_accumulator(run, c, tmem);
//     run_tcgen05(run, tcgen05_arith("sm_100"), image, tmem);
//     std::vector<std::uint64_t> d = load_accumulator(run, tmem);
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/wgmma/canonical_layout.h"
#include "core/tcgen05/tcgen05_descriptor.h"
#include "core/tcgen05/tcgen05_instr.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

// One CTA's tensor memory: lanes x columns of 32-bit words, all 0 at first.
class Tmem {
 public:
  static constexpr int kLanes = 128, kColumns = 512;
  Tmem() : words_(std::size_t(kLanes) * kColumns, 0) {}
  // Throws Error outside the 128 x 512 words.
  std::uint32_t& at(std::int64_t lane, std::int64_t column) { return words_[index(lane, column)]; }
  std::uint32_t at(std::int64_t lane, std::int64_t column) const { return words_[index(lane, column)]; }

 private:
  std::size_t index(std::int64_t lane, std::int64_t column) const;
  std::vector<std::uint32_t> words_;
};

struct Tcgen05Run {
  Tcgen05Instr instr;            // its a_major and b_major are the operands'
  Tcgen05SmemDescriptor a, b;    // modes with a canonical layout only
  int d_lane = 0, d_col = 0;     // D's TMEM address
  std::int64_t image_bytes = 0;  // the shared memory the run needs (a multiple of 1024)
};

// The canonical-layout operand of `op` ('A': M x K, 'B': N x K).
WgmmaOperand tcgen05_operand(const Tcgen05Instr& instr, char op);

// A run with A and B each packed densely in the canonical layout of its mode
// and the instruction's major-ness, A at 0 and B at the next 1024-byte
// boundary, D at TMEM (d_lane, d_col).  Throws Error when the instruction is
// not simulated (tcgen05_sim_problem) or D may not sit there.
Tcgen05Run dense_tcgen05_run(const Tcgen05Instr& instr, SwizzleMode a_mode, SwizzleMode b_mode, int d_lane, int d_col);
// "A K-major 128B, B MN-major none, D at lane 16 column 40" for reports.
std::string tcgen05_layout_name(const Tcgen05Run& run);

// Writes the logical tile (A: M x K, B: K x N, row-major) where the
// descriptor reads it; throws Error when an address is outside the image.
void stage_tcgen05_operand(const Tcgen05Run& run, char op, std::span<const std::uint64_t> tile,
                           std::span<std::byte> image);
// The logical tile the descriptor reads.
std::vector<std::uint64_t> read_tcgen05_operand(const Tcgen05Run& run, char op, std::span<const std::byte> image);

// The M x N accumulator tile <-> its TMEM words (the data-path layout).
void store_accumulator(const Tcgen05Run& run, std::span<const std::uint64_t> tile, Tmem& tmem);
std::vector<std::uint64_t> load_accumulator(const Tcgen05Run& run, const Tmem& tmem);

// D = A * B + C: A and B from `image` through the descriptors, C from and D
// to `tmem` in place.
void run_tcgen05(const Tcgen05Run& run, const ArchParams& arith, std::span<const std::byte> image, Tmem& tmem);

}  // namespace mmacheck::sim
