// wgmma on the H200 itself: tests/data/wgmma/h200/ holds D as the H200
// computed it (`mmacheck wgmma-gpu --inst all --n 8,24 --cases 32 --capture`,
// main c7f72dd, 2 Dec 2026; the first 8 cases of three of its 32 files, A
// K-major unswizzled and B K-major 64B among them).  The simulator, reading
// A and B through the same descriptors, gives every output bit for bit; one
// flipped bit of a recorded D is a failure.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support.h"

namespace test_wgmma_h200 {

using namespace mmacheck::test;

TEST_CASE("the H200's wgmma results replay bit for bit through the simulator", "[wgmma][vectors]") {
  const std::string dir = source_path("tests/data/wgmma/h200");
  std::vector<std::string> args{"wgmma-sim"};
  for (const auto& e : std::filesystem::directory_iterator(dir)) args.push_back(e.path().string());
  REQUIRE(args.size() == 4);
  const RunResult r = run_mmacheck(args);
  CHECK(r.status == 0);
  CHECK(r.out.find("24 passed, 0 failed (36864 outputs, 0 differ)") != std::string::npos);
  // One bit of one D element flipped: the replay must notice.
  const std::string file = dir + "/wgmma.m64n24k16.f32.f16.f16.1.mmav";
  std::string text = read_file(file);
  const std::size_t d = text.find("\nD ");
  REQUIRE(d != std::string::npos);
  char& digit = text[d + 3];
  digit = digit == '0' ? '1' : '0';
  const std::string wrong = std::filesystem::temp_directory_path() / "mmacheck_wgmma_h200_flipped.mmav";
  std::ofstream(wrong) << text;
  const RunResult w = run_mmacheck({"wgmma-sim", wrong});
  CHECK(w.status == 1);
  std::filesystem::remove(wrong);
}

}  // namespace test_wgmma_h200
