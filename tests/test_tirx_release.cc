// The released TIRx (apache-tvm-tirx 0.1.0a4) against TVM itself: every
// example of tests/data/tirx/oracle.jsonl (scripts/tirx-oracle/gen.py) gets
// TVM's accept/refuse decision from mmacheck's pattern dispatch, the same
// mma count, and its TVM-lowered dump parses to the same nest register for
// register; the dump is proved or refuted as the program is.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "core/base/json.h"
#include "core/gemm/dispatch.h"
#include "core/program/program.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "sim/check/sim_check.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_tirx_release {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::vector<Json> oracle() {
  std::istringstream in(read_file(source_path("tests/data/tirx/oracle.jsonl")));
  std::vector<Json> out;
  std::string line;
  for (bool first = true; std::getline(in, line); first = false)
    if (!first && !line.empty()) out.push_back(parse_json(line, "oracle.jsonl"));
  return out;
}

// `text` with every occurrence of `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

std::string dump_path(const std::string& name) { return source_path("tests/data/tirx/" + name + ".lowered.py"); }

std::vector<const MmaStmt*> mmas(const Plan& plan) {
  std::vector<const MmaStmt*> out;
  for (const NestStmt& s : plan.nest.stmts)
    if (const auto* m = std::get_if<MmaStmt>(&s)) out.push_back(m);
  return out;
}

// The init statements as (d_slots, c_slots) pairs, in order.
std::vector<std::pair<std::vector<int>, std::vector<int>>> inits(const Plan& plan) {
  std::vector<std::pair<std::vector<int>, std::vector<int>>> out;
  for (const NestStmt& s : plan.nest.stmts)
    if (const auto* i = std::get_if<InitStmt>(&s)) out.emplace_back(i->d_slots, i->c_slots);
  return out;
}

// The first word after "# Expected verdict: " in an example.
std::string expected_verdict(const std::string& text) {
  const std::string tag = "# Expected verdict: ";
  const std::size_t at = text.find(tag) + tag.size();
  return text.substr(at, text.find_first_of(" \n", at) - at);
}

}  // namespace

TEST_CASE("mmacheck accepts and refuses the released mma examples as TVM 0.1.0a4 does", "[tirx]") {
  const std::vector<Json> entries = oracle();
  REQUIRE(entries.size() >= 9);
  int accepted = 0, refused = 0;
  for (const Json& e : entries) {
    const std::string name = e["name"];
    INFO(name);
    const Program program = load_program(source_path(e["source"].get<std::string>()));
    REQUIRE(program.release.has_value());
    CHECK_FALSE(program.release->lowered);
    const Plan plan = dispatch(program);
    REQUIRE(plan.ok == e["accepted"].get<bool>());
    if (!plan.ok) {
      ++refused;
      // TVM's message, less the analyzer's ": cannot prove <expr>" (mmacheck says which word and lane instead).
      std::string tvm = e["message"];
      if (const std::size_t cut = tvm.find(": cannot prove"); cut != std::string::npos) tvm.resize(cut);
      REQUIRE(plan.reasons.size() == 1);
      CHECK_THAT(plan.reasons[0], Catch::StartsWith("declined — " + tvm));
      continue;
    }
    ++accepted;
    CHECK(plan.inst->ptx() == program.release->opcode);
    CHECK(plan.nest.mma_count() == e["mma_count"].get<int>());
  }
  CHECK(accepted >= 6);
  CHECK(refused >= 3);
}

TEST_CASE("TVM's lowered dumps parse to the pattern's nest, register for register", "[tirx]") {
  int dumps = 0;
  for (const Json& e : oracle()) {
    if (!e["accepted"].get<bool>()) continue;
    const std::string name = e["name"];
    INFO(name);
    const Program source = load_program(source_path(e["source"].get<std::string>()));
    const Program lowered = load_program(dump_path(name));
    REQUIRE(lowered.release.has_value());
    CHECK(lowered.release->lowered);
    CHECK(lowered.release->opcode == source.release->opcode);
    CHECK(static_cast<int>(lowered.release->calls.size()) == e["mma_count"].get<int>());
    const Plan want = dispatch(source), got = dispatch(lowered);
    REQUIRE(want.ok);
    REQUIRE(got.ok);
    CHECK(got.inst == want.inst);
    const auto a = mmas(want), b = mmas(got);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      INFO("mma " << i);
      CHECK(b[i]->d == a[i]->d);
      CHECK(b[i]->a == a[i]->a);
      CHECK(b[i]->b == a[i]->b);
      CHECK(b[i]->c == a[i]->c);
      CHECK((std::vector<int>{b[i]->tile_m, b[i]->tile_n, b[i]->tile_k}) ==
            (std::vector<int>{a[i]->tile_m, a[i]->tile_n, a[i]->tile_k}));
      CHECK_THAT(b[i]->origin, Catch::StartsWith("T.ptx.mma at line "));
    }
    CHECK(inits(got) == inits(want));
    // The staging loops of the dump are the program's.
    CHECK(lowered.stages.size() == source.stages.size());
    CHECK(lowered.stores.size() == source.stores.size());
    // The number of T.ptx.mma statements TVM printed: one per pattern call.
    CHECK(e["mma_statements"].get<int>() == 1);
    CHECK(e["mma_args"][0].size() == 8 + b[0]->a.size() + b[0]->b.size() + 10);
    ++dumps;
  }
  CHECK(dumps >= 6);
}

