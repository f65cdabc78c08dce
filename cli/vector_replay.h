// Replaying vector files — recorded answers of an instruction (H200
// captures, MMA-Sim's models) — through the simulator of the instruction
// family the file's first `instr` line names:
//
//   mma.sync, its block-scaled forms   the lane-accurate warp machine (sim/vectors/vector_file.h)
//   mma.sp                             under a pruned-position hypothesis (sim/vectors/sparse_vectors.h)
//   wgmma                              shared memory, descriptors, the warpgroup (sim/wgmma/wgmma_vectors.h)
//   tcgen05                            descriptors, TMEM, sm_100's arithmetic (sim/tcgen05/tcgen05_vectors.h)
//
// `mmacheck replay`, the front door's vector row (cli/input_kinds.h) and the
// family commands' --vectors (mma, sparse, wgmma-sim, tcgen05-sim) all
// replay through here, so a vector file gets the same report whichever way
// it comes in.
//
//     const VectorFamily f = vector_family(read_text_file(path)).value();   // VectorFamily::wgmma
//     const ReplayResult r = replay_vectors(f, {path}, {}, std::cout);       // "64 passed, 0 failed (...)"
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/json.h"

namespace mmacheck::cli {

enum class VectorFamily { mma, sparse, wgmma, tcgen05 };

// "mma", "mma.sp", "wgmma", "tcgen05".
std::string_view family_name(VectorFamily family);

// The family of a vector file: its first `instr` line's instruction, when
// the text has a `case` line too (what every vector file has and the
// families' own input files do not); nullopt otherwise.
std::optional<VectorFamily> vector_family(std::string_view text);

struct ReplayOptions {
  std::optional<std::string> arch;  // the arithmetic; default: the family's (sm_90, tcgen05 sm_100)
  int show = 10;                    // mismatching elements to print (mma: per file; mma.sp: 3 per file)
  std::string sparse_arith;         // mma.sp's hypothesis (zeros, kept, kept-packed, all); "" its default
  bool json = false;                // no text; the report in ReplayResult::json
};

struct ReplayResult {
  int passed = 0, failed = 0;  // cases
  // file_json's body: {"verdict": "passed"|"failed", "cases", "family",
  // "arch", "passed", "failed", the family's details}.
  Json json;
};

// Replays `files`, all of `family` (each is checked: a file of another
// family or none is bad input), the text report on `text` unless
// options.json.  Throws Error (located) on bad input before anything runs.
ReplayResult replay_vectors(VectorFamily family, const std::vector<std::string>& files, const ReplayOptions& options,
                            std::ostream& text);

}  // namespace mmacheck::cli
