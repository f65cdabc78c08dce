// On a GPU: kernels from layouts and from PTX frames against exact integer
// arithmetic, packed initialisation copies, the batched differential
// pipeline (cuda/gemm_stream.h, cuda/differential.h), and capture.  Each
// test is skipped without a CUDA device.
#include <catch2/catch.hpp>

#include <optional>

#include "core/gemm/dispatch.h"
#include "core/base/error.h"
#include "cuda/capture.h"
#include "cuda/differential.h"
#include "cuda/driver.h"
#include "cuda/gemm_runner.h"
#include "cuda/gemm_stream.h"
#include "cuda/case_words.h"
#include "core/base/worker_pool.h"
#include "core/program/read/read_program.h"
#include "sim/check/input_specs.h"
#include "sim/machine/warp_machine.h"
#include "cuda/mmav_writer.h"
#include "cuda/philox_kernel.h"
#include "sim/numerics/case_stream.h"
#include "tests/support.h"
#include "tests/test_cuda_support.h"

namespace test_cuda_gpu {

using namespace mmacheck;
using namespace mmacheck::cuda;
using namespace mmacheck::sim;

namespace {

struct Session {
  Gpu gpu;
  Nvrtc nvrtc;
};

std::optional<Session> session_or_skip() {
  std::string why;
  if (!probe_device(&why)) {
    test::skip("no CUDA device (" + why + ")");
    return std::nullopt;
  }
  return Session{Gpu(Driver::load()), Nvrtc::load()};
}

// Runs the program staged from its layouts on integer inputs and compares
// with exact arithmetic.
void check_exact(const Session& s, const Program& program, InstSet set) {
  const Plan plan = dispatch(program, set);
  REQUIRE(plan.ok);
  if (plan.nest.inst->min_sm > s.gpu.info().sm) return;
  const Program staged = test::layouts_only(program);
  const GemmRunner runner(s.gpu, s.nvrtc, plan.nest, build_staging(staged, plan.nest));
  std::vector<GemmInputs> cases;
  for (std::uint64_t seed = 0; seed < 8; ++seed) cases.push_back(test::integer_inputs(staged, seed));
  const auto d = runner.run(cases);
  for (std::size_t i = 0; i < cases.size(); ++i) CHECK(d[i] == test::exact_gemm(staged, cases[i]));
}

}  // namespace

TEST_CASE("GPU: the seed program computes A @ B exactly on integers", "[cuda][gpu]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  check_exact(*s, parse_program(test::kSeedProgram, "seed.txt"), InstSet::tvm);
}

TEST_CASE("GPU: every dispatched example computes its gemm exactly on integers", "[cuda][gpu][examples]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  for (const test::DispatchedExample& ex : test::dispatched_examples()) {
    INFO(ex.path);
    check_exact(*s, ex.program, ex.set);
  }
}

TEST_CASE("GPU: every instruction on its frames computes A @ B + C exactly on integers", "[cuda][gpu]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  for (const MmaInst& instr : mma_instructions()) {
    if (instr.min_sm > s->gpu.info().sm) continue;
    INFO(instr.ptx());
    const GemmRunner runner(s->gpu, s->nvrtc, frame_nest(instr), frame_staging(instr));
    std::vector<GemmInputs> cases;
    for (std::uint64_t seed = 0; seed < 4; ++seed) cases.push_back(test::integer_inputs(instr, seed));
    const auto d = runner.run(cases);
    for (std::size_t i = 0; i < cases.size(); ++i) CHECK(d[i] == test::exact_mma(instr, cases[i]));
  }
}

TEST_CASE("GPU: initialisation copies move 16-bit elements between word halves", "[cuda][gpu]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  const MmaInst& f16 = test::inst("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
  Nest n = frame_nest(f16);
  n.stmts = {InitStmt{0, 0, {0, 1, 2, 3}, {1, 0, 3, 2}}};  // D = C with each word's halves swapped
  const Staging st = frame_staging(f16);
  const GemmRunner runner(s->gpu, s->nvrtc, n, st);
  const GemmInputs in = test::integer_inputs(f16, 11);
  const std::vector<std::uint64_t> d = runner.run(std::span(&in, 1)).front();
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < 4; ++e) CHECK(d[st.d.at(lane, e)] == in.c.bits[st.c.at(lane, e ^ 1)]);
}

