// TVMScript as TVM main's users write it (core/program/tvmscript/,
// docs/tvmscript.md): the seed's demonstration pasted verbatim gives the
// erratum's counterexample, the staging loops mean what the layout file's
// stage/store statements mean, and every construct the reader does not
// follow is an error at its line and column.
#include <catch2/catch.hpp>

#include "core/base/json.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tvmscript {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// The error parse_program gives, as "LINE:COL: message".
std::string error_of(const std::string& text) {
  try {
    parse_program(text, "t.py");
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "no error";
}

// The seed's layouts and function head, for the programs below.
const std::string kHead = R"(D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
A_FRAG_K8 = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])
B_FRAG_K8 = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)])
A_FRAG = A_FRAG_K8.tile_to([16, 16], [16, 8]); B_FRAG = B_FRAG_K8.tile_to([16, 8], [8, 8])
@T.prim_func
def gemm(A_ptr: T.handle, B_ptr: T.handle, D_ptr: T.handle):
    A_g = T.match_buffer(A_ptr, (16, 16), "float16"); B_g = T.match_buffer(B_ptr, (16, 8), "float16")
    D_g = T.match_buffer(D_ptr, (16, 8), "float32")
    T.device_entry(); T.cta_id([1]); T.warp_id([1]); lane = T.lane_id([32])
    A_f = T.alloc_buffer((16, 16), "float16", scope="local", layout=A_FRAG)
    B_f = T.alloc_buffer((16, 8), "float16", scope="local", layout=B_FRAG)
    D_f = T.alloc_buffer((16, 8), "float32", scope="local", layout=D_FRAG)
)";  // lines 1..12
const std::string kGemm =
    "    Tx.warp.gemm(D_f, A_f, B_f, D_f, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)\n";

}  // namespace

TEST_CASE("the seed pasted verbatim is refuted at lane 0, slot 2 of stage A_f, as seed.txt is", "[tvmscript]") {
  const ProofReport report = prove_both(load_program(source_path("examples/seed.py")));
  CHECK(report.verdict == Verdict::refuted);
  REQUIRE(report.counterexamples.size() == 2);  // the piece's, then the program run's
  const Counterexample& cx = report.counterexamples.front();
  CHECK(cx.check.name() == "stage A_f");
  CHECK(cx.lane == 0);
  CHECK(cx.slot == 2);
  CHECK(cx.expected == Element{8, 0});
  CHECK(cx.actual == Element{0, 8});
  for (const CheckReport& c : report.checks)
    if (c.check.name() != "stage A_f" && c.check.name() != "program") CHECK(c.result == CheckResult::proved);
  CHECK(report.notes.empty());
  // The same counterexample as the layout-file dialect's seed.txt.
  const ProofReport dialect = prove_both(load_program(source_path("examples/seed.txt")));
  REQUIRE(dialect.counterexamples.size() == 2);  // the staging's, then the program run's
  CHECK(dialect.counterexamples.front().lane == cx.lane);
  CHECK(dialect.counterexamples.front().slot == cx.slot);
  CHECK(dialect.counterexamples.front().expected == cx.expected);
  CHECK(dialect.counterexamples.front().actual == cx.actual);
}

TEST_CASE("the corrected seed in TVMScript is proved with every staging checked", "[tvmscript]") {
  const ProofReport report = prove_both(load_program(source_path("examples/seed_corrected.py")));
  CHECK(report.verdict == Verdict::proved);
  std::vector<std::string> names;
  for (const CheckReport& c : report.checks) names.push_back(c.check.name());
  CHECK(names == std::vector<std::string>{"A frame", "B frame", "C frame", "D frame", "A fragment", "B fragment",
                                          "D fragment", "accumulation", "stage A_f", "stage B_f", "store D_f",
                                          "program"});
}

