// Recorded H200 results (mmav-1) through the lane-accurate simulator: the
// subset in tests/data (12 cases of every shared file, every draw kind, plus
// the targeted probes), the full shared files when ../shared is present, the
// parser's errors, and the `mmacheck mma` command.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/base/error.h"
#include "sim/vectors/vector_file.h"
#include "tests/support.h"

namespace test_vectors {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {

std::vector<std::string> mmav_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".mmav") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

void check_file_passes(const std::string& path) {
  INFO(path);
  const VectorFile file = read_vector_file(path);
  const VectorReport report = run_vector_file(file, arch_params("sm_90"), 5);
  for (const sim::Mismatch& m : report.mismatches)
    UNSCOPED_INFO("case " << m.vcase->id << " D[" << m.row << "][" << m.col << "] expected " << std::hex << m.expected
                          << " got " << m.got);
  CHECK(report.failed == 0);
  CHECK(report.passed == static_cast<int>(file.cases.size()));
}

// The line of the Error that parsing `text` throws (0 when none is thrown).
int error_line(const std::string& text, const std::string& needle) {
  try {
    parse_vector_file(text, "bad.mmav");
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.loc().file == "bad.mmav");
    CHECK(e.message().find(needle) != std::string::npos);
    return e.loc().line;
  }
  return 0;
}

std::string words(int count, const char* word) {
  std::string s;
  for (int i = 0; i < count; ++i) s += std::string(" ") + word;
  return s;
}

const std::string kInstr = "instr mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32\n";
const std::string kA = "A" + words(128, "3f800000") + "\n";
const std::string kB = "B" + words(64, "3f800000") + "\n";
const std::string kC = "C" + words(128, "00000000") + "\n";
const std::string kD = "D" + words(128, "41000000") + "\n";  // 8 products of 1

}  // namespace

TEST_CASE("the vector subset in tests/data passes", "[vectors]") {
  const std::vector<std::string> files = mmav_files(test::source_path("tests/data"));
  REQUIRE(files.size() >= 15);
  for (const std::string& path : files) check_file_passes(path);
}

TEST_CASE("the shared H200 vectors pass", "[vectors]") {
  const std::string dir = test::shared_vectors_dir();
  if (dir.empty()) return test::skip("no ../shared/vectors");
  for (const std::string& path : mmav_files(dir)) check_file_passes(path);
}

TEST_CASE("a vector file parses into cases of its instruction", "[vectors]") {
  const VectorFile f = parse_vector_file("# comment\n\n" + kInstr + "case 7 normal\n" + kA + kB + kC + kD, "ok.mmav");
  REQUIRE(f.cases.size() == 1);
  CHECK(f.cases[0].id == 7);
  CHECK(f.cases[0].kind == "normal");
  CHECK(f.cases[0].line == 4);
  CHECK(f.cases[0].inst->k == 8);
  CHECK(f.cases[0].d[5] == 0x41000000);
  CHECK(run_vector_case(f.cases[0], arch_params("sm_90")).empty());
}

TEST_CASE("malformed vector files are errors at their line", "[vectors]") {
  const std::string ok_case = "case 0 normal\n" + kA + kB + kC + kD;
  CHECK(error_line("case 0 normal\n", "before any 'instr'") == 1);
  CHECK(error_line("# c\n" + kA, "before any 'instr'") == 2);
  CHECK(error_line(kInstr + kA, "before any 'case'") == 2);
  CHECK(error_line("instr mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f64\n", "unknown instruction") == 1);
  CHECK(error_line("instr\n", "expected 'instr") == 1);
  CHECK(error_line(kInstr + "case x normal\n", "case number") == 2);
  CHECK(error_line(kInstr + "case 0 normal\n" + kA + "B" + words(63, "3f800000") + "\n", "63 words") == 4);
  CHECK(error_line(kInstr + "case 0 normal\nA 3f80000g" + words(127, "3f800000") + "\n", "not a hex word") == 3);
  CHECK(error_line(kInstr + "case 0 normal\nA 3f8000" + words(127, "3f800000") + "\n", "hex digits") == 3);
  CHECK(error_line(kInstr + "case 0 normal\n" + kA + kA, "second A") == 4);
  CHECK(error_line(kInstr + "case 0 normal\nX 1\n", "unknown line kind") == 3);
  CHECK(error_line(kInstr + "case 3 normal\n" + kA + kB + kC + "case 4 x\n", "case 3 has no D") == 2);
  CHECK(error_line(kInstr + ok_case + "case 1 normal\n" + kA + kB + kC, "case 1 has no D") == 7);
  CHECK(error_line(kInstr + "# nothing\n", "no test cases") == 2);  // whole-file errors: the last line
  // The hex width follows the operand type: f16 words have 4 digits.
  CHECK(error_line("instr mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32\ncase 0\nA" + words(128, "3c000") + "\n",
                   "f16 words have 4") == 3);
  CHECK_THROWS_AS(read_vector_file("/nonexistent/x.mmav"), Error);
}