TEST_CASE("the CUDA TVM compiled passes the registers of the dump's T.ptx.mma calls", "[tirx]") {
  int kernels = 0;
  for (const Json& e : oracle()) {
    const std::string name = e["name"];
    const std::string cu = source_path("tests/data/tirx/" + name + ".cu");
    if (!e["accepted"].get<bool>() || !std::filesystem::exists(cu)) continue;
    INFO(name);
    const Program lowered = load_program(dump_path(name));
    const std::vector<LoweredMma>& calls = lowered.release->calls;
    // Each call line of the kernel: tvm_builtin_ptx_mma_...(d_ptr[0], ..., a_ptr[3], b_ptr[1], 0x0p+0f, ...).
    std::istringstream in(read_file(cu));
    std::size_t call = 0;
    const std::regex arg(R"(\b([abcd])_ptr\[(\d+)\]|0x0p\+0f)");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("  tvm_builtin_ptx_mma_", 0) != 0) continue;
      REQUIRE(call < calls.size());
      const LoweredMma& want = calls[call++];
      std::vector<std::string> got, expected;
      for (auto it = std::sregex_iterator(line.begin(), line.end(), arg); it != std::sregex_iterator(); ++it)
        got.push_back((*it)[1].matched ? (*it)[1].str() + std::to_string(std::stoi((*it)[2].str())) : "0");
      for (int r : want.d) expected.push_back("d" + std::to_string(r));
      for (int r : want.a) expected.push_back("a" + std::to_string(r));
      for (int r : want.b) expected.push_back("b" + std::to_string(r));
      for (const LoweredInput& c : want.c)
        expected.push_back(c.kind == LoweredInput::Kind::scalar       ? "0"
                           : c.kind == LoweredInput::Kind::d_register ? "d" + std::to_string(c.reg)
                                                                      : "c" + std::to_string(c.reg));
      CHECK(got == expected);
    }
    CHECK(call == calls.size());
    ++kernels;
  }
  CHECK(kernels >= 6);
}

TEST_CASE("each dump is proved or refuted as its program is", "[tirx][prove]") {
  for (const Json& e : oracle()) {
    if (!e["accepted"].get<bool>()) continue;
    const std::string name = e["name"], source = e["source"];
    INFO(name);
    const std::string verdict = expected_verdict(read_file(source_path(source)));
    const ProofReport program = prove_both(load_program(source_path(source)));
    const ProofReport lowered = prove_both(load_program(dump_path(name)));
    CHECK(verdict_name(program.verdict) == verdict);
    CHECK(verdict_name(lowered.verdict) == verdict);
    CHECK(lowered.mma_count == program.mma_count);
    REQUIRE(lowered.checks.size() == program.checks.size());
    for (std::size_t i = 0; i < program.checks.size(); ++i) {
      CHECK(lowered.checks[i].check.name() == program.checks[i].check.name());
      CHECK(lowered.checks[i].result == program.checks[i].result);
    }
  }
}

TEST_CASE("the seed's register order is refuted in the released TIRx, which TVM accepts", "[tirx][prove]") {
  for (const std::string& path : {source_path("examples/tirx_seed.py"), dump_path("tirx_seed")}) {
    INFO(path);
    const ProofReport r = prove_both(load_program(path));
    CHECK(r.verdict == Verdict::refuted);
    REQUIRE(r.counterexamples.size() == 2);  // the piece's, then the program run's
    const Counterexample& cx = r.counterexamples[0];
    CHECK(cx.check.name() == "stage a");
    CHECK(cx.lane == 0);
    CHECK(cx.slot == 2);
    CHECK(cx.expected == Element{8, 0});
    CHECK(cx.actual == Element{0, 8});
    // Everything the pattern checks holds: only the staging is wrong.
    for (const CheckReport& c : r.checks)
      if (c.check.name() != "stage a" && c.check.name() != "program") CHECK(c.result == CheckResult::proved);
  }
}

TEST_CASE("module-level Python of a released program: unpacked constants, their lists, list/tuple/len/range",
          "[tirx][prove]") {
  // TVM 0.1.0a4 accepts all three (scripts/tirx-oracle/gen.py).
  CHECK(prove_both(load_program(source_path("examples/tirx_module_python.py"))).verdict == Verdict::proved);
  CHECK(prove_both(load_program(source_path("tests/data/tirx/module_python/ok_constants_in_index.py"))).verdict ==
        Verdict::proved);
  const ProofReport bad =
      prove_both(load_program(source_path("tests/data/tirx/module_python/bad_constants_in_index.py")));
  CHECK(bad.verdict == Verdict::refuted);
  REQUIRE_FALSE(bad.counterexamples.empty());
  CHECK(bad.counterexamples[0].check.name() == "stage a");
  // What does not evaluate is an error at its token; data is passed over;
  // a constant bound twice is refused as every binding is.
  const std::string program = read_file(source_path("examples/tirx_module_python.py"));
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = program;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  CHECK_THROWS_WITH(parse_program(with("MT, NT, KT = 16, 8, 16", "MT, NT, KT = 16, 8"), "m.py"),
                    Catch::Contains("m.py:") && Catch::Contains("2 values"));
  CHECK_THROWS_WITH(parse_program(with("TILE = [MT, KT]", "TILE = [MT, KT]\nTILE = [KT, MT]"), "m.py"),
                    Catch::Contains("'TILE' is already defined"));
  CHECK_THROWS_WITH(parse_program(with("WORDS = len(range(0, KT, 2))", "WORDS = len(range(0, KT, 0))"), "m.py"),
                    Catch::Contains("range() step must not be zero"));
  CHECK_THROWS_WITH(parse_program(with("WORDS = len(range(0, KT, 2))", "WORDS = len(range(10 ** 9))"), "m.py"),
                    Catch::Contains("range() of more than 65536"));
  CHECK(prove_both(
            parse_program(with("MT, NT, KT = 16, 8, 16", "MT, NT, KT = 16, 8, 16\nCONFIG = {\"warps\": 1}"), "m.py"))
            .verdict == Verdict::proved);
}