TEST_CASE("the seed's staging loops are the layout file's stage and store statements", "[tvmscript]") {
  const Program py = load_program(source_path("examples/seed.py"));
  const Program txt = load_program(source_path("examples/seed.txt"));
  REQUIRE(py.stages.size() == 2);
  REQUIRE(txt.stages.size() == 2);
  REQUIRE(py.stores.size() == 1);
  CHECK(py.stages[0].buffer == "A_f");
  CHECK(py.stages[0].source == "A_g");
  CHECK(py.stages[0].loc.line == 27);  // the register transfer A_reg[s] = A_g[...]
  CHECK(py.stores[0].target == "D_g");
  for (std::size_t i = 0; i < 2; ++i)
    for (int lane = 0; lane < 32; ++lane)
      for (int s = 0; s < 8 / static_cast<int>(i + 1); ++s) {
        const IndexEnv env{.lane = lane, .warp = 0, .tid = lane, .slot = s};
        CHECK(py.stages[i].row.eval(env) == txt.stages[i].row.eval(env));
        CHECK(py.stages[i].col.eval(env) == txt.stages[i].col.eval(env));
      }
  CHECK(py.scope.kind == ExecScope::Kind::warp);
  CHECK(py.find_buffer("A_g")->scope == MemScope::global);
  CHECK(py.find_buffer("A_f")->layout == txt.find_buffer("A")->layout);
}

TEST_CASE("a program with no staging says that staging was not checked", "[tvmscript]") {
  const ProofReport report = prove_both(parse_program(kHead + kGemm, "t.py"));
  CHECK(report.verdict == Verdict::proved);
  REQUIRE(report.notes.size() == 1);
  CHECK(report.notes.front().find("staging not checked") == 0);
  const RunResult run = run_mmacheck({"prove", source_path("examples/region.py"), "--json"});
  CHECK(run.status == 0);
  const Json j = parse_json(run.out, "out");
  REQUIRE(j["notes"].size() == 1);
  CHECK(j["notes"][0].get<std::string>().find("A (A_big)") != std::string::npos);
}

TEST_CASE("T.grid loops, multi-dimensional views, shifts and masks, one-line bodies", "[tvmscript]") {
  const std::string text = kHead +
                           "    g = lane >> 2\n"
                           "    A_reg = A_f.local(2, 2, 2)\n"
                           "    for kHi, rM, kp in T.grid(2, 2, 2):\n"
                           "        A_reg[kHi, rM, kp] = A_g[g + 8 * rM, 2 * (lane & 3) + kp + 8 * kHi]\n"
                           "    B_reg = B_f.local()\n"
                           "    for s in range(0, 4): B_reg[s] = B_g[2 * (lane % 4) + s % 2 + 8 * (s // 2), g]\n" +
                           kGemm;
  const ProofReport report = prove_both(parse_program(text, "t.py"));
  CHECK(report.verdict == Verdict::proved);
  CHECK(result_of(report, "stage A_f") == CheckResult::proved);
  CHECK(result_of(report, "stage B_f") == CheckResult::proved);
}

TEST_CASE("a CTA-scope gemm takes its threads from T.warp_id, or refuses without it", "[tvmscript]") {
  const Program p = load_program(source_path("examples/cta_threads128.py"));
  CHECK(p.scope.kind == ExecScope::Kind::cta);
  CHECK(p.scope.threads == 128);
  CHECK(error_of("@T.prim_func\ndef f():\n    A = T.alloc_buffer((16, 8), \"float32\")\n"
                 "    Tx.cta.gemm(A, A, A, A)\n") ==
        "4:12: a CTA-scope gemm needs the CTA's size: T.thread_id([N]) or T.warp_id([W]) before it");
}

