// Bank conflicts — how many wavefronts each shared-memory statement of a
// program needs, counted from the addresses its lanes give.
//
// Shared memory has 32 banks of 4 bytes; one wavefront serves at most one
// 4-byte word per bank (lanes reading the same word share it: broadcast).
// A phase needs as many wavefronts as the most crowded bank has distinct
// words.  ldmatrix/stmatrix serve one matrix per phase — its eight 16-byte
// rows, the addresses of lanes 8i .. 8i+7 — so an .x4 needs at least four
// (conflict-free when the eight rows fall in distinct 16-byte bank groups,
// (address / 16) % 8); ld.shared/st.shared of elements up to 4 bytes serve
// the 32 lanes in one phase per slot (8-byte elements: two half-warp phases).
// Addresses are counted from the allocation's base, taken at a multiple of
// 128 bytes (the bank pattern's period); a buffer aligned to less may fare
// differently.
//
//     BankCount c = ...;   // ldmatrix.x4 of a row-major 16 x 16 f16 tile
//     c.wavefronts == 8, c.ideal == 4, c.conflicts[0].lanes == {0, 4}
#pragma once

#include <string>
#include <vector>

#include "core/gemm/shared_staging.h"

namespace mmacheck {

struct BankPhase {
  int instruction = 0;  // the statement's instruction (ld.shared: the slot)
  int phase = 0;        // matrix (ldmatrix/stmatrix), half-warp (8-byte elements), else 0
  int wavefronts = 0;
  int bank = 0;            // the most crowded bank
  std::vector<int> lanes;  // one lane per distinct word in that bank
};

struct BankCount {
  std::string statement;  // "ldmatrix.x4 A[0]"
  std::string shared;     // the shared buffer
  int line = 0;
  int instructions = 0;
  int wavefronts = 0;
  int ideal = 0;                     // one per phase
  std::vector<BankPhase> conflicts;  // the phases that need more than one wavefront
  int extra() const { return wavefronts - ideal; }
};

// One count per statement of the stage, in statement order.
std::vector<BankCount> count_bank_conflicts(const SharedStage& stage);

}  // namespace mmacheck
