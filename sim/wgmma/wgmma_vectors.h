// wgmma test vectors: the .mmav text format (sim/vectors/vector_file.h) with
// wgmma instructions, and their replay through the whole-wgmma simulator
// (sim/wgmma/wgmma_machine.h).
//
//     instr wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
//     case 0 uniform
//     A <64*K hex words>   B <K*N>   C <64*N>   D <64*N>   (logical, row-major; C has D's type)
//
// Each case is replayed through shared memory: A and B staged densely in one
// of the layouts of wgmma_replay_layouts() (case i in layout i mod their
// count, MN-major only where the type has it), C scattered into the
// accumulator registers, D gathered back.  Malformed input throws Error at
// FILE:LINE[:COL].
//
//     InstrVectorReport r = replay_wgmma_vectors(read_wgmma_vectors("tests/data/mmasim/wgmma.sm_90.mmav"),
//                                                wgmma_arith("sm_90"), 5);
//     r.failed == 0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/wgmma/instr_vectors.h"
#include "sim/wgmma/wgmma_machine.h"

namespace mmacheck::sim {

using WgmmaVectorCase = InstrVectorCase<WgmmaInst>;
// wgmma's names (WgmmaInst::ptx) and operands in the common format.
const VectorFamily<WgmmaInst>& wgmma_vector_family();

std::vector<WgmmaVectorCase> parse_wgmma_vectors(std::string_view text, const std::string& name);
std::vector<WgmmaVectorCase> read_wgmma_vectors(const std::string& path);
// The cases as text (what parse_wgmma_vectors reads); `comments` become # lines.
std::string wgmma_vectors_text(const std::vector<WgmmaVectorCase>& cases, const std::vector<std::string>& comments);

struct WgmmaLayoutChoice {
  Major a_major;
  SwizzleMode a_mode;
  Major b_major;
  SwizzleMode b_mode;
};
// K-major A and B in each mode, then MN-major ones (f16, bf16 only).
std::vector<WgmmaLayoutChoice> wgmma_replay_layouts(const WgmmaInst& inst);

InstrVectorReport replay_wgmma_vectors(const std::vector<WgmmaVectorCase>& cases, const ArchParams& arith, int show);

}  // namespace mmacheck::sim
