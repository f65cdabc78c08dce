// emit_cuda: the text of the emitted nest function, its checks, and nvcc
// compiling it for every instruction of the table (no GPU needed).
#include <catch2/catch.hpp>

#include "core/emit/cuda_source.h"
#include "core/base/error.h"
#include "core/gemm/staging.h"
#include "tests/support.h"
#include "tests/test_cuda_support.h"

namespace test_emit_cuda {

using namespace mmacheck;
using mmacheck::test::inst;

namespace {
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("the seed tile emits four zeroings and one mma on D's registers", "[emit_cuda]") {
  const std::string src = emit_cuda(test::seed_nest());
  INFO(src);
  CHECK(contains(src,
                 "__device__ __forceinline__ void mmacheck_nest(unsigned (&d)[4], const unsigned (&a)[4], "
                 "const unsigned (&b)[2], const unsigned (&c)[4])"));
  for (int i = 0; i < 4; ++i) CHECK(contains(src, "d[" + std::to_string(i) + "] = 0x0u;"));
  CHECK(contains(src,
                 "asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};\""));
  CHECK(contains(src, ": \"=r\"(d[0]), \"=r\"(d[1]), \"=r\"(d[2]), \"=r\"(d[3])"));
  CHECK(contains(src, "\"r\"(b[0]), \"r\"(b[1])"));
  CHECK(contains(src, "\"r\"(d[0]), \"r\"(d[1]), \"r\"(d[2]), \"r\"(d[3]));"));
  CHECK(contains(src, "(void)c;"));
}

TEST_CASE("the buffer ABI packs elements into 32-bit words, f64 into 64-bit words", "[emit_cuda]") {
  CHECK(cuda_buffer_abi({"A", DType::f16, 8}).words == 4);
  CHECK(cuda_buffer_abi({"A", DType::s8, 16}).words == 4);
  CHECK(cuda_buffer_abi({"A", DType::e4m3, 6}).words == 2);  // a partial last word
  CHECK(cuda_buffer_abi({"A", DType::tf32, 4}).per_word() == 1);
  const CudaBufferAbi f64 = cuda_buffer_abi({"D", DType::f64, 2});
  CHECK(f64.words == 2);
  CHECK(f64.word_type() == "unsigned long long");
  const std::string src = emit_cuda(frame_nest(inst("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")));
  INFO(src);
  CHECK(contains(src, "unsigned long long (&d)[2]"));
  CHECK(contains(src, "\"=l\"(d[0])"));
  CHECK(contains(src, "\"l\"(a[0])"));
}

TEST_CASE("initialisation copies move packed 16-bit elements between word halves", "[emit_cuda]") {
  Nest n = test::tiled_nest(inst("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"), 1, 1, 1, true);
  std::get<InitStmt>(n.stmts[0]).c_slots = {1, 0, 3, 2};  // swap the halves of each word
  const std::string src = emit_cuda(n);
  INFO(src);
  CHECK(contains(src, "const unsigned c0 = c[0];"));
  CHECK(contains(
      src, "d[0] = (d[0] & 0x0u)\n        | (((c0 >> 16) & 0xffffu) << 0)\n        | (((c0 >> 0) & 0xffffu) << 16);"));
  // An aligned copy of whole words stays a word copy; zeroing half a word masks it.
  std::get<InitStmt>(n.stmts[0]).c_slots = {0, 1, 2, 3};
  CHECK(contains(emit_cuda(n), "d[1] = c1;"));
  std::get<InitStmt>(n.stmts[0]) = InitStmt{0, 0, {0, 1, 2}, {}};
  n.use_c = false;
  const std::string zero = emit_cuda(n);
  CHECK(contains(zero, "d[0] = 0x0u;"));
  CHECK(contains(zero, "d[1] &= 0xffff0000u;"));
}

TEST_CASE("malformed nests are errors, not bad CUDA", "[emit_cuda]") {
  Nest no_inst = test::seed_nest();
  no_inst.inst = nullptr;
  CHECK_THROWS_AS(emit_cuda(no_inst), Error);
  Nest short_a = test::seed_nest();
  std::get<MmaStmt>(short_a.stmts[1]).a = {0, 1};
  CHECK_THROWS_WITH(emit_cuda(short_a), Catch::Contains("A has 2 registers, the instruction takes 4"));
  Nest far_b = test::seed_nest();
  std::get<MmaStmt>(far_b.stmts[1]).b = {0, 2};
  CHECK_THROWS_WITH(emit_cuda(far_b), Catch::Contains("register 2 is outside buffer 'B'"));
  Nest far_slot = test::seed_nest();
  std::get<InitStmt>(far_slot.stmts[0]).d_slots = {0, 1, 2, 4};
  CHECK_THROWS_WITH(emit_cuda(far_slot), Catch::Contains("slot 4 is outside buffer 'D'"));
}

TEST_CASE("nvcc compiles the emitted nests of every instruction, tiled and with beta = 1", "[emit_cuda][nvcc]") {
  if (!test::have_nvcc()) return test::skip("no nvcc at " MMACHECK_NVCC);
  // One source per architecture, every function in it.
  for (const int sm : {80, 90}) {
    std::string source = test::nvcc_wrapper(test::seed_nest(), "seed");
    int i = 0;
    for (const MmaInst& instr : mma_instructions()) {
      if (instr.min_sm > sm) continue;
      const std::string tag = std::string("i").append(std::to_string(i++));
      source += test::nvcc_wrapper(frame_nest(instr), tag + "_single");
      source += test::nvcc_wrapper(test::tiled_nest(instr, 2, 2, 2, false), tag + "_tiled");
      source += test::nvcc_wrapper(test::tiled_nest(instr, 2, 1, 3, true), tag + "_beta");
    }
    const test::CompileResult r = test::nvcc_compile(source, sm);
    INFO("sm_" << sm << "\n" << r.log);
    CHECK(r.ok);
  }
}

TEST_CASE("nvcc rejects an fp8 mma for sm_80, as min_sm says", "[emit_cuda][nvcc]") {
  if (!test::have_nvcc()) return test::skip("no nvcc at " MMACHECK_NVCC);
  const MmaInst& e4m3 = inst("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
  REQUIRE(e4m3.min_sm == 89);
  CHECK_FALSE(test::nvcc_compile(test::nvcc_wrapper(frame_nest(e4m3), "fp8"), 80).ok);
}

}  // namespace test_emit_cuda
