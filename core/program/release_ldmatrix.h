// ReleaseMatrixCopy — an ldmatrix of the released TIRx (apache-tvm-tirx
// 0.1.0a4) as the program states it:
//
//     T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16", a_ld[:, :, :], A_w[:, :, :], scope="warp")
//
// on two 32-bit views (T.decl_tensor): the registers `a_ld` of a register
// image and the words `A_w` of a shared tensor, both regions of the
// pattern's atom (count, 8, 4): matrix, row, 32-bit word
// (tvm_tirx/backend/cuda/tile/patterns/ldmatrix.py).  The pattern checks
// that each row's four words are consecutive and 16-byte aligned in shared
// memory and that word (matrix, row, w) of the registers belongs to lane
// 4·row + w; it lowers to one instruction whose register i is the register
// word (matrix i, lane / 4, lane % 4) and whose row address in lane L is
// shared word (L / 8 % count, L % 8, 0).  What the hardware then puts in
// each register (with .trans: the transpose of each 8 x 8 matrix of 16-bit
// units) is the ldmatrix table's (core/gemm/ldmatrix.h); the pattern does
// not check that it is what the mma needs: the prover does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/layout/tile_layout.h"

namespace mmacheck {

enum class MemScope;

// A 32-bit view the pattern reads, and the region of it the apply names.
struct ReleaseMatrixOperand {
  std::string view;   // the T.decl_tensor's name
  std::string alloc;  // the allocation it views (a register image or a shared tensor)
  Shape shape;        // the view's
  int bits = 32;      // of one element of the view
  MemScope scope;
  TileLayout layout{std::vector<Iter>{}};
  // No alignment: T.Tensor's align= is not read (a located error), so every
  // view has TVM's default data_alignment, 64 bytes, which passes the
  // pattern's "requires a known 16-byte-aligned base".
  std::vector<std::int64_t> begin;
  Shape extent;  // the region's, per dimension of the view
  SourceLoc loc;
};

struct ReleaseMatrixCopy {
  std::string opcode;  // "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
  int num = 0;         // matrices: 1, 2 or 4
  bool trans = false;
  SourceLoc loc;
  ReleaseMatrixOperand dst, src;
};

// The opcode's matrix count and .trans when it is the m8n8 .b16 ldmatrix
// TVM's PTX table and pattern lower (`ldmatrix.sync.aligned.m8n8.xN[.trans]
// [.shared|.shared::cta].b16`); nullopt otherwise.
std::optional<std::pair<int, bool>> ldmatrix_opcode(std::string_view opcode);

// What the pattern refuses, in its order and words ("src: atom address must
// be 16-byte aligned: row (2, 0, 0) of 'A_w' starts at word 2 (byte 8)"), or nullopt when it
// lowers the apply.  Where TVM appends its analyzer's "cannot prove ...",
// mmacheck names the word and the lane.
std::optional<std::string> ldmatrix_refusal(const ReleaseMatrixCopy& copy);

// The instruction the pattern lowers an apply it accepts to (no repeat axes):
// `words[i]`, register i's word of the register image in every lane (an Error
// at the apply where it differs by lane), and `lane_words[L]`, the word of
// the shared view's storage lane L's row address names (lanes 0 .. 8·num-1).
struct LdmatrixLowering {
  std::vector<std::int64_t> words;
  std::vector<std::int64_t> lane_words;
};
LdmatrixLowering ldmatrix_lowering(const ReleaseMatrixCopy& copy);

// The word a shared view's element (indices, row-major over its shape) lies
// at: its layout's m.
std::int64_t view_word(const ReleaseMatrixOperand& view, const std::vector<std::int64_t>& indices);

}  // namespace mmacheck
