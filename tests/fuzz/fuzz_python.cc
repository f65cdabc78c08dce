// libFuzzer harness: a .py file through the Python the reader evaluates
// (core/program/python_module.h: module values, defs, factories called by
// parametrized tests) and TVMScript, then each kernel a test builds (eight
// at most) dispatched and proved exhaustively under small limits.
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return fuzz::run_one([&] {
    const ReadProgram read = read_program(fuzz::as_text(data, size), "fuzz.py");
    const Limits limits = fuzz::small_limits();
    ProveOptions options;
    options.limits = limits;
    options.method = ProofMethod::exhaustive;
    std::size_t n = 0;
    for (const KernelInstance& k : read.instances) {
      if (n++ == 8) break;
      const Plan plan = dispatch(k.program, InstSet::extended, limits);
      (void)prove(k.program, plan, options);
    }
  });
}
