// Sparse vector files: mma.sp test vectors (core/gemm/sparse_inst.h),
// mmav-1's layout (sim/vectors/vector_file.h) with the metadata added so that
// a captured case replays exactly as the GPU ran it:
//
//     instr mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//     case 0 normal
//     F 0                          the sparsity selector
//     E <32 words, 8 hex digits>   every lane's metadata register, lane 0 first
//     A <m * k/2 words>            the compressed A, row-major
//     B <k * n>   C <m * n>   D <m * n>
//
// (the dense vector reader refuses these files: their instr lines name
// mma.sp, which is not a row of the dense table).  Words are zero-padded hex
// of the element width, as in mmav-1.  The metadata grid the instruction
// reads is meta_grid(inst, F, E) (core/gemm/sparse_metadata.h): the E words of
// lanes that do not hold metadata under F are recorded but not read.
// Malformed input throws Error at FILE:LINE[:COL].
//
//     SparseVectorFile f = parse_sparse_vectors(text, "sp.mmav");
//     SparseVectorReport r = run_sparse_vectors(f, arch_params("sm_90"), SparseArith::zeros);
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/gemm/sparse_inst.h"
#include "sim/numerics/sparse_model.h"

namespace mmacheck::sim {

struct SparseVectorCase {
  const SparseMmaInst* inst = nullptr;
  bool ordered = true;  // the instr line's spelling
  int id = 0;
  std::string kind;
  int line = 0;
  int selector = 0;
  std::vector<std::uint32_t> e;           // 32 lanes' metadata registers
  std::vector<std::uint64_t> a, b, c, d;  // a compressed (m x k/2); logical, row-major
};

struct SparseVectorFile {
  std::string name;
  std::vector<SparseVectorCase> cases;
};

SparseVectorFile parse_sparse_vectors(std::string_view text, const std::string& name);
SparseVectorFile read_sparse_vectors(const std::string& path);
// `comments` as `# ` lines first; an instr line whenever the instruction changes.
std::string format_sparse_vectors(std::span<const std::string> comments, std::span<const SparseVectorCase> cases);

// D of a case under hypothesis `how`.
std::vector<std::uint64_t> sparse_case_d(const SparseVectorCase& c, const ArchParams& arch, SparseArith how);

struct SparseMismatch {
  int case_id, line, row, col;
  std::uint64_t expected, got;
};

struct SparseVectorReport {
  int passed = 0, failed = 0;              // cases
  std::vector<SparseMismatch> mismatches;  // the first 20
};

SparseVectorReport run_sparse_vectors(const SparseVectorFile& file, const ArchParams& arch, SparseArith how);

}  // namespace mmacheck::sim
