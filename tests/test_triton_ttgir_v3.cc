// Hopper's TTGIR (ttng.warp_group_dot, #ttg.nvidia_mma versionMajor 3,
// #ttg.nvmma_shared) against what Triton itself printed and computed
// (scripts/triton-oracle/ttgir_v3.py wrote tests/data/triton/ttgir_v3/):
// mmacheck's conversion of v3 accumulators and A-in-registers operands must
// be Triton's on every recorded case, every module Triton compiled must read
// with its D (and register A) proved and its shared-memory operands
// unchecked with the reason, and each planted mistake must be refuted or
// rejected at its line (as Triton's own parser does where it rejects it).
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "core/base/error.h"
#include "core/base/json_source.h"
#include "core/triton/triton_check.h"
#include "core/triton/triton_ttgir.h"
#include "tests/support.h"

namespace test_triton_ttgir_v3 {

using namespace mmacheck;

namespace {

const std::string kFolder = "tests/data/triton/ttgir_v3";

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

std::string replace_first(std::string s, const std::string& from, const std::string& to) {
  const std::size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// The one report named `suffix` (" D", " A", " B") that is refuted, with its message.
std::string refuted_message(const std::vector<TritonReport>& reports, const std::string& suffix) {
  for (const TritonReport& r : reports)
    if (r.result == FrameVerdict::refuted && r.name.size() >= suffix.size() &&
        r.name.compare(r.name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return r.message;
  return "";
}

}  // namespace

TEST_CASE("mmacheck's conversion of nvidia_mma v3 and its register A gives Triton's linear layout on every case",
          "[triton][ttgir][wgmma]") {
  const std::string path = test::source_path(kFolder + "/conversions.jsonl");
  std::istringstream lines(test::read_file(path));
  std::string line;
  REQUIRE(std::getline(lines, line));  // the header: producer, command
  CHECK(JsonSource(line, path).value().contains("command"));
  int cases = 0, agree = 0, dots = 0, sensitive = 0;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    ++cases;
    const JsonSource src(line, path);
    const std::string type = src.value()["type"].get<std::string>();
    INFO(type);
    REQUIRE(type.find("versionMajor = 3") != std::string::npos);
    const TritonLayout triton = triton_layout_from_json(src, "/layout");
    const TritonLayout ours = ttgir_linear_layout(parse_ttgir_tensor(type, path));
    CHECK(ours.str() == triton.str());
    agree += ours.str() == triton.str();
    dots += type.find("dot_op") != std::string::npos;
    // The comparison can fail: the same encoding with version 2's warp order (N first) is another layout.
    if (type.find("warpsPerCTA = [4, 2]") != std::string::npos) {
      TtgirTensor t = parse_ttgir_tensor(type, path);
      NvidiaMmaEncoding& mma = t.kind == TtgirTensor::Kind::mma ? t.mma : t.dot.parent;
      mma.version_major = 2;
      CHECK(ttgir_linear_layout(t).str() != triton.str());
      ++sensitive;
    }
  }
  CHECK(cases > 500);
  CHECK(agree == cases);
  CHECK(dots > 100);
  CHECK(sensitive > 50);
}

TEST_CASE("every sm_90 module Triton compiled reads: D and register A proved, shared-memory A and B unchecked",
          "[triton][ttgir][wgmma]") {
  int modules = 0, accumulators = 0, register_a = 0, shared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path(kFolder))) {
    if (entry.path().extension() != ".ttgir") continue;
    ++modules;
    INFO(entry.path().string());
    const std::vector<TritonReport> reports = check_text(test::read_file(entry.path().string()));
    REQUIRE_FALSE(reports.empty());
    CHECK(count(reports, FrameVerdict::refuted) == 0);
    CHECK(count(reports, FrameVerdict::ill_formed) == 0);
    for (const TritonReport& r : reports) {
      INFO(r.name << ": " << r.message);
      if (r.role == TritonRole::acc) {
        CHECK(r.result == FrameVerdict::proved);
        CHECK(r.instruction.find("wgmma.mma_async m64n") == 0);
        ++accumulators;
      } else if (r.instruction.find("from registers") != std::string::npos) {
        CHECK(r.result == FrameVerdict::proved);
        ++register_a;
      } else {
        CHECK(r.result == FrameVerdict::unchecked);
        CHECK(r.message.find("in shared memory") != std::string::npos);
        CHECK(r.message.find("descriptor") != std::string::npos);
        ++shared;
      }
    }
  }
  CHECK(modules == 13);
  CHECK(accumulators == 15);  // two chained dots in two modules
  CHECK(register_a == 2);
  CHECK(shared == 28);
}

TEST_CASE("the shared operands' major-ness and swizzle are read as Triton lays the buffer out",
          "[triton][ttgir][wgmma]") {
  const auto message = [](const std::string& name, const std::string& operand) {
    for (const TritonReport& r : check_text(module_text(name)))
      if (r.name.size() > 2 && r.name.substr(r.name.size() - 2) == " " + operand) return r.message;
    return std::string();
  };
  // transposed = false: A's K contiguous, B's N contiguous (f16's B is MN-major); 8-bit B comes transposed (K-major).
  CHECK(message("sm90_f16_64x64x32_w4", "A").find("K-major, 64B swizzle") != std::string::npos);
  CHECK(message("sm90_f16_64x64x32_w4", "B").find("MN-major, 128B swizzle") != std::string::npos);
  CHECK(message("sm90_e4m3_128x128x64_w4", "B").find("K-major, 64B swizzle") != std::string::npos);
  CHECK(message("sm90_f16_64x32x16_w4", "A").find("K-major, 32B swizzle") != std::string::npos);
}

TEST_CASE("planted mistakes in sm_90 TTGIR are refuted, or rejected at their line where Triton's parser rejects them",
          "[triton][ttgir][wgmma]") {
  const std::string f16 = module_text("sm90_f16_64x64x32_w4");
  const std::string e4m3 = module_text("sm90_e4m3_128x128x64_w4");
  const std::string chain = module_text("sm90_f16_chain_64x64x64_w4");
  SECTION("a warpsPerCTA that is no whole warpgroup along M (Triton's parser accepts it)") {
    const auto r =
        check_text(replace_first(f16, "warpsPerCTA = [4, 1], instrShape", "warpsPerCTA = [2, 2], instrShape"));
    CHECK(refuted_message(r, " D").find("whole warpgroups") != std::string::npos);
  }
  SECTION("an instrShape N wider than the tensor (Triton's parser accepts it)") {
    const auto r = check_text(replace_first(f16, "instrShape = [16, 64, 16]", "instrShape = [16, 128, 16]"));
    CHECK(refuted_message(r, " B").find("do not fit") != std::string::npos);
  }
  SECTION("an instrShape K that is not the type's (Triton's parser accepts it)") {
    const auto r = check_text(replace_first(e4m3, "instrShape = [16, 128, 32]", "instrShape = [16, 128, 16]"));
    CHECK(refuted_message(r, " A").find("e4m3 wgmma has K = 32") != std::string::npos);
    CHECK(refuted_message(r, " B").find("e4m3 wgmma has K = 32") != std::string::npos);
  }
  SECTION("a swizzle wider than the buffer's row (Triton's verifier rejects it too)") {
    const auto r = check_text(replace_first(f16, "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64",
                                            "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128"));
    CHECK(refuted_message(r, " A").find("narrower than one 128-byte swizzle row") != std::string::npos);
  }
  SECTION("an elementBitWidth that is not the element's (Triton's verifier rejects it too)") {
    const auto r = check_text(replace_first(f16, "transposed = false, elementBitWidth = 16}>\n#shared1",
                                            "transposed = false, elementBitWidth = 8}>\n#shared1"));
    CHECK(refuted_message(r, " A").find("elementBitWidth = 8") != std::string::npos);
  }
  SECTION("an MN-major 8-bit B (Triton's verifier rejects it too)") {
    const auto r =
        check_text(replace_first(e4m3, "#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true",
                                 "#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false"));
    CHECK(refuted_message(r, " B").find("MN-major needs f16 or bf16") != std::string::npos);
  }
  SECTION("a register A with the wrong kWidth: rejected at its encoding, as Triton's verifier rejects it") {
    // The dot's own type (line 43; line 41's convert_layout names the same encoding and is skipped).
    const std::string text =
        replace_first(chain, ": tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> *",
                      ": tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>> *");
    try {
      read_ttgir(text, "planted.ttgir");
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.loc().line == 43);
      CHECK(e.message().find("kWidth 4") != std::string::npos);
    }
  }
  SECTION("a register A as a bare type with the wrong kWidth is refuted against wgmma's A fragment") {
    const auto r = check_text(
        "tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
        "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 4}>>\n");
    REQUIRE(r.size() == 1);
    CHECK(r[0].result == FrameVerdict::refuted);
    CHECK(r[0].message.find("the lowering asserts kWidth = 2") != std::string::npos);
  }
}

