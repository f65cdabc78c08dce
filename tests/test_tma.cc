// The TMA wing (core/tma/): cuTensorMapEncodeTiled's rules, each planted;
// where a tile copy writes each element (the swizzle on the absolute
// address, element strides, a 3-D box); the examples in examples/tma/
// prove or are refuted naming the planted field; every mistake class
// planted into every proved operand is refuted; the copy's placement equals
// the TIRx ComposeLayout placement of the wgmma wing's own examples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/error.h"
#include "core/tma/tensor_map.h"
#include "core/tma/tma_check.h"
#include "core/tma/tma_copy.h"
#include "core/tma/tma_reader.h"
#include "core/wgmma/wgmma_reader.h"
#include "tests/support.h"

namespace test_tma {

namespace {

using namespace mmacheck;
using mmacheck::test::read_file;
using mmacheck::test::source_path;

TensorMap f16_map() {
  TensorMap m;
  m.dtype = find_tma_type("f16");
  m.dims = {512, 256};
  m.strides = {1024};
  m.box = {64, 64};
  m.swizzle = SwizzleMode::b128;
  return m;
}

std::vector<TmaCase> read_example(const std::string& rel) {
  const std::string path = source_path(rel);
  return read_tma_file(read_file(path), path);
}

const std::vector<std::string> kProved{"examples/tma/k_sw128_f16.txt",  "examples/tma/k_sw64_bf16.txt",
                                       "examples/tma/k_sw32_tf32.txt",  "examples/tma/k_none_f16.txt",
                                       "examples/tma/mn_sw128_f16.txt", "examples/tma/k_sw128_box64B_f16.txt"};

bool mentions(const std::vector<std::string>& problems, const std::string& word) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(word) != std::string::npos; });
}

}  // namespace

TEST_CASE("tma: a valid map has no problems, each driver rule planted is named", "[tma]") {
  CHECK(f16_map().problems().empty());
  struct Plant {
    const char* rule;
    void (*plant)(TensorMap&);
    const char* word;
  };
  const Plant plants[] = {
      {"rank 6",
       [](TensorMap& m) {
         m.dims.assign(6, 4);
         m.strides.assign(5, 16);
         m.box.assign(6, 8);
       },
       "tensorRank"},
      {"interleave at rank 2", [](TensorMap& m) { m.interleave = TmaInterleave::b16; }, "at least 3"},
      {"address", [](TensorMap& m) { m.address = 8; }, "globalAddress"},
      {"dim 0", [](TensorMap& m) { m.dims[1] = 0; }, "globalDim[1]"},
      {"dim 2^32 + 1", [](TensorMap& m) { m.dims[1] = (std::int64_t{1} << 32) + 1; }, "globalDim[1]"},
      {"stride count", [](TensorMap& m) { m.strides.push_back(16); }, "globalStrides has"},
      {"stride multiple of 16", [](TensorMap& m) { m.strides[0] = 1032; }, "multiple of 16"},
      {"stride 2^40", [](TensorMap& m) { m.strides[0] = std::int64_t{1} << 40; }, "below 2^40"},
      {"box 257", [](TensorMap& m) { m.box[1] = 257; }, "boxDim[1]"},
      {"box 0", [](TensorMap& m) { m.box[0] = 0; }, "boxDim[0]"},
      {"inner not 16 bytes", [](TensorMap& m) { m.box[0] = 60; }, "multiple of 16"},
      {"element stride 9",
       [](TensorMap& m) {
         m.element_strides = {1, 9};
       },
       "elementStrides[1]"},
      {"element stride count", [](TensorMap& m) { m.element_strides = {1}; }, "elementStrides has"},
      {"inner past 64B", [](TensorMap& m) { m.swizzle = SwizzleMode::b64; }, "swizzle span"},
      {"inner past 32B", [](TensorMap& m) { m.swizzle = SwizzleMode::b32; }, "swizzle span"},
      {"inner past 128B", [](TensorMap& m) { m.box[0] = 128; }, "swizzle span"},
      {"nan fill on integers",
       [](TensorMap& m) {
         m.dtype = find_tma_type("uint16");
         m.oob_nan = true;
       },
       "NAN"},
  };
  for (const Plant& p : plants) {
    TensorMap m = f16_map();
    p.plant(m);
    INFO(p.rule);
    const std::vector<std::string> problems = m.problems();
    CHECK(mentions(problems, p.word));
  }
  // A stride below a row is no rule: the driver encodes it (h200_probe.txt, stride_below_row).
  TensorMap overlapping = f16_map();
  overlapping.strides[0] = 512;
  CHECK(overlapping.problems().empty());
  CHECK(overlapping.rows_overlap());
  CHECK_FALSE(f16_map().rows_overlap());
  // INTERLEAVE_32B: rank 3 at least, 32-byte strides and address, SWIZZLE_32B only.
  TensorMap interleaved = f16_map();
  interleaved.dims = {16, 64, 64};
  interleaved.strides = {32, 2048};
  interleaved.box = {16, 8, 8};
  interleaved.interleave = TmaInterleave::b32;
  CHECK(mentions(interleaved.problems(), "needs SWIZZLE_32B"));
  interleaved.swizzle = SwizzleMode::b32;
  CHECK(interleaved.problems().empty());
  interleaved.strides = {48, 2048};
  CHECK(mentions(interleaved.problems(), "multiple of 32"));
  // The inner dimension equal to each span is legal; one 16-byte chunk more is not.
  for (SwizzleMode mode : {SwizzleMode::b32, SwizzleMode::b64, SwizzleMode::b128}) {
    TensorMap m = f16_map();
    m.swizzle = mode;
    m.box[0] = tma_swizzle_span(mode) / 2;
    CHECK(m.problems().empty());
    m.box[0] += 8;
    CHECK(mentions(m.problems(), "swizzle span"));
  }
  // The driver's enum codes against the descriptor's: 32B = 1 / 3, 64B = 2 / 2, 128B = 3 / 1.
  CHECK(tma_swizzle_code(SwizzleMode::b32) == 1);
  CHECK(tma_swizzle_code(SwizzleMode::b128) == 3);
  CHECK(static_cast<int>(SwizzleMode::b128) == 1);
  CHECK(find_tma_type("bfloat16")->bytes == 2);
  CHECK(find_tma_type("tf32") == find_tma_type("tfloat32"));
  CHECK(find_tma_type("e4m3") == nullptr);
}

