// The TIRx printer and `mmacheck emit`.
#include <catch2/catch.hpp>

#include "core/gemm/dispatch.h"
#include "core/emit/tirx_text.h"
#include "core/base/error.h"
#include "tests/support.h"
#include "tests/test_dispatch_support.h"

namespace test_emit_tirx {

using namespace mmacheck;
using namespace mmacheck::test;
using Catch::Matchers::Contains;

namespace {

std::string emit(const GemmSpec& spec, InstSet set = InstSet::tvm) {
  const Plan plan = dispatch(make_program(spec), set);
  REQUIRE(plan.ok);
  return emit_tirx(plan);
}

GemmSpec seed() { return single(DType::f16, DType::f16, DType::f32, DType::f32); }

}  // namespace

TEST_CASE("the seed tile prints as TVM's lowered TIRx", "[emit]") {
  CHECK(emit(seed()) ==
        "# gemm D = A @ B  (M=16, N=8, K=16, beta=0)\n"
        "# instruction: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\n"
        "# tiles per warp: M 1 x N 1 x K 1 = 1 mma\n"
        "# d_local = D.local(1, 1, 2, 2, layout=T.TileLayout(S[(2, 2) : (2, 1)]))\n"
        "# a_local = A.local(1, 1, 2, 2, 2, layout=T.TileLayout(S[(2, 2, 2) : (2, 4, 1)])); "
        "a_words = a_local.view(\"uint32\")\n"
        "# b_local = B.local(1, 1, 2, 2, layout=T.TileLayout(S[(2, 2) : (2, 1)])); "
        "b_words = b_local.view(\"uint32\")\n"
        "# tile m=0 n=0\n"
        "d_local[0] = T.float32(0)\n"
        "d_local[1] = T.float32(0)\n"
        "d_local[2] = T.float32(0)\n"
        "d_local[3] = T.float32(0)\n"
        "T.ptx[\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\"](d_local[0], d_local[1], "
        "d_local[2], d_local[3], a_words[0], a_words[1], a_words[2], a_words[3], b_words[0], "
        "b_words[1], d_local[0], d_local[1], d_local[2], d_local[3])\n");
}

TEST_CASE("beta = 1 copies C into D and zeroes nothing", "[emit]") {
  GemmSpec spec = seed();
  spec.beta = 1.0;
  const std::string text = emit(spec);
  CHECK_THAT(text, Contains("d_local[0] = c_local[0]\nd_local[1] = c_local[1]\n"));
  CHECK_THAT(text, Contains("# c_local = C.local(1, 1, 2, 2,"));
  CHECK_THAT(text, Contains("D = A @ B + C"));
  CHECK_THAT(text, !Contains("T.float32(0)"));
}

TEST_CASE("a tiled nest prints one init block per output tile and one mma per K tile", "[emit]") {
  const std::string text = emit(tiled(2, 2, 3, 8, DType::bf16));
  std::size_t mma = 0, tiles = 0;
  for (std::size_t at = 0; (at = text.find("T.ptx[", at)) != std::string::npos; ++at) ++mma;
  for (std::size_t at = 0; (at = text.find("# tile m=", at)) != std::string::npos; ++at) ++tiles;
  CHECK(mma == 12);
  CHECK(tiles == 4);
  CHECK_THAT(text, Contains("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32"));
  CHECK_THAT(text, Contains("# tile m=1 n=1\nd_local[12] = T.float32(0)\n"));
  CHECK_THAT(text, Contains("# tiles per warp: M 2 x N 2 x K 3 = 12 mma"));
}

TEST_CASE("register spellings follow what one register holds", "[emit]") {
  SECTION("f16 accumulators pack two per register: d_words") {
    const std::string text = emit(single(DType::f16, DType::f16, DType::f16, DType::f16), InstSet::extended);
    CHECK_THAT(text, Contains("d_local[0] = T.float16(0)"));
    CHECK_THAT(text, Contains("(d_words[0], d_words[1], a_words[0]"));
    CHECK_THAT(text, Contains("d_words = d_local.view(\"uint32\")"));
  }
  SECTION("f64 registers are elements: a_local") {
    const MmaInst& f64 = *find_mma_inst("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
    const GemmSpec spec{{{8, 8}, DType::f64, frame_layout(f64, mmacheck::Operand::C)},
                        {{8, 4}, DType::f64, frame_layout(f64, mmacheck::Operand::A)},
                        {{4, 8}, DType::f64, frame_layout(f64, mmacheck::Operand::B)},
                        {{8, 8}, DType::f64, frame_layout(f64, mmacheck::Operand::C)}};
    const std::string text = emit(spec, InstSet::extended);
    CHECK_THAT(text, Contains("](d_local[0], d_local[1], a_local[0], b_local[0], d_local[0], d_local[1])"));
    CHECK_THAT(text, Contains("d_local[1] = T.float64(0)"));
    CHECK_THAT(text, !Contains("_words"));
  }
}

TEST_CASE("a plan that did not dispatch cannot be printed", "[emit]") {
  GemmSpec spec = seed();
  spec.alpha = 2.0;
  CHECK_THROWS_AS(emit_tirx(dispatch(make_program(spec))), Error);
}

TEST_CASE("mmacheck emit prints TIRx, CUDA, or the reasons", "[emit]") {
  const std::string seed_file = source_path("examples/seed_corrected.txt");
  SECTION("TIRx by default and with --tirx") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"emit", seed_file}, std::vector<std::string>{"emit", seed_file, "--tirx"}}) {
      const RunResult r = run_mmacheck(args);
      CHECK(r.status == 0);
      CHECK_THAT(r.out, Contains("T.ptx[\"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32\"](d_local[0]"));
      CHECK_THAT(r.out, Contains("# gemm D = A @ B"));
    }
  }
  SECTION("CUDA with --cuda") {
    const RunResult r = run_mmacheck({"emit", seed_file, "--cuda"});
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Contains("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
    CHECK_THAT(r.out, !Contains("T.ptx["));
  }
  SECTION("a failed dispatch prints every reason row and exits 1") {
    const RunResult r = run_mmacheck({"emit", source_path("examples/reject_lanes_and_replica.txt")});
    CHECK(r.status == 1);
    CHECK(r.out ==
          "dispatch_failed\n"
          "  rejected: full_active_lanes — active laneid is [8, 32), need full [0, 32)\n"
          "  rejected: no_replica — D layout has replica [T.Iter(2, 64, \"m\")]\n");
  }
  SECTION("the instruction set is chosen with --inst-set") {
    const std::string f64 = source_path("examples/ext_f64.txt");
    CHECK(run_mmacheck({"emit", f64}).status == 1);
    const RunResult r = run_mmacheck({"emit", f64, "--inst-set", "extended"});
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Contains("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"));
  }
  SECTION("bad usage and bad input exit 2") {
    CHECK(run_mmacheck({"emit"}).status == 2);
    CHECK(run_mmacheck({"emit", seed_file, "--tirx", "--cuda"}).status == 2);
    CHECK(run_mmacheck({"emit", seed_file, "--inst-set", "all"}).status == 2);
    const RunResult missing = run_mmacheck({"emit", source_path("examples/no_such_file.txt")});
    CHECK(missing.status == 2);
    CHECK_THAT(missing.err, Contains("no_such_file.txt"));
  }
}

}  // namespace test_emit_tirx
