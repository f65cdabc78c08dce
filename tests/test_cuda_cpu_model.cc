// The GPU kernel's staging, run by the warp machine on the CPU, against
// exact integer arithmetic on every example: checks the slot tables (layouts
// and statements, multi-warp replication, C loaded into D when they are one
// buffer) and the nest's register conventions without a GPU.
#include <catch2/catch.hpp>

#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "core/gemm/staging.h"
#include "core/program/read/read_program.h"
#include "sim/machine/warp_machine.h"
#include "tests/support.h"
#include "tests/test_cuda_support.h"

using namespace mmacheck;

TEST_CASE("staged like the kernel, every dispatched example computes its gemm exactly", "[cuda][model][examples]") {
  int checked = 0;
  for (const test::DispatchedExample& ex : test::dispatched_examples()) {
    INFO(ex.path);
    const Plan& plan = ex.plan;
    const Program staged = test::layouts_only(ex.program);
    sim::WarpMachine machine(plan.nest, build_staging(staged, plan.nest), sim::arch_params("sm_90"));
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      const sim::GemmInputs in = test::integer_inputs(staged, seed);
      CHECK(machine.run(in) == test::exact_gemm(staged, in));
    }
    ++checked;
  }
  if (checked == 0) test::skip("no example dispatches");
}

TEST_CASE("staged by its own statements, the seed computes a wrong product, the corrected seed the right one",
          "[cuda][model][examples]") {
  for (const auto& [name, right] : {std::pair{"examples/seed.txt", false}, std::pair{"examples/seed_corrected.txt", true}}) {
    const std::string path = test::source_path(name);
    INFO(path);
    Program program;
    try {
      program = load_program(path);
    } catch (const Error&) {
      return test::skip(std::string(name) + " is missing");
    }
    const Plan plan = dispatch(program);
    REQUIRE(plan.ok);
    REQUIRE_FALSE(program.stages.empty());
    const sim::GemmInputs in = test::integer_inputs(program, 1);
    sim::WarpMachine machine(program, plan.nest, sim::arch_params("sm_90"));
    CHECK((machine.run(in) == test::exact_gemm(program, in)) == right);
  }
}
