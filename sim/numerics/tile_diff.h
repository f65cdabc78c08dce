// TileDiff — a file's random cases against their reference, D element by
// element: what `mmacheck sim` on a family's file (a wgmma, tcgen05 or
// mma.sp file: sim/wgmma/wgmma_file_sim.h, sim/tcgen05/tcgen05_file_sim.h,
// sim/sparse/sparse_file_sim.h) counts and reports.
//
//     TileDiff diff;
//     diff.add_case(0, Distribution::normal, n, expected, got, options.show);
//     diff.failed_cases == (expected != got)
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/numerics/random_inputs.h"

namespace mmacheck::sim {

// The options of a file's simulation.
struct FileSimOptions {
  int cases = 64;
  std::uint64_t seed = 1;
  InputSet inputs = InputSet::standard;  // the distributions the cases take turns over
  int show = 10;                         // mismatches kept
};

struct TileMismatch {
  int case_index = 0;
  Distribution dist{};
  int row = 0, col = 0;        // of D
  std::uint64_t expected = 0;  // the reference's bits
  std::uint64_t got = 0;       // the program's run (all ones where it reads D from nowhere)
};

struct TileDiff {
  std::int64_t cases = 0, failed_cases = 0;
  std::int64_t outputs = 0, wrong_elements = 0;
  std::vector<TileMismatch> mismatches;  // the first `show`

  // One case's D (row-major, `cols` wide) against the reference; an element
  // whose `missing` is nonzero (where given) differs whatever its bits.
  void add_case(int case_index, Distribution dist, int cols, std::span<const std::uint64_t> expected,
                std::span<const std::uint64_t> got, int show, std::span<const std::uint8_t> missing = {});
};

}  // namespace mmacheck::sim
