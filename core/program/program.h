// Layer core/program: what the readers share (Program, lexer, index and layout expressions,
// Python syntax); each reader is a room of its own above it (docs/architecture.md). Uses core/base, core/layout.
//
// Program — everything a layout file says: named layouts, buffers, the
// execution scope, the gemm call and the optional staging statements.
//
// It is the parse of the file and nothing more (no dispatch, no checking
// beyond what the grammar and name resolution need): the dispatch turns it
// into a Plan, the prover, simulator and CUDA backend read both.  The parser
// checks names (unknown, redefined, reserved), dtype and scope spellings, a
// buffer's element count against its layout's size, regions against shapes,
// lane ranges (0..31) and CTA sizes (positive multiples of 32, at most 1024);
// it records operand scopes, dtypes, alpha and beta for the dispatch to judge.
//
// Grammar (README.md "Layout files"), with what pasted TIRx code also needs:
// statements end at a newline or `;`; `from ...`/`import ...` lines are
// skipped; `buffer(...)` may be spelled `alloc_buffer`/`T.alloc_buffer` and
// takes keywords shape=, dtype=, scope= (default "global") and layout=
// (default row-major); `gemm` may be spelled `T.gemm`/`Tx.gemm`/`Tx.warp.gemm`.
// The same file (or a whole .py file) may hold TVMScript: a @T.prim_func
// whose blocks, thread ids, match_buffer, .local() views, staging loops and
// scoped gemm become the same buffers, scope, gemm and stage/store
// statements (core/program/tvmscript/, docs/tvmscript.md).  A file
// written for the released TIRx (a @T.function: T.cuda.tile.apply, or the
// T.ptx.mma dump TVM prints) is read by core/program/tirx_release/ into
// the same Program with `release` set (docs/tirx-release.md).
//
//     D = buffer((16, 8), "float32", "local", D_FRAG)
//     scope warp
//     gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
//     stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/program/dtype.h"
#include "core/base/error.h"
#include "core/program/index_expr.h"
#include "core/program/release_mma.h"
#include "core/layout/swizzle.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

enum class MemScope { local, shared, global };
std::string_view mem_scope_name(MemScope scope);  // "local", "shared", "global"

struct LayoutBinding {
  std::string name;
  TileLayout layout;
  SourceLoc loc;
};

struct BufferDecl {
  std::string name;
  Shape shape;
  DType dtype;
  MemScope scope;
  TileLayout layout;
  SourceLoc loc;
  // Shared buffers (docs/shared-memory.md): the layout gives each element's
  // offset (on `m`, in elements), then the swizzle (absent: none) permutes
  // it; `align` is the allocation's alignment in bytes; `alloc` the
  // allocation's size in elements when declared (`alloc=`), else the extent
  // of the swizzled image (shared_layout.h).
  std::optional<Swizzle> swizzle{};
  std::int64_t align = 16;
  std::optional<std::int64_t> alloc{};
};

// `scope warp` / `scope warp lanes LO..HI` / `scope cta threads N`.
struct ExecScope {
  enum class Kind { warp, cta };
  Kind kind = Kind::warp;
  int lane_lo = 0;  // active lanes [lane_lo, lane_hi] (warp scope)
  int lane_hi = 31;
  int threads = 32;  // CTA threads (cta scope); 32 for a warp
  SourceLoc loc;     // unknown when the file has no scope statement

  int warps() const { return kind == Kind::cta ? threads / 32 : 1; }
  bool full_warp() const { return lane_lo == 0 && lane_hi == 31; }
};

// A gemm operand: a buffer, optionally restricted to a region.
struct OperandRef {
  std::string buffer;
  std::optional<Region> region;  // absent: the whole buffer
  SourceLoc loc;
};

struct GemmCall {
  OperandRef d, a, b, c;
  bool transpose_a = false;
  bool transpose_b = false;
  double alpha = 1.0;
  double beta = 0.0;
  // With beta = 0, C is this scalar in every element: D = A·B + c_scalar
  // (the released TIRx's `T.cuda.tile.apply(..., T.float32(1.5))`, or D's
  // registers set to 1.5 before an apply accumulating onto them).  +0 is the
  // plain D = A·B.  Nonzero only for an f32 D (scalar_bits).
  float c_scalar = 0.0f;
  SourceLoc loc;
};

// The element bits of `value` in registers of `dtype`: an f32's own bits;
// +0 in every type.  Throws Error for another nonzero value in another
// type (mmacheck sets f32 accumulators to constants, other registers to 0).
//
//     scalar_bits(1.5f, DType::f32) == 0x3fc00000
std::uint64_t scalar_bits(float value, DType dtype);
// The shortest text that reads back as `value`: "1.5", "0.1", "-0".
std::string scalar_text(float value);

