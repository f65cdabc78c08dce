// Layout files: the example of ../shared/DESIGN.md, the statement forms, and one error per
// kind of bad statement, each at FILE:LINE:COL.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "core/base/error.h"
#include "core/program/layout_parser.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"

namespace test_program_parser {

using namespace mmacheck;

namespace {

// ../shared/DESIGN.md "Layout file", verbatim.
const char* const kDesignExample = R"(D_FRAG    = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
B_FRAG_K8 = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)]
A_FRAG    = A_FRAG_K8.tile_to([16, 16], [16, 8])
B_FRAG    = B_FRAG_K8.tile_to([16, 8], [8, 8])
A_KM      = A_FRAG.group([16, 16]).permute_by_groups([1, 0])

A = buffer((16, 16), "float16", "local", A_FRAG)
B = buffer((16, 8),  "float16", "local", B_FRAG)
D = buffer((16, 8),  "float32", "local", D_FRAG)

scope warp                       # or: scope warp lanes 0..15 / scope cta threads 128
gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)

# optional: the program's own staging / write-back, checked against the layouts
stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]
store D[s] -> D_g[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2]
)";

// The buffers and gemm of the example, for variations.
const char* const kPrelude = R"(F = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]
A = buffer((16, 16), "float16", "local", F.tile_to([16, 16], [16, 8]))
B = buffer((16, 8), "float16", "local", S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)].tile_to([16, 8], [8, 8]))
D = buffer((16, 8), "float32", "local", F)
)";

