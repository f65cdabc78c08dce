// ReleaseKernel — a released-TIRx kernel (docs/tirx-release.md) as plain
// values, whoever read it: the text reader (tirx_release_reader.h) or the
// Python package walking a live tvm_tirx PrimFunc (python/, no text round
// trip).  release_program() turns it into the Program every command checks:
// one logical buffer per register image, the gemm D = A @ B^T (+ C), the
// staging statements.  It checks what no reader can be trusted to have
// checked (names that resolve, counts that agree) and throws Error at the
// value's location otherwise, never a verdict on a kernel it misread.
//
//     ReleaseKernel k;
//     k.file = "seed.py";
//     k.mma = ReleaseMma{...};                 // tile.apply's opcode and images a, b, d
//     k.views.emplace("a_h", ReleaseView{"a", "float16", 16, 8, loc});
//     k.globals.emplace("A", ReleaseGlobal{{16, 16}, "float16", loc});
//     k.transfers.push_back(ReleaseTransfer{false, "a_h", "A", row, col, loc});
//     Program p = release_program(k);          // buffers a, b, d, A, ...; stage a = A[row, col]
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/program/index_expr.h"
#include "core/program/program.h"
#include "core/program/release_mma.h"

namespace mmacheck {

// A register view: `X_h = T.decl_tensor(X.data, ty_args=[T.Tensor((n,), dtype, ...)])`:
// slot s of the view is element slot s of allocation `alloc`.
struct ReleaseView {
  std::string alloc;
  std::string dtype;  // TVM's name
  int bits = 32;
  std::int64_t size = 0;
  SourceLoc loc;
};

// A global tensor parameter `A: T.Tensor(shape, dtype)`.
struct ReleaseGlobal {
  Shape shape;
  std::string dtype;  // TVM's name
  SourceLoc loc;
};

// `view[s] = G[ROW, COL]` (store: `G[ROW, COL] = view[s]`) inside one loop
// over s; ROW and COL over lane, tid and s.  `constant`: `view[s] =
// T.float32(0)` or `T.float32(1.5)`, the value as the view's type holds it,
// no tensor (global empty); a nonzero one only into D's f32 accumulators.
struct ReleaseTransfer {
  bool store = false;
  std::string view, global;
  IndexExpr row, col;
  SourceLoc loc;
  std::optional<SlotLoop> slots{};  // absent: every register of the view, in order
  std::optional<float> constant{};
};

// A shared tensor `A_s = T.alloc_shared((16, 16), "float16")` (TVM's print:
// T.alloc_tensor(ty_args=[T.Tensor(..., scope="shared")])), row-major.
struct ReleaseShared {
  Shape shape;
  std::string dtype;  // TVM's name
  SourceLoc loc;
};

struct ReleaseKernel {
  std::string file;
  ReleaseMma mma;
  // Named layouts (for messages: "A_IMG places ..."); an image whose layout
  // equals one gets its logical buffer's layout under the same name.
  std::map<std::string, TileLayout, std::less<>> layouts;
  std::map<std::string, ReleaseView, std::less<>> views;
  std::map<std::string, ReleaseGlobal, std::less<>> globals;
  std::vector<ReleaseTransfer> transfers;
  // Staging through shared memory (docs/tirx-release.md, "ldmatrix"): the
  // shared tensors, the copy loops that fill them (one fill each, seen after
  // the barrier that follows it), the ldmatrix instructions reading them
  // into the images' registers, and the applies the dispatch checks.
  std::map<std::string, ReleaseShared, std::less<>> shared;
  std::vector<SharedFillStmt> fills;
  std::vector<SharedCopyStmt> copies;
  std::vector<ReleaseMatrixCopy> matrix_copies;
  // The block's threads (block=[N]): 32; fewer, which TVM's pattern refuses
  // (its lanes are the program's scope; dispatch declines it); or whole
  // warps (a CTA scope), each warp running the mma on its own register images
  // and staging the slice its warp id picks.
  int threads = 32;
};

// Another T.cuda.tile.apply of the kernel whose mma so far is `mma`
// (ReleaseMma::statements): `apply` must run the same instruction over the
// same D, A and B images; its C (apply.c) is absent (a scalar:
// apply.statements' one), D's own image (it accumulates), or the one C image
// the kernel reads.  Throws Error at apply.loc otherwise.
//
//     append_apply(k.mma, second);  // k.mma.statements: {zero at line 27, accumulate at line 28}
void append_apply(ReleaseMma& mma, const ReleaseMma& apply);

// The width of a TVM scalar dtype a register image or view may have
// ("float16" -> 16, "uint32" -> 32); nullopt for any other name.
std::optional<int> release_dtype_bits(std::string_view tvm_name);

// The K of an mma shape: "m16n8k16" -> 16, "m16n8k8" -> 8; 0 for any other.
int mma_shape_k(std::string_view shape);

// Throws Error at the image's location unless its layout has as many
// elements as its shape and it is a register (local) image.
void check_release_image(const ReleaseImage& image);
// Throws Error at `loc` unless a view of `shape` with `layout` is one mmacheck
// reads: one dimension, the default layout S[n : 1].
void check_release_view(const std::string& name, const Shape& shape, const TileLayout& layout, const SourceLoc& loc);

Program release_program(const ReleaseKernel& kernel);

}  // namespace mmacheck