// The register slots a stage or store statement moves, when not every slot
// of its buffer: for each s in [first, end), slot `index` (an expression of
// s) with ROW and COL evaluated at the same s.  The released TIRx writes
// these as loops over part of a view (`for s in T.unroll(4, 8)`) or views
// indexed by an expression (`d_r[3 - s]`).
//
//     SlotLoop{IndexExpr::variable(IndexExpr::Kind::slot), 4, 8}  // slots 4..7
struct SlotLoop {
  IndexExpr index;
  std::int64_t first = 0, end = 0;

  // The slot the loop's iteration s moves.
  std::int64_t slot(std::int64_t s) const { return index.eval(IndexEnv{0, 0, 0, s}); }
  // "s in 4..7", "3 - s for s in 0..3"
  std::string str() const;
};

// `stage BUF[s] = SRC[ROW, COL]`: slot s of every lane of BUF is loaded with
// element (ROW, COL) of the global matrix SRC (only the slots of `slots`
// when present).  With `constant`, the slots are set to that value instead
// (the released TIRx's `d_r[s] = T.float32(0)` or `T.float32(1.5)`, in the
// buffer's type: scalar_bits); `source` is empty and ROW, COL unused.
struct StageStmt {
  std::string buffer;
  std::string source;
  IndexExpr row, col;
  SourceLoc loc;
  std::optional<SlotLoop> slots{};
  std::optional<float> constant{};
};

// `store BUF[s] -> DST[ROW, COL]`: slot s of every lane of BUF is written to
// element (ROW, COL) of DST (only the slots of `slots` when present).
struct StoreStmt {
  std::string buffer;
  std::string target;
  IndexExpr row, col;
  SourceLoc loc;
  std::optional<SlotLoop> slots{};
};

// The (iteration, slot) pairs a statement moves over a buffer of `slots`
// registers: every slot once, or its loop's.
std::vector<std::pair<std::int64_t, std::int64_t>> moved_slots(const std::optional<SlotLoop>& loop, std::int64_t slots);

// `fill S = G` / `fill S = G.T` [swizzle=SWZ]: the program's writer puts
// element (r, c) of shared buffer S — G[r][c], or G[c][r] with .T, G having
// the register operand's shape — at S's place: S's layout, then the writer's
// swizzle (S's own unless given).  `drain S -> G` is the reader that copies
// S out to G the same way.  The writer is cooperative and unordered (a TMA,
// cp.async or st.shared loop); only where it puts elements matters.
//
// The released TIRx writes the fill as a copy loop over the block's threads
// (`A_s[ROW, COL] = A[ROW2, COL2]`): `sources` then gives, per element of S
// (row-major), the element of G it receives ({-1, -1}: none), and the copy
// is seen by the other threads only after the barrier that follows it
// (`visible`; program_order runs the fill there); a copy no barrier follows
// (`synced` false) is seen by no statement: it runs after all of them.
struct SharedFillStmt {
  bool drain = false;
  std::string shared, matrix;
  bool transposed = false;
  std::optional<Swizzle> swizzle;  // the writer's (drain: reader's) own
  SourceLoc loc;
  std::vector<std::pair<std::int64_t, std::int64_t>> sources{};
  std::optional<SourceLoc> visible{};
  bool synced = true;
};

// Staging between a shared buffer and a register buffer R:
//   ldmatrix.xN[.trans] R[FIRST] = S[ROW, COL]   lane's row address: S's element (ROW, COL)
//   stmatrix.xN[.trans] R[FIRST] -> S[ROW, COL]  (ROW, COL over `lane`)
//   ld.shared R[s] = S[ROW, COL]                 one element per (lane, slot)
//   st.shared R[s] -> S[ROW, COL]
// Matrix copies move N registers of 32 bits from slot FIRST on (core/gemm/ldmatrix.h).
enum class SharedOp { ldmatrix, stmatrix, ld_shared, st_shared };
struct SharedCopyStmt {
  SharedOp op = SharedOp::ldmatrix;
  int num = 0;  // matrices: 1, 2 or 4 (plain loads/stores: 0)
  bool trans = false;
  std::string reg, shared;
  int first_slot = 0;
  IndexExpr row = IndexExpr::literal(0), col = IndexExpr::literal(0);
  SourceLoc loc;
  // Per address lane, the element (row, col) of S its row address names, from a
  // view's layout (the released TIRx's ldmatrix); empty: ROW and COL give it;
  // 32·W entries (W > 1 warps of a CTA): warp w's lane L at 32·w + L.
  std::vector<std::pair<std::int64_t, std::int64_t>> lane_elements{};
  bool store() const { return op == SharedOp::stmatrix || op == SharedOp::st_shared; }
  bool matrix() const { return op == SharedOp::ldmatrix || op == SharedOp::stmatrix; }
  // "ldmatrix.x4 A[0]", "ld.shared A[s]"
  std::string label() const;
};

