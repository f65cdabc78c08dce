// Where tcgen05.mma writes its accumulator D in tensor memory (TMEM), and
// check_tmem(): does a program's layout of D over TMEM lanes and columns put
// every D[m][n] where the instruction writes it?
//
// TMEM is 128 lanes x 512 columns of 32 bits per CTA; warp w of a warpgroup
// reaches lanes 32(w%4)..32(w%4)+31 (its subpartition).  A 32-bit D (f32,
// s32) element takes one column.  The data-path layouts (PTX ISA §9.7.16.4.3
// "Data path layout organization", whose figures are pictures; the positions
// here are CUTLASS's tmem_frg atoms in cute/atom/mma_traits_sm100.hpp, which
// state them as (M, N) -> (lane, column) layouts), with D at TMEM address
// (lane L0, column C0):
//
//   cta_group::1 M = 128   D[m][n] in lane m, column C0 + n
//   cta_group::1 M = 64    lane L0 + (m % 16) + 32 (m / 16), column C0 + n: the
//                          upper or lower half (L0 = 0 or 16) of each
//                          subpartition's 32 lanes
//   cta_group::2 M = 256   CTA m / 128 of the pair, lane m % 128, column C0 + n
//   cta_group::2 M = 128   CTA m / 64, lane (m % 64) + 64 (n / (N/2)),
//                          column C0 + n % (N/2): the first half of N in
//                          lanes 0-63, the second in lanes 64-127
//
// (.ws forms, M = 32 and M = 64 cta_group::2 are not modelled.)
//
// A 16-bit D (f16) takes a column an element too, in its low 16 bits: the
// ISA keeps a sub-word accumulator in the low bits of a 32-bit cell, and
// TIRx's tmem_mma_operand_layout states it (its TCol counts elements, so a
// 16-bit D steps TCol by 2 and the packed stride 1 fails its dispatch), as
// does CUTLASS's tmem_frg<half_t, uint32_t>.  A 16-bit D's layout is read
// in TIRx's units: TCol t is column t / 2, its high half when t is odd.
//
// A program says where it expects D by a TileLayout over D's M x N
// (row-major flat index m * N + n) with strides on the memory axes TLane and
// TCol (TIRx's), and, for cta_group::2, on cbx (cluster -> CTA) for the CTA
// of the pair:
//
//     S[(4, 16, 256) : (32@TLane, 1@TLane, 1@TCol)]      M = 64, N = 256 at (0, 0)
//
// Every element is compared (at most 256 x 256): proved, or refuted naming
// the first D[m][n] placed elsewhere, both positions, and which coordinate
// (CTA, lane, column) differs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"
#include "core/layout/tile_layout.h"
#include "core/prove/frame_verdict.h"

namespace mmacheck {

struct TmemPosition {
  std::int64_t cta = 0, lane = 0, column = 0;
  int high = 0;  // a 16-bit element in the column's high half (1) or low half (0)
  bool operator==(const TmemPosition&) const = default;
  std::string str() const;  // "CTA 0 lane 17 column 3", "... column 3, high 16 bits"
};

// One data-path layout (a table row).
struct DataPathLayout {
  int cta_group;
  int m;
  std::string_view rule;  // how D's rows and columns go to lanes and columns, in words
};
std::span<const DataPathLayout> data_path_layouts();
const DataPathLayout* find_data_path(int cta_group, int m);  // nullptr when not modelled

// Where tcgen05.mma writes D[row][col] (N columns), D at TMEM (base_lane, base_col).
TmemPosition tmem_position(const DataPathLayout& path, int n, int base_lane, int base_col, int row, int col);
// "" when D may sit at this TMEM address, else why not (lane 0, or 0/16 for
// M = 64; the columns inside 0..511).
std::string tmem_address_problem(const DataPathLayout& path, int n, int base_lane, int base_col);

// The position a layout over M x N (axes TLane, TCol, cbx) gives each element,
// row-major; throws Error when it names another axis or is not M * N large.
std::vector<TmemPosition> tmem_placement(const TileLayout& layout, int m, int n);

struct TmemCase {
  std::string name;  // "D (line 9)"
  SourceLoc loc;
  int cta_group = 1, m = 128, n = 128;
  int d_bits = 32;  // 32 or 16
  int base_lane = 0, base_col = 0;
  std::vector<TmemPosition> placed;  // element (m, n) at m * N + n, TCol as the layout gives it
  std::string placement;             // the layout's text
};

// The case's placed positions as TMEM words: a 16-bit D's TCol counts
// 16-bit halves (TIRx's units), so TCol t is column t / 2, its high half
// when t is odd.
std::vector<TmemPosition> tmem_words(const TmemCase& c);

struct TmemMismatch {
  int row = 0, col = 0;
  TmemPosition written, placed;
};

struct TmemReport {
  std::string name;
  FrameVerdict result = FrameVerdict::proved;
  std::optional<TmemMismatch> counterexample;
  int mismatches = 0;
  std::string message;
};

TmemReport check_tmem(const TmemCase& c);

}  // namespace mmacheck
