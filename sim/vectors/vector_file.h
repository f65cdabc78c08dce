// Layer sim/vectors: .mmav vector files. Uses core, sim/numerics, sim/machine.
//
// Tensor-core test vectors (format mmav-1, ../shared/VECTORS.md): parsing,
// and running each case through the lane-accurate path.
//
//     instr mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//     case 0 normal
//     A <m*k hex words>   B <k*n>   C <m*n>   D <m*n>   (logical, row-major)
//
// m8n8k4 f16 (sm_70's quad pairs) holds its four products stacked along the
// rows: A 4*m*k words (product p's A is rows 8p..8p+7), B 4*k*n, C and D
// 4*m*n (MmaInst::a_elems ...; core/gemm/ptx_frame.h).
// A block-scaled instruction (sm_120's mxf8f6f4, mxf4, mxf4nvf4;
// docs/block-scaled.md) has two more lines, its scale tiles, 2 hex digits a
// word: `SA <m*scale_vec>` (row-major: row i's K-blocks), `SB
// <scale_vec*n>` (block-major: block v's n columns), and optionally `SEL
// <byte-id-a> <thread-id-a> <byte-id-b> <thread-id-b>` (decimal, default 0 0
// 0 0), the selectors through which the lanes' scale words are read.
// mxf4/mxf4nvf4's e2m1 A and B words are one hex digit (the packed nibble).
// `#` starts a comment line; an instr line applies to the cases after it.
// Each word is one element's raw bits, zero-padded to the element width
// (2 hex digits for 8-bit types, 4 for 16-bit, 8 for f32/tf32/s32, 16 for
// f64).  Malformed input throws Error at FILE:LINE[:COL].
//
//     VectorFile f = read_vector_file("m16n8k8.f32.tf32.tf32.f32.mmav");
//     VectorReport r = run_vector_file(f, arch_params("sm_90"), 10);
//     r.failed == 0
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/mma_inst.h"
#include "core/gemm/scale_frame.h"
#include "sim/numerics/mma_model.h"

namespace mmacheck::sim {

struct VectorCase {
  const MmaInst* inst;
  int id;                                 // the number on its case line
  std::string kind;                       // how the inputs were drawn ("normal", "bits", ...); may be ""
  int line;                               // line of its case line
  std::vector<std::uint64_t> a, b, c, d;  // logical tiles, row-major
  std::vector<std::uint64_t> sa{}, sb{};  // block-scaled only: the scale tiles (SA, SB lines)
  ScaleSelector sel_a{}, sel_b{};         // block-scaled only: the SEL line's selectors
};

struct VectorFile {
  std::string name;
  std::vector<VectorCase> cases;
};

// `name` is used in error locations.  Throws Error on malformed input.
VectorFile parse_vector_file(std::string_view text, const std::string& name);
// Reads and parses a file; throws Error when it cannot be read or is malformed.
VectorFile read_vector_file(const std::string& path);

// One D element that differs from the recorded bits.
struct Mismatch {
  const VectorCase* vcase;
  int row;  // of the (stacked) tile: product p's row r is p * m + r
  int col;
  std::uint64_t expected;
  std::uint64_t got;
};

// The D elements of one case that differ, computed through the lane path
// (sim/machine/lane_mma.h): A, B, C scattered into lane registers by the PTX
// frames and gathered for the model, D scattered and
// gathered back.  Empty when the case passes.
std::vector<Mismatch> run_vector_case(const VectorCase& vcase, const ArchParams& arch);

struct InstrTally {
  const MmaInst* inst;
  int passed = 0;
  int failed = 0;
};

struct VectorReport {
  std::vector<InstrTally> tallies;   // per instruction, in order of first appearance
  std::vector<Mismatch> mismatches;  // the first max_mismatches of the file
  int passed = 0;                    // cases
  int failed = 0;
};

// Runs every case; the report points into `file`, which must outlive it.
VectorReport run_vector_file(const VectorFile& file, const ArchParams& arch, std::size_t max_mismatches);

}  // namespace mmacheck::sim
