// The wgmma wing against CuTe's Python DSL (tests/data/wgmma/dsl_layouts.txt,
// written by scripts/wgmma-oracle/dsl_layouts.py): every shared-memory layout
// atom the DSL builds for wgmma, tiled to an operand, is read right by a
// descriptor of its own swizzle mode and major-ness and by no other; the
// DSL's swizzle is the mode table's; the DSL's MMA atoms' TV layouts of A
// (from registers) and C are the wgmma frames.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>
#include <string>

#include "core/cute/cute_layout.h"
#include "core/wgmma/canonical_layout.h"
#include "core/wgmma/wgmma_check.h"
#include "core/wgmma/wgmma_frame.h"
#include "tests/support.h"

namespace test_wgmma_dsl {

namespace {

using namespace mmacheck;

struct SmemAtom {
  std::string kind;  // "K_SW128"
  const WgmmaType* type = nullptr;
  int rows = 0, cols = 0;
  Swizzle swizzle;
  CuteLayout layout;
};

SwizzleMode mode_of(const std::string& kind) {
  const std::string tail = kind.substr(kind.find('_') + 1);
  return tail == "SW128"  ? SwizzleMode::b128
         : tail == "SW64" ? SwizzleMode::b64
         : tail == "SW32" ? SwizzleMode::b32
                          : SwizzleMode::none;
}

std::vector<std::string> data_lines(const std::string& tag) {
  std::istringstream in(test::read_file(test::source_path("tests/data/wgmma/dsl_layouts.txt")));
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (line.rfind(tag + " ", 0) == 0) out.push_back(line);
  return out;
}

SmemAtom parse_smem(const std::string& line) {
  static const std::regex re(R"(smem (\S+) (\S+) (\d+)x(\d+) S<(\d),(\d),(\d)> o 0 o (\S+))");
  std::smatch m;
  REQUIRE(std::regex_match(line, m, re));
  SmemAtom a;
  a.kind = m[1];
  a.type = find_wgmma_type(m[2].str());
  REQUIRE(a.type);
  a.rows = std::stoi(m[3]);
  a.cols = std::stoi(m[4]);
  a.swizzle = Swizzle{std::stoi(m[5]), std::stoi(m[6]), std::stoi(m[7])};
  a.layout = parse_cute_layout(m[8].str());
  return a;
}

}  // namespace

TEST_CASE("CuTe DSL's wgmma shared-memory atoms are the canonical layouts", "[wgmma][dsl]") {
  const std::vector<std::string> lines = data_lines("smem");
  REQUIRE(lines.size() == 32);
  int blocks = 0;
  for (const std::string& line : lines) {
    INFO(line);
    const SmemAtom a = parse_smem(line);
    const SwizzleMode mode = mode_of(a.kind);
    // CuTe's swizzle on the pointer (bytes) is the mode table's.
    CHECK(a.swizzle == swizzle_mode(mode).bytes);
    WgmmaOperand op;
    op.operand = a.rows == 64 ? 'A' : 'B';
    op.type = a.type;
    op.rows = a.rows;
    op.k = a.type->k;
    op.major = a.kind.rfind("K_", 0) == 0 ? Major::k : Major::mn;
    REQUIRE(op.problem() == "");
    REQUIRE(a.cols % op.k == 0);
    for (int block = 0; block < a.cols / op.k; ++block) {
      INFO("K block " << block);
      std::vector<std::int64_t> placed;
      for (int i = 0; i < op.rows; ++i)
        for (int k = 0; k < op.k; ++k)
          placed.push_back(a.swizzle.apply(a.type->bytes * a.layout.at(i + std::int64_t{a.rows} * (block * op.k + k))));
      MatrixDescriptor like;
      like.lbo = 16;  // the "assumed 1" of an unused LBO
      const std::optional<MatrixDescriptor> d = measured_descriptor(op, mode, placed, like);
      REQUIRE(d);
      CHECK(wgmma_mismatches(op, *d, placed).empty());
      // A K step is a start 32 bytes on; K-major swizzled: SBO is 8 rows of the swizzle row.
      CHECK(d->start == 32 * block);
      if (op.major == Major::k && mode != SwizzleMode::none) CHECK(d->sbo == 8 * swizzle_mode(mode).row_bytes);
      // No other mode or major-ness reads the atom (the diagnosis is unambiguous).
      for (const SwizzleModeRow& other : swizzle_modes())
        for (Major major : {Major::k, Major::mn}) {
          if (other.mode == mode && major == op.major) continue;
          WgmmaOperand o = op;
          o.major = major;
          if (!o.problem().empty()) continue;
          const std::optional<MatrixDescriptor> e = measured_descriptor(o, other.mode, placed, like);
          CHECK((!e || !wgmma_mismatches(o, *e, placed).empty()));
        }
      ++blocks;
    }
  }
  CHECK(blocks > 32);
}

TEST_CASE("CuTe DSL's wgmma TV layouts are the wgmma frames", "[wgmma][dsl]") {
  static const std::regex re(R"(tv (A|C) (\S+) (\S+) (\d+) (\S+))");
  const std::vector<std::string> lines = data_lines("tv");
  REQUIRE(lines.size() == 6);
  for (const std::string& line : lines) {
    INFO(line);
    std::smatch m;
    REQUIRE(std::regex_match(line, m, re));
    const bool acc = m[1] == "C";
    const WgmmaType* type = find_wgmma_type(m[3].str());
    REQUIRE(type);
    const int n = std::stoi(m[4]);
    const CuteLayout tv = parse_cute_layout(m[5].str());
    const WgmmaFrame* f =
        find_wgmma_frame(m[2].str(), acc ? WgmmaFragment::D : WgmmaFragment::A, acc ? 32 : 8 * type->bytes);
    REQUIRE(f);
    REQUIRE(tv.mode(0).size() == WgmmaFrame::kThreads);
    REQUIRE(tv.mode(1).size() == f->elems(n));
    for (int t = 0; t < WgmmaFrame::kThreads; ++t)
      for (int v = 0; v < f->elems(n); ++v) {
        const std::int64_t index = tv.at(t + std::int64_t{WgmmaFrame::kThreads} * v);  // m + 64 * (k or n)
        REQUIRE(f->at(t, v) == std::array<int, 2>{static_cast<int>(index % 64), static_cast<int>(index / 64)});
      }
  }
}

}  // namespace test_wgmma_dsl
