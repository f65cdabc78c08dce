// The wgmma kernel (cuda/wgmma_kernel.h) and its differential
// (cuda/wgmma_gpu.h): the generated source has the staging, the fences and
// the wait; NVRTC compiles it for sm_90a for every type row (skipped
// without NVRTC) and refuses it for plain sm_90; on an sm_90 device the
// differential matches the simulator (skipped without one).
#include <catch2/catch.hpp>

#include <optional>

#include "cuda/device.h"
#include "cuda/nvrtc.h"
#include "cuda/wgmma_gpu.h"
#include "cuda/wgmma_kernel.h"
#include "tests/support.h"

namespace test_cuda_wgmma {

using namespace mmacheck;
using namespace mmacheck::cuda;
using namespace mmacheck::sim;

namespace {

std::optional<Nvrtc> nvrtc_or_skip() {
  try {
    return Nvrtc::load();
  } catch (const Error& e) {
    test::skip(e.message());
    return std::nullopt;
  }
}

WgmmaRun run_of(const std::string& ptx, Major major = Major::k, SwizzleMode mode = SwizzleMode::b128) {
  return dense_wgmma_run(*parse_wgmma_inst(ptx), major, mode, major, mode);
}

}  // namespace

TEST_CASE("the wgmma kernel stages, fences, issues, commits, waits and stores", "[cuda][wgmma]") {
  const WgmmaKernel k = wgmma_kernel(run_of("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", Major::mn));
  CHECK(k.threads == 128);
  CHECK(k.regs == 32);
  std::size_t at = 0;
  for (const char* step : {"fence.proxy.async.shared::cta", "__syncthreads", "wgmma.fence.sync.aligned",
                           "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0,", "p, 1, 1, 1, 1;",
                           "wgmma.commit_group.sync.aligned", "wgmma.wait_group.sync.aligned 0", "dout[r]"}) {
    INFO(step);
    const std::size_t found = k.source.find(step, at);
    REQUIRE(found != std::string::npos);
    at = found;
  }
  // fp8 and tf32 have no imm-trans operands, s32 no imm-scale either.
  CHECK(wgmma_kernel(run_of("wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e5m2")).source.find("p, 1, 1;") !=
        std::string::npos);
  CHECK(wgmma_kernel(run_of("wgmma.mma_async.sync.aligned.m64n16k32.s32.u8.s8")).source.find("%9, p;") !=
        std::string::npos);
  CHECK(wgmma_descriptors(run_of("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"))[0] ==
        MatrixDescriptor{.start = 0, .lbo = 16, .sbo = 1024, .base_offset = 0, .swizzle = SwizzleMode::b128}.encode());
  // The image goes in dynamic shared memory: past the 48 KB of static
  // shared memory (TileLang's 256-row tiles, issue 39) up to Hopper's 227 KB
  // a CTA with the alignment slack; beyond that refused before any GPU.
  WgmmaRun big = run_of("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16");
  big.image_bytes = 48 * 1024;
  const WgmmaKernel k48 = wgmma_kernel(big);
  CHECK(k48.shared_bytes == 49 * 1024);
  CHECK(k48.source.find("extern __shared__") != std::string::npos);
  big.image_bytes = 226 * 1024;
  CHECK(wgmma_kernel(big).shared_bytes == 227 * 1024);
  big.image_bytes = 226 * 1024 + 16;
  CHECK_THROWS_WITH(wgmma_kernel(big), Catch::Contains("227 KB a CTA"));
}

TEST_CASE("NVRTC compiles the wgmma kernel of every type row for sm_90a, not for sm_90", "[cuda][wgmma][nvrtc]") {
  const std::optional<Nvrtc> nvrtc = nvrtc_or_skip();
  if (!nvrtc) return;
  std::vector<WgmmaRun> runs;
  for (const WgmmaTypes& t : wgmma_type_rows())
    for (int n : {8, 256}) {
      const WgmmaInst inst{.n = n, .d = t.d, .a = t.a, .b = t.b};
      const std::vector<WgmmaLayoutChoice> layouts = wgmma_replay_layouts(inst);
      const WgmmaLayoutChoice& l = layouts[runs.size() % layouts.size()];
      runs.push_back(dense_wgmma_run(inst, l.a_major, l.a_mode, l.b_major, l.b_mode));
    }
  const std::vector<std::string> cubins = compile_wgmma_kernels(*nvrtc, runs, 2);
  int compiled = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    INFO(runs[i].inst.ptx());
    CHECK_FALSE(cubins[i].empty());
    compiled += cubins[i].empty() ? 0 : 1;
  }
  CHECK(compiled == 32);
  const WgmmaKernel k = wgmma_kernel(run_of("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16"));
  CHECK_THROWS_WITH(nvrtc->compile(k.source, 90, "wgmma.cu"), Catch::Contains("sm_90"));
}