TEST_CASE("what TVM's pattern refuses is dispatch_failed in TVM's words, not bad input", "[tirx][prove]") {
  // scripts/tirx-oracle/gen.py on examples/tirx_bf16.py with block=[16]:
  // "instruction requires all 32 lanes of a warp to be active".
  std::string text = read_file(source_path("examples/tirx_bf16.py"));
  text.replace(text.find("block=[32]"), 10, "block=[16]");
  const ProofReport r = prove_both(parse_program(text, "b16.py"));
  CHECK(r.verdict == Verdict::dispatch_failed);
  REQUIRE_FALSE(r.reasons.empty());
  CHECK_THAT(r.reasons.front(), Catch::Contains("instruction requires all 32 lanes of a warp to be active"));
  // A in shared memory: "A: expected storage scope ('local',), got shared" (gen.py, the same way).
  std::string shared = read_file(source_path("examples/tirx_bf16.py"));
  const std::string alloc = "a = T.alloc_local((1, 1, 16, 8), \"uint32\", layout=A_IMG)";
  shared.replace(shared.find(alloc), alloc.size(),
                 "a = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.uint32, scope=\"shared\", layout=A_IMG)])");
  const ProofReport s = prove_both(parse_program(shared, "ashared.py"));
  CHECK(s.verdict == Verdict::dispatch_failed);
  REQUIRE_FALSE(s.reasons.empty());
  CHECK_THAT(s.reasons.front(), Catch::Contains("A: expected storage scope ('local',), got shared"));
  // Another instruction (gen.py: tf32 and s8 refused "mma pattern requires m16n8k8/k16 with f16/bf16 inputs
  // and f32 accumulation"), whatever its staging views say.
  for (const char* opcode :
       {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
        "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"}) {
    INFO(opcode);
    std::string other = read_file(source_path("examples/tirx_bf16.py"));
    const std::string bf16 = "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";
    other.replace(other.rfind(bf16), bf16.size(), opcode);  // the call, not the header comment
    const ProofReport o = prove_both(parse_program(other, "other.py"));
    CHECK(o.verdict == Verdict::dispatch_failed);
    REQUIRE_FALSE(o.reasons.empty());
    CHECK_THAT(o.reasons.front(), Catch::Contains("mma pattern requires m16n8k8/k16 with f16/bf16 inputs"));
  }
  // A block that is not whole warps: TVM refuses its warp indices, a located error.
  std::string wide = read_file(source_path("examples/tirx_bf16.py"));
  wide.replace(wide.find("block=[32]"), 10, "block=[48]");
  CHECK_THROWS_WITH(parse_program(wide, "b48.py"), Catch::Contains("48 threads is not whole warps"));
}

TEST_CASE("several kernels in one file or @I.ir_module are each read and checked on their own", "[tirx][prove]") {
  // TVM 0.1.0a4 builds and lowers both (the files' headers say how).
  for (const char* rel : {"tests/data/tirx/two_kernels/two_functions.py", "tests/data/tirx/two_kernels/module_two.py",
                          "tests/data/tirx/two_kernels/module_two.lowered.py"}) {
    INFO(rel);
    const ReadProgram read = read_program_file(source_path(rel));
    CHECK_FALSE(read.program.release.has_value());
    REQUIRE(read.instances.size() == 2);
    CHECK(read.instances[0].name == "main");
    CHECK(read.instances[1].name == "main_bad");
    CHECK(prove_both(read.instances[0].program).verdict == Verdict::proved);
    CHECK(prove_both(read.instances[1].program).verdict == Verdict::refuted);
    // One kernel of the file is no program to simulate alone: the commands that take one say so.
    CHECK_THROWS_WITH(load_program(source_path(rel)), Catch::Contains("the file builds 2 kernels (main, main_bad)"));
  }
  const RunResult r = run_mmacheck({"prove", source_path("tests/data/tirx/two_kernels/module_two.py")});
  CHECK(r.status == 1);
  CHECK(r.out.find("-- main_bad --") != std::string::npos);
  CHECK(r.out.find("2 kernels: 1 proved, 1 refuted") != std::string::npos);
  // The module's names are the same in each; a function's own names are its own.
  const std::string two = read_file(source_path("tests/data/tirx/two_kernels/two_functions.py"));
  CHECK_THROWS_WITH(parse_program(two + "\n\n@T.function\ndef main():\n    pass\n", "t.py"),
                    Catch::Contains("a second @T.function 'main'"));
}