TEST_CASE("tma: the copy writes the dense box, swizzled on the absolute address", "[tma]") {
  TmaCopy copy;
  copy.map = f16_map();
  copy.smem = 0x2400;
  copy.coords = {0, 0};
  // SWIZZLE_128B: the 16-byte chunk c of 128-byte row r lands at chunk c ^ (r % 8).
  for (std::int64_t r = 0; r < 64; ++r)
    for (std::int64_t e = 0; e < 64; ++e) {
      const std::vector<std::int64_t> c{e, r};
      const std::int64_t chunk = (e / 8) ^ (r % 8);
      REQUIRE(tma_write_address(copy, c) == 0x2400 + r * 128 + chunk * 16 + (e % 8) * 2);
    }
  // On an address off the 1024-byte repeat the row phase is the address's, not the box's.
  copy.smem = 0x2480;
  CHECK(tma_write_address(copy, std::vector<std::int64_t>{0, 0}) == 0x2480 + 16);
  // Element strides: ceil(box / stride) elements, the global coordinate strided; dim 0's ignored.
  TensorMap strided = f16_map();
  strided.element_strides = {4, 3};
  strided.box = {64, 64};
  CHECK(strided.box_extent(0) == 64);
  CHECK(strided.box_extent(1) == 22);
  CHECK(strided.box_bytes() == 64 * 22 * 2);
  TmaCopy s;
  s.map = strided;
  s.coords = {8, 10};
  CHECK(tma_global_coord(s, std::vector<std::int64_t>{5, 7}) == std::vector<std::int64_t>{13, 31});
  // Past globalDim: the OOB fill.
  CHECK_FALSE(tma_out_of_bounds(s, std::vector<std::int64_t>{5, 7}));
  s.coords = {500, 0};
  CHECK(tma_out_of_bounds(s, std::vector<std::int64_t>{12, 0}));
  // A swizzled box narrower than the span pads each row to it (the H200 does,
  // h200_probe.txt's sw128_inner64); without a swizzle rows stay dense.
  TmaCopy narrow;
  narrow.map = f16_map();
  narrow.map.box = {32, 8};
  narrow.smem = 0x2400;
  narrow.coords = {0, 0};
  CHECK(narrow.map.smem_row_bytes() == 128);
  CHECK(narrow.map.box_bytes() == 8 * 128);
  CHECK(tma_write_address(narrow, std::vector<std::int64_t>{8, 1}) == 0x2400 + 128 + (16 ^ 16));
  narrow.map.swizzle = SwizzleMode::none;
  CHECK(narrow.map.smem_row_bytes() == 64);
  CHECK(tma_write_address(narrow, std::vector<std::int64_t>{8, 1}) == 0x2400 + 64 + 16);
  // The image inverts the write.
  const TmaImage image(copy);
  const std::vector<std::int64_t> c{17, 9};
  CHECK(image.element_at(tma_write_address(copy, c)) == std::optional<std::vector<std::int64_t>>(c));
  CHECK_FALSE(image.element_at(0x2480 + 1).has_value());
  // dstMem must be 128-byte aligned.
  copy.smem = 0x2440;
  CHECK(mentions(copy.problems(), "128-byte aligned"));
}

