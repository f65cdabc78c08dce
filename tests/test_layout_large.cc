// Layouts whose extents, strides and offsets lie between 2^62 and 2^63 - 1,
// as TVM holds them (int64), against TVM's own answers:
// tests/data/tvm/large_layouts.jsonl, made by scripts/tvm-oracle/large_layouts.py
// (apache-tvm-tirx 0.1.0a4; its header names the command).  Where TVM folds
// a value to an int64 mmacheck gives the same value, through the algebra and
// through `mmacheck layout`; where TVM's folding leaves an expression (the
// value overflows int64) mmacheck gives a located error naming the value.
// One documented difference (docs/tvmscript.md, "Differences from TVM"):
// TVM's analyzer takes a stride of 2^63 - 1 for +infinity and fails
// canonicalize on S[(2, 2) : (2^63 - 1, 2^62)]; mmacheck keeps the iters apart,
// as 2 * 2^62 is not 2^63 - 1.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/program/layout_parser.h"
#include "tests/support.h"

namespace test_layout_large {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

constexpr std::int64_t kMax = INT64_MAX;  // 2^63 - 1
constexpr std::int64_t k62 = std::int64_t{1} << 62;

struct Case {
  Json tvm;
  std::string expr;
  bool cuda;
};

std::vector<Case> cases() {
  std::istringstream lines(read_file(source_path("tests/data/tvm/large_layouts.jsonl")));
  std::string line;
  std::getline(lines, line);
  const Json header = parse_json(line, "large_layouts.jsonl");
  CHECK(header["tvm"] == "apache-tvm-tirx 0.1.0a4");
  std::vector<Case> out;
  while (std::getline(lines, line)) {
    const Json c = parse_json(line, "large_layouts.jsonl");
    out.push_back(Case{c, c["expr"], c["cuda"]});
  }
  return out;
}

// The case's layout as mmacheck evaluates it (under a CUDA target, the
// final canonicalize as TVM ran it).
LayoutValue evaluate(const Case& c) {
  std::string expr = c.expr;
  const std::string canon = ".canonicalize()";
  if (c.cuda) expr.resize(expr.size() - canon.size());
  LayoutValue v = parse_layout(expr, "<large>");
  if (c.cuda) v = layout_of(v).canonicalize(Target::cuda);
  return v;
}

// A value TVM left unfolded (its int64 arithmetic overflowed) is a string.
bool unfolded(const Json& v) { return v.is_string(); }

bool any_unfolded(const Json& iters) {
  for (const Json& it : iters)
    if (unfolded(it[0]) || unfolded(it[1])) return true;
  return false;
}

std::vector<Iter> iters_of(const Json& j) {
  std::vector<Iter> out;
  for (const Json& it : j) out.push_back(Iter{it[0], it[1], Axis(it[2].get<std::string>())});
  return out;
}

Offset offset_of(const Json& j) {
  Offset out;
  for (const auto& [axis, value] : j.items()) out.emplace(Axis(axis), value.get<std::int64_t>());
  return out;
}

std::string error_of(const Case& c) {
  try {
    (void)evaluate(c);
  } catch (const Error& e) {
    CHECK(e.loc().known() != c.cuda);  // the CUDA canonicalize runs outside the parser
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("layouts with values in [2^62, 2^63 - 1] give TVM's answers", "[layout][tvm]") {
  int agreed = 0, overflows = 0;
  for (const Case& c : cases()) {
    INFO(c.expr);
    const Json& t = c.tvm;
    if (t.contains("error")) {
      if (t["error"].get<std::string>().find("kNegInf") != std::string::npos) {
        // The documented difference: mmacheck keeps the iters apart.
        const TileLayout l = layout_of(evaluate(c));
        CHECK(l.shard() == layout_of(parse_layout(c.expr.substr(0, c.expr.rfind(".canonicalize")), "x")).shard());
        continue;
      }
      CHECK_THAT(error_of(c), Catch::Contains("overflows int64"));
      ++overflows;
      continue;
    }
    // A layout value past int64 (a stride, an offset, the size): refused
    // where it is made, naming it.
    bool bad_offset = false;
    for (const auto& [axis, value] : t["offset"].items()) bad_offset = bad_offset || unfolded(value);
    if (any_unfolded(t["shard"]) || any_unfolded(t["replica"]) || bad_offset || unfolded(t["size"])) {
      CHECK_THAT(error_of(c), Catch::Contains("overflows int64"));
      ++overflows;
      continue;
    }
    const LayoutValue v = evaluate(c);
    const TileLayout& l = layout_of(v);
    CHECK(l.shard() == iters_of(t["shard"]));
    CHECK(l.replica() == iters_of(t["replica"]));
    CHECK(l.offset() == offset_of(t["offset"]));
    CHECK(l.size() == t["size"].get<std::int64_t>());
    if (t.contains("seps")) CHECK(std::get<GroupedLayout>(v).seps() == t["seps"].get<std::vector<int>>());
    // TVM's printed text (T.int64(N)) reads back as the same layout.
    const TileLayout printed = layout_of(parse_layout(t["printed"].get<std::string>(), "<printed>"));
    CHECK(printed.shard() == l.shard());
    CHECK(printed.replica() == l.replica());
    // mmacheck's own text reads back too.
    CHECK(layout_of(parse_layout(l.str(), "<str>")) == l);
    for (const auto& [axis, span] : t["span"].items()) {
      INFO("span " << axis);
      const std::optional<Axis> a = axis.empty() ? std::nullopt : std::optional(Axis(axis));
      if (unfolded(span)) {
        CHECK_THROWS_WITH(l.span(a), Catch::Contains("span of layout") && Catch::Contains("overflows int64"));
        ++overflows;
      } else {
        CHECK(l.span(a) == span.get<std::int64_t>());
      }
    }
    if (t.contains("last")) {
      const Json& last = t["last"];
      bool overflowing = false;
      for (const auto& [axis, value] : last.items()) overflowing = overflowing || unfolded(value);
      if (overflowing) {
        CHECK_THROWS_WITH(l.apply_flat(l.size() - 1),
                          Catch::Contains("apply: coordinate") && Catch::Contains("overflows int64"));
        ++overflows;
      } else {
        const Owner owner = l.apply_flat(l.size() - 1);
        for (const auto& [axis, value] : owner) CHECK(value == last.value(axis.name(), std::int64_t{0}));
      }
    }
    ++agreed;
  }
  CHECK(agreed >= 20);
  CHECK(overflows >= 12);
}

TEST_CASE("mmacheck layout prints TVM's values, or a located error where TVM's overflow", "[layout][tvm][cli]") {
  int printed = 0, refused = 0;
  for (const Case& c : cases()) {
    if (c.cuda) continue;  // the command canonicalizes under no target
    INFO(c.expr);
    const Json& t = c.tvm;
    if (t.contains("error") && t["error"].get<std::string>().find("kNegInf") != std::string::npos) continue;
    const RunResult r = run_mmacheck({"layout", c.expr, "--json"});
    bool fits = !t.contains("error");
    if (fits) {
      fits = !any_unfolded(t["shard"]) && !any_unfolded(t["replica"]) && !unfolded(t["size"]);
      for (const auto& [axis, value] : t["offset"].items()) fits = fits && !unfolded(value);
      for (const auto& [axis, span] : t["span"].items()) fits = fits && (axis.empty() || !unfolded(span));
    }
    if (!fits) {
      CHECK(r.status == 2);
      CHECK_THAT(r.out, Catch::StartsWith("{\"file\":\"<expr>\",\"verdict\":\"bad input\""));
      CHECK_THAT(r.out, Catch::Contains("\"line\":1,") && Catch::Contains("overflows int64"));
      ++refused;
      continue;
    }
    REQUIRE(r.status == 0);
    const Json out = parse_json(r.out, "<stdout>");
    CHECK(iters_of(out["shard"]) == iters_of(t["shard"]));
    CHECK(iters_of(out["replica"]) == iters_of(t["replica"]));
    CHECK(offset_of(out["offset"]) == offset_of(t["offset"]));
    for (const auto& [axis, span] : out["span"].items()) CHECK(span == t["span"][axis]);
    // The text form prints the same digits.
    const RunResult text = run_mmacheck({"layout", c.expr});
    CHECK(text.status == 0);
    for (const auto& [axis, span] : out["span"].items())
      CHECK_THAT(text.out, Catch::Contains(axis + " " + std::to_string(span.get<std::int64_t>())));
    ++printed;
  }
  CHECK(printed >= 15);
  CHECK(refused >= 8);
}

TEST_CASE("an overflow past int64 is a located error naming the value", "[layout][cli]") {
  struct Expect {
    std::string expr, error;
  };
  const std::vector<Expect> expect = {
      // The layout, accepted (TVM: span 4611686018427387906).
      {"S[(2, 2) : (4611686018427387904, 1)]", ""},
      {"S[(2, 2) : (9223372036854775807, 1)]",
       "<expr>:1:1: error: the span of layout S[(2, 2) : (9223372036854775807, 1)] on axis m is 9223372036854775809, "
       "which overflows int64"},
      {"S[(2, 4611686018427387904, 2)]",
       "<expr>:1:7: error: the row-major stride 2 * 4611686018427387904 overflows int64"},
      {"S[(2, 9223372036854775807)]",
       "<expr>:1:1: error: layout size (the product of the shard extents): 2 * 9223372036854775807 overflows int64"},
      {"S[4 : 4611686018427387904].group([2, 2])",
       "<expr>:1:28: error: group: 4611686018427387904 * 2 overflows int64"},
      {"S[(2, 2) : (4611686018427387904, 1)].unpack(2)",
       "<expr>:1:38: error: unpack: 4611686018427387904 * 2 overflows int64"},
      {"S[2 : 1].tile(S[2 : 4611686018427387904], [2], [2])",
       "<expr>:1:10: error: tile: 4611686018427387904 * 2 overflows int64"},
      {"S[8] + 9223372036854775807 + 1", "<expr>:1:28: error: integer overflow"},
      {"S[2 : 9223372036854775808]", "<expr>:1:7: error: integer 9223372036854775808 is too large"},
  };
  for (const Expect& e : expect) {
    INFO(e.expr);
    const RunResult r = run_mmacheck({"layout", e.expr});
    if (e.error.empty()) {
      CHECK(r.status == 0);
      CHECK(r.out == "layout  S[(2, 2) : (4611686018427387904, 1)]\nspan    m 4611686018427387906\n");
      continue;
    }
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::StartsWith(e.error));
  }
  // With --shape every owner prints, so one past int64 is refused, though
  // the span (2) fits.
  const RunResult shape =
      run_mmacheck({"layout", "S[(2, 2) : (9223372036854775807, -9223372036854775807)] + 1", "--shape", "2,2"});
  CHECK(shape.status == 2);
  CHECK_THAT(shape.err, Catch::StartsWith("<expr>:1:1: error: the greatest coordinate on axis m of layout") &&
                            Catch::Contains("is 9223372036854775808, which overflows int64"));
  const RunResult owners =
      run_mmacheck({"layout", "S[(2, 2) : (9223372036854775807, -9223372036854775807)]", "--shape", "2,2", "--json"});
  CHECK(owners.status == 0);
  CHECK_THAT(owners.out, Catch::Contains("{\"coord\":[0,1],\"owners\":[{\"m\":-9223372036854775807}]}") &&
                             Catch::Contains("{\"coord\":[1,0],\"owners\":[{\"m\":9223372036854775807}]}"));
}

TEST_CASE("sums are exact: opposite terms cancel, apply reaches 2^63 - 1", "[layout]") {
  const TileLayout l =
      layout_of(parse_layout("S[(2, 2, 2) : (-4611686018427387904, 4611686018427387904, "
                             "4611686018427387904)]",
                             "x"));
  // The span and the last element (2^62 + 1, 2^62) fit though their terms
  // pass 2^63 on the way; element 3 (0, 1, 1) is 2^63 itself.
  CHECK(l.span() == k62 + 1);
  CHECK(l.apply_flat(7).at(Axis::m()) == k62);
  CHECK_THROWS_WITH(l.apply_flat(3), Catch::Contains("is 9223372036854775808, which overflows int64"));
  CHECK_THROWS_WITH(l.owner_range(Axis::m()), Catch::Contains("greatest coordinate on axis m") &&
                                                  Catch::Contains("is 9223372036854775808, which overflows int64"));
  CHECK(layout_of(parse_layout("S[(2, 2) : (4, -1)] + 3", "x")).owner_range(Axis::m()) ==
        std::pair<std::int64_t, std::int64_t>{2, 7});
  const TileLayout top = layout_of(parse_layout("S[9223372036854775807]", "x"));
  CHECK(top.size() == kMax);
  CHECK(top.span() == kMax);
  CHECK(top.apply_flat(kMax - 1).at(Axis::m()) == kMax - 1);
  // Replicas are exact too: R[2 : 2^62 @ warpid] puts the element in warp 0 and 2^62.
  const TileLayout rep = layout_of(parse_layout("S[4 : 1] + R[2 : 4611686018427387904 @ warpid]", "x"));
  const std::vector<std::int64_t> coord{3}, shape{4};
  const std::vector<Owner> owners = rep.apply(coord, shape);
  REQUIRE(owners.size() == 2);
  CHECK(owners[1].at(Axis::warpid()) == k62);
  CHECK(rep.span(Axis::warpid()) == k62 + 1);
}

TEST_CASE("prove, draw and sim refuse an overflowing layout at its buffer, at once", "[layout][cli]") {
  // examples/beta1.txt with D's layout (the m16n8 accumulator) changed: laneid
  // coordinates past int64 (7 * 2^62), an offset at 2^63 - 1, a register span
  // of 2^62 + 2 slots.
  const std::string example = read_file(source_path("examples/beta1.txt"));
  const std::string line = "D = buffer((16, 8), \"float32\", \"local\", D_FRAG)";
  const std::size_t at = example.find(line);
  REQUIRE(at != std::string::npos);
  const std::string where =
      ":" + std::to_string(std::count(example.begin(), example.begin() + at, '\n') + 1) + ":1: error: ";
  const std::string frag = "S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]";
  const std::vector<std::pair<std::string, std::string>> layouts = {
      {"S[(2, 8, 4, 2) : (2, 4611686018427387904 @ laneid, 1 @ laneid, 1)]",
       "the greatest coordinate on axis laneid of layout"},
      {frag + " + 9223372036854775807 @ laneid", "the greatest coordinate on axis laneid of layout"},
      {frag + " + 9223372036854775807", "the greatest coordinate on axis m of layout"},
      {"S[(2, 8, 4, 2) : (4611686018427387904, 4 @ laneid, 1 @ laneid, 1)]",
       "needs 4611686018427387906 register slots per thread, over the limit of 65536"},
  };
  const std::string path = "test_layout_large_gemm.txt";
  for (const auto& [layout, message] : layouts) {
    INFO(layout);
    std::string text = example;
    text.replace(at, line.size(), "D = buffer((16, 8), \"float32\", \"local\", TileLayout(" + layout + "))");
    std::ofstream(path) << text;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"prove", path}, {"draw", path, "-o", "-"}, {"sim", path}}) {
      INFO(args[0]);
      const auto start = std::chrono::steady_clock::now();
      const RunResult r = run_mmacheck(args);
      CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
      CHECK(r.status == 2);
      CHECK_THAT(r.err, Catch::StartsWith(path + where) && Catch::Contains(message));
    }
    // `layout FILE --by-lane` tabulates the owners without dispatching: an
    // owner past int64 is an error at the buffer too.
    if (layout.find("laneid)]") != std::string::npos &&
        layout.find("4611686018427387904 @ laneid") != std::string::npos) {
      const RunResult r = run_mmacheck({"layout", path, "--by-lane"});
      CHECK(r.status == 2);
      CHECK_THAT(r.err, Catch::StartsWith(path + where) && Catch::Contains("overflows int64"));
    }
  }
  // A shared buffer's span (64) fits, its offsets reach 2^63 - 64.
  std::string smem = read_file(source_path("examples/smem_copy.txt"));
  const std::string b_s = "B_s = buffer((16, 8), \"float16\", \"shared\", S[(16, 8) : (8, 1)]";
  const std::size_t b_at = smem.find(b_s);
  REQUIRE(b_at != std::string::npos);
  smem.replace(b_at, b_s.size(),
               "B_s = buffer((16, 8), \"float16\", \"shared\", S[(2, 64) : (-9223372036854775680, 1)] + "
               "9223372036854775680");
  std::ofstream(path) << smem;
  for (const char* command : {"prove", "sim"}) {
    const RunResult r = run_mmacheck({command, path});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("error: shared buffer 'B_s' places an element at offset 9223372036854775743, "
                                      "past any CTA's shared memory"));
  }
  std::remove(path.c_str());
}

}  // namespace test_layout_large