std::string error_of(const std::string& text) {
  try {
    parse_program(text, "f.txt");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TileLayout layout(const std::string& expr) { return layout_of(parse_layout(expr, "<e>")); }

}  // namespace

TEST_CASE("the design notes' example file parses", "[program]") {
  const Program p = parse_program(kDesignExample, "design.txt");
  CHECK(p.file == "design.txt");
  REQUIRE(p.layouts.size() == 6);
  CHECK(p.layouts[0].name == "D_FRAG");
  CHECK(p.layouts[0].loc.line == 1);
  CHECK(p.layouts[0].layout == layout("S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]"));
  CHECK(p.layouts[3].name == "A_FRAG");
  CHECK(p.layouts[3].layout == layout("S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)].tile_to([16, 16], [16, 8])"));
  CHECK(p.layouts[5].name == "A_KM");
  CHECK(p.layouts[5].layout == layout("S[(2, 4, 2, 2, 8) : (4, 1@laneid, 1, 2, 4@laneid)]"));

  REQUIRE(p.buffers.size() == 3);
  const BufferDecl& a = p.buffer("A", {});
  CHECK(a.shape == Shape{16, 16});
  CHECK(a.dtype == DType::f16);
  CHECK(a.scope == MemScope::local);
  CHECK(a.layout == p.layouts[3].layout);
  CHECK(a.loc.line == 8);
  CHECK(p.find_buffer("D")->dtype == DType::f32);
  CHECK(p.find_buffer("Q") == nullptr);

  CHECK(p.scope.kind == ExecScope::Kind::warp);
  CHECK(p.scope.full_warp());
  CHECK(p.scope.loc.line == 12);
  REQUIRE(p.gemm);
  CHECK(p.gemm->d.buffer == "D");
  CHECK(p.gemm->a.buffer == "A");
  CHECK(p.gemm->b.buffer == "B");
  CHECK(p.gemm->c.buffer == "D");
  CHECK(!p.gemm->a.region);
  CHECK(!p.gemm->transpose_a);
  CHECK(!p.gemm->transpose_b);
  CHECK(p.gemm->alpha == 1.0);
  CHECK(p.gemm->beta == 0.0);
  CHECK(p.gemm->loc.line == 13);
  CHECK(p.gemm->loc.col == 1);

  REQUIRE(p.stages.size() == 1);
  CHECK(p.stages[0].buffer == "A");
  CHECK(p.stages[0].source == "A_g");
  CHECK(p.stages[0].loc.line == 16);
  CHECK(p.stages[0].row.eval({5, 0, 5, 6}) == 9);
  CHECK(p.stages[0].col.eval({5, 0, 5, 6}) == 10);
  REQUIRE(p.stores.size() == 1);
  CHECK(p.stores[0].target == "D_g");
  CHECK(p.stores[0].row.eval({5, 0, 5, 3}) == 9);
  CHECK(p.stores[0].col.eval({5, 0, 5, 3}) == 3);
}

TEST_CASE("scope statements", "[program]") {
  const std::string base = std::string(kPrelude) + "gemm(D, A, B, D)\n";
  CHECK(parse_program(base, "f").scope.loc.line == 0);  // no scope statement: the whole warp
  const ExecScope lanes = parse_program(base + "scope warp lanes 0..15\n", "f").scope;
  CHECK(lanes.kind == ExecScope::Kind::warp);
  CHECK(lanes.lane_lo == 0);
  CHECK(lanes.lane_hi == 15);
  CHECK(!lanes.full_warp());
  const ExecScope cta = parse_program(base + "scope cta threads 128\n", "f").scope;
  CHECK(cta.kind == ExecScope::Kind::cta);
  CHECK(cta.threads == 128);
  CHECK(cta.warps() == 4);
}

TEST_CASE("gemm keyword defaults, regions and recorded values", "[program]") {
  const Program p = parse_program(std::string(kPrelude) +
                                      "W = buffer([32, 32], float16, shared)\n"
                                      "Tx.warp.gemm(D, W[0:16, 16:32], B, D[:, :], beta=1, alpha=-2.5,\n"
                                      "             transpose_B=True)\n",
                                  "f");
  REQUIRE(p.gemm);
  CHECK(p.gemm->a.buffer == "W");
  CHECK(p.gemm->a.region == Region{{0, 16}, {16, 32}});
  CHECK(p.gemm->c.region == Region{{0, 16}, {0, 8}});
  CHECK(!p.gemm->transpose_a);
  CHECK(p.gemm->transpose_b);
  CHECK(p.gemm->alpha == -2.5);
  CHECK(p.gemm->beta == 1.0);
  // Recorded for the dispatch to judge: a shared operand, a default layout.
  const BufferDecl& w = p.buffer("W", {});
  CHECK(w.scope == MemScope::shared);
  CHECK(w.layout == TileLayout::row_major({32, 32}));
  CHECK(p.gemm->a.loc.line == 6);
  CHECK(p.gemm->a.loc.col == 17);
}

TEST_CASE("pasted TIRx spellings: alloc_buffer, keywords, semicolons, imports, continuation lines", "[program]") {
  const Program p = parse_program(
      "from tvm.tirx.layout import S, TileLayout, laneid\n"
      "import tvm\n"
      "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]); X = D_FRAG\n"
      "D_f = T.alloc_buffer((16, 8), \"float32\", scope=\"local\",\n"
      "                     layout=D_FRAG)\n"
      "E = alloc_buffer(shape=[16, 8], dtype='tfloat32', layout=X, scope=local)\n"
      "T.gemm(D_f, D_f, D_f, D_f, False, False, 1.0, 0.0)\n",
      "f");
  CHECK(p.layouts.size() == 2);
  CHECK(p.buffers.size() == 2);
  CHECK(p.buffers[0].name == "D_f");
  CHECK(p.buffers[0].scope == MemScope::local);
  CHECK(p.buffers[1].dtype == DType::tf32);
  CHECK(p.buffers[1].layout == p.layouts[0].layout);
  REQUIRE(p.gemm);
  CHECK(p.gemm->loc.col == 3);
  CHECK(parse_program("", "f").buffers.empty());
  CHECK(parse_program("# nothing\n\n   \n", "f").layouts.empty());
}

TEST_CASE("bad statements give FILE:LINE:COL and a message", "[program]") {
  struct Case {
    std::string text;
    const char* error;
  };
  const std::string pre = kPrelude;  // 4 lines
  const Case cases[] = {
      {"A = S[8]\nB = A_FRG.tile_to([16], [8])\n", "f.txt:2:5: error: unknown name 'A_FRG' (known layouts: A)"},
      {"A = S[8]\nA = S[4]\n", "f.txt:2:1: error: redefinition of 'A' (first defined at line 1)"},
      {pre + "A = S[8]\n", "f.txt:5:1: error: redefinition of 'A' (first defined at line 2)"},
      {"S = S[8]\n", "f.txt:1:1: error: 'S' is reserved and cannot be defined"},
      {pre + "gemm(D, A, B, D)\ngemm(D, A, B, D)\n", "f.txt:6:1: error: second gemm call (the first is at line 5)"},
      {"A = buffer((16, 8), \"float17\", \"local\")\n", "f.txt:1:21: error: unknown dtype 'float17' (known: float16,"},
      {"A = buffer((16, 8), float16, lcoal)\n",
       "f.txt:1:30: error: unknown scope 'lcoal' (known: local, shared, global)"},
      {"A = buffer((16, 16), \"float16\", \"local\", S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])\n",
       "f.txt:1:42: error: buffer 'A' has 256 elements but its layout covers 128"},
      {"A = buffer((16, 0), float16)\n", "f.txt:1:17: error: shape dimension must be positive, got 0"},
      {"A = buffer((16, -1), float16)\n", "f.txt:1:17: error: expected a shape dimension (an integer), got '-'"},
      {"A = buffer((16, 8))\n", "f.txt:1:5: error: buffer() is missing argument 'dtype'"},
      {"A = buffer((16, 8), float16, shared, S[128], None, 16, 1024, 5)\n",
       "f.txt:1:62: error: buffer() takes at most 7 arguments"},
      {"A = buffer((16, 8), float16, local, S[128]\n",
       "f.txt:2:1: error: expected ')' to close 'buffer(' opened at line 1, column 11, got end of input"},
      {"A = buffer((16, 8), float16, layot=S[128])\n", "f.txt:1:30: error: buffer() has no parameter 'layot'"},
      {"A = buffer((16, 8), float16, local, B)\n", "f.txt:1:37: error: unknown name 'B' (no layouts are defined)"},
      {pre + "X = D + 1\n", "f.txt:5:5: error: 'D' is a buffer, not a layout"},
      {pre + "gemm(D, A[0:16, 0:32], B, D)\n",
       "f.txt:5:17: error: region 0:32 is out of range for dimension 1 of 'A' (extent 16)"},
      {pre + "gemm(D, A[0:16], B, D)\n", "f.txt:5:10: error: region has 1 ranges but buffer 'A' has rank 2"},
      {pre + "gemm(D, A[8:4, :], B, D)\n", "f.txt:5:11: error: region 8:4 is out of range for dimension 0"},
      {pre + "gemm(D, A[16, :], B, D)\n", "f.txt:5:11: error: region 16 is out of range for dimension 0"},
      {pre + "gemm(D, A, Q, D)\n", "f.txt:5:12: error: unknown buffer 'Q' (buffers: A, B, D)"},
      {pre + "gemm(D, F, B, D)\n", "f.txt:5:9: error: 'F' is a layout, not a buffer"},
      {pre + "stage F[s] = G[lane, s]\n", "f.txt:5:7: error: 'F' is a layout, not a buffer"},
      {pre + "gemm(D, A, B)\n", "f.txt:5:1: error: gemm() is missing argument 'C'"},
      {pre + "gemm(D, A, B, D, transpose_A=0)\n", "f.txt:5:30: error: expected True or False, got '0'"},
      {pre + "gemm(D, A, B, D, alpha=one)\n", "f.txt:5:24: error: expected a number, got 'one'"},
      {pre + "gemm(D, A, B, D, alpah=1.0)\n", "f.txt:5:18: error: gemm() has no parameter 'alpah'"},
      {pre + "gemm(D, A, B, D, beta=0.0, D)\n", "f.txt:5:28: error: positional argument after a keyword argument"},
      {pre + "stage Q[s] = G[lane, s]\n", "f.txt:5:7: error: stage on unknown buffer 'Q' (buffers: A, B, D)"},
      {pre + "store Q[s] -> G[lane, s]\n", "f.txt:5:7: error: store on unknown buffer 'Q'"},
      {pre + "stage A[t] = G[lane, s]\n", "f.txt:5:9: error: expected 's' (the register slot), got 't'"},
      {pre + "stage A[s] -> G[lane, s]\n", "f.txt:5:12: error: expected '=' (stage BUF[s] = G[ROW, COL])"},
      {pre + "stage A[s] = G[lane]\n", "f.txt:5:20: error: expected ',' between ROW and COL, got ']'"},
      {pre + "stage A[s] = G[lane, s + q]\n", "f.txt:5:26: error: unknown variable 'q'"},
      {pre + "stage A[s] = G[lane, s]\nstage A[s] = G[lane, s]\n",
       "f.txt:6:7: error: buffer 'A' already has a stage statement (line 5)"},
      {"scope warp lanes 0..32\n", "f.txt:1:21: error: lane 32 is outside 0..31"},
      {"scope warp lanes 8..4\n", "f.txt:1:21: error: empty lane range 8..4"},
      {"scope warp lanes 0-15\n", "f.txt:1:19: error: expected '..' between the first and last lane"},
      {"scope cta threads 48\n", "f.txt:1:19: error: threads must be a positive multiple of 32"},
      {"scope cta threads 0\n", "f.txt:1:19: error: threads must be a positive multiple of 32"},
      {"scope cta\n", "f.txt:1:10: error: expected 'threads N' after 'scope cta'"},
      {"scope wrap\n", "f.txt:1:7: error: unknown scope 'wrap' (known: warp, cta)"},
      {"scope warp\nscope warp\n", "f.txt:2:1: error: second scope statement (the first is at line 1)"},
      {"scope warp extra\n", "f.txt:1:12: error: unexpected 'extra' after the statement"},
      {"gemm D, A\n", "f.txt:1:1: error: expected a statement"},
      {"A =\n", "f.txt:1:4: error: expected a layout or buffer(...) after '='"},
      {"= S[8]\n", "f.txt:1:1: error: expected a statement"},
      {"A = S[8] @\n", "f.txt:1:11: error: expected an expression, got end of line"},
      {"A = S[0]\n", "f.txt:1:7: error: extent must be positive, got 0"},
      {"A = S[8].group([3, 3])\n", "f.txt:1:16: error: shape [3, 3] has 9 elements but the layout covers 8"},
      {"A = S[(3, 4) : (4, 1)]\nB = A.group([2, 6])\n",
       "f.txt:2:7: error: layout S[(3, 4) : (4, 1)] can not be grouped by shape [2, 6]"},
      {"A = S[8] $\n", "f.txt:1:10: error: unexpected character '$'"},
      {"A = 'unterminated\n", "f.txt:1:5: error: unterminated string"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK_THAT(error_of(c.text), Catch::StartsWith(c.error));
  }
}

TEST_CASE("load_program reads the file and reports one it cannot read", "[program]") {
  CHECK_THROWS_WITH(load_program("/nonexistent/x.txt"), Catch::Contains("cannot read '/nonexistent/x.txt'"));
  CHECK(mem_scope_name(MemScope::shared) == "shared");
}

TEST_CASE("mutated layout files parse or throw Error, never worse", "[program]") {
  const std::string seed = kDesignExample;
  const std::string alphabet = "()[],:.@+-*/%=>'\"0123456789SRlane_s \n#\\\xc3";
  std::mt19937 rng(777);
  int errors = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string text = seed;
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % text.size();
      if (rng() % 2) text[pos] = alphabet[rng() % alphabet.size()];
      else text.erase(pos, 1 + rng() % 3);
    }
    try {
      parse_program(text, "fuzz.txt");
    } catch (const Error& e) {
      ++errors;
      CHECK(e.loc().known());
    }
  }
  CHECK(errors > 500);
}

}  // namespace test_program_parser
