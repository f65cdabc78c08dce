// The device's runs of single instructions, by family: what `mmacheck gpu
// --inst NAME...` runs (cmd_gpu.cc) and, for wgmma, what `gpu FILE` runs on
// a wgmma operand file (the front door's gpu column, cli/input_kinds.h).
// Defined only in a build with the cuda layer (gpu_wgmma.cc, gpu_sparse.cc).
//
// A name says its family:
//   wgmma                 every wgmma type row at the --n list, the layouts in turn
//   wgmma.mma_async...    that instruction in every shared-memory layout
//   mma.sp                every mma.sp row the device has, each selector
//   sp.m16n8k32.f16, mma.sp::ordered_metadata...   that mma.sp row
// Each family's names make one report (FileOutcome, verdict match, differ or
// no_gpu): wgmma diffs the device against the simulator bit for bit; mma.sp
// diffs it against each arithmetic hypothesis (sim/numerics/sparse_model.h)
// and differs when the default one misses a case.
//
//     gpu_wgmma_instructions({"wgmma"}, {.cases = 32}, std::cout).status == kHolds  // on an H100
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "cli/file_batch.h"

namespace mmacheck::cli {

struct InstRunOptions {
  int cases = 64;
  std::uint64_t seed = 1;
  std::string inputs = "standard";  // wgmma: standard, edge or all (mma.sp's cases are edge-heavy always)
  int show = 10;                    // wgmma: mismatching elements printed per run
  std::string n;                    // wgmma with `wgmma`: N,N,... or every; empty: the row's default list
  std::string selector = "all";     // mma.sp: a selector or all
  bool unordered = false;           // mma.sp: spell it mma.sp, not mma.sp::ordered_metadata
  // Where the device's D goes as vector files (`mmacheck replay` replays
  // them); empty: nowhere.  wgmma: a folder, one file per run; mma.sp: one
  // file.
  std::string capture;
};

FileOutcome gpu_wgmma_instructions(const std::vector<std::string>& names, const InstRunOptions& options,
                                   std::ostream& out);
FileOutcome gpu_sparse_instructions(const std::vector<std::string>& names, const InstRunOptions& options,
                                    std::ostream& out);

// The CUDA source of the first wgmma run of `wgmma_files` (path, text) and
// `names` (wgmma names): what --print-kernel prints, no GPU needed.
std::string wgmma_kernel_source(const std::vector<std::pair<std::string, std::string>>& wgmma_files,
                                const std::vector<std::string>& names, const std::string& n);

}  // namespace mmacheck::cli