TEST_CASE("tma: the proved examples prove, every operand", "[tma]") {
  for (const std::string& rel : kProved) {
    for (const TmaCase& c : read_example(rel)) {
      const TmaReport r = check_tma(c);
      INFO(rel << " " << r.name << ": " << r.message);
      CHECK(r.result == FrameVerdict::proved);
      CHECK(r.fields.empty());
    }
  }
}

TEST_CASE("tma: each planted example is refuted naming its field", "[tma]") {
  const std::pair<const char*, std::vector<std::string>> planted[] = {
      {"bad_swizzle_mode", {"swizzle mode", "box inner dimension"}},
      {"bad_box_inner", {"box inner dimension"}},
      {"bad_span", {"box inner dimension"}},
      {"bad_alignment", {"smem alignment"}},
      {"bad_coverage", {"box coverage"}},
      {"bad_start", {"descriptor"}},
      {"bad_dtype", {"dtype"}},
  };
  for (const auto& [name, fields] : planted) {
    const std::vector<TmaCase> cases = read_example(std::string("examples/tma/") + name + ".txt");
    REQUIRE(cases.size() == 1);
    const TmaReport r = check_tma(cases[0]);
    INFO(name << ": " << r.message);
    CHECK(r.result == FrameVerdict::refuted);
    CHECK(r.fields == fields);
  }
}

TEST_CASE("tma: a refutation names the element, both addresses and what was written there", "[tma]") {
  const TmaCase c = read_example("examples/tma/bad_swizzle_mode.txt")[0];
  const TmaReport r = check_tma(c);
  REQUIRE(r.counterexample);
  const TmaMismatch& m = *r.counterexample;
  CHECK(m.written.has_value());
  CHECK(m.read != *m.written);
  // The addresses are the model's: the descriptor's read, the copy's write of the same element.
  CHECK(m.read == canonical_address(c.operand, c.descriptor, m.i, m.k));
  CHECK(*m.written == tma_write_address(c.copy, m.box));
  REQUIRE(m.found.has_value());
  CHECK(*m.found != m.global);
  CHECK(r.message.find("is read at 0x") != std::string::npos);
  CHECK(r.message.find("the copy wrote global element") != std::string::npos);
  // The wrong start: the fix is the start 32 bytes on, what the copy and the 128B layout need.
  const TmaReport start = check_tma(read_example("examples/tma/bad_start.txt")[0]);
  REQUIRE_FALSE(start.fixes.empty());
  CHECK(start.fixes[0].fields == std::vector<std::string>{"start"});
  CHECK(start.fixes[0].descriptor.start == 0x420);
  // Coverage: the element outside the box, nothing written for it.
  const TmaReport cover = check_tma(read_example("examples/tma/bad_coverage.txt")[0]);
  REQUIRE(cover.counterexample);
  CHECK(cover.counterexample->i == 32);
  CHECK_FALSE(cover.counterexample->written.has_value());
}

