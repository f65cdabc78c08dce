// TTGIR text (core/triton/triton_ttgir.h) and mmacheck's conversion of
// NVIDIA MMA encodings to linear layouts (core/triton/triton_mma_linear.h),
// against what Triton itself printed and computed
// (scripts/triton-oracle/ttgir.py wrote tests/data/triton/ttgir/): every
// recorded layout must be Triton's, every recorded module must read and
// prove, and each planted mistake class must be refuted or rejected.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include "core/base/error.h"
#include "core/base/json_source.h"
#include "core/triton/triton_check.h"
#include "core/triton/triton_ttgir.h"
#include "tests/support.h"

namespace test_triton_ttgir {

using namespace mmacheck;

namespace {

const std::string kFolder = "tests/data/triton/ttgir";

std::string module_text(const std::string& name) {
  return test::read_file(test::source_path(kFolder + "/" + name + ".ttgir"));
}

std::vector<TritonReport> check_text(const std::string& text) {
  TtgirFile f = read_ttgir(text, "planted.ttgir");
  std::vector<TritonReport> reports = check_triton(f.operands);
  for (TritonReport& r : f.judged) reports.push_back(std::move(r));
  return reports;
}

int count(const std::vector<TritonReport>& reports, FrameVerdict v) {
  int n = 0;
  for (const TritonReport& r : reports) n += r.result == v;
  return n;
}

// The one line of `text` holding `needle`, edited by `edit`.
std::string edit_line(std::string text, const std::string& needle,
                      const std::function<std::string(std::string)>& edit) {
  const std::size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  const std::size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
  return text.substr(0, begin) + edit(text.substr(begin, end - begin)) + text.substr(end);
}

std::string replace_first(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

SourceLoc error_at(const std::string& text) {
  try {
    read_ttgir(text, "planted.ttgir");
  } catch (const Error& e) {
    return e.loc();
  }
  FAIL("no error");
  return {};
}

std::string error_message(const std::string& text) {
  try {
    read_ttgir(text, "planted.ttgir");
  } catch (const Error& e) {
    return e.message();
  }
  FAIL("no error");
  return {};
}

const char* kDotLine = "= tt.dot ";

}  // namespace

TEST_CASE("mmacheck's conversion of nvidia_mma v2 and dot_op gives Triton's linear layout on every recorded case",
          "[triton][ttgir]") {
  const std::string path = test::source_path(kFolder + "/conversions.jsonl");
  std::istringstream lines(test::read_file(path));
  std::string line;
  REQUIRE(std::getline(lines, line));  // the header: producer, command
  CHECK(JsonSource(line, path).value().contains("command"));
  std::vector<std::string> cases;
  while (std::getline(lines, line))
    if (!line.empty()) cases.push_back(line);
  REQUIRE(cases.size() > 1000);
  int agree = 0, dot_cases = 0, cga_cases = 0, sensitive = 0;
  for (const std::string& text : cases) {
    const JsonSource src(text, path);
    const std::string type = src.value()["type"].get<std::string>();
    const TritonLayout triton = triton_layout_from_json(src, "/layout");
    const TritonLayout ours = ttgir_linear_layout(parse_ttgir_tensor(type, path));
    INFO(type);
    CHECK(ours.str() == triton.str());
    for (const char* dim : {"register", "lane", "warp", "block"}) CHECK(ours.bases(dim) == triton.bases(dim));
    agree += ours.str() == triton.str();
    dot_cases += type.find("dot_op") != std::string::npos;
    cga_cases += type.find("CGALayout") != std::string::npos;
    // The comparison can fail: another kWidth (or warp grid) is another layout.
    if (type.find("kWidth = 2}") != std::string::npos) {
      const std::string other = replace_first(type, "kWidth = 2}", "kWidth = 4}");
      CHECK(ttgir_linear_layout(parse_ttgir_tensor(other, path)).str() != triton.str());
      ++sensitive;
    }
  }
  CHECK(agree == static_cast<int>(cases.size()));
  CHECK(dot_cases > 1000);
  CHECK(cga_cases > 100);
  CHECK(sensitive > 100);
}

TEST_CASE("every module Triton compiled reads, its mma.sync dots prove and its wgmma dot's D proves",
          "[triton][ttgir]") {
  int modules = 0, proved = 0, wgmma = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path(kFolder))) {
    if (entry.path().extension() != ".ttgir") continue;
    ++modules;
    const std::vector<TritonReport> reports = check_text(test::read_file(entry.path().string()));
    INFO(entry.path().string());
    REQUIRE_FALSE(reports.empty());
    if (entry.path().filename().string().find("wgmma") != std::string::npos) {
      // wgmma: D checked against its frame, A and B in shared memory unchecked (tests/test_triton_ttgir_v3.cc)
      REQUIRE(reports.size() == 3);
      CHECK(count(reports, FrameVerdict::proved) == 1);
      CHECK(count(reports, FrameVerdict::unchecked) == 2);
      for (const TritonReport& r : reports)
        if (r.result == FrameVerdict::unchecked) CHECK(r.message.find("in shared memory") != std::string::npos);
      ++wgmma;
      continue;
    }
    CHECK(reports.size() == 3);  // one tt.dot: A, B, D
    CHECK(count(reports, FrameVerdict::proved) == 3);
    proved += count(reports, FrameVerdict::proved);
  }
  CHECK(modules >= 8);
  CHECK(wgmma == 1);
  CHECK(proved == 3 * (modules - 1));
}

