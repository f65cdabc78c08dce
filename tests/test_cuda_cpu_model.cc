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
#include "sim/numerics/mma_model.h"
#include "tests/support.h"
#include "tests/test_cuda_support.h"

namespace test_cuda_cpu_model {

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
  for (const auto& [name, right] :
       {std::pair{"examples/seed.txt", false}, std::pair{"examples/seed_corrected.txt", true}}) {
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

// The GPU test "every instruction on its frames" compares the device with
// test::exact_mma; that reference must itself agree with the bit-exact model
// on every integer instruction (unsigned u4/u8, b1's AND/XOR popc), so a GPU
// failure there is the device's or the kernel's, never the reference's.
TEST_CASE("the GPU tests' exact integer reference agrees with the model on every integer instruction", "[cuda]") {
  const sim::ArchParams& sm90 = sim::arch_params("sm_90");
  int checked = 0;
  for (const MmaInst& instr : mma_instructions()) {
    if (dtype_info(instr.a).is_float || !sim::has_model(instr, sm90)) continue;
    INFO(instr.ptx());
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
      const sim::GemmInputs in = test::integer_inputs(instr, seed);
      std::vector<std::uint64_t> d(static_cast<std::size_t>(instr.m * instr.n));
      sim::mma_tile(instr, sm90, in.a.bits, in.b.bits, in.c.bits, d);
      CHECK(d == test::exact_mma(instr, in));
    }
    ++checked;
  }
  CHECK(checked >= 40);  // s8/u8, s4/u4 and b1 rows of sm_90
}

}  // namespace test_cuda_cpu_model