TEST_CASE("a mismatching D word is reported with its case and place", "[vectors]") {
  std::string d = kD;
  d.replace(d.find("41000000"), 8, "41000001");  // D[0][0]
  const VectorFile f = parse_vector_file(kInstr + "case 9 wide\n" + kA + kB + kC + d, "one.mmav");
  const VectorReport r = run_vector_file(f, arch_params("sm_90"), 10);
  CHECK(r.failed == 1);
  REQUIRE(r.mismatches.size() == 1);
  CHECK(r.mismatches[0].vcase->id == 9);
  CHECK(r.mismatches[0].row == 0);
  CHECK(r.mismatches[0].col == 0);
  CHECK(r.mismatches[0].expected == 0x41000001);
  CHECK(r.mismatches[0].got == 0x41000000);
}

TEST_CASE("mmacheck mma prints the totals last and exits by the outcome", "[vectors][cli]") {
  const std::vector<std::string> files = mmav_files(test::source_path("tests/data"));
  std::vector<std::string> args{"mma", "--vectors"};
  args.insert(args.end(), files.begin(), files.end());
  std::size_t cases = 0;
  for (const std::string& path : files) cases += read_vector_file(path).cases.size();
  const test::RunResult ok = test::run_mmacheck(args);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64: 12 passed, 0 failed\n") != std::string::npos);
  CHECK(ok.out.substr(ok.out.rfind('\n', ok.out.size() - 2) + 1) == std::to_string(cases) + " passed, 0 failed\n");

  const std::string bad_path =
      (std::filesystem::temp_directory_path() / ("mmacheck-test-mismatch-" + std::to_string(getpid()) + ".mmav"))
          .string();
  {
    std::string d = kD;
    d.replace(d.find("41000000"), 8, "41000001");
    std::ofstream(bad_path) << kInstr << "case 0 normal\n" << kA << kB << kC << d;
  }
  const test::RunResult fail = test::run_mmacheck({"mma", "--vectors", bad_path});
  CHECK(fail.status == 1);
  CHECK(fail.out.find("case 0 (normal) D[0][0]: expected 0x41000001 (8.00000095), got 0x41000000 (8)") !=
        std::string::npos);
  CHECK(fail.out.substr(fail.out.rfind('\n', fail.out.size() - 2) + 1) == "0 passed, 1 failed\n");

  { std::ofstream(bad_path) << kInstr << "case 0 normal\n" << kA << "B 1\n"; }
  const test::RunResult malformed = test::run_mmacheck({"mma", "--vectors", bad_path});
  CHECK(malformed.status == 2);
  CHECK(malformed.err.find(bad_path + ":4:1: error:") != std::string::npos);
  std::filesystem::remove(bad_path);

  CHECK(test::run_mmacheck({"mma"}).status == 2);
  CHECK(test::run_mmacheck({"mma", "--vectors", files[0], "--arch", "sm_75"}).status == 2);
}

TEST_CASE("operand words parse as hex in either case, and every non-digit byte is an error", "[vectors]") {
  // The in-place parser reads 4- and 8-digit words eight bytes at a time:
  // each byte position of a word, each neighbour of the digit ranges.
  const std::string f16 = "instr mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32\ncase 0\n";
  const std::string rest =
      "B" + words(64, "3c00") + "\nC" + words(128, "00000000") + "\nD" + words(128, "00000000") + "\n";
  const VectorFile ok = parse_vector_file(f16 + "A" + words(127, "aBcD") + " 09Ef\n" + rest, "ok.mmav");
  CHECK(ok.cases[0].a[0] == 0xABCD);
  CHECK(ok.cases[0].a[127] == 0x09EF);
  const std::string tf32 = kInstr + "case 0\n";
  const std::string tf32_rest =
      "B" + words(64, "3f800000") + "\nC" + words(128, "00000000") + "\nD" + words(128, "00000000") + "\n";
  const VectorFile ok8 = parse_vector_file(tf32 + "A" + words(127, "DeadBeef") + " 01234567\n" + tf32_rest, "ok.mmav");
  CHECK(ok8.cases[0].a[0] == 0xDEADBEEF);
  CHECK(ok8.cases[0].a[127] == 0x01234567);
  for (const char bad : {'/', ':', '@', 'G', '`', 'g', 'x', '\x80', '\xC3', '\xFF'})
    for (int pos = 0; pos < 8; ++pos) {
      INFO("byte " << static_cast<int>(static_cast<unsigned char>(bad)) << " at " << pos);
      if (pos < 4) {
        std::string word = "3c00";
        word[pos] = bad;
        CHECK(error_line(f16 + "A" + words(100, "3c00") + " " + word + words(27, "3c00") + "\n" + rest,
                         "is not a hex word") == 3);
      }
      std::string word = "3f800000";
      word[pos] = bad;
      CHECK(error_line(tf32 + "A" + words(127, "3f800000") + " " + word + "\n" + tf32_rest, "is not a hex word") == 3);
    }
}

}  // namespace test_vectors
