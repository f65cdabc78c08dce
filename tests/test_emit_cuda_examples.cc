// Every example that dispatches: its emitted nest compiles with nvcc for
// sm_80 and sm_90 (fp8 nests for sm_90 only).
#include <catch2/catch.hpp>

#include "core/gemm/dispatch.h"
#include "core/emit/cuda_source.h"
#include "core/base/error.h"
#include "tests/support.h"
#include "tests/test_cuda_support.h"

namespace test_emit_cuda_examples {

using namespace mmacheck;

TEST_CASE("nvcc compiles the emitted nest of every dispatched example", "[emit_cuda][nvcc][examples]") {
  if (!test::have_nvcc()) return test::skip("no nvcc at " MMACHECK_NVCC);
  const std::vector<test::DispatchedExample> examples = test::dispatched_examples();
  if (examples.empty()) return test::skip("no example dispatches");
  std::string sm80, sm90;
  int compiled = 0;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    INFO(examples[i].path);
    const Plan& plan = examples[i].plan;
    const std::string fn = "example_" + std::to_string(i);
    const std::string wrapped = "// " + examples[i].path + "\n" + test::nvcc_wrapper(plan.nest, fn);
    if (plan.nest.inst->min_sm <= 80) sm80 += wrapped;
    sm90 += wrapped;
    ++compiled;
  }
  if (compiled == 0) return test::skip("no example dispatches");
  for (const auto& [sm, source] : {std::pair{80, sm80}, std::pair{90, sm90}}) {
    if (source.empty()) continue;
    const test::CompileResult r = test::nvcc_compile(source, sm);
    INFO("sm_" << sm << "\n" << r.log);
    CHECK(r.ok);
  }
}

}  // namespace test_emit_cuda_examples
