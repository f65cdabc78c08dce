// The warp machine: register packing, agreement with the direct evaluation
// on every instruction and on whole programs, and wrong numbers from wrong
// staging or a wrong register index, as a GPU would give.
#include <catch2/catch.hpp>
#include <functional>
#include <set>
#include <utility>

#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "core/gemm/staging.h"
#include "sim/check/direct_eval.h"
#include "sim/check/input_specs.h"
#include "sim/check/sim_check.h"
#include "sim/machine/warp_machine.h"
#include "tests/test_sim_support.h"

namespace mmacheck::test_warp_machine {
namespace {

using Cell = std::pair<std::int64_t, std::int64_t>;

std::set<Cell> failing_cells(const std::vector<sim::ElementCheck>& failures) {
  std::set<Cell> cells;
  for (const sim::ElementCheck& f : failures) cells.insert({f.row, f.col});
  return cells;
}

// The seed program's plan and a SimCheck with `nest` in place of its own.
struct Seed {
  Program program;
  Plan plan;
  explicit Seed(bool corrected) : program(test::program(test::seed_text(corrected))), plan(dispatch(program)) {}
};

}  // namespace

TEST_CASE("RegisterFile packs elements as mma registers hold them", "[sim]") {
  sim::RegisterFile f16(DType::f16, 2, 5);  // 5 slots: 3 registers, the last half used
  CHECK(f16.regs() == 3);
  CHECK(f16.per_reg() == 2);
  f16.set_slot(1, 2, 0x3c00);
  f16.set_slot(1, 3, 0xc000);
  CHECK(f16.reg(1, 1) == 0xc0003c00);  // the lower slot in the low half
  f16.set_slot(1, 2, 0x1234);
  CHECK(f16.reg(1, 1) == 0xc0001234);  // the neighbour is kept
  CHECK(f16.reg(0, 1) == 0);

  sim::RegisterFile s8(DType::s8, 1, 4);
  for (int s = 0; s < 4; ++s) s8.set_slot(0, s, 0x11 * (s + 1));
  CHECK(s8.reg(0, 0) == 0x44332211);
  s8.set_reg(0, 0, 0x1'8899aabbULL);  // bits above 32 dropped
  CHECK(s8.slot(0, 3) == 0x88);
  CHECK(s8.reg(0, 0) == 0x8899aabb);

  sim::RegisterFile f64(DType::f64, 1, 2);
  CHECK(f64.regs() == 2);
  f64.set_slot(0, 1, 0x4000000000000000ULL);
  CHECK(f64.reg(0, 1) == 0x4000000000000000ULL);

  const std::vector<std::uint64_t> values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  f16.load(values);
  CHECK(f16.slot_values() == values);
  CHECK_THROWS_AS(f16.load(std::vector<std::uint64_t>(3)), Error);
}

TEST_CASE("on every instruction's frames the warp machine equals the direct evaluation", "[sim]") {
  for (const MmaInst& inst : mma_instructions())
    for (const sim::ArchParams& arch : sim::all_arch_params()) {
      if (!sim::has_model(inst, arch)) continue;
      INFO(inst.ptx() << " on " << arch.name);
      sim::WarpMachine machine(frame_nest(inst), frame_staging(inst), arch);
      for (int i = 0; i < 16; ++i) {
        const sim::GemmInputs in = test::frame_inputs(inst, i);
        INFO("case " << i << " (" << sim::distribution_name(sim::case_distribution(i)) << ")");
        CHECK(machine.run(in) == sim::direct_eval(test::frame_geometry(inst), inst, arch, in).bits);
      }
    }
}

TEST_CASE("load puts every element where the staging table says, packed", "[sim]") {
  const Seed seed(true);
  sim::WarpMachine machine(seed.program, seed.plan.nest, sim::arch_params("sm_90"));
  sim::SimCheck check(seed.program, seed.plan.nest, sim::arch_params("sm_90"));
  const sim::GemmInputs in = check.random_case(0, 3);
  machine.load(in);
  // Lane 5 (g = 1, t = 1), slot 2 = kp 0, rM 1, kHi 0: A[9][2]; slot 3: A[9][3].
  CHECK(machine.a().slot(5, 2) == in.a.at(9, 2));
  CHECK(machine.a().reg(5, 1) == (in.a.at(9, 3) << 16 | in.a.at(9, 2)));
  // Slot 6 = kp 0, rM 1, kHi 1: A[9][10].  B slot 3 = kp 1, kHi 1: B[11][1].
  CHECK(machine.a().slot(5, 6) == in.a.at(9, 10));
  CHECK(machine.b().slot(5, 3) == in.b.at(11, 1));
  CHECK(&machine.c() == &machine.d());  // gemm(D, A, B, D): C is loaded into D
}

TEST_CASE("whole programs: warp machine equals direct evaluation and reference", "[sim]") {
  const std::pair<const char*, std::string> programs[] = {{"seed corrected", test::seed_text(true)},
                                                          {"2x2x2 tiles", test::kTiledText},
                                                          {"beta 1, separate C, bf16", test::kBetaOneText},
                                                          {"four warps", test::kFourWarpsText},
                                                          {"region, transposed B", test::kRegionTransposeText}};
  for (const auto& [name, text] : programs) {
    INFO(name);
    const Program p = test::program(text);
    const Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    sim::SimCheck check(p, plan.nest, sim::arch_params("sm_90"));
    for (int i = 0; i < 24; ++i) {
      INFO("case " << i);
      CHECK(check.failures(check.random_case(i, 5)).empty());
    }
  }
}

TEST_CASE("run() equals load, execute_nest and store, routes resolved once or on every mma", "[sim]") {
  const std::pair<const char*, std::string> programs[] = {
      {"seed", test::seed_text(false)},     {"seed corrected", test::seed_text(true)},
      {"2x2x2 tiles", test::kTiledText},    {"beta 1, separate C, bf16", test::kBetaOneText},
      {"four warps", test::kFourWarpsText}, {"region, transposed B", test::kRegionTransposeText}};
  for (const auto& [name, text] : programs) {
    INFO(name);
    const Program p = test::program(text);
    const Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    const Staging staging = build_staging(p, plan.nest);
    sim::WarpMachine stepping(plan.nest, staging, sim::arch_params("sm_90"));
    sim::WarpMachine compiled(plan.nest, staging, sim::arch_params("sm_90"));
    sim::WarpMachine resolving(plan.nest, staging, sim::arch_params("sm_90"), 0);
    // A copy shares the resolved routes (read-only) and keeps its own
    // registers: run alternately with the original, neither disturbs the other.
    sim::WarpMachine copy = compiled;
    const sim::InputSpecs specs = sim::input_specs(p);
    for (int i = 0; i < 16; ++i) {
      INFO("case " << i);
      const sim::GemmInputs in = sim::random_gemm_inputs(specs.a, specs.b, specs.c, sim::case_distribution(i), 11, i);
      stepping.load(in);
      stepping.execute_nest();
      const std::vector<std::uint64_t> want = stepping.store();
      CHECK(compiled.run(in) == want);
      CHECK(resolving.run(in) == want);
      // The copy runs the previous case, the original this one, in turn.
      if (i > 0) {
        const sim::GemmInputs before =
            sim::random_gemm_inputs(specs.a, specs.b, specs.c, sim::case_distribution(i - 1), 11, i - 1);
        stepping.load(before);
        stepping.execute_nest();
        CHECK(copy.run(before) == stepping.store());
        CHECK(compiled.run(in) == want);
      }
    }
  }
}

TEST_CASE("seed's wrong A staging: the wrong elements are the rows it mixes up", "[sim]") {
  const Seed seed(false);
  sim::SimCheck check(seed.program, seed.plan.nest, sim::arch_params("sm_90"));

  SECTION("one nonzero A element lands in the wrong row") {
    // A[0][8] = 1, B all ones.  Lane 0 slot 2 loads A[0][8] where the frame
    // reads A[8][0]: the machine puts the product in D row 8, not row 0.
    sim::GemmInputs in = check.random_case(0, 1);
    std::fill(in.a.bits.begin(), in.a.bits.end(), 0);
    in.a.bits[0 * 16 + 8] = 0x3c00;
    std::fill(in.b.bits.begin(), in.b.bits.end(), 0x3c00);
    std::set<Cell> expected;
    for (std::int64_t j = 0; j < 8; ++j) expected.insert({0, j}), expected.insert({8, j});
    const std::vector<sim::ElementCheck> failures = check.failures(in);
    CHECK(failing_cells(failures) == expected);
    for (const sim::ElementCheck& f : failures) {
      CHECK(f.got == (f.row == 8 ? 0x3f800000u : 0u));
      CHECK(f.direct == (f.row == 0 ? 0x3f800000u : 0u));
    }
  }

  SECTION("on random inputs exactly the rows with misplaced A elements are wrong") {
    // Rows of the A elements the stage table puts where the layout does not.
    const Staging wrong = build_staging(seed.program, seed.plan.nest);
    const Staging right = build_staging(test::program(test::seed_text(true)), seed.plan.nest);
    std::set<Cell> expected;
    for (std::size_t x = 0; x < wrong.a.index.size(); ++x)
      if (wrong.a.index[x] != right.a.index[x])
        for (std::int64_t j = 0; j < 8; ++j)
          expected.insert({wrong.a.index[x] / 16, j}), expected.insert({right.a.index[x] / 16, j});
    REQUIRE(!expected.empty());
    CHECK(failing_cells(check.failures(check.random_case(0, 9))) == expected);
  }
}

TEST_CASE("a wrong register index in the nest gives wrong elements", "[sim]") {
  const Seed seed(true);
  Nest nest = seed.plan.nest;
  auto& mma = std::get<MmaStmt>(nest.stmts.at(1));
  REQUIRE(mma.d == std::vector<int>{0, 1, 2, 3});

  SECTION("D registers 2 and 3 swapped: rows 8..15 have their column pairs swapped") {
    std::swap(mma.d[2], mma.d[3]);
    sim::SimCheck check(seed.program, nest, sim::arch_params("sm_90"));
    std::set<Cell> expected;
    for (std::int64_t i = 8; i < 16; ++i)
      for (std::int64_t j = 0; j < 8; ++j) expected.insert({i, j});
    CHECK(failing_cells(check.failures(check.random_case(0, 2))) == expected);
  }
  SECTION("A registers 1 and 2 swapped: every element is wrong") {
    std::swap(mma.a[1], mma.a[2]);
    sim::SimCheck check(seed.program, nest, sim::arch_params("sm_90"));
    CHECK(check.failures(check.random_case(0, 2)).size() == 16 * 8);
  }
}

TEST_CASE("the warp machine rejects a nest that does not fit its buffers", "[sim]") {
  const Seed seed(true);
  const sim::ArchParams& sm90 = sim::arch_params("sm_90");
  Nest nest = seed.plan.nest;
  std::get<MmaStmt>(nest.stmts.at(1)).b[1] = 2;  // B has 2 registers
  CHECK_THROWS_AS(sim::WarpMachine(seed.program, nest, sm90), Error);
  nest = seed.plan.nest;
  std::get<InitStmt>(nest.stmts.at(0)).d_slots.push_back(4);  // D has 4 slots
  CHECK_THROWS_AS(sim::WarpMachine(seed.program, nest, sm90), Error);
  nest = seed.plan.nest;
  std::get<MmaStmt>(nest.stmts.at(1)).a.pop_back();
  CHECK_THROWS_AS(sim::WarpMachine(seed.program, nest, sm90), Error);

  const MmaInst& e4m3 = *find_mma_inst("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
  CHECK_THROWS_AS(sim::WarpMachine(frame_nest(e4m3), frame_staging(e4m3), sim::arch_params("sm_80")), Error);
}

TEST_CASE("simulate() is the differential runner's hook", "[sim]") {
  const Seed seed(true);
  const std::function<std::vector<std::uint64_t>(const Program&, const Nest&, const sim::GemmInputs&)> hook =
      sim::simulate;
  sim::WarpMachine machine(seed.program, seed.plan.nest, sim::arch_params("sm_90"));
  sim::SimCheck check(seed.program, seed.plan.nest, sim::arch_params("sm_90"));
  for (int i = 0; i < 8; ++i) {
    const sim::GemmInputs in = check.random_case(i, 4);
    CHECK(hook(seed.program, seed.plan.nest, in) == machine.run(in));
  }
}

}  // namespace mmacheck::test_warp_machine