TEST_CASE("Triton's printed dot signatures and bare types prove, a #ttg.linear accumulator included",
          "[triton][ttgir]") {
  const std::string text = test::read_file(test::source_path(kFolder + "/signatures.mlir"));
  const std::vector<TritonReport> reports = check_text(text);
  CHECK(reports.size() >= 25);
  CHECK(count(reports, FrameVerdict::proved) == static_cast<int>(reports.size()));
  // The #ttg.linear accumulator (Triton's own conversion of #mma 64x32) with
  // two lane bases swapped: refuted, not proved.
  const std::size_t linear = text.find("#ttg.linear<{register = ");
  REQUIRE(linear != std::string::npos);
  const std::string planted =
      text.substr(0, linear) +
      replace_first(text.substr(linear), "lane = [[0, 2], [0, 4], [1, 0]", "lane = [[0, 2], [1, 0], [0, 4]");
  const std::vector<TritonReport> bad = check_text(planted);
  CHECK(count(bad, FrameVerdict::refuted) >= 1);
  CHECK(count(bad, FrameVerdict::proved) == static_cast<int>(reports.size()) - 1);
}

TEST_CASE("the CTA split: each CTA of a cluster is checked on its own tile", "[triton][ttgir]") {
  const std::string text = module_text("sm90_f16_128x128x32_w2_cta2");
  REQUIRE(text.find("CGALayout = [[0, 1]]") != std::string::npos);
  const TtgirFile f = read_ttgir(text, "cta2.ttgir");
  REQUIRE(f.operands.size() == 3);
  // D is 128x128 over 2 CTAs split along N: CTA 0 holds 128x64.
  CHECK(f.operands[2].layout.out_dims[1].second == 64);
  CHECK(f.operands[0].layout.out_dims[1].second == 32);  // A is replicated, not split along K
  // Without the cluster the same warps would leave half of the tensor unheld.
  const std::vector<TritonReport> one_cta = check_text(replace_first(text, "CGALayout = [[0, 1]], ", ""));
  CHECK(count(one_cta, FrameVerdict::proved) == 3);
}

