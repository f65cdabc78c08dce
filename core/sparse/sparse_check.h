// Layer core/sparse: the mma.sp wing, its reader and check side by side.
// Uses core up to core/prove (the instruction table's metadata model,
// core/gemm/sparse_metadata.h; the verdict).
//
// check_sparse() — does a kernel's metadata for mma.sp (core/gemm/
// sparse_inst.h) say what the instruction reads from it?
//
// A SparseCase is what `mmacheck sparse FILE` reads (core/sparse/
// sparse_reader.h): the instruction, the sparsity selector the kernel passes
// as f, the kernel's metadata layout (which lanes of a quad write e, and
// which A row and chunk nibble j of lane (g, t) describes, as linear forms in
// g, t and the bits of j) and, optionally, the sparsity pattern of A (each
// chunk's two kept indices).  The checks, every point enumerated (32 lanes x
// 8 nibbles, 16 rows x k/4 chunks, 32 lanes x the A fragment; enumeration is
// the proof, as for wgmma):
//
//   layout     every (lane, nibble) holds, by the kernel's layout, the row and
//              chunk the ISA reads from it under the selector (holders: lanes
//              with t / meta_threads() == f), and the kernel's layout covers
//              every (row, chunk) of A exactly once;
//   pattern    (given a pattern) every chunk's two indices differ, and, with
//              ::ordered_metadata, increase;
//   addressed  every kept element of the logical A is read exactly once by
//              the compressed A fragment through the metadata the instruction
//              reads (the kernel's e as the ISA interprets it), and no pruned
//              element is read.  Without a pattern: for every valid nibble
//              (12 values, 6 ordered) in every chunk; once the layout is the
//              ISA's each chunk's columns depend on its own nibble only, so
//              these cover every pattern.
//
// The first failing point refutes, naming lane, register and element: "lane
// 6 (g 1, t 2) e bits 23:20: the kernel puts A row 9 chunk 1 there, the ISA
// (selector 1) reads row 9 chunk 5".
//
//     SparseReport r = check_sparse(read_sparse_file(text, "k.txt"));
//     r.result == FrameVerdict::proved
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/gemm/sparse_metadata.h"
#include "core/prove/frame_verdict.h"

namespace mmacheck {

// One coordinate as a linear form c0 + cg g + ct t + sum ctb[b] bit b of t
// + sum cj[b] bit b of j.
struct MetaAxis {
  int c0 = 0, g = 0, t = 0;
  int tbit[2] = {0, 0};  // t0, t1: the bits of t (the 8-bit rows' placement needs t % 2 and t / 2)
  int j[3] = {0, 0, 0};
  int at(int lane, int nibble) const {
    const int tq = lane % 4;
    return c0 + g * (lane / 4) + t * tq + tbit[0] * (tq & 1) + tbit[1] * (tq >> 1) + j[0] * (nibble & 1) +
           j[1] * ((nibble >> 1) & 1) + j[2] * ((nibble >> 2) & 1);
  }
};

struct SparseCase {
  std::string name;  // the file
  const SparseMmaInst* inst = nullptr;
  bool ordered = true;  // ::ordered_metadata
  int selector = 0;
  std::vector<int> holders;  // t values (lane % 4) that write e
  MetaAxis row, chunk;
  std::optional<MetaGrid> pattern;  // per (row, chunk) nibble, as the kernel means it
};

struct SparseReport {
  std::string name;
  std::string instruction;
  FrameVerdict result = FrameVerdict::proved;
  std::string check;              // the check that failed: "layout", "pattern", "addressed"; empty when proved
  std::string message;            // the first failing point, or what was proved
  std::vector<std::string> also;  // further failing points (at most 8)
};

SparseReport check_sparse(const SparseCase& c);

}  // namespace mmacheck