// `copy R = S[.T]` (ldmatrix) / `copy S[.T] = R` (stmatrix): TIRx's copy tile
// primitive between a whole register fragment buffer R and a whole shared
// buffer S of R's shape (of its transpose with .T: R[r][c] is S[c][r]).  The
// gemm layer dispatches it into ldmatrix/stmatrix statements the way TVM's
// ldstmatrix variant does (core/gemm/copy_dispatch.h).
struct TileCopyStmt {
  std::string reg, shared;
  bool store = false;       // R -> S (stmatrix)
  bool transposed = false;  // S.T
  SourceLoc loc;
  // "copy A = A_s", "copy D_s = D"
  std::string label() const;
};

struct Program {
  std::string file;  // path as given, for messages
  std::vector<LayoutBinding> layouts;
  std::vector<BufferDecl> buffers;
  ExecScope scope;
  std::optional<GemmCall> gemm;
  std::vector<StageStmt> stages;
  std::vector<StoreStmt> stores;
  // The released TIRx's mma pattern (T.cuda.tile.apply or a lowered dump):
  // dispatched by the pattern's rules (core/gemm/dispatch_release.h), not
  // TVM main's gemm dispatch.
  std::optional<ReleaseMma> release;
  std::vector<SharedFillStmt> fills;
  std::vector<SharedCopyStmt> copies;
  std::vector<TileCopyStmt> tile_copies;
  // How the statements above run (program_order() below): in the order they
  // are written (TVMScript and the released TIRx: straight-line kernels, each
  // statement at its location, a staging loop one statement), or in the
  // layout-file dialect's declared order, whatever the lines' order: the
  // stages, the shared-memory statements, the gemm, then the stores.
  bool written_order = false;

  // nullptr when no buffer has that name.
  const BufferDecl* find_buffer(std::string_view name) const;
  // Throws Error at `loc` when no buffer has that name.
  const BufferDecl& buffer(std::string_view name, const SourceLoc& loc) const;
  // The gemm call; an Error at the file's first line when there is none
  // (a file that names no gemm says so at a place, as every error does).
  const GemmCall& gemm_call() const;
};

// One statement of a Program in the order it runs: which list it is in and
// where (`gemm` is the program's one gemm call, or one of the released
// TIRx's mma statements: Nest::parts).
struct ProgramStep {
  enum class Kind { stage, fill, copy, tile_copy, gemm, store };
  Kind kind = Kind::gemm;
  std::size_t index = 0;  // into stages, fills, copies, tile_copies, stores or release->statements
  SourceLoc loc;
};

// The program's statements in execution order (Program::written_order):
// written order sorts them by line and column; the declared order keeps each
// list's own order in the sequence stages, fills, loading copies and tile
// copies, the gemm, storing copies and tile copies, drains, stores.  A
// program without a gemm has no gemm step.
//
//     // TVMScript: a store loop at line 30 written before the gemm at line 34
//     program_order(p) == {stage (line 20), stage (line 25), store (line 30), gemm (line 34)}
std::vector<ProgramStep> program_order(const Program& program);

// "stage a (line 25)", "store d -> D (line 30)", "the gemm (line 27)", for messages.
std::string step_label(const Program& program, const ProgramStep& step);

// One kernel of those a test file's tests build (docs/tvmscript.md, "Test
// files"): TVM's test_gemm_mma_m16n8k_.py builds 77.
struct KernelInstance {
  std::string name;  // pytest's id: test_cuda_gemm_mma_lowers_tiled[2-1-1-16]
  Program program;
  SourceLoc built_at;                  // the factory call (or the kernel's def) in the test
  std::optional<std::string> expects;  // `pytest.raises(RuntimeError, match="dispatch failed") (line 412)`
  std::vector<std::string> skipped;    // what its reader passed over (T.func_attr)
  // The earlier instance of the file (an index into the same list) whose
  // kernel is this one token for token, layout for layout: one Program, whose
  // report this instance shares (core/program/kernel_instance.h).
  std::optional<std::size_t> same_as = std::nullopt;
};

}  // namespace mmacheck
