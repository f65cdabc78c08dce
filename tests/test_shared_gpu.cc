// On a GPU: shared-memory staging runs as mmacheck predicts.  The examples'
// kernels (ldmatrix/stmatrix inline PTX) agree bit for bit with the warp
// machine, and a clock-timed loop of each ldmatrix statement of the
// conflict-free and the conflicting example needs the wavefronts the bank
// count predicts (one wavefront per cycle per SM; docs/gpu.md records the
// H200's numbers).  Skipped without a CUDA device.
#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <cstring>
#include <optional>
#include <sstream>

#include "core/base/error.h"
#include "core/gemm/dispatch.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "cuda/differential.h"
#include "cuda/driver.h"
#include "cuda/gemm_runner.h"
#include "cuda/gemm_stream.h"
#include "sim/check/input_specs.h"
#include "sim/machine/warp_machine.h"
#include "sim/numerics/mma_model.h"
#include "cuda/gpu.h"
#include "cuda/nvrtc.h"
#include "tests/support.h"

namespace test_shared_gpu {

using namespace mmacheck;
using namespace mmacheck::cuda;

namespace {

constexpr int kWarps = 8;
constexpr int kIterations = 4096;

// A kernel that issues `access`'s instruction kIterations times in each of
// kWarps warps of one CTA, its lanes at their addresses, and times it.
std::string bench_source(const SharedAccess& access, std::int64_t bytes) {
  std::ostringstream os;
  const int n = access.copy->num;
  os << "extern \"C\" __global__ void bench(const int* addr, long long* cycles, unsigned* sink) {\n"
     << "  __shared__ __align__(1024) unsigned char s[" << bytes << "];\n"
     << "  for (int i = threadIdx.x; i < " << bytes << "; i += blockDim.x) s[i] = i;\n"
     << "  __syncthreads();\n"
     << "  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s)) + addr[threadIdx.x % 32];\n"
     // addr[32] is 0 at run time; ptxas cannot know it, so it may not merge
     // the identical loads of successive iterations (volatile alone does not stop it).
     << "  const unsigned z = addr[32];\n"
     << "  unsigned acc = 0, r[4];\n"
     << "  const long long t0 = clock64();\n"
     << "#pragma unroll 16\n"
     << "  for (int i = 0; i < " << kIterations << "; ++i) {\n"
     << "    asm volatile(\"" << access.copy->ptx << " {";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << "%" << i;
  os << "}, [%" << n << "];\\n\" : ";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << "\"=r\"(r[" << i << "])";
  os << " : \"r\"(base + ((i * z) << 10)));\n";
  for (int i = 0; i < n; ++i) os << "    acc ^= r[" << i << "];\n";
  os << "  }\n"
     << "  __syncthreads();\n"
     << "  const long long t1 = clock64();\n"
     << "  if (threadIdx.x == 0) cycles[0] = t1 - t0;\n"
     << "  sink[threadIdx.x] = acc;\n"
     << "}\n";
  return os.str();
}

template <class T>
Bytes bytes_of(const std::vector<T>& v) {
  Bytes b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

}  // namespace

TEST_CASE("GPU: every shared-memory example agrees bit for bit with the warp machine", "[cuda][gpu][shared]") {
  std::string why;
  if (!probe_device(&why)) return test::skip("no CUDA device (" + why + ")");
  const Gpu gpu(Driver::load());
  const Nvrtc nvrtc = Nvrtc::load();
  for (const char* name :
       {"smem_swizzle128.txt", "smem_swizzle128_trans.txt", "smem_noswizzle.txt", "smem_ld_shared.txt",
        "smem_wrong_lane.txt", "smem_fill_mismatch.txt", "smem_stmatrix_d.txt", "smem_fp8_trans.txt"}) {
    INFO(name);
    const Program p = load_program(test::source_path(std::string("examples/") + name));
    const Plan plan = dispatch(p, InstSet::extended);
    REQUIRE(plan.ok);
    const Staging staging = build_staging(p, plan.nest);
    const GemmRunner runner(gpu, nvrtc, plan.nest, staging);
    sim::WarpMachine machine(plan.nest, staging, sim::arch_params("sm_90"));
    GemmStream stream(gpu, runner, 16, 2);
    BatchDevice* devices[] = {&stream};
    WorkerPool pool(1);
    const std::vector<CaseSimulator> sims = {[&machine](const sim::GemmInputs& in) { return machine.run(in); }};
    const DiffReport r = run_differential(devices, staging, sim::input_specs(p), pool, sims, {.cases = 64});
    std::printf("gpu-vs-sim %s: %lld cases, %lld failed, %lld elements differ\n", name, static_cast<long long>(r.cases),
                static_cast<long long>(r.failed_cases), static_cast<long long>(r.mismatched_elements));
    CHECK(r.cases == 64);
    CHECK(r.failed_cases == 0);
  }
}

TEST_CASE("GPU: ldmatrix takes the wavefronts the bank count predicts", "[cuda][gpu][shared]") {
  std::optional<Nvrtc> nvrtc;
  try {
    nvrtc = Nvrtc::load();
  } catch (const Error& e) {
    return test::skip(e.message());
  }
  // Compiled first, so that a machine without a GPU still checks the benchmark's PTX.
  std::string why;
  const bool device = probe_device(&why).has_value();
  std::optional<Gpu> gpu;
  if (device) gpu.emplace(Driver::load());
  std::map<std::string, double> cycles_of;
  for (const char* name : {"smem_swizzle128.txt", "smem_noswizzle.txt", "smem_swizzle128_trans.txt"}) {
    const Program p = load_program(test::source_path(std::string("examples/") + name));
    const Plan plan = dispatch(p, InstSet::extended);
    const Staging st = build_staging(p, plan.nest);
    ProveOptions options;
    options.method = ProofMethod::exhaustive;
    const ProofReport report = prove(p, plan, options);
    std::size_t count = 0;
    for (const SharedStage* stage : {&*st.shared_a, &*st.shared_b})
      for (const SharedAccess& a : stage->accesses) {
        const BankCount& predicted = report.bank_conflicts.at(count++);
        std::vector<int> addr(33, 0);
        for (int l = 0; l < 32; ++l)
          addr[l] = static_cast<int>(std::max<std::int64_t>(a.lane_offset[l], 0) * stage->reader.width);
        const std::string cubin =
            nvrtc->compile(bench_source(a, std::max<std::int64_t>(stage->reader.bytes(), 1024)), 90);
        CHECK_FALSE(cubin.empty());
        if (!gpu) continue;
        const auto out = gpu->run(
            cubin, "bench", {.grid = 1, .block = 32 * kWarps},
            {bytes_of(addr), bytes_of(std::vector<long long>(1)), bytes_of(std::vector<unsigned>(32 * kWarps))});
        long long cycles = 0;
        std::memcpy(&cycles, out[1].data(), sizeof cycles);
        const double measured = static_cast<double>(cycles) / (kWarps * kIterations);
        std::printf("bank-bench %s %s: predicted %d wavefronts, measured %.2f cycles per instruction per SM\n", name,
                    a.label.c_str(), predicted.wavefronts, measured);
        INFO(name << " " << a.label << ": " << measured << " cycles, predicted " << predicted.wavefronts);
        // Shared memory serves one wavefront per cycle per SM: never faster than predicted.
        CHECK(measured > 0.8 * predicted.wavefronts);
        cycles_of[std::string(name) + " " + a.label] = measured;
      }
  }
  if (gpu) {
    // The conflicting layout's 2-way phases take twice the cycles of the swizzled one's.
    for (const char* label : {"ldmatrix.x4 A[0]", "ldmatrix.x2 B[0]"}) {
      const double ratio = cycles_of.at(std::string("smem_noswizzle.txt ") + label) /
                           cycles_of.at(std::string("smem_swizzle128.txt ") + label);
      std::printf("bank-bench %s: no swizzle / 128-byte swizzle = %.2f (predicted 2)\n", label, ratio);
      CHECK(ratio > 1.6);
      CHECK(ratio < 2.4);
    }
  }
  if (!device) test::skip("no CUDA device (" + why + "); the benchmarks compiled");
}

}  // namespace test_shared_gpu
