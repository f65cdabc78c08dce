// The `gpu` job as a library call (cuda/gpu_check.h), the parts that come
// before any device: a program that does not dispatch is declined without a
// GPU, and without one the run stops at the session, saying why.
#include <catch2/catch.hpp>

#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "cuda/device.h"
#include "cuda/gpu_check.h"
#include "tests/support.h"

namespace test_cuda_jobs {

using namespace mmacheck;

namespace {

Program example(const std::string& name) { return load_program(test::source_path("examples/" + name)); }

}  // namespace

TEST_CASE("run_gpu_check declines a rejected program and finds bad input before any GPU", "[jobs][cuda]") {
  cuda::LazyGpuSession session;
  const Program rejected = example("reject_alpha.txt");
  const cuda::GpuCheckReport r = cuda::run_gpu_check(rejected, session, {});
  CHECK(r.result == cuda::GpuCheckResult::dispatch_failed);
  CHECK_FALSE(r.dispatch_reasons.empty());
  CHECK(r.devices.empty());

  // Without a device the run stops at the session, saying why.
  if (cuda::probe_device()) return;
  const cuda::GpuCheckReport none = cuda::run_gpu_check(example("seed_corrected.txt"), session, {});
  CHECK(none.result == cuda::GpuCheckResult::no_gpu);
  CHECK_FALSE(none.no_gpu_reason.empty());
}

}  // namespace test_cuda_jobs
