// Defect 10 of the hardening issue: .mmav errors name the file (and a line,
// also for whole-file errors), escape control bytes, and a repeated case
// number is an error.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "sim/numerics/mma_model.h"
#include "sim/vectors/vector_file.h"
#include "tests/support.h"
#include "tests/test_hardening_support.h"

namespace mmacheck::test_vector_errors {
namespace {

using Catch::Matchers::Contains;

std::string parse_error(const std::string& text) {
  try {
    (void)sim::parse_vector_file(text, "v.mmav");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The first `cases` cases of a recorded file, as text.
std::string first_cases(const std::string& rel, int cases) {
  const std::string text = test::read_file(test::source_path(rel));
  std::size_t at = 0;
  for (int seen = 0; (at = text.find("\ncase ", at + 1)) != std::string::npos;)
    if (++seen > cases) return text.substr(0, at + 1);
  return text;
}

}  // namespace

TEST_CASE("mma on an fp8 file under sm_80 names the file and the case's line", "[hardening][vectors]") {
  test::ScratchDir dir;
  const std::string file = dir.write("fp8.mmav", first_cases("tests/data/m16n8k32.f32.e4m3.e4m3.f32.mmav", 2));
  const test::RunResult r = test::run_mmacheck({"mma", "--vectors", file, "--arch", "sm_80"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Contains(file + ":4: error:"));  // line 4: the first case line
}

TEST_CASE("whole-file .mmav errors have a line", "[hardening][vectors]") {
  CHECK_THAT(parse_error("# nothing here\n# at all\n"), Contains("v.mmav:2: error: no test cases"));
  CHECK_THAT(parse_error(""), Contains("v.mmav:1: error: no test cases"));
}

TEST_CASE(".mmav errors escape control bytes", "[hardening][vectors]") {
  const std::string e = parse_error(std::string("instr mma\x1b[2J\x01") + '\0' + "x\n");
  CHECK_THAT(e, Contains("v.mmav:1:7: error: unknown instruction 'mma\\x1b[2J\\x01\\x00x'"));
  CHECK(e.find('\x1b') == std::string::npos);
  CHECK(e.find('\0') == std::string::npos);
}

TEST_CASE("a repeated case number in a .mmav file is an error", "[hardening][vectors]") {
  std::string text = first_cases("tests/data/m16n8k8.f32.f16.f16.f32.mmav", 2);
  const std::size_t second = text.find("case 1 ");
  REQUIRE(second != std::string::npos);
  text.replace(second, 7, "case 0 ");
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(second), '\n'));
  CHECK_THAT(parse_error(text), Contains("v.mmav:" + std::to_string(line) + ":6: error: case 0 of ") &&
                                    Contains("repeats the case of line"));
  // The same numbers under two instructions are two sets of cases.
  const std::string other = first_cases("tests/data/m16n8k16.f32.f16.f16.f32.mmav", 1);
  CHECK(sim::parse_vector_file(first_cases("tests/data/m16n8k8.f32.f16.f16.f32.mmav", 1) + other, "two.mmav")
            .cases.size() == 2);
}

}  // namespace mmacheck::test_vector_errors

namespace mmacheck::test_vector_errors {

TEST_CASE("an m8n8k4 f16 case holds its four stacked products, and sm_80 has no model of it", "[vectors]") {
  const auto words = [](int n, const char* w) {
    std::string s;
    for (int i = 0; i < n; ++i) s += std::string(" ") + w;
    return s;
  };
  const std::string head = "instr mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16\ncase 0 x\n";
  // 32 words for A is one product's tile: the stacked tile has 128.
  CHECK_THAT(parse_error(head + "A" + words(32, "3c00") + "\n"), Contains("A has 32 words, m8n8k4 needs 128"));
  // 1 * 1 * 4 + 0 = 4 (f16 0x4400) in every output of every product.
  const std::string text = head + "A" + words(128, "3c00") + "\nB" + words(128, "3c00") + "\nC" + words(256, "0000") +
                           "\nD" + words(256, "4400") + "\n";
  test::ScratchDir dir;
  const std::string file = dir.write("volta.mmav", text);
  const test::RunResult ok = test::run_mmacheck({"mma", "--vectors", file, "--arch", "sm_70"});
  CHECK(ok.status == 0);
  CHECK_THAT(ok.out, Contains("1 passed, 0 failed"));
  const test::RunResult off = test::run_mmacheck({"mma", "--vectors", file, "--arch", "sm_80"});
  CHECK(off.status == 2);
  CHECK_THAT(off.err, Contains("has no model on sm_80"));
}

}  // namespace mmacheck::test_vector_errors
