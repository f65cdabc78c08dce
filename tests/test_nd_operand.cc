// A gemm operand may be a 2-D region of a higher-rank buffer (TVM's rule:
// exactly two region dimensions longer than 1).  The dispatch and the prover
// take it; staging (the simulator, the GPU) and pictures handle 2-D buffers
// only and say so, exit 2.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/gemm/geometry.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"

namespace test_nd_operand {

using namespace mmacheck;

namespace {
constexpr const char* kProgram = R"(D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])
B_FRAG = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8])
A = buffer((1, 16, 16), "float16", "local", A_FRAG)
B = buffer((16, 8), "float16", "local", B_FRAG)
D = buffer((16, 8), "float32", "local", D_FRAG)
gemm(D, A[0, 0:16, 0:16], B, D)
)";
}  // namespace

TEST_CASE("a 2-D region of a 3-D buffer is placed, dispatched and proved", "[geometry][prove]") {
  const Program p = parse_program(kProgram, "nd.txt");
  const GemmGeometry g = gemm_geometry(p);
  CHECK(g.a.to_buffer(3, 5) == Shape{0, 3, 5});
  CHECK(g.a.at(3, 5) == 3 * 16 + 5);
  CHECK(g.a.from_buffer(Shape{0, 3, 5}) == Shape{3, 5});
  CHECK_FALSE(g.a.from_buffer(Shape{0, 16, 0}).has_value());
  CHECK(prove(p, {}).verdict == Verdict::proved);
}

TEST_CASE("the simulator declines a 3-D buffer with an error; draw draws its 2-D operand", "[geometry][sim][draw]") {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("mmacheck-test-nd-" + std::to_string(getpid()) + ".txt")).string();
  std::ofstream(path) << kProgram;
  const test::RunResult sim = test::run_mmacheck({"sim", path});
  CHECK(sim.status == 2);
  CHECK(sim.err.find(":4:1: error: staging (the simulator and the GPU backend) needs 2-D buffers") !=
        std::string::npos);
  // Operands are drawn in the gemm's orientation: A is the 16 x 16 region A[0, 0:16, 0:16].
  const test::RunResult draw = test::run_mmacheck({"draw", path, "-o", path + ".svg"});
  CHECK(draw.status == 0);
  const std::string svg = test::read_file(path + ".svg");
  CHECK(svg.find("A[0:1, 0:16, 0:16]") != std::string::npos);
  CHECK(svg.find("<title>A[3][5] = A[0][3][5]: T") != std::string::npos);
  std::remove((path + ".svg").c_str());
  std::remove(path.c_str());
}

TEST_CASE("an operand region that is not 2-D is an error at the operand", "[geometry]") {
  std::string text = kProgram;
  text.replace(text.find("A[0, 0:16, 0:16]"), 16, "A[0, 0:16, 0:1]");
  const Program p = parse_program(text, "nd.txt");
  try {
    gemm_geometry(p);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 7);
    CHECK(e.message().find("is not 2-D") != std::string::npos);
  }
}

}  // namespace test_nd_operand
