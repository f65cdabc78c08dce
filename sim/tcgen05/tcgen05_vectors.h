// tcgen05 test vectors: the .mmav text format (sim/vectors/vector_file.h) with
// tcgen05.mma instructions (tcgen05_name, sim/tcgen05/tcgen05_arith.h), and
// their replay through the whole-tcgen05.mma simulator
// (sim/tcgen05/tcgen05_machine.h).
//
//     instr tcgen05.mma.cta_group::1.kind::f16.m128n16k16.f32.f16.f16
//     case 0 uniform
//     A <M*K hex words>   B <K*N>   C <M*N>   D <M*N>   (logical, row-major; C has D's type)
//
// Each case is replayed through shared memory and TMEM: A and B staged
// densely in one of tcgen05_replay_layouts() (case i in layout i mod their
// count: the four canonical modes, MN-major where a type has it, D at
// several TMEM addresses), TMEM filled with a pattern first (so a misplaced
// read of C shows), C stored through the data-path layout, D loaded back.
// Malformed input throws Error at FILE:LINE:COL.
//
//     InstrVectorReport r = replay_tcgen05_vectors(read_tcgen05_vectors("tests/data/mmasim/tcgen05.sm_100.mmav"),
//                                                    tcgen05_arith("sm_100"), 5);
//     r.failed == 0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/tcgen05/tcgen05_machine.h"
#include "sim/wgmma/instr_vectors.h"

namespace mmacheck::sim {

// K-major A and B (the replay picks the major-ness).
using Tcgen05VectorCase = InstrVectorCase<Tcgen05Instr>;
// tcgen05's names (tcgen05_name) and operands in the common format.
const VectorFamily<Tcgen05Instr>& tcgen05_vector_family();

std::vector<Tcgen05VectorCase> parse_tcgen05_vectors(std::string_view text, const std::string& name);
std::vector<Tcgen05VectorCase> read_tcgen05_vectors(const std::string& path);
// The cases as text (what parse_tcgen05_vectors reads); `comments` become # lines.
std::string tcgen05_vectors_text(const std::vector<Tcgen05VectorCase>& cases, const std::vector<std::string>& comments);

struct Tcgen05LayoutChoice {
  Major a_major;
  SwizzleMode a_mode;
  Major b_major;
  SwizzleMode b_mode;
  int d_lane, d_col;
};
// K-major A and B in each mode (D at lane 0 or, for M = 64, 16), then
// MN-major ones where both types have it; D's column moves across TMEM.
std::vector<Tcgen05LayoutChoice> tcgen05_replay_layouts(const Tcgen05Instr& instr);
// The run of `instr` in one layout choice.
Tcgen05Run tcgen05_replay_run(const Tcgen05Instr& instr, const Tcgen05LayoutChoice& l);

InstrVectorReport replay_tcgen05_vectors(const std::vector<Tcgen05VectorCase>& cases, const ArchParams& arith,
                                         int show);

}  // namespace mmacheck::sim
