// libFuzzer harness: a layout file through the whole CPU pipeline — parse,
// dispatch, prove (both methods; Z3 under a short whole-run limit),
// the SVG, the emitters and the warp machine on one random case.
#include "core/emit/cuda_source.h"
#include "core/emit/svg.h"
#include "core/emit/tirx_text.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "sim/numerics/mma_model.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return fuzz::run_one([&] {
    const Program program = parse_program(fuzz::as_text(data, size), "fuzz.txt");
    const Limits limits = fuzz::small_limits();
    const Plan plan = dispatch(program, InstSet::extended, limits);
    ProveOptions options;
    options.limits = limits;
    options.method = ProofMethod::exhaustive;
    const ProofReport exhaustive = prove(program, plan, options);
    options.method = ProofMethod::z3;
    options.timeout_ms = 200;
    (void)prove(program, plan, options);
    (void)draw_svg(program, exhaustive);
    if (!plan.ok) return;
    (void)emit_tirx(plan);
    (void)emit_cuda(plan.nest);
    sim::SimCheck check(program, plan.nest, sim::arch_params("sm_90"));
    (void)check.failures(check.random_case(static_cast<int>(size % 8), 1));
  });
}
