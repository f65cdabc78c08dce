#include "tests/test_ptx_support.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "sim/ptx/ptx_sim.h"
#include "tests/support.h"

namespace mmacheck::test {

std::int64_t sim_outside_bound(const std::string& path, int cases) {
  const ptx::PtxModule m = ptx::read_ptx(read_file(source_path(path)), path);
  ptx::PtxLaunch l = ptx::read_launch_for(source_path(path));
  const ptx::PtxKernel& k = ptx::bind_launch(l, m);
  std::int64_t n = 0;
  for (int i = 0; i < cases; ++i) {
    const sim::PtxCase c = sim::simulate_ptx_case(k, l, sim::arch_params("sm_90"), 1, i, sim::InputSet::standard);
    REQUIRE_FALSE(c.refutation.has_value());
    n += c.outside_bound;
  }
  return n;
}

std::string ptx_line(const std::string& text, int line) {
  std::istringstream in(text);
  std::string s;
  for (int i = 0; i < line; ++i)
    if (!std::getline(in, s)) return "";
  return s;
}

std::string ptx_opcode_at(const std::string& text, int line) {
  std::istringstream words(ptx_line(text, line));
  std::string op;
  words >> op;
  if (op.starts_with("@")) words >> op;
  return op;
}

int ptx_line_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(needle, at + 1) == std::string::npos);
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::string ptx_edited(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(from, at + 1) == std::string::npos);
  return text.replace(at, from.size(), to);
}

ManifestTally check_ptx_manifest(const std::string& dir) {
  std::istringstream manifest(read_file(source_path(dir + "expected.tsv")));
  ManifestTally t;
  for (std::string line; std::getline(manifest, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cols;
    std::istringstream fields(line);
    for (std::string f; std::getline(fields, f, '\t');) cols.push_back(f);
    REQUIRE(cols.size() == 4);
    const std::string path = dir + cols[0] + ".ptx";
    INFO(path);
    const std::string text = read_file(source_path(path));
    const ptx::PtxReport r =
        ptx::check_ptx_launch(ptx::read_ptx(text, path), ptx::read_launch_for(source_path(path)), {});
    INFO(r.message);
    CHECK(verdict_name(r.verdict) == cols[1]);
    CHECK_THAT(r.message, Catch::Contains(cols[3]));
    if (cols[2] != "-") {
      REQUIRE(r.finding.has_value());
      const int at = r.finding->loc.line;
      CHECK((ptx_opcode_at(text, at).starts_with(cols[2]) || ptx_line(text, at).find(cols[2]) != std::string::npos));
    }
    ++t.rows;
    t.proved += r.verdict == FrameVerdict::proved ? 1 : 0;
    t.refuted += r.verdict == FrameVerdict::refuted ? 1 : 0;
    t.unchecked += r.verdict == FrameVerdict::unchecked ? 1 : 0;
  }
  return t;
}

}  // namespace mmacheck::test