TEST_CASE("tma: every mistake class planted into every proved operand is refuted", "[tma]") {
  int planted = 0;
  for (const std::string& rel : kProved) {
    for (const TmaCase& good : read_example(rel)) {
      INFO(rel << " " << good.name);
      const TensorMap& map = good.copy.map;
      const auto refuted_with = [&](const TmaCase& c, const std::string& field) {
        const TmaReport r = check_tma(c);
        INFO(r.message);
        CHECK(r.result == FrameVerdict::refuted);
        CHECK(std::find(r.fields.begin(), r.fields.end(), field) != r.fields.end());
        ++planted;
      };
      // The map's swizzle: every other mode.
      for (const SwizzleModeRow& row : swizzle_modes()) {
        if (row.mode == map.swizzle) continue;
        TmaCase c = good;
        c.copy.map.swizzle = row.mode;
        const bool legal = c.copy.map.problems().empty();
        refuted_with(c, legal ? "swizzle mode" : "box inner dimension");
      }
      // The descriptor's swizzle: every other mode.
      for (const SwizzleModeRow& row : swizzle_modes()) {
        if (row.mode == good.descriptor.swizzle) continue;
        TmaCase c = good;
        c.descriptor.swizzle = row.mode;
        refuted_with(c, "swizzle mode");
      }
      // The destination 128 bytes on (both copy and descriptor moved): off a swizzled repeat.
      if (map.swizzle != SwizzleMode::none) {
        TmaCase c = good;
        c.copy.smem += 128;
        c.descriptor.start += 128;
        refuted_with(c, "smem alignment");
      }
      // The destination 64 bytes on: not a legal dstMem.
      {
        TmaCase c = good;
        c.copy.smem += 64;
        refuted_with(c, "smem alignment");
      }
      // The box one row short of the tile (the dim of i).
      {
        TmaCase c = good;
        const std::size_t row_dim = good.operand.major == Major::k ? 1 : 0;
        if (c.axes[row_dim].var == 'i' && c.axes[row_dim].div == 1 && c.copy.map.box[row_dim] > 16) {
          c.copy.map.box[row_dim] = good.at_row + good.operand.rows - (good.operand.major == Major::k ? 1 : 8);
          refuted_with(c, "box coverage");
        }
      }
      // The descriptor's start 16 bytes on, its SBO doubled.
      {
        TmaCase c = good;
        c.descriptor.start += 16;
        refuted_with(c, "descriptor");
        c = good;
        c.descriptor.sbo *= 2;
        refuted_with(c, "descriptor");
      }
      // A map of other element bytes.
      {
        TmaCase c = good;
        c.copy.map.dtype = find_tma_type(map.dtype->bytes == 2 ? "uint8" : "uint16");
        refuted_with(c, c.copy.map.problems().empty() ? "dtype" : "tensor map");
      }
    }
  }
  CHECK(planted > 100);
}

TEST_CASE("tma: the copy places elements as the wgmma wing's ComposeLayout examples do", "[tma]") {
  // examples/wgmma/k_sw128_f16.txt describes A's 128B buffer as TIRx's
  // ComposeLayout(3, 3, 3, S[(64, 64) : (64, 1)]) at 0x400; the TMA copy of a
  // 64 x 64 box at 0x400 must put every element where that layout does.
  const std::string wpath = source_path("examples/wgmma/k_sw128_f16.txt");
  const std::vector<WgmmaCase> wgmma = read_wgmma_file(read_file(wpath), wpath);
  const std::vector<TmaCase> tma = read_example("examples/tma/k_sw128_f16.txt");
  for (std::size_t n = 0; n < 2; ++n) {
    const std::vector<std::optional<std::int64_t>> placed = tma_placement(tma[n]);
    REQUIRE(placed.size() == wgmma[n].placed.size());
    for (std::size_t e = 0; e < placed.size(); ++e) REQUIRE(placed[e] == wgmma[n].placed[e]);
  }
  // The 64B bf16 example's buffer likewise: Swizzle(2, 3, 3) on a 64 x 32 panel at 0x200... is the
  // wgmma example's layout at its own base; here the canonical reading proves it (above).
}

TEST_CASE("tma: a base offset and an interleaved map are unchecked", "[tma]") {
  TmaCase c = read_example("examples/tma/k_sw128_f16.txt")[0];
  c.descriptor.base_offset = 1;
  CHECK(check_tma(c).result == FrameVerdict::unchecked);
  c = read_example("examples/tma/k_sw128_f16.txt")[0];
  c.copy.map.interleave = TmaInterleave::b16;
  CHECK(check_tma(c).result == FrameVerdict::unchecked);
}

