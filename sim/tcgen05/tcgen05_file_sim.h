// simulate_tcgen05_file() — `mmacheck sim` on a tcgen05.mma file: the
// instruction the program's descriptors describe, run with numbers, A and B
// read from the program's buffers, D read from TMEM where the program reads
// it.
//
// The file (core/tcgen05/tcgen05_reader.h) says what the program means (the
// instr line), what it passes (the idesc, each operand's descriptor and the
// buffer it reads) and where it reads D (the tmem line).  The tensor core
// runs what the idesc says, not what the program means: the run is the
// instruction the idesc describes (instr_of_idesc) — its formats, majors and
// flags — and when that is not an instruction of the program's M x N, or
// none the simulator models, the file fails without a case (`problem`), as
// it does when D may not sit at the tmem line's address.
// Each operand line is run on its own: random cases write a logical A, B
// and C; the operand goes where its buffer placed each element, its partner
// densely in the canonical 128B layout above the buffer (1024-byte aligned,
// so its swizzle pattern is unchanged); C goes to TMEM where the instruction
// reads it; the run reads A and B through the descriptors, and D is read
// back through the tmem line's layout (the data path without one).  The
// reference is the program's instruction with both operands packed densely
// and D read from the data path, so D agrees bit for bit exactly when every
// piece is right (unless the values a mistake confuses are equal).  A file
// of the instruction and D's layout alone runs once with both operands
// dense: only where D is read is the program's.
//
// Not simulated, each `unchecked` with the reason, never passed: what
// MMA-Sim does not model (cta_group::2, kind::i8, negated operands:
// tcgen05_sim_problem), the descriptor modes prove does not model (128B
// with 32B atoms, absolute LBO, a base offset), and a TIRx dump's K loop.
//
//     const Tcgen05FileSim r = simulate_tcgen05_file(read_tcgen05_file(text, path), tcgen05_arith("sm_100"), {});
//     r.failed() == false  // every operand read right, D where the program reads it
#pragma once

#include <string>
#include <vector>

#include "core/tcgen05/tcgen05_check.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/tile_diff.h"

namespace mmacheck::sim {

struct Tcgen05OperandSim : TileDiff {
  std::string name;       // the operand line's ("A (line 16)"), or the tmem line's without operands
  std::string layout;     // "A K-major 128B, B K-major 128B, D at lane 0 column 0" (the partner's dense)
  std::string unchecked;  // why it was not run; empty when it ran
};

struct Tcgen05FileSim {
  Tcgen05Instr instr;     // what the program means
  std::string problem;    // the idesc runs no instruction of the program's shape, or D may not sit there
  std::string unchecked;  // why no operand ran (the instruction or the file not simulated)
  std::vector<Tcgen05OperandSim> operands;

  bool failed() const;         // a problem, or an operand with a differing case
  bool unchecked_any() const;  // the file or an operand not run
};

Tcgen05FileSim simulate_tcgen05_file(const Tcgen05Case& c, const ArchParams& arith, const FileSimOptions& options);

}  // namespace mmacheck::sim
