// Staging — how a program fills its operands' register arrays and writes D
// back: one SlotTable per operand, for every thread of the scope.  The GPU
// kernel (cuda/) and the warp machine (sim/) stage through the same tables,
// so they start from the same registers.
//
//   a, b   loads of the A and B buffers;
//   c      loads of the C buffer: into C's array, or, when C and D are one
//          buffer (gemm(D, A, B, D)), into D's array (c_in_d);
//   d      stores of the D buffer.
//
// Every register array starts zeroed; the loads fill it; the nest runs; the
// D stores write the output matrix, which starts zeroed.  Starting from
// load_slots and ending with store_slots, a simulator computes exactly what
// the kernel writes.
//
// From a program, each operand follows its `stage` (or, for D, `store`)
// statements when the file has them for that buffer — as the program runs
// (program_order): the stages before the gemm in order, each replacing the
// slots it moves (a loop over part of the registers fills only those), the
// stores after it in order, each element written by the last; a buffer
// whose statements all run on the wrong side of the gemm is never loaded
// (stored), so its registers (the output) stay zero — its shared-memory
// statements (fill + ldmatrix/ld.shared, stmatrix/st.shared + drain) when it
// has those (a path whose fill runs after its first copy, or whose copy runs
// after the gemm, loads nothing), else its layout.  Thread
// count: the scope's (32 for a warp).
#pragma once

#include "core/gemm/mma_inst.h"
#include "core/gemm/nest.h"
#include "core/program/program.h"
#include "core/gemm/shared_staging.h"
#include "core/gemm/slot_table.h"

namespace mmacheck {

// Which tensor a load reads, as its statement names it: its own operand's,
// or the tensor another operand is staged from (B staged from A's tensor),
// or the output D is stored to (C staged from D, before D holds anything).
// constant: the statement sets the registers to a constant
// (`d_r[s] = T.float32(0)`, `T.float32(1.5)`: StagingStep::constant).
enum class LoadSource { own, a, b, c, output, constant };

// One statement of a program that runs in its written order
// (Staging::steps): a stage loading registers from a tensor, one mma
// statement's part of the nest, or a store of D's registers.  A table entry
// of -1 leaves that register (store: that element) as it is.
//
//     // store between two applies: {mma [0, 1), store d -> D, mma [1, 2)}
struct StagingStep {
  enum class Kind { load, mma, store };
  enum class Registers { a, b, c, d };  // c: C's registers (D's when C is D)
  Kind kind = Kind::mma;
  Registers into = Registers::a;      // load: the registers it fills
  LoadSource from = LoadSource::own;  // load: the tensor it reads (own: the operand's)
  std::uint64_t constant = 0;         // load from a constant: the element bits every slot gets
  SlotTable table;                    // load, store
  std::size_t begin = 0, end = 0;     // mma: the nest statements [begin, end)
  SourceLoc loc;
};

struct Staging {
  int threads = 32;
  SlotTable a, b, c, d;
  bool c_in_d = false;
  LoadSource a_from = LoadSource::own, b_from = LoadSource::own, c_from = LoadSource::own;
  // Operands staged through shared memory (ldmatrix, stmatrix, ld.shared,
  // st.shared; core/gemm/shared_staging.h): the tables above are then what
  // the shared-memory path delivers, and the GPU kernel executes the path.
  std::optional<SharedStage> shared_a, shared_b, shared_c, shared_d;
  // A statement stands between two of the program's mma statements (a D
  // store between two applies, A staged again): the program's statements
  // in their order, which sim runs one by one instead of the tables above
  // (they then only give the buffers' shapes; the *_from stay own, each
  // load says what it reads).  Empty otherwise.
  std::vector<StagingStep> steps;
};

// Throws Error (at the offending statement or declaration) when an operand
// cannot be staged: A or B shares a buffer with another operand, a buffer is
// not 2-D, a layout leaves the scope's threads or the nest's slots, a
// statement addresses outside its buffer, a buffer is staged twice (by a
// stage and a shared-memory copy) or from two tensors, D is staged again
// after the mma and then stored, or a register is left storing two
// elements.  With a statement between two mma statements (steps): a
// shared-memory statement, or a stage from a tensor of another type.
Staging build_staging(const Program& program, const Nest& nest);

// One instruction on its PTX frames: 32 threads, slot = element index, C
// and D distinct 2-D tiles (A m x k, B k x n, C and D m x n).
Staging frame_staging(const MmaInst& inst);

// The single-instruction nest frame_staging() matches: D = C (copy), then
// one mma on registers 0, 1, ...
Nest frame_nest(const MmaInst& inst);

}  // namespace mmacheck
