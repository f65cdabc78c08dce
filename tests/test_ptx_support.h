// What the PTX tests share: a launch's sim cases counted against the f64
// reference's bound.
#pragma once

#include <cstdint>
#include <string>

namespace mmacheck::test {

// The elements outside the f64 reference's rounding bound over `cases`
// sim cases (sm_90, standard inputs, seed 1) of the PTX kernel at `path`
// (repository-relative) with its launch file beside it; REQUIREs that no
// case is refuted.
std::int64_t sim_outside_bound(const std::string& path, int cases);

}  // namespace mmacheck::test