TEST_CASE("what the TVMScript reader does not follow is an error at its line and column", "[tvmscript]") {
  const auto body = [&](const std::string& lines) { return error_of(kHead + lines); };
  // The staging loop moves half of A's registers.
  CHECK(body("    A_reg = A_f.local(8)\n    for s in T.unroll(4):\n        A_reg[s] = A_g[0, s]\n")
            .find("15:14: the loop runs 4 iteration(s) but 'A_reg' has 8 registers per thread") == 0);
  // A register order the reader cannot invert.
  CHECK(body("    A_reg = A_f.local(8)\n    for s in T.unroll(8):\n        A_reg[7 - s] = A_g[0, s]\n")
            .find("15:14: iteration 0 (lane 0) moves register 7 of 'A_reg'") == 0);
  CHECK(body("    A_reg = A_f.local(8)\n    for i in T.unroll(2):\n        for j in T.unroll(4):\n")
            .find("15:9: nested loops are not supported") == 0);
  // A grid multiplies its extents: 64 x 64 x 64 is over the 65,536 iterations a staging loop may run.
  CHECK(body("    A_reg = A_f.local(8)\n    for i, j, k in T.grid(64, 64, 64):\n        A_reg[0] = A_g[0, 0]\n")
            .find("14:26: a staging loop runs 1..65536 iterations") == 0);
  CHECK(body("    if lane < 4:\n        pass\n")
            .find("13:8: an if in a kernel is read when its condition is a Python constant") == 0);
  CHECK(body("    while True:\n        pass\n").find("13:5: 'while' is not supported") == 0);
  CHECK(body("    A_reg = A_f.local(6)\n").find("13:17: 'A_f'.local(6) has 6 registers") == 0);
  CHECK(body("    B_reg = B_f.local(4)\n    for s in T.unroll(4):\n        B_reg[s] = B_g[s, q]\n")
            .find("15:27: unknown variable 'q'") == 0);
  CHECK(body("    T.warpgroup_id([1])\n").find("13:7: T.warpgroup_id: mmacheck reads warp- and CTA-level") == 0);
  CHECK(body("    Tx.warpgroup.gemm(D_f, A_f, B_f, D_f)\n").find("13:8: Tx.warpgroup.gemm") == 0);
  CHECK(body("    T.evaluate(T.call_extern(\"f\"))\n").find("13:16: T.evaluate of anything but an integer constant") ==
        0);
  CHECK(body("      lane2 = lane\n").find("13:7: unexpected indent") == 0);
  CHECK(error_of("@wrap\n@T.prim_func\ndef f():\n    pass\n").find("2:1: a kernel under another decorator (@wrap)") ==
        0);
  CHECK(error_of("def make():\n    @T.prim_func\n    def f():\n        pass\n    return f\n")
            .find("2:5: this kernel is built only when its factory is called, and no test of the file calls it") == 0);
  CHECK(error_of("@T.prim_func\ndef f(A_ptr: T.handle):\n    A = T.match_buffer(B_ptr, (16, 8))\n")
            .find("3:24: 'B_ptr' is not a T.handle parameter") == 0);
}

TEST_CASE("TVMScript statements join with ';' and docstrings are read past", "[tvmscript]") {
  const Program p = parse_program("\"\"\"A module docstring\nover two lines.\"\"\"\n" + kHead +
                                      "    \"\"\"The function's docstring.\"\"\"\n" + kGemm,
                                  "t.py");
  CHECK(p.buffers.size() == 6);
  REQUIRE(p.gemm.has_value());
  CHECK(p.gemm->loc.line == 16);
}

