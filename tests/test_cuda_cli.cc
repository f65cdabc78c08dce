// mmacheck gpu and mmacheck capture: exit statuses with and without a GPU.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "cuda/device.h"
#include "tests/support.h"

namespace test_cuda_cli {

using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;

TEST_CASE("mmacheck gpu: bad usage and bad input exit 2, on any machine", "[cuda][cli]") {
  CHECK(run_mmacheck({"gpu"}).status == 2);
  CHECK(run_mmacheck({"gpu", "/nonexistent/layout.txt"}).status == 2);
  CHECK(run_mmacheck({"gpu", source_path("examples/seed.txt"), "--cases", "0"}).status == 2);
  CHECK(run_mmacheck({"gpu", source_path("examples/seed.txt"), "--inst-set", "all"}).status == 2);
  const auto twice = run_mmacheck({"gpu", source_path("examples/seed.txt"), "--devices", "0,0"});
  CHECK(twice.status == 2);
  CHECK(twice.err.find("device 0 named twice") != std::string::npos);
  CHECK(run_mmacheck({"gpu", source_path("examples/seed.txt"), "--devices", "first"}).status == 2);
  CHECK(run_mmacheck({"gpu", source_path("examples/seed.txt"), "--threads", "-1"}).status == 2);
  CHECK(run_mmacheck({"gpu", source_path("examples/seed.txt"), "--batch", "-5"}).status == 2);
}

TEST_CASE("mmacheck gpu: a gemm that does not dispatch exits 1 before looking for a GPU", "[cuda][cli]") {
  const std::string file = source_path("examples/reject_alpha.txt");
  if (!std::filesystem::exists(file)) return mmacheck::test::skip("examples/reject_alpha.txt is missing");
  const auto r = run_mmacheck({"gpu", file});
  CHECK(r.status == 1);
  CHECK(r.out.find("dispatch_failed") != std::string::npos);
}

TEST_CASE("mmacheck gpu: 3 without a GPU, and on one the corrected seed matches the simulator", "[cuda][cli][gpu]") {
  const std::string file = source_path("examples/seed_corrected.txt");
  if (!std::filesystem::exists(file)) return mmacheck::test::skip("examples/seed_corrected.txt is missing");
  const auto r = run_mmacheck({"gpu", file, "--cases", "16"});
  INFO(r.out << r.err);
  if (!mmacheck::cuda::probe_device()) {
    CHECK(r.status == 3);
    CHECK(r.err.find("no GPU") != std::string::npos);
    return;
  }
  CHECK(r.status == 0);
  CHECK(r.out.find("16 cases match, 0 differ") != std::string::npos);
  CHECK(r.out.find("M cases per minute") != std::string::npos);
  // Split over every device in batches of 5: the same verdict.
  const auto all = run_mmacheck({"gpu", file, "--cases", "23", "--devices", "all", "--batch", "5", "--threads", "3"});
  INFO(all.out << all.err);
  CHECK(all.status == 0);
  CHECK(all.out.find("23 cases match, 0 differ") != std::string::npos);
  CHECK(all.out.find("5 batches of 5 cases") != std::string::npos);
}

// Every kernel each compiler's expected.tsv says proves, run on the device
// against the CPU machine: sm_90 folders only on an sm_90 device; the TMA
// kernels' tensor maps encoded by cuTensorMapEncodeTiled.
TEST_CASE("mmacheck gpu on the proved PTX kernels: 3 without a GPU, else the device's D bit for bit",
          "[cuda][cli][gpu]") {
  struct Folder {
    const char* dir;
    int sm;  // the least compute capability its PTX targets
  };
  const Folder folders[] = {
      {"nvcc", 80},          {"triton", 80},      {"tilelang", 80},        {"tirx", 80},
      {"cute", 80},          {"triton_sm90", 90}, {"triton_sm90_tma", 90}, {"triton_sm90_ws", 90},
      {"tilelang_sm90", 90}, {"wgmma", 90},       {"tcgen05_nvcc", 100},   {"tilelang_sm100", 100}};
  const auto device = mmacheck::cuda::probe_device();
  int ran = 0;
  for (const Folder& f : folders) {
    const std::string dir = source_path(std::string("tests/data/ptx/") + f.dir + "/");
    if (!std::filesystem::exists(dir + "expected.tsv")) continue;
    std::istringstream manifest(mmacheck::test::read_file(dir + "expected.tsv"));
    for (std::string line; std::getline(manifest, line);) {
      std::istringstream fields(line);
      std::string name, verdict;
      if (line.empty() || line[0] == '#' || !(fields >> name >> verdict) || verdict != "proved") continue;
      const std::string file = dir + name + ".ptx";
      if (!std::filesystem::exists(file)) continue;
      // sm_90a and sm_100a PTX (wgmma, tcgen05) runs only on that very architecture.
      if (device && (device->sm < f.sm || (f.sm >= 90 && device->sm != f.sm))) continue;
      const auto r = run_mmacheck({"gpu", file, "--cases", "2"});
      INFO(file << "\n" << r.out << r.err);
      if (!device) {
        CHECK(r.status == 3);
        CHECK(r.err.find("no GPU") != std::string::npos);
        return;  // one file says it
      }
      CHECK(r.status == 0);
      CHECK(r.out.find("match: ") == 0);
      ++ran;
    }
  }
  if (device) CHECK(ran > 0);
}

TEST_CASE("mmacheck capture: usage errors exit 2, no GPU exits 3 and writes nothing", "[cuda][cli]") {
  const std::string out =
      (std::filesystem::temp_directory_path() / ("mmacheck-capture-test-" + std::to_string(getpid()) + ".mmav"))
          .string();
  std::filesystem::remove(out);
  CHECK(run_mmacheck({"capture", "-o", out}).status == 2);
  CHECK(run_mmacheck({"capture", "--instr", "all"}).status == 2);
  const auto bogus = run_mmacheck({"capture", "--instr", "m16n8k99.f16", "-o", out});
  CHECK(bogus.status == 2);
  CHECK(bogus.err.find("unknown instruction 'm16n8k99.f16'") != std::string::npos);
  const auto volta = run_mmacheck({"capture", "--instr", "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "-o", out});
  CHECK(volta.status == 2);
  CHECK(volta.err.find("four quad-pair products per warp") != std::string::npos);
  if (mmacheck::cuda::probe_device()) return;
  CHECK(run_mmacheck({"capture", "--instr", "m16n8k16.f16", "-o", out}).status == 3);
  CHECK_FALSE(std::filesystem::exists(out));
  const auto json = run_mmacheck({"capture", "--instr", "m16n8k16.f16", "-o", out, "--json"});
  CHECK(json.status == 3);
  CHECK(json.out.rfind("{\"file\":null,\"verdict\":\"no_gpu\",\"message\":", 0) == 0);
}

TEST_CASE("mmacheck capture on a GPU writes vectors the simulator reads and passes", "[cuda][cli][gpu]") {
  if (!mmacheck::cuda::probe_device()) return mmacheck::test::skip("no CUDA device");
  const std::string out =
      (std::filesystem::temp_directory_path() / ("mmacheck-capture-gpu-" + std::to_string(getpid()) + ".mmav"))
          .string();
  const auto r = run_mmacheck({"capture", "--instr", "m16n8k16.f16", "--cases", "16", "-o", out});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto check = run_mmacheck({"mma", "--vectors", out});
  INFO(check.out << check.err);
  CHECK(check.out.find("16 passed, 0 failed") != std::string::npos);
  const auto json = run_mmacheck({"capture", "--instr", "m16n8k16.f16", "--cases", "8", "-o", out, "--json"});
  REQUIRE(json.status == 0);
  CHECK(json.out.find("\"cases\":8") != std::string::npos);
  std::filesystem::remove(out);
}

}  // namespace test_cuda_cli
