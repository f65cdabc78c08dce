// ReleaseMma — a warp mma of the released TIRx (apache-tvm-tirx 0.1.0a4) as
// the program states it: the PTX mma pattern applied to register images
// (`T.cuda.tile.apply("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
// D, A, B, C, scope="warp")`), or the `T.ptx.mma` calls TVM's TileDispatch
// lowered it to (a dump).  docs/tirx-release.md.
//
// The images are the pattern's (tvm_tirx/backend/cuda/tile/patterns/mma.py):
//   D, C  (M, N, 16, 8)   f32 accumulators
//   A     (M, K, 16, k/2) 32-bit words, two 16-bit elements along K each
//   B     (N, K, 8, k/2)  the same, B given N x K
// M, N, K are instruction repeats (the pattern's unrolled loops, K
// innermost); the first K step reads C, later ones accumulate into D.  The
// front end also declares, per image, a logical buffer of the same name
// (D 16M x 8N, A 16M x kK, B 8N x kK, the layout unpacked to elements and its
// repeat axes moved beside the atom's), so that the prover, the simulator
// and the GPU runner see an ordinary gemm D = A @ B^T (+ C).
//
// A dump also carries `calls`: every unrolled T.ptx.mma with the register
// words it passes; the dispatch builds the nest from them (nothing is
// re-derived), so the prover checks what the compiler emitted.
//
// A kernel may write the mma more than once (`statements`: each
// T.cuda.tile.apply, or each T.ptx.mma statement with its unrolled calls),
// over the same D, A and B images, each apply on the regions of them it
// names (ImageRegion: the pattern over the region's repeats); each runs where it is written
// (program_order), and each apply's first K step reads its own C: a scalar, the
// C image, or D's own registers (accumulating onto what D holds).
//
//     T.cuda.tile.apply(OP, d, a, b, T.float32(0), scope="warp")   # D = A·B
//     T.cuda.tile.apply(OP, d, a, b, T.float32(1.5), scope="warp") # D = A·B + 1.5
//     T.cuda.tile.apply(OP, d, a, b, d, scope="warp")              # D = 2·A·B
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/layout/tile_layout.h"
#include "core/program/dtype.h"
#include "core/program/release_ldmatrix.h"

namespace mmacheck {

enum class MemScope;

// One operand's register image: a `T.alloc_local` / `T.alloc_tensor`.
struct ReleaseImage {
  std::string buffer;  // the allocation's name (and its logical buffer's)
  Shape shape;         // as allocated: (*batch, M, N|K, 16|8, 8|k/2)
  std::string dtype;   // as allocated, TVM's name ("uint32" words, "float32" accumulators)
  int bits = 32;       // of one element
  MemScope scope;
  TileLayout layout{std::vector<Iter>{}};
  SourceLoc loc;
};

// Where one accumulator element of a lowered T.ptx.mma reads its C input:
// a register word of D or C, or a scalar (`T.float32(0.0)`, `T.float32(1.5)`).
struct LoweredInput {
  enum class Kind { d_register, c_register, scalar };
  Kind kind = Kind::scalar;
  int reg = 0;         // a register word of D or C
  float value = 0.0f;  // the scalar
};

// One unrolled T.ptx.mma of a dump: its repeat indices and register words.
struct LoweredMma {
  std::vector<int> repeat;      // the enclosing T.unroll indices, outermost first
  std::vector<int> d, a, b;     // register words, PTX operand order
  std::vector<LoweredInput> c;  // one per accumulator element
  std::string origin;           // "T.ptx.mma at line 27 (repeat_2 = 1)", for counterexamples
  SourceLoc loc;
  std::size_t statement = 0;  // which of ReleaseMma::statements wrote it
};

// The part of a register image an apply names (`d[0:1, :, :, :]`, `a[1, :, :, :]`,
// `d[0:1]`): per dimension its first index and extent, as TVM's TensorRegion
// holds it (an index is extent 1; dimensions not written are whole).  The
// pattern runs over the region's repeats, reading register r of repeat (i, j)
// at the image's (begin[0] + i, begin[1] + j).  Empty: the whole image.
struct ImageRegion {
  Shape begin, extent;
  bool whole() const { return begin.empty(); }
};

// One mma statement as written: where it runs, and (an apply) what its first
// K step reads as C: a scalar (`T.float32(0)`, `T.float32(1.5)`, `1.5`: the
// same value in every accumulator), the C image, or D's own registers.  A
// dump's calls say their C themselves.  TVM's PTX table takes a float32
// scalar only: `scalar_dtype` is the scalar's type as TVM types it
// ("float32"; "int32" for a Python int, "float16" for T.float16(0)), and the
// dispatch declines any other in TVM's words.
struct ReleaseMmaStatement {
  enum class C { scalar, image, accumulate };  // a scalar, ReleaseMma::c, D's own registers
  SourceLoc loc;
  C c = C::scalar;
  float scalar = 0.0f;
  std::string scalar_dtype = "float32";
  // The regions of the images the apply names (ImageRegion); c: of the C
  // image or, accumulating, of D's registers it reads as C.
  struct Regions {
    ImageRegion d, a, b, c;
  } regions{};
};

struct ReleaseMma {
  bool lowered = false;  // a TileDispatch dump (T.ptx.mma calls) rather than T.cuda.tile.apply
  std::string opcode;    // "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
  SourceLoc loc;         // the call
  ReleaseImage d, a, b;
  std::optional<ReleaseImage> c;                // absent: C is a scalar (statements, calls)
  std::vector<LoweredMma> calls;                // lowered only
  std::vector<ReleaseMmaStatement> statements;  // at least one, in written order
  // The kernel's ldmatrix applies, for the dispatch to run the pattern's
  // checks on (a dump's T.ptx.ldmatrix calls are not re-checked); what each
  // moves is a SharedCopyStmt of the Program.
  std::vector<ReleaseMatrixCopy> matrix_copies;
};

// Whether TVM's mma pattern lowers this opcode at all: m16n8k8 or m16n8k16
// with f16 or bf16 inputs and f32 accumulation.  dispatch_release declines
// every other ("mma pattern requires ..."), so a reader need not read what
// such a kernel stages.
bool release_pattern_opcode(std::string_view opcode);

}  // namespace mmacheck