TEST_CASE("a dump with one register argument of one T.ptx.mma changed is refuted at the statement, lane and element",
          "[tirx][prove]") {
  const std::string dump = read_file(dump_path("tirx_seed_corrected"));
  // A's second register word (a1: rows 8..15, k 0..7) replaced by its fourth.
  const std::string a1 = "tile_A[T.cuda.thread_idx(\"x\") % 32 // 32 + 1]";
  const Program edited = program_from(replace_once(dump, a1, "tile_A[T.cuda.thread_idx(\"x\") % 32 // 32 + 3]"));
  const ProofReport r = prove_both(edited);
  CHECK(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, "A frame");
  REQUIRE(cx != nullptr);
  CHECK(cx->lane == 0);
  CHECK(cx->element == 2);  // a1 holds A elements 2 and 3 of the frame
  CHECK(cx->expected == Element{8, 0});
  CHECK(cx->actual == Element{8, 8});
  REQUIRE(cx->stmt.has_value());
  const std::size_t line = dump.substr(0, dump.find("T.ptx.mma(")).size();
  const int mma_line =
      static_cast<int>(std::count(dump.begin(), dump.begin() + static_cast<std::ptrdiff_t>(line), '\n')) + 1;
  CHECK_THAT(cx->message, Catch::Contains("T.ptx.mma at line " + std::to_string(mma_line) + " (repeat_0 = 0"));
  // Register 3 (slots 6, 7: A[8][8], A[8][9]) is passed where register 1 (A[8][0], A[8][1]) belongs.
  CHECK(cx->slot == 6);
  CHECK_THAT(cx->message, Catch::StartsWith("lane 0, slot 6: "));
  CHECK_THAT(cx->message, Catch::Contains("A element 2 (register 1) holding A[8][8]"));
  CHECK_THAT(cx->message, Catch::Contains("frame needs A[8][0]"));
  for (const CheckReport& c : r.checks)
    if (c.check.name() != "A frame" && c.check.name() != "program") CHECK(c.result == CheckResult::proved);
  CHECK(result_of(r, "program") == CheckResult::refuted);  // the wrong register, as the dump runs
}

TEST_CASE("a dump whose later K step reads the wrong accumulator is refuted at that step", "[tirx][prove]") {
  const std::string dump = read_file(dump_path("tirx_k8"));
  const std::string c1 = "T.float32(0.0), tile_D[T.cuda.thread_idx(\"x\") % 32 // 32 * 2 + 1])";
  const Program edited =
      program_from(replace_once(dump, c1, "T.float32(0.0), tile_D[T.cuda.thread_idx(\"x\") % 32 // 32 * 2 + 2])"));
  const ProofReport r = prove_both(edited);
  CHECK(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, "C frame");
  REQUIRE(cx != nullptr);
  CHECK(cx->lane == 0);
  CHECK(cx->element == 1);
  CHECK_THAT(cx->message, Catch::Contains("repeat_2 = 1)"));
}

TEST_CASE("a dump that zeroes C at every K step loses the accumulation", "[tirx][prove]") {
  const std::string dump = read_file(dump_path("tirx_k8"));
  const std::string edited = replace_all(dump, "T.if_then_else(repeat_2 == 0,", "T.if_then_else(repeat_2 == repeat_2,");
  const ProofReport r = prove_both(program_from(edited));
  CHECK(r.verdict == Verdict::refuted);
  CHECK(result_of(r, "accumulation") == CheckResult::refuted);
  CHECK(result_of(r, "A frame") == CheckResult::proved);
}