TEST_CASE("version 3 encodings the reader cannot take are located errors", "[triton][ttgir][wgmma]") {
  const std::string mma = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = ";
  const auto error = [](const std::string& text) {
    try {
      read_ttgir(text, "bad.ttgir");
    } catch (const Error& e) {
      return e.loc().str() + ": " + e.message();
    }
    return std::string("no error");
  };
  CHECK(error("tensor<64x64xf32, " + mma + "[64, 64, 16]}>>\n").find("bad.ttgir:1:107: instrShape of versionMajor 3") ==
        0);
  CHECK(error("tensor<64x64xf32, " + mma + "[16, 64]}>>\n").find("[16, N, K]") != std::string::npos);
  CHECK(error("tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = " + mma + "[16, 64, 16]}>, kWidth = 2}>>\n")
            .find("wgmma reads B from shared memory") != std::string::npos);
  // B of a warp_group_dot in registers.
  const std::string f16 = module_text("sm90_f16_64x64x32_w4");
  CHECK(error(replace_first(f16, "* !ttg.memdesc<32x64xf16, #shared1, #smem>", "* tensor<32x64xf16, #mma>"))
            .find("B of a ttng.warp_group_dot in registers") != std::string::npos);
}

TEST_CASE(
    "mmacheck prove reads an sm_90 TTGIR module: exit 1 for its unchecked shared operands, 0 with --allow-unchecked",
    "[triton][ttgir][wgmma][cli]") {
  const std::string path = test::source_path(kFolder + "/sm90_f16_chain_64x64x64_w4.ttgir");
  const test::RunResult run = test::run_mmacheck({"prove", path});
  CHECK(run.status == 1);
  CHECK(run.out.find("6 layouts: 3 proved, 0 refuted, 0 ill_formed, 3 unchecked") != std::string::npos);
  CHECK(test::run_mmacheck({"prove", "--allow-unchecked", path}).status == 0);
}

}  // namespace test_triton_ttgir_v3
