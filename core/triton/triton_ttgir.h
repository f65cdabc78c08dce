// read_ttgir() — the layouts of Triton's TTGIR text for `mmacheck triton`:
// a whole module (a .ttgir or .mlir file, as `make_ttgir` prints it), or a
// text file of attribute definitions and uses.  Attribute text is read as
// Triton 3.9 prints it:
//
//   #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0,
//          warpsPerCTA = [2, 2], CGALayout = [[0, 1]], instrShape = [16, 8]}>
//   %c = tt.dot %a, %b, %acc, inputPrecision = tf32 :
//          tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> *
//          tensor<32x64xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> tensor<64x64xf32, #mma>
//   tensor<64x64xf32, #ttg.linear<{register = [[0, 1]], lane = [...], warp = [...], block = []}>>
//
// (older Triton's CTAsPerCGA, CTASplitNum, CTAOrder fields are read too).
// Each `tt.dot` gives one group: A, B and the result (its accumulator) with
// the types' shapes and element types (f32 operands are tf32: mma.sync reads
// fp32 only so); a line that is a bare `tensor<...>` type, or a bare
// `tensor<A> * tensor<B> -> tensor<D>` signature, gives one layout or one
// group (a #ttg.linear accumulator of a dot takes its operands' parent's
// warpsPerCTA, which fixes the lowering's register order).  The encodings
// become linear layouts by mmacheck's own conversion
// (core/triton/triton_mma_linear.h); over several CTAs the layout of CTA 0
// is checked.
//
// A `ttng.warp_group_dot` (Hopper's wgmma: `A * B -> tensor<D>`, D over a
// versionMajor 3 #ttg.nvidia_mma, A a `!ttg.memdesc<...>` buffer or a
// #ttg.dot_op opIdx 0 tensor in registers, B a buffer) gives D (checked
// against wgmma's D frame, core/triton/triton_check.h), A in registers
// (against wgmma's A fragment; its kWidth must be 32 / bits, as Triton's
// verifier requires) and each #ttg.nvmma_shared buffer judged by
// core/triton/triton_nvmma_shared.h (refuted or unchecked: the descriptor
// that decides what wgmma reads is not in the TTGIR).
//
// Other lines of a module are ops and are skipped, and definitions of
// TTGIR's other encodings (#ttg.blocked, #ttg.swizzled_shared, loc(...)
// ...) are skipped until a dot uses one.  Everything else is an Error at
// FILE:LINE:COL: an unknown attribute or field, a field given twice or
// missing, an undefined alias, a version-2 instrShape other than [16, 8], a
// tt.dot operand whose opIdx is not its position, a kWidth below what one
// 32-bit register of the element type holds (32 / bits: MMAv2's lowering
// packs kWidth elements per register), a shape that is not 2-D powers of
// two, an element type mma.sync cannot take there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/triton/triton_check.h"
#include "core/triton/triton_dot.h"
#include "core/triton/triton_mma_linear.h"

namespace mmacheck {

// One tensor type, `tensor<64x32xf16, ENCODING>`, its encoding resolved.
struct TtgirTensor {
  enum class Kind { mma, dot, linear, other };
  std::vector<std::int64_t> shape;
  std::string element;  // MLIR's name: f16, bf16, f32, i8, i32, f8E4M3FN, ...
  SourceLoc at, element_at, encoding_at;
  Kind kind = Kind::other;
  std::string encoding;    // how it was written: "#mma" or "#ttg.dot_op"
  NvidiaMmaEncoding mma;   // Kind::mma
  DotOperandEncoding dot;  // Kind::dot
  TritonLayout linear;     // Kind::linear (bases; out dims the shape)
};

// One `tensor<...>` with inline encodings (no aliases); `text` is its whole
// text, placed at `line`:`col` of `file` in errors.
TtgirTensor parse_ttgir_tensor(std::string_view text, const std::string& file, int line = 1, int col = 1);
// The tensor's layout as Triton computes it, block dimension included.
// Error (at the encoding) for an encoding that is no version-2 MMA layout.
TritonLayout ttgir_linear_layout(const TtgirTensor& tensor);

struct TtgirFile {
  std::vector<TritonDotOperand> operands;
  // What the reader judges itself: wgmma operands in shared memory
  // (core/triton/triton_nvmma_shared.h: refuted or unchecked), dots it reads
  // but does not check (tt.dot_scaled, tcgen05), unchecked with the reason.
  std::vector<TritonReport> judged;
};

// Throws Error at FILE:LINE:COL; a file with no dot and no tensor line is an
// Error too.
TtgirFile read_ttgir(const std::string& text, const std::string& file);

// Whether `text` is TTGIR rather than the JSON document of triton_dot.h:
// its first character that is not white space is not '{'.
bool is_ttgir_text(std::string_view text);

}  // namespace mmacheck