TEST_CASE("bad released-TIRx input is a located error, never a crash", "[tirx][hardening]") {
  const std::string dump = read_file(dump_path("tirx_tiled_2x2x2"));
  const std::string source = read_file(source_path("examples/tirx_tiled_2x2x2.py"));
  int errors = 0, parsed = 0;
  for (const std::string* text : {&dump, &source})
    for (std::size_t cut = 0; cut < text->size(); cut += 61) {
      // Cut before its decorator a file is no longer released TIRx (the layout-file reader's errors).
      const std::string head = text->substr(0, cut);
      if (head.find("@T.") == std::string::npos) continue;
      try {
        const Program p = program_from(head);
        (void)dispatch(p);
        ++parsed;
      } catch (const Error& e) {
        CHECK(e.loc().line > 0);
        ++errors;
      }
    }
  CHECK(errors > 50);
  // 2^18 unrolled instructions: refused before they are evaluated.
  const std::string nest = "for repeat_2 in T.unroll(0, 2):";
  const std::string huge = replace_once(dump, nest, "for repeat_2 in T.unroll(0, 262144):");
  try {
    (void)program_from(huge);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line > 0);
    CHECK_THAT(std::string(e.what()), Catch::Contains("unrolled T.ptx.mma"));
  }
  const std::pair<std::string, std::string> cases[] = {
      {"@T.function\ndef main():\n    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[48, 3])):\n        pass\n",
       "whole warps"},
      {"@T.function\ndef main():\n    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[1024, 2])):\n        pass\n",
       "at most 1024"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 64, 1, 1):\n        w: T.let[T.int32] = T.gpu_warp_shuffle(T.uint32(65535), "
       "T.cuda.thread_idx(\"x\") // 32, 0, 32, 32)\n",
       "part of the warp"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 64, 1, 1):\n        w: T.let[T.int32] = T.gpu_warp_shuffle(T.uint32(4294967295), "
       "T.cuda.thread_idx(\"x\") // 32, 40, 32, 32)\n",
       "outside the warp"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 64, 1, 1):\n        w: T.let[T.int32] = T.gpu_warp_shuffle(T.uint32(4294967295), "
       "T.cuda.thread_idx(\"x\") // 32, 0, 16, 32)\n",
       "must be 32"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 32, 1, 1):\n        a = T.alloc_tensor(ty_args=[T.Tensor((99999999999, 8), T.uint32, scope=\"local\")])\n",
       "too large"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 32, 1, 1):\n        x = T.alloc_tensor(ty_args=[T.Tensor((1, 1, 16, 8), T.uint32, scope=\"local\")])\n"
       "        T.ptx.mma(x[0], \"sync\")\n",
       "is not a register view"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 32, 1, 1):\n        $$$\n", ""},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 32, 1, 1):\n        pass\n", "no mma"},
      {"@T.function\ndef main():\n    with T.device_scope(1, 1, 1, 32, 1, 1):\n        \xff\n", ""},
      {"@T.ir_module\nclass M:\n    @T.function\n    def main(A: T.Tensor((16, 16), T.float16)):\n        with T.device_scope(1, 1, 1, 32, 1, 1):\n"
       "            for i in T.unroll(0, 2000000):\n                pass\n",
       "too large"},
  };
  for (const auto& [text, message] : cases) {
    INFO(text);
    try {
      (void)program_from(text);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.loc().line > 0);
      CHECK_THAT(std::string(e.what()), Catch::Contains(message));
    }
  }
}

TEST_CASE("on the H200, TVM's kernels are exact exactly where mmacheck proves the program", "[tirx][gpu-record]") {
  // tests/data/tirx/h200_tvm_kernels.txt: scripts/tirx-oracle/gpu.sh's programs run on the GPU machine.
  std::istringstream in(read_file(source_path("tests/data/tirx/h200_tvm_kernels.txt")));
  int kernels = 0, wrong = 0;
  for (std::string line; std::getline(in, line);) {
    const std::size_t colon = line.find(": ");
    if (line.rfind("tirx_", 0) != 0 || colon == std::string::npos) continue;
    const std::string name = line.substr(0, colon);
    INFO(line);
    const bool exact = line.find("D exact") != std::string::npos;
    const ProofReport r = prove_both(load_program(source_path("examples/" + name + ".py")));
    CHECK((r.verdict == Verdict::proved) == exact);
    CHECK((r.verdict == Verdict::refuted) == !exact);
    ++kernels;
    wrong += !exact;
  }
  CHECK(kernels == 6);
  CHECK(wrong == 1);  // tirx_seed
}

TEST_CASE("an m16n8k8 whose B image keeps extent-1 m iters is proved, program and TVM's dump, as TVM accepts it",
          "[tirx][prove]") {
  // Issue 21: S[(1, 1, 8, 4) : (1, 1, 4@laneid, 1@laneid)] names m (TVM keeps extent-1 iters).
  for (const std::string& path : {source_path("examples/tirx_k8_unit_m.py"), dump_path("tirx_k8_unit_m")}) {
    INFO(path);
    const Program p = load_program(path);
    const Plan plan = dispatch(p);
    REQUIRE(plan.ok);
    CHECK(plan.nest.mma_count() == 1);
    CHECK(prove_both(p).verdict == Verdict::proved);
  }
  // Without any m iter TVM fails with KeyError 'm'; so does the pattern here.
  const Plan no_m = dispatch(load_program(source_path("examples/tirx_refuse_no_m.py")));
  CHECK_FALSE(no_m.ok);
}

namespace {

// One command's decision on a file: an error (exit 2), dispatch_failed, or
// whether the gemm holds (prove: proved; sim: every element of 16 cases right).
std::string prove_decision(const std::string& text) {
  try {
    const ProofReport r = prove(program_from(text), ProveOptions{});
    return r.verdict == Verdict::dispatch_failed ? "dispatch_failed" : r.verdict == Verdict::proved ? "holds" : "fails";
  } catch (const Error&) {
    return "error";
  }
}

std::string sim_decision(const std::string& text) {
  try {
    const Program p = program_from(text);
    const Plan plan = dispatch(p);
    if (!plan.ok) return "dispatch_failed";
    sim::SimCheck check(p, plan.nest, sim::arch_params("sm_90"));
    std::size_t wrong = 0;
    for (int i = 0; i < 16; ++i) wrong += check.failures(check.random_case(i, 7)).size();
    return wrong == 0 ? "holds" : "fails";
  } catch (const Error&) {
    return "error";
  }
}

}  // namespace

TEST_CASE("prove and sim decide every released-TIRx file alike, planted mistakes included", "[tirx][sim]") {
  std::vector<std::pair<std::string, std::string>> files;  // name, text
  for (const auto& dir : {source_path("examples"), source_path("tests/data/tirx")})
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("tirx_", 0) == 0 && entry.path().extension() == ".py")
        files.emplace_back(name, read_file(entry.path().string()));
    }
  REQUIRE(files.size() >= 19);
  const std::string tiled = read_file(source_path("examples/tirx_tiled_2x2x2.py"));
  // Issue 21: B's image with one N repeat where D has two (TVM: "Repeat shapes must agree").
  std::string b_repeat = replace_once(tiled, "b = T.alloc_local((2, 2, 8, 8)", "b = T.alloc_local((1, 2, 8, 8)");
  b_repeat = replace_once(b_repeat, "B_IMG = TileLayout(S[(2, 2, 8, 2, 4) : (4, 2, 4 @ laneid, 1, 1 @ laneid)])",
                          "B_IMG = TileLayout(S[(2, 8, 2, 4) : (2, 4 @ laneid, 1, 1 @ laneid)])");
  b_repeat = replace_once(b_repeat, "(16,), \"float16\", scope=\"local\", layout=TileLayout(S[16:1]))])\n        d_r",
                          "(8,), \"float16\", scope=\"local\", layout=TileLayout(S[8:1]))])\n        d_r");
  b_repeat =
      replace_once(b_repeat, "for s in T.unroll(16):\n            b_h", "for s in T.unroll(8):\n            b_h");
  files.emplace_back("b_repeat", b_repeat);
  const std::string dump = read_file(dump_path("tirx_tiled_2x2x2"));
  files.emplace_back("a_by_n", replace_all(dump, "repeat_0 * 8 + repeat_2 * 4", "repeat_0 * 8 + repeat_1 * 4"));
  int holds = 0, fails = 0, declined = 0;
  for (const auto& [name, text] : files) {
    INFO(name);
    const std::string p = prove_decision(text), s = sim_decision(text);
    CHECK(p == s);
    CHECK(p != "error");
    holds += p == "holds";
    fails += p == "fails";
    declined += p == "dispatch_failed";
  }
  CHECK(prove_decision(b_repeat) == "dispatch_failed");
  CHECK(holds >= 12);
  CHECK(fails >= 3);
  CHECK(declined >= 4);
}

