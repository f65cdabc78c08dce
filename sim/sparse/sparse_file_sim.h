// Layer sim/sparse: the mma.sp wing's simulation.  Uses core (up to
// core/sparse) and sim/numerics (the sparse arithmetic and inputs).
//
// simulate_sparse_file() — `mmacheck sim` on an mma.sp metadata file: the
// kernel's metadata, written lane by lane as its layout says, read by the
// instruction as the ISA says, with numbers.
//
// The file (core/sparse/sparse_reader.h) gives the instruction, the
// selector the kernel passes and its metadata layout: which lanes of a quad
// write `e`, and which A row and chunk nibble j of lane (g, t) holds.  Each
// random case draws a sparse A (a valid ordered nibble per chunk, or the
// file's kept pattern), B and C (sim/numerics/sparse_inputs.h); the kernel's
// 32 `e` registers are built from its layout (a holder's nibble whose row or
// chunk lies outside A holds 0; other lanes hold 0); the instruction reads
// them under the selector (meta_grid) and runs on the compressed A with the
// H200's arithmetic (kDefaultSparseArith).  The reference is the same A
// with the metadata where the ISA reads it.  D agrees bit for bit exactly
// when the kernel's metadata reaches the instruction intact (unless the
// values it confuses are equal).  A nibble the instruction reads that is no
// valid index pair (equal indices; ::ordered_metadata: decreasing) is
// undefined behaviour: the case fails there, naming row and chunk.
//
//     const SparseFileSim r = simulate_sparse_file(read_sparse_file(text, path), arch_params("sm_90"), {});
//     r.failed_cases == 0  // the metadata reaches the instruction intact
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/sparse/sparse_check.h"
#include "sim/numerics/mma_model.h"
#include "sim/numerics/tile_diff.h"

namespace mmacheck::sim {

struct SparseFileSim : TileDiff {
  std::string undefined;  // the first undefined nibble read ("case 3: the instruction reads A row 9 chunk 5 ...")
};

// The kernel's 32 e registers for a metadata grid, as its layout writes
// them (a holder's nibble outside A holds 0; other lanes hold 0).
std::vector<std::uint32_t> kernel_meta_registers(const SparseCase& c, const MetaGrid& grid);
// "" when every nibble of `grid` is a valid index pair, else "A row R chunk
// C holds 0b0101, no valid index pair (undefined behaviour)" after `who`.
std::string first_undefined_nibble(const SparseMmaInst& inst, bool ordered, const MetaGrid& grid,
                                   const std::string& who);

SparseFileSim simulate_sparse_file(const SparseCase& c, const ArchParams& arch, const FileSimOptions& options);

}  // namespace mmacheck::sim
