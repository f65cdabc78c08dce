#include "tests/test_ptx_support.h"

#include <catch2/catch.hpp>

#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "sim/ptx/ptx_sim.h"
#include "tests/support.h"

namespace mmacheck::test {

std::int64_t sim_outside_bound(const std::string& path, int cases) {
  const ptx::PtxModule m = ptx::read_ptx(read_file(source_path(path)), path);
  ptx::PtxLaunch l = ptx::read_launch_for(source_path(path));
  const ptx::PtxKernel& k = ptx::bind_launch(l, m);
  std::int64_t n = 0;
  for (int i = 0; i < cases; ++i) {
    const sim::PtxCase c = sim::simulate_ptx_case(k, l, sim::arch_params("sm_90"), 1, i, sim::InputSet::standard);
    REQUIRE_FALSE(c.refutation.has_value());
    n += c.outside_bound;
  }
  return n;
}

}  // namespace mmacheck::test