TEST_CASE("a dump whose A register index uses the N repeat for K blames A, not B", "[tirx][prove]") {
  const std::string dump = read_file(dump_path("tirx_tiled_2x2x2"));
  const std::string edited = replace_all(dump, "repeat_0 * 8 + repeat_2 * 4", "repeat_0 * 8 + repeat_1 * 4");
  const ProofReport r = prove_both(program_from(edited));
  CHECK(r.verdict == Verdict::refuted);
  CHECK(result_of(r, "A frame") == CheckResult::refuted);
  CHECK(result_of(r, "B frame") == CheckResult::proved);
  const Counterexample* cx = counterexample(r, "A frame");
  REQUIRE(cx != nullptr);
  CHECK(cx->operand == "A");
  // At (0, 0, 1) A's registers are tile (0, 0)'s: A[0][0] where the frame needs A[0][16].
  CHECK(cx->expected == Element{0, 16});
  CHECK(cx->actual == Element{0, 0});
  CHECK_THAT(cx->message, Catch::Contains("repeat_2 = 1"));
  // The same mistake on D (D's index uses the M repeat for N) blames D.
  const std::string d_edit =
      replace_all(dump, "tile_D[repeat_0 * 8 + repeat_1 * 4", "tile_D[repeat_0 * 8 + repeat_0 * 4");
  const ProofReport d = prove_both(program_from(d_edit));
  CHECK(result_of(d, "D frame") == CheckResult::refuted);
  CHECK(result_of(d, "A frame") == CheckResult::proved);
  CHECK(result_of(d, "B frame") == CheckResult::proved);
}

TEST_CASE("a dump that accumulates one K tile twice is refuted", "[tirx][prove]") {
  const std::string edited =
      replace_all(replace_all(read_file(dump_path("tirx_tiled_2x2x2")), "repeat_2 * 4", "repeat_2 * 0"), "repeat_2 * 2",
                  "repeat_2 * 0");
  const ProofReport r = prove_both(program_from(edited));
  CHECK(r.verdict == Verdict::refuted);
  const Counterexample* cx = counterexample(r, "accumulation");
  REQUIRE(cx != nullptr);
  CHECK_THAT(cx->message, Catch::Contains("2 times"));
}

TEST_CASE("a second apply over other images or another instruction is a located error, not a verdict", "[tirx]") {
  // tests/data/program/tirx/ok_apply_twice_c.py: two applies, C = c both times.
  const std::string text = read_file(source_path("tests/data/program/tirx/ok_apply_twice_c.py"));
  const Program ok = parse_program(text, "twice.py");
  REQUIRE(ok.release);
  REQUIRE(ok.release->statements.size() == 2);
  CHECK(ok.release->statements[1].c == ReleaseMmaStatement::C::image);
  const std::size_t second = text.rfind("T.cuda.tile.apply(");
  REQUIRE(second != std::string::npos);
  const auto edited = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    const std::size_t at = t.find(from, second);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  const auto error_of = [](const std::string& t) {
    try {
      parse_program(t, "twice.py");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const int line =
      static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(second), '\n')) + 1;
  const std::string at = "twice.py:" + std::to_string(line) + ":";
  const std::string other_a = error_of(edited("a[:, :, :, :]", "b[:, :, :, :]"));
  CHECK(other_a.find(at) != std::string::npos);
  CHECK(other_a.find("A: this apply reads 'b', another 'a'") != std::string::npos);
  const std::string other_op = error_of(edited("m16n8k16", "m16n8k8"));
  CHECK(other_op.find(at) != std::string::npos);
  CHECK(other_op.find("one mma instruction per kernel") != std::string::npos);
  // D's own registers as C: the second apply accumulates.
  const Program acc = parse_program(edited("c[:, :, :, :]", "d[:, :, :, :]"), "twice.py");
  CHECK(acc.release->statements[1].c == ReleaseMmaStatement::C::accumulate);
  CHECK(prove(acc, ProveOptions{}).verdict == Verdict::refuted);  // D = A·B + C + A·B
}

