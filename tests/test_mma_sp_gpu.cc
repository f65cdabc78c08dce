// mma.sp on the GPU (cuda/sparse_kernel.h, cuda/sparse_gpu.h): the kernel
// source names the instruction and the selector immediate; NVRTC compiles it
// for sm_80 and sm_90 for every row and selector (skipped without NVRTC); on
// a device the GPU's D equals the default hypothesis's on edge-heavy cases,
// and the captured vectors replay (skipped without one); `sparse-gpu` exits 3
// without a GPU and 2 on bad input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <optional>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "core/base/json.h"
#include "cuda/device.h"
#include "cuda/gpu_session.h"
#include "cuda/nvrtc.h"
#include "cuda/sparse_gpu.h"
#include "cuda/sparse_kernel.h"
#include "tests/support.h"

namespace test_mma_sp_gpu {

using namespace mmacheck;
using namespace mmacheck::cuda;

TEST_CASE("the mma.sp kernel source: instruction, operands, selector immediate", "[cuda][mma-sp]") {
  const SparseMmaInst& s = *find_sparse_inst("sp.m16n8k32.f16");
  const std::string src = sparse_kernel_source(s, 1, true);
  CHECK_THAT(
      src, Catch::Contains("asm volatile(\"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 "
                           "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9, %10, %11}, {%12, %13, %14, %15}, %16, 1;\""));
  CHECK_THAT(
      sparse_kernel_source(*find_sparse_inst("sp.m16n8k16.f16.f16acc"), 3, false),
      Catch::Contains("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4, %5}, {%6, %7}, "
                      "%8, 3;"));
  CHECK_THROWS_WITH(sparse_kernel_source(s, 2, true), Catch::Contains("selector 2 out of range"));
}

TEST_CASE("NVRTC compiles the mma.sp kernel of every row and selector", "[cuda][mma-sp]") {
  std::optional<Nvrtc> nvrtc;
  try {
    nvrtc = Nvrtc::load();
  } catch (const Error& e) {
    return test::skip(e.message());
  }
  int compiled = 0;
  for (const SparseMmaInst& s : sparse_instructions())
    for (int f = 0; f < s.selectors(); ++f)
      for (const int sm : {80, 90}) {
        INFO(s.tag << " f=" << f << " sm_" << sm);
        CHECK_FALSE(nvrtc->compile(sparse_kernel_source(s, f, true), sm, "mma_sp.cu").empty());
        ++compiled;
      }
  CHECK(compiled == 2 * (3 * 4 + 3 * 2 + 4 + 2 + 5 * 2 + 5 * 1));
}

TEST_CASE("mma.sp on the device: the default hypothesis matches, captures replay", "[cuda][mma-sp][gpu]") {
  std::string why;
  const std::optional<DeviceInfo> dev = probe_device(&why);
  if (!dev || dev->sm != 90) return test::skip(dev ? "not an sm_90 device" : "no CUDA device (" + why + ")");
  std::optional<GpuSession> session = open_gpu_session(why);
  REQUIRE(session);
  for (const char* tag : {"sp.m16n8k16.f16", "sp.m16n8k32.bf16", "sp.m16n8k32.f16.f16acc"}) {
    const SparseMmaInst& s = *find_sparse_inst(tag);
    for (int f = 0; f < s.selectors(); ++f) {
      INFO(tag << " f=" << f);
      std::vector<sim::SparseVectorCase> cases = sparse_gpu_cases(s, f, true, 96, 3);
      run_sparse_on_gpu(session->gpu, session->nvrtc, cases);
      const SparseDiff diff = diff_sparse(cases, sim::arch_params("sm_90"));
      const std::size_t def = static_cast<std::size_t>(sim::kDefaultSparseArith);
      CHECK(diff.cases_differ[def] == 0);
      const sim::SparseVectorFile back = sim::parse_sparse_vectors(sim::format_sparse_vectors({}, cases), "cap.mmav");
      CHECK(sim::run_sparse_vectors(back, sim::arch_params("sm_90"), sim::kDefaultSparseArith).failed == 0);
    }
  }
}

TEST_CASE("gpu --inst mma.sp: bad input exits 2, no GPU exits 3; sparse-gpu is its alias", "[cuda][mma-sp][cli]") {
  for (const std::vector<std::string>& bad : {
           std::vector<std::string>{"gpu", "--inst", "sp.m16n8k8.f16"},
           std::vector<std::string>{"sparse-gpu", "--inst", "sp.m16n8k8.f16"},
           std::vector<std::string>{"gpu", "--inst", "mma.sp", "--cases", "0"},
           std::vector<std::string>{"sparse-gpu", "--cases", "0"},
           std::vector<std::string>{"gpu", "--inst", "mma.sp", "--selector", "x"},
       }) {
    INFO(bad[0] + " " + bad[1] + " " + bad.back());
    CHECK(test::run_mmacheck(bad).status == 2);
  }
  std::string why;
  if (probe_device(&why)) return test::skip("a device is present");
  CHECK(test::run_mmacheck({"gpu", "--inst", "sp.m16n8k16.f16", "--cases", "4"}).status == 3);
  const test::RunResult alias = test::run_mmacheck({"sparse-gpu", "--cases", "4"});
  CHECK(alias.status == 3);
  CHECK(alias.err.find("is an alias kept for one release: run 'mmacheck gpu --inst mma.sp|TAG'") != std::string::npos);
}

TEST_CASE("gpu on an mma.sp metadata file: the kernel's e registers on the device", "[cuda][mma-sp][cli]") {
  const std::string good = test::source_path("examples/sparse/k32_selector1.txt");
  const std::string wrong = test::source_path("examples/sparse/reject_k32_s8_16bit_meta.txt");
  // Metadata whose read is undefined behaviour is not run: bad input naming prove.
  std::string text = read_text_file(good);
  text.replace(text.find("chunk=4*t-8"), 11, "chunk=4*t-7");
  const std::string hole = (std::filesystem::temp_directory_path() / "mmacheck_sparse_hole.txt").string();
  write_file_atomic(hole, text);
  const test::RunResult ub = test::run_mmacheck({"gpu", hole, "--cases", "4"});
  CHECK(ub.status == 2);
  CHECK(ub.err.find("no valid index pair") != std::string::npos);
  CHECK(ub.err.find("'mmacheck prove " + hole + "' refutes the metadata") != std::string::npos);
  std::string why;
  if (!probe_device(&why)) {
    CHECK(test::run_mmacheck({"gpu", good, "--cases", "4"}).status == 3);
    return test::skip("no CUDA device (" + why + ")");
  }
  // The device computes what the simulator says through the same e; the
  // wrong layout's D differs from the metadata where the ISA reads it.
  const Json ok = Json::parse(test::run_mmacheck({"gpu", good, "--cases", "64", "--json"}).out);
  CHECK(ok["verdict"] == "match");
  CHECK(ok["runs"][0]["program_differs"] == 0);
  const Json bad = Json::parse(test::run_mmacheck({"gpu", wrong, "--cases", "64", "--json"}).out);
  CHECK(bad["verdict"] == "match");
  CHECK(bad["runs"][0]["program_differs"].get<int>() > 0);
}

}  // namespace test_mma_sp_gpu