TEST_CASE("tma: bad input is an error at FILE:LINE:COL", "[tma]") {
  const std::string ok = "tma A dtype=f16 dims=64x64 strides=128 box=64x64 swizzle=128B smem=0\n";
  const std::string op = "operand A dtype=f16 tile=64x16 major=K\ndescriptor start=0 lbo=16 sbo=1024 swizzle=128B\n";
  const std::pair<std::string, std::string> bad[] = {
      {ok + op + "smem tma=B\n", "t.txt:4:10: error: no 'tma B' line above"},
      {"tma A dtype=f16 dims=64x64 box=64x64 swizzle=128B smem=0 color=red\n" + op + "smem tma=A\n",
       "t.txt:1:58: error: unknown key 'color'"},
      {"tma A dtype=f17 dims=64 box=64 swizzle=128B smem=0\n" + op + "smem tma=A\n",
       "t.txt:1:13: error: unknown dtype"},
      {"tma A dtype=f16 box=64 swizzle=128B smem=0\n" + op + "smem tma=A\n", "t.txt:1: error: missing dims="},
      {ok + op + "smem tma=A box=k,j\n", "t.txt:4:18: error: a box coordinate is i or k"},
      {ok + op + "smem tma=A box=k/0,i\n", "t.txt:4:18: error: a box coordinate's divisor"},
      {ok + op + "smem tma=A box=k%8x,i\n", "t.txt:4:18: error: expected a non-negative integer"},
      {"tma A dtype=f16 dims=64x64 box=64x64 swizzle=128B smem=0 coords=1\n" + op + "smem tma=A\n",
       "t.txt:1:65: error: coords= has 1 values"},
      {"tma A dtype=f16 dims=1x2x3x4x5x6 box=1 swizzle=none smem=0\n" + op + "smem tma=A\n",
       "t.txt:1:22: error: dims= takes at most 5 values"},
      {ok + ok + op + "smem tma=A\n", "t.txt:2:5: error: tma 'A' given twice"},
      {ok + "smem tma=A\n", "t.txt:2:1: error: 'smem' before its 'operand' line"},
      {ok, "t.txt: error: no operand in the file"},
      {"tma A dtype=f16 dims=64x64 box=64x64 swizzle=interleave smem=0\n" + op + "smem tma=A\n",
       "t.txt:1:46: error: swizzle= expects none, 32B, 64B or 128B"},
  };
  for (const auto& [text, want] : bad) {
    INFO(text);
    try {
      read_tma_file(text, "t.txt");
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find(want) != std::string::npos);
      INFO(e.what());
    }
  }
}

namespace {

// One `copy` record of the device probe and its dumped words.
struct ProbeCopy {
  std::string line;
  TmaCopy copy;
  std::vector<std::uint32_t> words;
};

std::string probe_value(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) return "";
  const std::size_t from = at + key.size() + 2;
  return line.substr(from, line.find(' ', from) - from);
}

std::vector<std::int64_t> probe_pair(const std::string& text) {
  const std::size_t comma = text.find(',');
  return {std::stoll(text.substr(0, comma)), std::stoll(text.substr(comma + 1))};
}

}  // namespace