TEST_CASE("the wgmma differential matches the simulator on an sm_90 device", "[cuda][wgmma][gpu]") {
  std::string why;
  const std::optional<DeviceInfo> dev = probe_device(&why);
  if (!dev || dev->sm != 90) return test::skip(dev ? "not an sm_90 device" : "no CUDA device (" + why + ")");
  std::optional<GpuSession> session = open_gpu_session(why);
  REQUIRE(session);
  for (const char* ptx :
       {"wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e5m2",
        "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32"}) {
    INFO(ptx);
    const WgmmaDiffReport r =
        wgmma_differential(*session, run_of(ptx, Major::k, SwizzleMode::b64), wgmma_arith("sm_90"), {.cases = 28});
    CHECK(r.failed_cases == 0);
    CHECK(r.vectors.size() == 28);
  }
}

TEST_CASE("gpu --inst wgmma: kernels and bad input before the GPU, exit 3 without one", "[cuda][wgmma][cli]") {
  const std::string file = test::source_path("examples/wgmma/k_sw128_f16.txt");
  const test::RunResult k = test::run_mmacheck({"gpu", file, "--print-kernel"});
  CHECK(k.status == 0);
  CHECK(k.out.find("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16") != std::string::npos);
  CHECK(k.out.find("extern __shared__") != std::string::npos);
  // The alias runs the verb: the same kernel, and a note naming the verb.
  const test::RunResult alias = test::run_mmacheck({"wgmma-gpu", file, "--print-kernel"});
  CHECK(alias.status == 0);
  CHECK(alias.out == k.out);
  CHECK(alias.err.find("run 'mmacheck gpu FILE... or gpu --inst wgmma|PTX'") != std::string::npos);
  // --inst names a kernel without a file; the family's `wgmma` the first type row.
  const test::RunResult inst =
      test::run_mmacheck({"gpu", "--inst", "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", "--print-kernel"});
  CHECK(inst.status == 0);
  CHECK(inst.out.find("m64n8k16.f32.bf16.bf16") != std::string::npos);
  CHECK(test::run_mmacheck({"gpu", "--inst", "wgmma", "--print-kernel"}).out ==
        test::run_mmacheck({"wgmma-gpu", "--inst", "all", "--print-kernel"}).out);
  // A program file has no wgmma kernel: emit --cuda is named.
  const test::RunResult program = test::run_mmacheck({"gpu", test::source_path("examples/m64.txt"), "--print-kernel"});
  CHECK(program.status == 2);
  CHECK(program.err.find("mmacheck emit") != std::string::npos);
  for (const std::vector<std::string>& bad : {
           std::vector<std::string>{"gpu", "--inst", "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16"},
           std::vector<std::string>{"wgmma-gpu", "--inst", "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16"},
           std::vector<std::string>{"gpu", "--inst", "wgmma", "--n", "8,x"},
           std::vector<std::string>{"gpu", "--inst", "mma.sync.aligned.m16n8k16"},  // no family of gpu --inst
           std::vector<std::string>{"gpu", "--inst", "wgmma", "--inst", "mma.sp", "--capture", "somewhere"},
           std::vector<std::string>{"gpu"},
       }) {
    INFO(bad.front() + " ... " + bad.back());
    CHECK(test::run_mmacheck(bad).status == 2);
  }
  // Only refuted operands: nothing to run.
  const test::RunResult none = test::run_mmacheck({"gpu", test::source_path("examples/wgmma/bad_swizzle.txt")});
  CHECK(none.status == 2);
  CHECK(none.err.find("nothing to run") != std::string::npos);
  if (!probe_device()) {
    for (const std::vector<std::string>& run :
         {std::vector<std::string>{"gpu", "--inst", "wgmma", "--cases", "2"},
          std::vector<std::string>{"wgmma-gpu", "--inst", "all", "--cases", "2"}}) {
      const test::RunResult r = test::run_mmacheck(run);
      CHECK(r.status == 3);
      CHECK(r.err.find("no GPU") != std::string::npos);
    }
  }
}

}  // namespace test_cuda_wgmma
