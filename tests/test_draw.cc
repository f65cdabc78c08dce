// mmacheck draw: the SVG picture of the fragments, counterexamples highlighted.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/emit/svg.h"
#include "core/program/program.h"
#include "core/prove/prove.h"
#include "tests/support.h"

using namespace mmacheck;

namespace {
int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("draw highlights the seed erratum's counterexample", "[draw]") {
  const Program p = load_program(test::source_path("examples/seed.txt"));
  const std::string svg = draw_svg(p, prove(p, {}));
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  // One element found at lane 0 slot 2 (A[0][8]) and the one that belongs there (A[8][0]).
  CHECK(count(svg, "class='found'") == 1);
  CHECK(count(svg, "class='wanted'") == 1);
  CHECK(svg.find("stage A: lane 0, slot 2: stage A loads A[0][8] but A_FRAG places A[8][0]") != std::string::npos);
  // Every element of A, B and D is drawn with its owner: 256 + 128 + 128 cells.
  CHECK(count(svg, "class='cell'") == 256 + 128 + 128);
  CHECK(svg.find(">T0:2<") != std::string::npos);
}

TEST_CASE("draw of a proved program marks nothing", "[draw]") {
  const Program p = load_program(test::source_path("examples/seed_corrected.txt"));
  const std::string svg = draw_svg(p, prove(p, {}));
  CHECK(count(svg, "class='found'") == 0);
  CHECK(count(svg, "class='wanted'") == 0);
  CHECK(svg.find("proved") != std::string::npos);
}

TEST_CASE("mmacheck draw writes the picture and exits like prove", "[draw][cli]") {
  const std::string out = (std::filesystem::temp_directory_path() / ("mmacheck-test-draw-" + std::to_string(getpid()) + ".svg")).string();
  std::remove(out.c_str());
  const test::RunResult refuted = test::run_mmacheck({"draw", test::source_path("examples/seed.txt"), "-o", out});
  CHECK(refuted.status == 1);
  CHECK(test::read_file(out).find("class='found'") != std::string::npos);
  const test::RunResult proved =
      test::run_mmacheck({"draw", test::source_path("examples/seed_corrected.txt"), "-o", out});
  CHECK(proved.status == 0);
  std::remove(out.c_str());
}

TEST_CASE("mmacheck draw: bad usage and unwritable output exit 2 and leave nothing", "[draw][cli]") {
  const std::string seed = test::source_path("examples/seed.txt");
  CHECK(test::run_mmacheck({"draw", seed}).status == 2);
  CHECK(test::run_mmacheck({"draw", "-o", "/tmp/x.svg"}).status == 2);
  const test::RunResult r = test::run_mmacheck({"draw", seed, "-o", "/nonexistent-dir/out.svg"});
  CHECK(r.status == 2);
  CHECK(r.err.find("error: cannot write '/nonexistent-dir/out.svg'") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists("/nonexistent-dir/out.svg"));
}