TEST_CASE("tma: the model writes what the device's copies wrote (h200_probe.txt in tests/data/tma/)", "[tma]") {
  const std::string path = source_path("tests/data/tma/") + "h200_probe.txt";
  std::ifstream in(path);
  if (!in) return mmacheck::test::skip("no h200_probe.txt in tests/data/tma/ (scripts/device/tma-probe.sh records it)");
  std::vector<ProbeCopy> copies;
  std::vector<std::pair<std::string, int>> encodes;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("encode ", 0) == 0) {
      encodes.emplace_back(line.substr(7, line.find(' ', 7) - 7), std::stoi(probe_value(line, "code")));
    } else if (line.rfind("copy ", 0) == 0) {
      ProbeCopy p;
      p.line = line;
      TensorMap& m = p.copy.map;
      m.dtype = find_tma_type("uint16");
      m.dims = probe_pair(probe_value(line, "dims"));
      m.strides = {m.dims[0] * 2};
      m.box = probe_pair(probe_value(line, "box"));
      m.element_strides = probe_pair(probe_value(line, "element_strides"));
      m.swizzle = find_swizzle_mode(probe_value(line, "swizzle"))->mode;
      p.copy.smem = 2048 + std::stoll(probe_value(line, "offset"));
      p.copy.coords = probe_pair(probe_value(line, "coords"));
      copies.push_back(std::move(p));
    } else if (!line.empty() && line[0] != '#') {
      REQUIRE_FALSE(copies.empty());
      std::istringstream words(line);
      for (std::string w; words >> w;)
        copies.back().words.push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
    }
  }
  REQUIRE(copies.size() >= 10);
  for (const ProbeCopy& p : copies) {
    INFO(p.line);
    REQUIRE(p.copy.map.problems().empty());
    // Every word the model says the copy writes holds that element (or the zero fill); every other word is untouched.
    std::vector<std::uint32_t> want(p.words.size(), 0xffff);
    const TensorMap& m = p.copy.map;
    for (std::int64_t y = 0; y < m.box_extent(1); ++y)
      for (std::int64_t x = 0; x < m.box_extent(0); ++x) {
        const std::vector<std::int64_t> c{x, y};
        const std::int64_t word = (tma_write_address(p.copy, c) - 2048) / 2;
        REQUIRE(word >= 0);
        REQUIRE(word < static_cast<std::int64_t>(want.size()));
        const std::vector<std::int64_t> g = tma_global_coord(p.copy, c);
        want[static_cast<std::size_t>(word)] =
            tma_out_of_bounds(p.copy, c) ? 0 : static_cast<std::uint32_t>(g[1] * m.dims[0] + g[0] + 1);
      }
    CHECK(p.words == want);
  }
  // The driver refuses exactly the maps the rules refuse: the probe's
  // planted maps (scripts/device/tma_probe.cu: 256 x 128 uint16, the stride in bytes).
  struct Planted {
    std::string name;
    SwizzleMode swizzle;
    std::int64_t box0, box1, element_stride1, stride;
    TmaInterleave interleave;
  };
  using SM = SwizzleMode;
  const TmaInterleave none = TmaInterleave::none;
  const Planted planted[] = {
      {"valid", SM::b128, 64, 64, 1, 512, none},
      {"inner_past_64B_span", SM::b64, 64, 64, 1, 512, none},
      {"inner_past_32B_span", SM::b32, 32, 64, 1, 512, none},
      {"stride_not_16", SM::b128, 64, 64, 1, 520, none},
      {"box_257", SM::none, 8, 257, 1, 512, none},
      {"inner_not_16_bytes", SM::none, 12, 8, 1, 512, none},
      {"element_stride_9", SM::none, 8, 8, 9, 512, none},
      {"interleave_rank_2", SM::b32, 8, 8, 1, 512, TmaInterleave::b16},
      {"stride_below_row", SM::none, 8, 8, 1, 256, none},
  };
  int compared = 0;
  for (const auto& encode : encodes) {
    // Plain names, not structured bindings: clang's C++20 lets no lambda capture those.
    const std::string& name = encode.first;
    const int code = encode.second;
    INFO(name << " code=" << code);
    const auto copy = std::find_if(copies.begin(), copies.end(),
                                   [&](const ProbeCopy& p) { return p.line.rfind("copy " + name + " ", 0) == 0; });
    if (copy != copies.end()) {
      CHECK(code == 0);
      continue;
    }
    const auto plant =
        std::find_if(std::begin(planted), std::end(planted), [&](const Planted& p) { return p.name == name; });
    REQUIRE(plant != std::end(planted));
    TensorMap m;
    m.dtype = find_tma_type("uint16");
    m.dims = {256, 128};
    m.strides = {plant->stride};
    m.box = {plant->box0, plant->box1};
    m.element_strides = {1, plant->element_stride1};
    m.swizzle = plant->swizzle;
    m.interleave = plant->interleave;
    CHECK((code == 0) == m.problems().empty());
    ++compared;
  }
  CHECK(compared == static_cast<int>(std::size(planted)));
}

}  // namespace test_tma