TEST_CASE("planted TTGIR mistakes are refuted or rejected, never proved", "[triton][ttgir][mistakes]") {
  const std::string f16 = module_text("sm80_f16_64x64x32_w4");
  const std::string i8 = module_text("sm80_i8_64x64x64_w4");
  REQUIRE(count(check_text(f16), FrameVerdict::proved) == 3);
  REQUIRE(count(check_text(i8), FrameVerdict::proved) == 3);

  SECTION("a kWidth below 32 bits per register for the dtype is rejected at the kWidth") {
    const std::string f16_k1 =
        edit_line(f16, kDotLine, [](std::string l) { return replace_first(l, "kWidth = 2", "kWidth = 1"); });
    const SourceLoc at = error_at(f16_k1);
    CHECK(at.line > 1);
    CHECK(at.col > 1);
    CHECK(error_message(f16_k1).find("kWidth 1 of a f16 operand") != std::string::npos);
    const std::string i8_k2 =
        edit_line(i8, kDotLine, [](std::string l) { return replace_first(l, "kWidth = 4", "kWidth = 2"); });
    CHECK(error_message(i8_k2).find("at least 4") != std::string::npos);
  }
  SECTION("A and B with different kWidths are refuted") {
    const std::string text = edit_line(f16, kDotLine, [](std::string l) {
      return replace_first(l, "opIdx = 1, parent = #mma, kWidth = 2", "opIdx = 1, parent = #mma, kWidth = 4");
    });
    const std::vector<TritonReport> r = check_text(text);
    CHECK(count(r, FrameVerdict::proved) < 3);
    CHECK(count(r, FrameVerdict::refuted) >= 2);
  }
  SECTION("opIdx swapped is rejected at the operand's encoding") {
    const std::string a_as_b =
        edit_line(f16, kDotLine, [](std::string l) { return replace_first(l, "opIdx = 0", "opIdx = 1"); });
    CHECK(error_message(a_as_b).find("operand A of the dot has opIdx = 1") != std::string::npos);
    const std::string b_as_a =
        edit_line(f16, kDotLine, [](std::string l) { return replace_first(l, "opIdx = 1", "opIdx = 0"); });
    CHECK(error_message(b_as_a).find("operand B of the dot has opIdx = 0") != std::string::npos);
  }
  SECTION("a dot whose accumulator layout is not the operands' parent is refuted") {
    for (const char* warps : {"[4, 1]", "[1, 4]"}) {
      std::string text = replace_first(f16, "#mma = ",
                                       std::string("#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                                   "warpsPerCTA = ") +
                                           warps + ", instrShape = [16, 8]}>\n#mma = ");
      text = edit_line(text, kDotLine, [](std::string l) {
        return replace_first(l, "-> tensor<64x64xf32, #mma>", "-> tensor<64x64xf32, #mma1>");
      });
      const std::vector<TritonReport> r = check_text(text);
      INFO(warps);
      CHECK(count(r, FrameVerdict::proved) < 3);
      CHECK(count(r, FrameVerdict::refuted) >= 1);
    }
  }
  SECTION("operands over two different parents are refuted") {
    std::string text = replace_first(f16, "#mma = ",
                                     "#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                     "warpsPerCTA = [4, 1], instrShape = [16, 8]}>\n#mma = ");
    text = edit_line(text, kDotLine, [](std::string l) {
      return replace_first(l, "opIdx = 1, parent = #mma,", "opIdx = 1, parent = #mma1,");
    });
    CHECK(count(check_text(text), FrameVerdict::refuted) >= 2);
  }
  SECTION("an accumulator type mma.sync cannot accumulate the operands in is refuted") {
    const std::string text = edit_line(
        f16, kDotLine, [](std::string l) { return replace_first(l, "-> tensor<64x64xf32", "-> tensor<64x64xi32"); });
    CHECK(count(check_text(text), FrameVerdict::refuted) >= 2);
  }
  SECTION("a #ttg.linear accumulator with a wrong basis is refuted") {
    const std::string good =
        "tensor<16x8xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> * "
        "tensor<8x8xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>> -> "
        "tensor<16x8xf32, #ttg.linear<{register = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], "
        "[2, 0], [4, 0]], warp = [], block = []}>>\n";
    const std::string mma =
        "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>\n";
    // A 16x8 and B 8x8 do not multiply to D 16x8 with mma.sync's K: give A 16x16, B 16x8.
    CHECK(error_message(mma + replace_first(good, "tensor<16x8xf16", "tensor<16x16xf16")).find("do not multiply") !=
          std::string::npos);
    const std::string right = mma + replace_first(replace_first(good, "tensor<16x8xf16", "tensor<16x16xf16"),
                                                  "tensor<8x8xf16", "tensor<16x8xf16");
    const std::vector<TritonReport> r = check_text(right);
    CHECK(count(r, FrameVerdict::refuted) == 0);
    const std::vector<TritonReport> bad =
        check_text(replace_first(right, "register = [[0, 1], [8, 0]]", "register = [[0, 1], [0, 1]]"));
    CHECK(count(bad, FrameVerdict::refuted) >= 1);
    CHECK(count(bad, FrameVerdict::proved) < 3);
  }
}

TEST_CASE("TTGIR the reader does not understand is an error at FILE:LINE:COL", "[triton][ttgir]") {
  const std::string f16 = module_text("sm80_f16_64x64x32_w4");
  const auto mma_line = [&] {
    int line = 1;
    for (std::size_t i = 0; i < f16.find("#mma = "); ++i) line += f16[i] == '\n';
    return line;
  }();
  SECTION("an unknown field") {
    const std::string text = replace_first(f16, "instrShape = [16, 8]}>", "instrShape = [16, 8], fooBar = 1}>");
    const SourceLoc at = error_at(text);
    CHECK(at.line == mma_line);
    CHECK(at.col == static_cast<int>(text.substr(text.find("#mma = ")).find("fooBar")) + 1);
    CHECK(error_message(text).find("unknown field 'fooBar'") != std::string::npos);
  }
  SECTION("a field given twice, a missing field, an unknown attribute, an undefined alias") {
    CHECK(error_message(replace_first(f16, "versionMinor = 0,", "versionMinor = 0, versionMinor = 0,"))
              .find("given twice") != std::string::npos);
    CHECK(error_message(replace_first(f16, "versionMinor = 0, ", "")).find("needs versionMajor") != std::string::npos);
    CHECK(error_message(replace_first(f16, "#ttg.nvidia_mma<", "#ttg.nvidia_mmb<"))
              .find("unknown attribute #ttg.nvidia_mmb") != std::string::npos);
    CHECK(error_message(replace_first(f16, "#mma = ", "#mmz = ")).find("undefined attribute alias #mma") !=
          std::string::npos);
    CHECK(error_message(replace_first(f16, "instrShape = [16, 8]", "instrShape = [16, 16]")).find("[16, 8]") !=
          std::string::npos);
    CHECK(error_message(replace_first(f16, "versionMajor = 2", "versionMajor = 5")).find("versionMajor 5") !=
          std::string::npos);
    CHECK(error_message("this is no TTGIR\n").find("expected TTGIR") != std::string::npos);
    CHECK(error_message("module {\n}\n").find("no tt.dot") != std::string::npos);
    CHECK(error_message("tensor<64x64xf64, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
                        "instrShape = [16, 8]}>>\n")
              .find("f64 is no mma.sync accumulator type") != std::string::npos);
    CHECK(error_message("tensor<48x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
                        "instrShape = [16, 8]}>>\n")
              .find("powers of two") != std::string::npos);
  }
  SECTION("Triton's older CTAsPerCGA, CTASplitNum, CTAOrder read to the same layout as CGALayout") {
    const std::string old_style =
        "tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
        "CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0], instrShape = [16, 8]}>>";
    const std::string new_style =
        "tensor<64x64xf32, #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
        "CGALayout = [[1, 0]], instrShape = [16, 8]}>>";
    CHECK(ttgir_linear_layout(parse_ttgir_tensor(old_style, "t")).str() ==
          ttgir_linear_layout(parse_ttgir_tensor(new_style, "t")).str());
    CHECK(ttgir_linear_layout(parse_ttgir_tensor(new_style, "t")).str() !=
          ttgir_linear_layout(parse_ttgir_tensor(replace_first(new_style, "[[1, 0]]", "[[0, 1]]"), "t")).str());
  }
}

TEST_CASE("mmacheck triton reads TTGIR files: exit 0 proved, 1 unchecked wgmma, 2 malformed at FILE:LINE:COL",
          "[triton][ttgir][cli]") {
  const std::string folder = test::source_path(kFolder);
  const test::RunResult ok = test::run_mmacheck({"triton", folder + "/sm80_f16_64x64x32_w4.ttgir"});
  CHECK(ok.status == 0);
  CHECK(ok.out.find("3 layouts: 3 proved, 0 refuted") != std::string::npos);
  const test::RunResult wgmma = test::run_mmacheck({"triton", folder + "/sm90_f16_64x64x32_w4_wgmma.ttgir"});
  CHECK(wgmma.status == 1);
  CHECK(wgmma.out.find("wgmma") != std::string::npos);
  CHECK(test::run_mmacheck({"triton", "--allow-unchecked", folder + "/sm90_f16_64x64x32_w4_wgmma.ttgir"}).status == 0);
  const test::RunResult json = test::run_mmacheck({"triton", "--json", folder + "/sm80_i8_64x64x64_w4.ttgir"});
  CHECK(json.status == 0);
  CHECK(json.out.find("\"verdict\":\"proved\"") != std::string::npos);

  const std::string planted = (std::filesystem::temp_directory_path() / "mmacheck_planted_kwidth.ttgir").string();
  {
    std::string text = module_text("sm80_f16_64x64x32_w4");
    text = edit_line(text, kDotLine, [](std::string l) { return replace_first(l, "kWidth = 2", "kWidth = 1"); });
    std::ofstream(planted) << text;
  }
  const test::RunResult bad = test::run_mmacheck({"triton", planted});
  std::filesystem::remove(planted);
  CHECK(bad.status == 2);
  CHECK(std::regex_search(bad.err, std::regex("mmacheck_planted_kwidth\\.ttgir:[0-9]+:[0-9]+: error: kWidth 1")));
}

TEST_CASE("mmacheck triton on a Triton cache folder: the TTGIR checked, Triton's metadata .json files no gemm",
          "[triton][ttgir][cli]") {
  // $TRITON_CACHE_DIR/<hash>/: the kernel's stages and its metadata (NAME.json, __grp__NAME.json), as Triton
  // 3.x writes them; the metadata used to be bad input (exit 2).
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / "mmacheck_triton_cache";
  std::filesystem::remove_all(cache);
  const std::filesystem::path hash = cache / "Q2XUYKJ5KHOZP3XNWDWKDM6RIPCZAVCJJPGXR7Q4UKKRKUYGLBVQ";
  std::filesystem::create_directories(hash);
  std::filesystem::copy_file(test::source_path(kFolder) + "/sm80_f16_64x64x32_w4.ttgir", hash / "matmul_kernel.ttgir");
  std::ofstream(hash / "matmul_kernel.json")
      << R"({"hash": "Q2XUYKJ5", "target": {"backend": "cuda", "arch": 80, "warp_size": 32}, "num_warps": 4, )"
         R"("num_ctas": 1, "num_stages": 3, "shared": 16384, "name": "matmul_kernel"})";
  std::ofstream(hash / "__grp__matmul_kernel.json")
      << R"({"child_paths": {"matmul_kernel.ttgir": ")" + (hash / "matmul_kernel.ttgir").string() + R"("}})";
  const test::RunResult r = test::run_mmacheck({"prove", cache.string()});
  INFO(r.out + r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("matmul_kernel.ttgir ==\n") != std::string::npos);
  CHECK(r.out.find("3 layouts: 3 proved, 0 refuted") != std::string::npos);
  CHECK(r.out.find("3 files: 2 no gemm, 1 proved") != std::string::npos);
  std::filesystem::remove_all(cache);
}

}  // namespace test_triton_ttgir
