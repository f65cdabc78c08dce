// Instruction — one PTX instruction decoded once, at reading: its operands
// resolved to register numbers, labels to instruction indices, its
// modifiers to the fields below, and the opcode table's semantics attached
// (core/ptx/ptx_opcodes.h), so the CTA machine runs it without text.
//
//     @%p1 bra $L__BB0_2;      guard = reg of %p1, thread = the branch, ops = {label 17}
//     ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd5+16];
//                              space = global, vec = 4, type = b32, ops = {vec, address}
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/ptx/ptx_types.h"

#include "core/program/dtype.h"

namespace mmacheck {
struct MmaInst;
}

namespace mmacheck::ptx {

// A special register (%tid.x, %laneid, ...): its value per thread.
enum class Special : std::uint8_t {
  tid_x,
  tid_y,
  tid_z,
  ntid_x,
  ntid_y,
  ntid_z,
  ctaid_x,
  ctaid_y,
  ctaid_z,
  nctaid_x,
  nctaid_y,
  nctaid_z,
  laneid,
  warpid,
  nwarpid,
  lanemask_lt,
  lanemask_le,
  lanemask_eq,
  lanemask_ge,
  lanemask_gt,
};

// One operand as written.  Registers are numbered per kernel (every name a
// `.reg` declares, scoped blocks included, gets its own number).
struct Operand {
  enum class Kind : std::uint8_t {
    reg,      // %r12 (`reg`); `_` (the sink) is reg -1
    imm,      // an integer, or a float given by its bits (0f3F800000): `imm`
    special,  // %tid.x: `special`
    vec,      // {%r1, %r2, _}: `regs` (-1: the sink)
    address,  // [%rd1+16] / [name+8] / [12]: `reg` (-1: none), `symbol` (-1: none), plus `imm`
    label,    // a branch target: `target` (instruction index)
    symbol,   // a variable's name used as a value (its address): `symbol`
  };
  Kind kind = Kind::reg;
  int reg = -1;
  std::int64_t imm = 0;
  Special special = Special::tid_x;
  std::vector<int> regs;
  // A vector's constant elements (regs[i] == kVecConstant: imms[i]; only a
  // store's source vector takes them, the opcode table refuses them elsewhere).
  std::vector<std::int64_t> imms;
  int symbol = -1;  // index into PtxKernel::symbols
  int target = -1;
  bool negated = false;  // !%p (a register operand; vote's source predicate)
  SourceLoc loc;
};

// Operand::regs's mark of a constant element of a vector.
inline constexpr int kVecConstant = -2;

class ThreadContext;
class WarpContext;
struct Instruction;
// The opcode table's semantics: per thread, or once per warp for the
// instructions a warp executes together (mma.sync, ldmatrix, stmatrix,
// shfl.sync, vote.sync).
using ThreadExec = void (*)(const Instruction&, ThreadContext&);
using WarpExec = void (*)(const Instruction&, WarpContext&);

// How the machine schedules an instruction: per thread; once per warp when
// every lane of it has arrived; once per warpgroup (4 consecutive warps, the
// first a multiple of 4: the wgmma instructions) when its 128 threads have;
// a CTA barrier (bar.sync, barrier.sync, bar.arrive, barrier.arrive: the
// scheduler runs them).
enum class Collective : std::uint8_t { none, warp, warpgroup, cta };

// wgmma.mma_async's form (core/ptx/ptx_wgmma.h): m64nNkK, D's, A's and B's
// types, and the immediates (scale-a, scale-b, trans-a, trans-b).
struct WgmmaForm {
  int n = 0;
  int k = 0;
  DType d = DType::f32;
  DType a = DType::f16;
  DType b = DType::f16;
  bool a_in_registers = false;
  bool trans_a = false;  // imm-trans-a: A MN-major
  bool trans_b = false;  // imm-trans-b: B MN-major (K x N with N contiguous)
};

// A tcgen05 instruction's form (core/ptx/ptx_tcgen05.h): tcgen05.mma's
// kind (core/tcgen05's Tcgen05Kind), tcgen05.ld/st's shape (0 .32x32b,
// 1 .16x64b, 2 .16x128b, 3 .16x256b), its .xN and the registers a thread
// gives.
struct Tcgen05Form {
  std::uint8_t kind = 0;
  std::uint8_t shape = 0;
  int num = 1;
  int regs = 0;
};

enum class Cmp : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class BoolOp : std::uint8_t { none, and_op, or_op, xor_op };
enum class IntMode : std::uint8_t { none, lo, hi, wide };
enum class Rounding : std::uint8_t { none, rn, rz, rm, rp, rni, rzi, rmi, rpi };

struct Instruction {
  SourceLoc loc;
  // The compiler's source line the `.loc` before it names (the .cu or .py
  // line; `.file`'s name); file empty where the PTX has none.
  SourceLoc source;
  std::string opcode;  // as written: "ld.global.v4.b32"
  int guard = -1;      // the guarding predicate register, or -1
  bool guard_negated = false;
  ThreadExec thread = nullptr;
  WarpExec warp = nullptr;
  Collective collective = Collective::none;
  PtxType type{};   // the instruction type (the destination's for cvt)
  PtxType type2{};  // cvt's source type; setp's and selp's are `type`
  Space space = Space::generic;
  int vec = 1;  // .v2 / .v4
  Cmp cmp = Cmp::eq;
  BoolOp boolop = BoolOp::none;
  IntMode mode = IntMode::none;
  Rounding rounding = Rounding::none;
  bool ftz = false;
  bool sat = false;
  bool trans = false;  // ldmatrix .trans
  // ldmatrix, stmatrix: matrices; wait_group: N; shfl, vote: the mode;
  // bar.arrive, barrier.arrive: 1 (the thread does not wait)
  std::int64_t count = 0;
  const MmaInst* mma = nullptr;
  WgmmaForm wgmma{};
  Tcgen05Form tcgen05{};
  std::vector<Operand> ops;
};

}  // namespace mmacheck::ptx