TEST_CASE("GPU: the batched differential run reports mismatches by case and element", "[cuda][gpu]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  const Program program = parse_program(test::kSeedProgram, "seed.txt");
  const Plan plan = dispatch(program);
  REQUIRE(plan.ok);
  const Staging staging = build_staging(program, plan.nest);
  const GemmRunner compiled(s->gpu, s->nvrtc, plan.nest, staging);
  // Small batches over two slots, so that slots are reused while others run.
  GemmStream stream(s->gpu, compiled, 5, 2);
  BatchDevice* devices[] = {&stream};
  WorkerPool pool(3);
  std::vector<WarpMachine> machines(
      3, WarpMachine(plan.nest, staging, arch_params("sm_" + std::to_string(s->gpu.info().sm))));
  // The warp machine agrees everywhere; flipping a bit of D[3][5] disagrees
  // there in every case.
  for (const bool flip : {false, true}) {
    std::vector<CaseSimulator> sims;
    for (WarpMachine& m : machines)
      sims.emplace_back([&m, flip](const GemmInputs& in) {
        std::vector<std::uint64_t> d = m.run(in);
        if (flip) d[3 * 8 + 5] ^= 1;
        return d;
      });
    const DiffReport r = run_differential(devices, staging, input_specs(program), pool, sims,
                                          {.cases = 23, .seed = 3, .max_mismatches = 4});
    CHECK(r.cases == 23);
    CHECK(r.timing.batches == 5);
    if (!flip) {
      CHECK(r.failed_cases == 0);
      CHECK(r.mismatches.empty());
      continue;
    }
    CHECK(r.failed_cases == 23);
    CHECK(r.mismatched_elements == 23);
    REQUIRE(r.mismatches.size() == 4);
    CHECK(r.mismatches[2].case_index == 2);
    CHECK(r.mismatches[2].dist == Distribution::cancel);
    CHECK((r.mismatches[2].row == 3 && r.mismatches[2].col == 5));
    CHECK((r.mismatches[2].expected ^ r.mismatches[2].got) == 1);
  }
  // The batched kernel gives what one launch of every case gives.
  std::vector<GemmInputs> cases;
  for (std::uint64_t seed = 0; seed < 7; ++seed) cases.push_back(test::integer_inputs(program, seed));
  const std::vector<std::vector<std::uint64_t>> whole = compiled.run(cases);
  const CaseWords w = case_words(staging);
  const HostBatch h = stream.host(1);
  for (std::size_t i = 0; i < 5; ++i) {
    write_matrix(cases[i].a, staging.a, w.a, h.a + i * w.a.case_bytes(), "A");
    write_matrix(cases[i].b, staging.b, w.b, h.b + i * w.b.case_bytes(), "B");
    write_matrix(cases[i].c, staging.c, w.c, h.c + i * w.c.case_bytes(), "C");
  }
  stream.launch(1, 5);
  stream.wait(1);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::int64_t e = 0; e < w.d.elements; ++e)
      CHECK(read_word(h.d + i * w.d.case_bytes() + e * w.d.word_bytes, w.d.word_bytes) == whole[i][e]);
}

TEST_CASE("GPU: capture records the device and writes readable vectors", "[cuda][gpu]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  const MmaInst& k16 = test::inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const Capture cap = capture_vectors(s->gpu, s->nvrtc, k16, {.cases = 16, .seed = 5});
  REQUIRE(cap.cases.size() == 16);
  CHECK(cap.comments.at(1).find(s->gpu.info().name) != std::string::npos);
  const sim::VectorFile back = sim::parse_vector_file(format_mmav(cap.comments, cap.cases), "captured.mmav");
  REQUIRE(back.cases.size() == 16);
  CHECK(back.cases[7].kind == "nearsum");
  CHECK(back.cases[7].d == cap.cases[7].d);
}

TEST_CASE("GPU: the device draws the host's random stream bit for bit", "[cuda][gpu][philox]") {
  const std::optional<Session> s = session_or_skip();
  if (!s) return;
  // Seeds with both halves of the key set, and cases past 2^32 (the
  // counter's high word); 64 words a case cross the host's 8-block refills.
  for (const auto& [seed, first] :
       {std::pair<std::uint64_t, std::uint64_t>{1, 0}, {0x0123456789abcdefull, (std::uint64_t{1} << 32) - 100}}) {
    constexpr std::uint32_t kCases = 4096, kWords = 64;
    const std::vector<std::uint32_t> device = device_case_stream(s->gpu, s->nvrtc, seed, first, kCases, kWords);
    REQUIRE(device.size() == std::size_t{kCases} * kWords);
    std::size_t differ = 0;
    for (std::uint32_t i = 0; i < kCases; ++i) {
      CaseStream host(seed, first + i);
      for (std::uint32_t w = 0; w < kWords; ++w) differ += host.next32() != device[std::size_t{i} * kWords + w];
    }
    CHECK(differ == 0);
  }
}

}  // namespace test_cuda_gpu