TEST_CASE("several warps per CTA, each running the pattern on its own images: the CTA's gemm is proved or refuted",
          "[tirx][prove]") {
  // tests/data/tirx/warps: written for TVM 0.1.0a4, which accepts and lowers
  // every one (its oracle.jsonl and dumps, scripts/tirx-oracle/gen.py).  The
  // name says the verdict: ok_* prove, bad_* are planted mistakes.
  const std::string dir = source_path("tests/data/tirx/warps");
  std::istringstream in(read_file(dir + "/oracle.jsonl"));
  std::string line;
  int accepted = 0;
  for (bool first = true; std::getline(in, line); first = false)
    if (!first && !line.empty()) accepted += parse_json(line, "oracle.jsonl")["accepted"].get<bool>() ? 1 : 0;
  int proved = 0, refuted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".py") continue;
    INFO(name);
    const std::string text = read_file(entry.path().string());
    const Program p = program_from(text);
    CHECK(p.scope.warps() >= 2);
    const bool ok = name.rfind("ok_", 0) == 0;
    const ProofReport r = prove(p, ProveOptions{});
    CHECK(r.verdict == (ok ? Verdict::proved : Verdict::refuted));
    CHECK(sim_decision(text) == (ok ? "holds" : "fails"));
    (ok ? proved : refuted) += 1;
  }
  CHECK(accepted == 14);
  CHECK(proved == 14);   // 7 programs and their dumps
  CHECK(refuted == 14);  // 7 planted mistakes and their dumps
  // What the refutations name.
  const auto cx = [&](const std::string& name) {
    const ProofReport r = prove(program_from(read_file(dir + "/" + name)), ProveOptions{});
    std::string all;
    for (const Counterexample& c : r.counterexamples) all += c.message + "\n";
    return all;
  };
  CHECK_THAT(cx("bad_no_warp_offset.py"), Catch::Contains("warp 1, lane 0, slot 0: stage a loads A[0][0]"));
  CHECK_THAT(cx("bad_b_from_a.py"), Catch::Contains("its products pair A with itself"));
  CHECK_THAT(cx("bad_store_before_mma.py"), Catch::Contains("holds nothing"));
  CHECK_THAT(cx("bad_overlap.lowered.py"), Catch::Contains("D[8][0]"));
  CHECK_THAT(cx("bad_k_block.py"), Catch::Contains("warp 1"));
}

}  // namespace test_tirx_release

namespace test_tirx_release {

TEST_CASE("released-TIRx kernels built by factories, at the top level and in parametrized tests, each checked",
          "[tirx][prove]") {
  // TVM 0.1.0a4 builds and lowers main and main_bad (tests/data/tirx/factories/oracle.jsonl).
  const ReadProgram read = read_program_file(source_path("tests/data/tirx/factories/test_factory.py"));
  CHECK_FALSE(read.program.release.has_value());
  std::vector<std::string> names;
  std::map<std::string, Verdict> verdicts;
  for (const KernelInstance& k : read.instances) {
    names.push_back(k.name);
    const Program& p = k.same_as ? read.instances[*k.same_as].program : k.program;
    verdicts[k.name] = prove(p, ProveOptions{}).verdict;
  }
  CHECK(names == std::vector<std::string>{"main", "main_bad", "test_gemm[float16-8]", "test_gemm[float16-4]",
                                          "test_gemm[bfloat16-8]", "test_gemm[bfloat16-4]"});
  for (const std::string ok : {"main", "test_gemm[float16-8]", "test_gemm[bfloat16-8]"}) {
    INFO(ok);
    CHECK(verdicts[ok] == Verdict::proved);
  }
  for (const std::string bad : {"main_bad", "test_gemm[float16-4]", "test_gemm[bfloat16-4]"}) {
    INFO(bad);
    CHECK(verdicts[bad] == Verdict::refuted);
  }
  // The test's float16 builds are the top level's, read once.
  CHECK(read.instances[2].same_as == std::optional<std::size_t>{0});
  CHECK(read.instances[3].same_as == std::optional<std::size_t>{1});
  CHECK(read.instances[4].program.release->opcode == "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  // TVM's dumps of the two top-level builds.
  CHECK(prove(program_from(read_file(source_path("tests/data/tirx/factories/test_factory.lowered.py"))), {}).verdict ==
        Verdict::proved);
  CHECK(prove(program_from(read_file(source_path("tests/data/tirx/factories/test_factory.main_bad.lowered.py"))), {})
            .verdict == Verdict::refuted);

  const std::string text = read_file(source_path("tests/data/tirx/factories/test_factory.py"));
  // A factory no one calls would leave its kernel unchecked: an error at the kernel.
  const std::string uncalled = text.substr(0, text.find("main = make_kernel(8)")) + "\ndef helper():\n    return 1\n";
  try {
    (void)read_program(uncalled, "uncalled.py");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line > 0);
    CHECK_THAT(std::string(e.what()), Catch::Contains("built only when its factory is called"));
  }
  // TVMScript captures at decoration: a closure value rebound after the
  // kernel's def does not change the kernel (Python's late binding would, but
  // the parser has read the kernel by then).
  std::string rebound = replace_once(text, "    return main\n", "    row_half = 8\n    return main\n");
  const ReadProgram late = read_program(rebound, "late.py");
  CHECK(prove(late.instances[1].program, ProveOptions{}).verdict == Verdict::refuted);
}

}  // namespace test_tirx_release