TEST_CASE("the TVMScript examples: a tiling, a transpose, k8, a region, a refusal, a staging mistake",
          "[tvmscript][examples]") {
  const auto report = [](const char* file) { return prove_both(load_program(source_path(file))); };
  // T.grid staging over a 2 x 2 x 2 tiling: 8 mma, every staging proved.
  const ProofReport tiled = report("examples/tiled_2x2x2.py");
  CHECK(tiled.verdict == Verdict::proved);
  CHECK(tiled.mma_count == 8);
  CHECK(result_of(tiled, "stage A_f") == CheckResult::proved);
  CHECK(result_of(tiled, "store D_f") == CheckResult::proved);
  // grouped, seps = A_FRAG.group(...); grouped.permute_by_groups(seps, [1, 0]).
  const Program transpose = load_program(source_path("examples/transpose_a.py"));
  REQUIRE(transpose.gemm.has_value());
  CHECK(transpose.gemm->transpose_a);
  CHECK(report("examples/transpose_a.py").verdict == Verdict::proved);
  CHECK(report("examples/k8.py").inst->ptx() == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
  const ProofReport region = report("examples/region.py");
  CHECK(region.verdict == Verdict::proved);
  REQUIRE(region.notes.size() == 1);
  const ProofReport shared = report("examples/reject_shared.py");
  CHECK(shared.verdict == Verdict::dispatch_failed);
  REQUIRE_FALSE(shared.reasons.empty());
  CHECK(shared.reasons.front().find("requires A in register (local) scope, got shared") != std::string::npos);
  // B decoded as kHi, kp = s % 2, s // 2: slot 1 gets B[8][0] where B_FRAG holds B[1][0].
  const ProofReport mistake = report("examples/staging_mistake_b.py");
  CHECK(mistake.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(mistake, "stage B_f");
  REQUIRE(cx != nullptr);
  CHECK(cx->lane == 0);
  CHECK(cx->slot == 1);
  CHECK(cx->expected == Element{1, 0});
  CHECK(cx->actual == Element{8, 0});
  CHECK(mistake.counterexamples.size() == 2);  // the piece's, then the program run's
}

TEST_CASE("a layout pasted as TVM prints it reads back as the same layout", "[tvmscript][layout]") {
  const Program p = parse_program(
      "A = T.TileLayout.from_iters(shard=[T.Iter(2, 2, \"m\"), T.Iter(8, 4, \"laneid\"), T.Iter(4, 1, \"laneid\"), "
      "T.Iter(2, 1, \"m\")], replica=[])\n"
      "B = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ Axis.get(\"laneid\"), 1 @ Axis.get(\"laneid\"), 1)])\n"
      "C = T.TileLayout.from_iters(shard=[], replica=[T.Iter(4, 1, \"laneid\")], offset={\"m\": 3})\n",
      "t.py");
  REQUIRE(p.layouts.size() == 3);
  CHECK(p.layouts[0].layout == p.layouts[1].layout);
  CHECK(p.layouts[2].layout.str() == "R[4 : 1@laneid] + 3");
  CHECK(p.layouts[2].layout.size() == 1);
}

TEST_CASE("T.Buffer parameters, T.decl_buffer, T.thread_id and Tx.gemm under with T.warp()", "[tvmscript]") {
  const std::string text =
      "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])\n"
      "A_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]).tile_to([16, 16], [16, 8])\n"
      "B_FRAG = TileLayout(S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)]).tile_to([16, 8], [8, 8])\n"
      "@T.prim_func(private=True)\n"
      "def f(D_g: T.Buffer((16, 8), \"float32\")):\n"
      "    T.device_entry()\n"
      "    T.cta_id([1])\n"
      "    tid = T.thread_id([32])\n"
      "    A = T.decl_buffer((16, 16), T.bfloat16, scope=\"local\", layout=A_FRAG)\n"
      "    B = T.decl_buffer((16, 8), T.bfloat16, scope=\"local\", layout=B_FRAG)\n"
      "    D = T.decl_buffer((16, 8), T.float32, scope=\"local\", layout=D_FRAG)\n"
      "    with T.warp():\n"
      "        Tx.gemm(D, A, B, D)\n"
      "    D_reg = D.local(2, 2)\n"
      "    for rM, rN in T.grid(2, 2):\n"
      "        D_g[tid // 4 + 8 * rM, 2 * (tid % 4) + rN] = D_reg[rM, rN]\n";
  const Program p = parse_program(text, "t.py");
  CHECK(p.find_buffer("D_g")->scope == MemScope::global);
  CHECK(p.find_buffer("A")->dtype == DType::bf16);
  CHECK(p.scope.kind == ExecScope::Kind::warp);
  CHECK(p.scope.loc.line == 13);
  const ProofReport report = prove_both(p);
  CHECK(report.verdict == Verdict::proved);
  CHECK(result_of(report, "store D") == CheckResult::proved);
  REQUIRE(report.notes.size() == 1);
  CHECK(report.notes.front().find("A (A), B (B)") != std::string::npos);
}

}  // namespace test_tvmscript
