// The tcgen05 descriptors TVM's TIRx (apache-tvm-tirx 0.1.0a4) encodes
// (tests/data/tcgen05/tirx_descriptors.jsonl, from
// scripts/tirx-oracle/tcgen05_descriptors.py): every instruction descriptor
// it folds is the one Tcgen05Instr::idesc() gives for the same instruction,
// and every shared-memory descriptor base decodes to its LBO, SBO and
// swizzle.  TIRx's shape check is stricter than the ISA's Table 39 (it
// refuses N = 8 with M = 128, N not a multiple of 32 with a pair); those
// shapes are counted, and mmacheck accepts them, following the ISA.  And
// TIRx's TMEM layout of the accumulator for each data path (its letters A,
// B, D, F) puts every element where tcgen05_tmem.h does.
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "core/program/layout_parser.h"
#include "core/tcgen05/tcgen05_descriptor.h"
#include "core/tcgen05/tcgen05_instr.h"
#include "core/tcgen05/tcgen05_tmem.h"
#include "tests/support.h"

namespace test_tcgen05_tirx {

using namespace mmacheck;

TEST_CASE("tcgen05: TIRx's descriptors are ours", "[tcgen05][tirx]") {
  std::istringstream lines(test::read_file(test::source_path("tests/data/tcgen05/tirx_descriptors.jsonl")));
  std::string line;
  int idescs = 0, refused = 0, smems = 0, tmems = 0;
  while (std::getline(lines, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    if (j.contains("command")) continue;
    INFO(line);
    if (j["what"] == "idesc") {
      Tcgen05Instr in;
      REQUIRE(find_tcgen05_kind(j["kind"].get<std::string>(), in.kind));
      in.cta_group = j["cta_group"];
      in.m = j["m"];
      in.n = j["n"];
      in.d = find_tcgen05_d(in.kind, j["d"].get<std::string>());
      in.a = find_tcgen05_format(in.kind, j["a"].get<std::string>());
      in.b = find_tcgen05_format(in.kind, j["b"].get<std::string>());
      REQUIRE(in.d);
      REQUIRE(in.a);
      REQUIRE(in.b);
      in.a_major = j["a_major"] == "MN" ? Major::mn : Major::k;
      in.b_major = j["b_major"] == "MN" ? Major::mn : Major::k;
      CHECK(in.problem() == "");
      if (j.contains("refused")) {
        ++refused;
        continue;
      }
      const std::uint32_t value = j["value"];
      CHECK(in.idesc() == value);
      CHECK(idesc_differences(in, value).empty());
      ++idescs;
    } else if (j["what"] == "tmem") {
      // TIRx's layout of one CTA's (M / cta_group) x N accumulator: CTA 0's rows of ours.
      const int cta_group = j["cta_group"], m = j["m"], n = j["n"];
      const DataPathLayout* path = find_data_path(cta_group, m);
      REQUIRE(path);
      const int rows = m / cta_group;
      const std::vector<TmemPosition> tirx =
          tmem_placement(layout_of(parse_layout(j["layout"].get<std::string>(), "tirx")), rows, n);
      int differ = 0;
      for (int row = 0; row < rows; ++row)
        for (int col = 0; col < n; ++col)
          differ += !(tmem_position(*path, n, 0, 0, row, col) == tirx[std::size_t(row) * n + col]);
      CHECK(differ == 0);
      ++tmems;
    } else {
      const std::uint64_t value = j["value"];
      const Tcgen05SmemDescriptor d = Tcgen05SmemDescriptor::decode(value | 0x40);  // start 0x400 ORed in
      CHECK(d.start == 0x400);
      CHECK(d.lbo == j["ldo"].get<std::int64_t>() * 16);
      CHECK(d.sbo == j["sdo"].get<std::int64_t>() * 16);
      CHECK(tcgen05_swizzle(d.swizzle).name == j["swizzle"].get<std::string>());
      CHECK(d.encode() == (value | 0x40));
      ++smems;
    }
  }
  CHECK(idescs >= 100);
  CHECK(refused >= 20);
  CHECK(smems == 20);
  CHECK(tmems == 12);  // letters D, F (M = 64), A (M = 256 pair), B (M = 128 pair), three N each
}

}  // namespace test_tcgen05_tirx