namespace test_tirx_release {

TEST_CASE("T.macro and T.inline staging helpers are read where they are called, hygienic as TVM's", "[tirx][prove]") {
  // tests/data/tirx/macros: TVM 0.1.0a4 accepts and lowers the ok_* and bad_*
  // files (oracle.jsonl); refused_* is TVM's NameError.
  const std::string dir = source_path("tests/data/tirx/macros");
  int proved = 0, refuted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".py" || name.rfind("refused_", 0) == 0) continue;
    INFO(name);
    const std::string text = read_file(entry.path().string());
    const bool ok = name.rfind("ok_", 0) == 0;
    CHECK(prove(program_from(text), ProveOptions{}).verdict == (ok ? Verdict::proved : Verdict::refuted));
    CHECK(sim_decision(text) == (ok ? "holds" : "fails"));
    (ok ? proved : refuted) += 1;
  }
  CHECK(proved == 4);
  CHECK(refuted == 6);
  // A statement a macro adds runs where the call stands, and is named there.
  const std::string first = read_file(dir + "/bad_store_macro_first.py");
  const ProofReport r = prove(program_from(first), ProveOptions{});
  REQUIRE_FALSE(r.counterexamples.empty());
  CHECK_THAT(r.counterexamples.front().message, Catch::Contains("holds nothing"));
  const std::string before = first.substr(0, first.find("        store_d(D, d_r, lane)"));
  const auto call_line = std::count(before.begin(), before.end(), '\n') + 1;
  CHECK_THAT(r.counterexamples.front().message, Catch::Contains("(line " + std::to_string(call_line) + ")"));
  try {
    (void)program_from(read_file(dir + "/refused_macro_kernel_name.py"));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.loc().line == 20);
    CHECK(e.loc().col == 18);
    CHECK_THAT(std::string(e.what()), Catch::Contains("'A' is not defined where macro 'stage_a' is"));
  }
  // Bad calls are located errors.
  const std::string ok = read_file(dir + "/ok_macro_staging.py");
  const std::pair<std::string, std::string> cases[] = {
      {"stage_a(a_h, A)", "needs its argument 'lane'"},
      {"stage_a(a_h, A, lane, lane)", "takes 3 arguments"},
      {"stage_a(a_h, A, ln=lane)", "has no parameter 'ln'"},
      {"stage_a(a_h, A, lane, a_h=a_h)", "given twice"},
  };
  for (const auto& [call, message] : cases) {
    INFO(call);
    CHECK_THROWS_WITH(program_from(replace_once(ok, "        stage_a(a_h, A, lane)\n", "        " + call + "\n")),
                      Catch::Contains(message));
  }
  // A macro calling itself ends at a depth, located.
  const std::string looping = replace_once(ok, "    for s in T.unroll(8):\n        a_h[s]",
                                           "    stage_a(a_h, A, lane)\n    for s in T.unroll(8):\n        a_h[s]");
  CHECK_THROWS_WITH(program_from(looping), Catch::Contains("macros nested more than 16 deep"));
}

}  // namespace test_tirx_release

namespace test_tirx_release {

TEST_CASE("D's registers set to zero before an accumulating apply: D = A·B, the order and the slots as executed",
          "[tirx][prove]") {
  // tests/data/tirx/zero_fill: TVM 0.1.0a4 accepts and lowers every one (oracle.jsonl).
  const std::string dir = source_path("tests/data/tirx/zero_fill");
  int proved = 0, refuted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".py") continue;
    INFO(name);
    const std::string text = read_file(entry.path().string());
    const bool ok = name.rfind("ok_", 0) == 0;
    CHECK(prove(program_from(text), ProveOptions{}).verdict == (ok ? Verdict::proved : Verdict::refuted));
    CHECK(sim_decision(text) == (ok ? "holds" : "fails"));
    (ok ? proved : refuted) += 1;
  }
  CHECK(proved == 2);
  CHECK(refuted == 6);
  const std::string ok = read_file(dir + "/ok_zero_then_accumulate.py");
  const auto message = [&](const std::string& file) {  // the program run's
    const ProofReport r = prove(program_from(read_file(dir + "/" + file)), ProveOptions{});
    for (const Counterexample& c : r.counterexamples)
      if (c.check.kind == CheckKind::program) return c.message;
    return std::string();
  };
  CHECK_THAT(message("bad_zero_half.py"), Catch::Contains("nothing wrote"));
  CHECK_THAT(message("bad_zero_after_mma.py"), Catch::Contains("zero"));
  // A nonzero constant is the gemm's C (tests/test_tirx_scalar_c.cc): D = A·B + 1.5.
  CHECK(program_from(replace_once(ok, "d_r[s] = T.float32(0)", "d_r[s] = T.float32(1.5)")).gemm->c_scalar == 1.5f);
  CHECK(program_from(ok).gemm->c_scalar == 0.0f);
}

}  // namespace test_tirx_release

namespace test_tirx_release {

TEST_CASE("what TVM refuses while Python runs the file (at a decorator) mmacheck refuses at TVM's line", "[tirx]") {
  // scripts/tirx-oracle/gen.py records every program of a data folder: TVM's
  // lowering, its pattern's refusal, or (stage "decoration") the exception
  // TVMScript raised parsing a kernel at its decorator, with the file's line
  // TVM stood at.  Each such refusal is mmacheck's too: exit 2, an error at
  // that line, never a verdict.  And no program of a folder is left out of
  // its record.
  int decoration = 0;
  for (const auto& dir : std::filesystem::directory_iterator(source_path("tests/data/tirx"))) {
    const std::filesystem::path record = dir.path() / "oracle.jsonl";
    if (!dir.is_directory() || !std::filesystem::exists(record)) continue;
    std::istringstream lines(read_file(record.string()));
    std::string line;
    std::getline(lines, line);
    std::set<std::string> named;
    while (std::getline(lines, line)) {
      const Json o = parse_json(line, record.string());
      const std::string source = o["source"];
      named.insert(std::filesystem::path(source).filename().string());
      if (!o.contains("stage") || o["stage"] != "decoration") continue;
      INFO(source);
      REQUIRE_FALSE(o["accepted"].get<bool>());
      const RunResult r = run_mmacheck({"prove", source_path(source)});
      CHECK(r.status == 2);
      CHECK_THAT(r.err, Catch::Contains(source_path(source) + ":" + std::to_string(o["line"].get<int>()) + ":"));
      ++decoration;
    }
    for (const auto& f : std::filesystem::directory_iterator(dir.path())) {
      const std::string name = f.path().filename().string();
      if (f.path().extension() != ".py" || name.find(".lowered.") != std::string::npos ||
          name.find(".script.") != std::string::npos)
        continue;
      INFO(f.path().string());
      CHECK(named.contains(name));
    }
  }
  CHECK(decoration == 2);  // helpers' and macros' NameError
}

}  // namespace test_tirx_release
