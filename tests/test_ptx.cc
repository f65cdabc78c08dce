// The PTX front end (core/ptx/): the kernels nvcc compiles from
// tests/data/ptx/nvcc/*.cu (scripts/ptx-oracle/nvcc_kernels.sh), each correct
// one proved and each planted mistake refuted at the line expected.tsv
// names; the reader's and the launch file's errors at their line; the
// machine's own refutations (a barrier some threads skip) and bounds.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/ptx/ptx_check.h"
#include "core/ptx/ptx_launch.h"
#include "core/ptx/ptx_reader.h"
#include "sim/ptx/ptx_sim.h"
#include "tests/support.h"
#include "tests/test_ptx_support.h"

namespace test_ptx {

using namespace mmacheck;
using namespace mmacheck::ptx;
using namespace mmacheck::test;

namespace {

const std::string kDir = "tests/data/ptx/nvcc/";

PtxReport check_file(const std::string& name, const std::string& dir = kDir) {
  const std::string path = dir + name + ".ptx";
  const PtxModule m = read_ptx(read_file(source_path(path)), path);
  return check_ptx_launch(
      m, read_launch(read_file(source_path(dir + name + ".launch.json")), dir + name + ".launch.json"), {});
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "";
}

// A kernel around `body` with three pointer parameters (A, B, D).
std::string kernel(const std::string& body) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 d)\n{\n"
         "\t.reg .b32 %r<8>;\n\t.reg .pred %p<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<8>;\n" +
         body + "\tret;\n}\n";
}

const char* kLaunch = R"({"grid": [1], "block": [32], "params": [{"tensor": "A", "dtype": "float16", "shape": [16, 16]},
  {"tensor": "B", "dtype": "float16", "shape": [16, 8]}, {"tensor": "D", "dtype": "float32", "shape": [16, 8]}]})";

PtxReport run_body(const std::string& body, RunOptions options = {}) {
  return check_ptx_launch(read_ptx(kernel(body), "k.ptx"), read_launch(kLaunch, "l.json"), options);
}

}  // namespace

TEST_CASE("each nvcc kernel of tests/data/ptx/nvcc is proved or refuted where expected.tsv says", "[ptx]") {
  const ManifestTally t = check_ptx_manifest(kDir);
  CHECK(t.rows == 15);
  CHECK(t.proved == 3);
  CHECK(t.refuted == 12);
}

TEST_CASE(
    "Triton's matmul PTX (sm_80, five configurations) proves and thirteen planted mistakes are refuted at their line",
    "[ptx][triton]") {
  const ManifestTally t = check_ptx_manifest("tests/data/ptx/triton/");
  CHECK(t.rows == 18);
  CHECK(t.proved == 5);
  CHECK(t.refuted == 13);
}

TEST_CASE(
    "TileLang's T.gemm PTX (sm_80, four configurations) proves and six planted mistakes are refuted at their line",
    "[ptx][tilelang]") {
  const ManifestTally t = check_ptx_manifest("tests/data/ptx/tilelang/");
  CHECK(t.rows == 10);
  CHECK(t.proved == 4);
  CHECK(t.refuted == 6);
}

TEST_CASE(
    "a CuTe gemm (cp.async, swizzled shared memory, ldmatrix, SM80_16x8x16 TN) proves and five planted mistakes are "
    "refuted at their line",
    "[ptx][cute]") {
  const ManifestTally t = check_ptx_manifest("tests/data/ptx/cute/");
  CHECK(t.rows == 6);
  CHECK(t.proved == 1);
  CHECK(t.refuted == 5);
}

TEST_CASE("a proof of a PTX launch states its scope and counts the work", "[ptx]") {
  const PtxReport r = check_file("shared");
  CHECK(r.verdict == FrameVerdict::proved);
  CHECK(r.m == 64);
  CHECK(r.n == 16);
  CHECK(r.k == 64);
  CHECK(r.steps > 0);
  CHECK_THAT(r.message, Catch::Contains("this launch's problem size and grid only"));
}

TEST_CASE("the same kernel launched over a grid that misses tiles is refuted", "[ptx]") {
  std::string launch = read_file(source_path(kDir + "shared.launch.json"));
  const std::size_t at = launch.find("\"grid\": [2, 2]");
  REQUIRE(at != std::string::npos);
  launch.replace(at, 14, "\"grid\": [2, 1]");
  const PtxModule m = read_ptx(read_file(source_path(kDir + "shared.ptx")), "shared.ptx");
  const PtxReport r = check_ptx_launch(m, read_launch(launch, "l.json"), {});
  CHECK(r.verdict == FrameVerdict::refuted);
  CHECK_THAT(r.message, Catch::Contains("D[32][0] is never written"));
}

TEST_CASE("the PTX reader and the opcode table refuse what they do not read, at its line", "[ptx]") {
  const auto read = [](const std::string& text) { return error_of([&] { read_ptx(text, "k.ptx"); }); };
  CHECK(read(kernel("\tvote.ballot.b32 %r1, %p1;\n")) ==
        "10:2: 'vote.ballot.b32' is not modelled by the PTX machine (docs/ptx.md lists what is)");
  CHECK(read(kernel("\tvote.sync.all.b32 %r1, %p1, -1;\n")) ==
        "10:2: 'vote.sync.all.b32' (vote.sync.{all,any,uni}.pred and vote.sync.ballot.b32 are) is not modelled by "
        "the PTX machine (docs/ptx.md lists what is)");
  CHECK(read(kernel("\tvote.sync.ballot.b32 %r1, %r2, -1;\n")) == "10:28: vote's source is a predicate register");
  CHECK(read(kernel("\tsetp.eq.and.s32 %p1, %r1, 1, !%p2;\n")) ==
        "10:31: a negated predicate operand of 'setp.eq.and.s32' is not modelled by the PTX machine (docs/ptx.md "
        "lists what is)");
  CHECK(read(kernel("\tstmatrix.sync.aligned.m8n8.x2.b16 [%rd1], {%r1, %r2};\n")) ==
        "10:2: 'stmatrix.sync.aligned.m8n8.x2.b16' (stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16 is) is "
        "not modelled by the PTX machine (docs/ptx.md lists what is)");
  CHECK(read(kernel("\tbar.sync 16;\n")) == "10:11: a barrier is numbered 0..15");
  CHECK(read(kernel("\tbarrier.sync.aligned 1, 48;\n")) ==
        "10:26: a barrier's thread count is a multiple of 32 in 32..1024");
  CHECK(read(kernel("\tbar.arrive 1;\n")) == "10:2: 'bar.arrive' takes 2 operands, not 1");
  CHECK(read(kernel("\tst.const.u32 [%rd1], %r1;\n")) == "10:2: st.const: the constant bank is read-only to a kernel");
  CHECK(read(kernel("\tadd.s32 %r1, %r9, 1;\n")) == "10:15: unknown register '%r9'");
  CHECK(read(kernel("\tadd.s32 %r1, %r2;\n")) == "10:2: 'add.s32' takes 3 operands, not 2");
  CHECK(read(kernel("\tadd.foo.s32 %r1, %r2, 1;\n")) ==
        "10:2: modifier '.foo' of 'add.foo.s32' is not modelled by the PTX machine (docs/ptx.md lists what is)");
  CHECK(read(kernel("\tbra $L__missing;\n")) == "10:6: undefined label '$L__missing'");
  CHECK(read(kernel("\tadd.s32 %r1, %r2, 1\n")).find("expected ',' or ';'") != std::string::npos);
  CHECK(read(kernel("\tmov.f32 %r1, 1.5;\n")).find("decimal floats are not read") != std::string::npos);
  CHECK(read(kernel("\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1}, {%r1}, {%r1}, {%r1};\n")) ==
        "10:52: D must be a vector of 4 registers");
  CHECK(read(".target sm_80\n.visible .entry k()\n{\n\tret;\n}\n") == "1:1: no .version directive: not a PTX module");
  CHECK(read(kernel("\t.local .align 4 .b8 depot[16];\n")).empty());
  CHECK(read(kernel("\t.local .align 4 .b8 depot[600000];\n")) ==
        "10:2: more local memory than a thread has (524288 bytes)");
  // Scoped blocks, as Triton's inline assembly writes them, declare their own registers.
  CHECK(read(kernel("\t{\n\t.reg .b32 %t;\n\tmov.b32 %t, 1;\n\t}\n")).empty());
  CHECK(read(kernel("\t{\n\t.reg .b32 %t;\n\t}\n\tmov.b32 %t, 1;\n")) == "13:10: unknown register '%t'");
}

TEST_CASE("launch files are read strictly and bound to the kernel's parameters", "[ptx]") {
  const PtxModule m = read_ptx(read_file(source_path(kDir + "global.ptx")), "global.ptx");
  const auto bind = [&](const std::string& json) {
    return error_of([&] {
      PtxLaunch l = read_launch(json, "l.json");
      bind_launch(l, m);
    });
  };
  CHECK(bind(R"({"grid": [1], "block": [32], "params": []})").find("needs") == std::string::npos);
  CHECK(bind(R"({"grid": [1], "block": [32], "params": [], "gemm": {"D": "D"}})") ==
        "1:58: no tensor parameter named \"D\"");
  CHECK(bind(R"({"grid": [1], "params": [{"tensor": "A", "dtype": "float16", "shape": [16, 16]},
    {"tensor": "B", "dtype": "float16", "shape": [16, 8]}, {"tensor": "D", "dtype": "float32", "shape": [16, 8]},
    {"value": 16}, {"value": 8}]})") == "1:1: kernel gemm_m16n8k16 takes 6 parameters; the launch gives 5");
  CHECK(bind(R"({"grid": [1], "params": [{"tensor": "A", "dtype": "float16", "shape": [16, 16]},
    {"tensor": "B", "dtype": "float16", "shape": [16, 8]}, {"tensor": "D", "dtype": "float32", "shape": [16, 8]},
    {"value": 16}, {"value": 8}, {"value": 16}]})") == "1:1: no \"block\" and the kernel has no .reqntid");
  CHECK(bind(R"({"grid": [1], "block": [32], "params": [{"tensor": "A", "dtype": "float16", "shape": [16, 16]},
    {"tensor": "B", "dtype": "float16", "shape": [16, 8]}, {"tensor": "D", "dtype": "float32", "shape": [16, 8]},
    {"value": 16}, {"value": 8}, {"tensor": "E", "dtype": "float16", "shape": [1]}]})")
            .find("is .u32, not a pointer") != std::string::npos);
  CHECK(bind(R"({"grid": [1], "block": [32], "params": [{"tensor": "A", "dtype": "float16", "shape": [16, 16]},
    {"tensor": "B", "dtype": "float16", "shape": [8, 8]}, {"tensor": "D", "dtype": "float32", "shape": [16, 8]}]})")
            .find("shapes do not make a gemm") != std::string::npos);
  CHECK(bind(R"({"grid": [0], "block": [32], "params": []})") == "1:11: expected an integer in 1..1048576");
  CHECK(bind(R"({"grid": [1], "block": [32], "blocks": 1, "params": []})").find("unknown key \"blocks\"") !=
        std::string::npos);
  CHECK(bind(R"({"grid": [1], "block": [2048], "params": []})") == "1:25: expected an integer in 1..1024");
}

TEST_CASE("the CTA machine refutes lanes that diverge at mma.sync and bounds a loop without end", "[ptx]") {
  const std::string mma =
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, {%r0,%r1,%r2,%r3}, {%r4,%r5}, {%f0,%f1,%f2,%f3};\n";
  const PtxReport diverge = run_body("\tmov.u32 %r7, %tid.x;\n\tsetp.lt.u32 %p1, %r7, 16;\n\t@%p1 bra $L__low;\n\t" +
                                     mma + "\tbra.uni $L__end;\n$L__low:\n\t" + mma + "$L__end:\n");
  CHECK(diverge.verdict == FrameVerdict::refuted);
  CHECK_THAT(diverge.message, Catch::Contains("lanes of warp 0 diverge at an aligned instruction"));
  const PtxReport unwritten = run_body("\t" + mma);
  CHECK(unwritten.verdict == FrameVerdict::refuted);
  CHECK_THAT(unwritten.message, Catch::Contains("mma.sync reads A register %r0 of lane 0, which was never written"));
  RunOptions bounded;
  bounded.max_steps = 10000;
  CHECK(
      error_of([&] { run_body("$L__top:\n\tbra.uni $L__top;\n", bounded); }) ==
      "11:2: the run executed more than 10000 thread-instructions (--max-steps): a loop that does not end, or a launch too large");
  const PtxReport data_branch = run_body(
      "\tld.param.u64 %rd1, [a];\n\tld.global.u32 %r1, [%rd1];\n\tsetp.eq.u32 %p1, %r1, 0;\n"
      "\t@%p1 bra $L__x;\n$L__x:\n");
  CHECK(data_branch.verdict == FrameVerdict::unchecked);
  CHECK_THAT(data_branch.message, Catch::Contains("depends on tensor data"));
  const PtxReport outside = run_body("\tld.param.u64 %rd1, [a];\n\tld.global.u32 %r1, [%rd1+512];\n");
  CHECK(outside.verdict == FrameVerdict::refuted);
  CHECK_THAT(outside.message, Catch::Contains("outside every tensor of the launch"));
}

}  // namespace test_ptx

namespace test_ptx {

// Runs `text` (a kernel of one u64 parameter, `out`) over one CTA of
// `threads` threads with `out` a threads x 8 u32 tensor; the result and the
// words each thread stored.
struct WordRun {
  ptx::RunResult result;
  std::vector<std::uint8_t> bytes;
  std::uint32_t word(int thread, int i) const {
    std::uint32_t w = 0;
    for (int b = 0; b < 4; ++b)
      w |= std::uint32_t{bytes[static_cast<std::size_t>((thread * 8 + i) * 4 + b)]} << (8 * b);
    return w;
  }
};
WordRun run_words(const std::string& text, int threads) {
  const PtxModule m = read_ptx(text, "k.ptx");
  GlobalMemory memory;
  TensorArg out;
  out.name = "out";
  out.dtype = DType::s32;
  out.shape = {threads, 8};
  out.strides = {8, 1};
  const std::uint64_t base = memory.add(out);
  Provenance prov(m.kernels[0].code.size());
  const std::vector<std::uint64_t> params{base};
  GridShape shape;
  shape.block = {threads, 1, 1};
  WordRun r{run_grid(m.kernels[0], shape, params, memory, prov, {}), {}};
  r.bytes = memory.regions()[0].bytes;
  return r;
}

TEST_CASE("the CTA machine's local memory, vote.sync and stmatrix", "[ptx]") {
  // Each lane stores eight results into row `lane` of a 32 x 8 u32 tensor.
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.local .align 8 .b8 __local_depot0[64];
	.reg .b64 %SP;
	.reg .b64 %SPL;
	.reg .pred %p<8>;
	.reg .b32 %r<24>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 tile[256];
	mov.u64 %SPL, __local_depot0;
	cvta.local.u64 %SP, %SPL;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %laneid;
	// local: an array indexed at run time, written through the local space
	// and read back through generic addresses.
	mul.lo.u32 %r2, %r1, 3;
	st.local.u32 [%SPL], %r2;
	and.b32 %r3, %r1, 7;
	mul.wide.u32 %rd2, %r3, 4;
	add.s64 %rd3, %SP, %rd2;
	st.u32 [%rd3+16], %r1;
	ld.u32 %r4, [%SP];
	add.s64 %rd4, %SPL, %rd2;
	ld.local.u32 %r5, [%rd4+16];
	// vote over lanes 0..4
	setp.lt.u32 %p1, %r1, 5;
	vote.sync.ballot.b32 %r6, %p1, -1;
	vote.sync.any.pred %p2, %p1, -1;
	vote.sync.all.pred %p3, !%p1, -1;
	vote.sync.uni.pred %p4, %p1, -1;
	setp.lt.u32 %p5, %r1, 32;
	vote.sync.uni.pred %p6, !%p5, 0xFFFFFFFF;
	selp.u32 %r7, 1, 0, %p2;
	selp.u32 %r8, 2, 0, %p3;
	selp.u32 %r9, 4, 0, %p4;
	selp.u32 %r10, 8, 0, %p6;
	or.b32 %r11, %r7, %r8;
	or.b32 %r12, %r9, %r10;
	or.b32 %r13, %r11, %r12;
	// stmatrix: lane l's register is 0xL1L0 (its two 16-bit units) into
	// rows at tile + 16·l (x1) and tile + 128 + 16·l (x1.trans).
	shl.b32 %r14, %r1, 8;
	or.b32 %r15, %r14, %r1;
	shl.b32 %r16, %r15, 16;
	or.b32 %r17, %r16, %r15;
	xor.b32 %r17, %r17, 0x00010000;
	mov.u32 %r18, tile;
	shl.b32 %r19, %r3, 4;
	add.s32 %r20, %r18, %r19;
	stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r20], {%r17};
	stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%r20+128], {%r17};
	bar.sync 0;
	shl.b32 %r21, %r1, 2;
	add.s32 %r22, %r18, %r21;
	ld.shared.u32 %r14, [%r22];
	ld.shared.u32 %r15, [%r22+128];
	mul.wide.u32 %rd5, %r1, 32;
	add.s64 %rd6, %rd1, %rd5;
	st.global.v4.u32 [%rd6], {%r4, %r5, %r6, %r13};
	st.global.v4.u32 [%rd6+16], {%r14, %r15, %r2, %r2};
	ret;
}
)";
  const WordRun r = run_words(text, 32);
  REQUIRE_FALSE(r.result.refutation.has_value());
  REQUIRE_FALSE(r.result.unfollowed.has_value());
  // Lane l's value for stmatrix: units u0 = l·0x101 ^ 0 and u1 = l·0x101 ^ 1.
  const auto unit = [](int lane, int u) {
    return static_cast<std::uint32_t>(lane * 0x101) ^ static_cast<std::uint32_t>(u);
  };
  const auto at = [&](int half) {  // the .trans region's 16-bit unit `half`
    // Lane l's unit u goes to row 2(l % 4) + u, unit l / 4.
    for (int lane = 0; lane < 32; ++lane)
      for (int u = 0; u < 2; ++u)
        if ((2 * (lane % 4) + u) * 8 + lane / 4 == half) return unit(lane, u);
    return 0xFFFFFFFFu;
  };
  for (int lane : {0, 3, 8, 31}) {
    INFO(lane);
    CHECK(r.word(lane, 0) == static_cast<std::uint32_t>(lane * 3));     // its own local word 0
    CHECK(r.word(lane, 1) == static_cast<std::uint32_t>(lane));         // generic store, local load
    CHECK(r.word(lane, 2) == 0x1Fu);                                    // ballot of lanes 0..4
    CHECK(r.word(lane, 3) == (1u | 0u | 0u | 8u));                      // any; not all; not uni; uni of all-false
    CHECK(r.word(lane, 4) == (unit(lane, 0) | (unit(lane, 1) << 16)));  // x1: word l is lane l's register
    CHECK(r.word(lane, 5) == (at(2 * lane) | (at(2 * lane + 1) << 16)));
  }
}

TEST_CASE("the module's .const arrays: initialisers, ld.const, generic addresses, the bank's bounds", "[ptx]") {
  const std::string head = ".version 8.0\n.target sm_80\n.address_size 64\n";
  // Lane l stores table[l % 4], neg[1], the generic load of table[1], and a byte of bytes.
  const std::string text = head + R"(.const .align 4 .u32 table[2][2] = {{10, 11}, {12}};
.const .align 2 .s16 neg[2] = {-2, -3};
.const .align 1 .b8 bytes[8] = {1, 2, 3};
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b16 %h<2>;
	.reg .b64 %rd<12>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %laneid;
	and.b32 %r2, %r1, 3;
	mul.wide.u32 %rd2, %r2, 4;
	mov.u64 %rd3, table;
	add.s64 %rd4, %rd3, %rd2;
	ld.const.u32 %r3, [%rd4];
	ld.const.s16 %h1, [neg+2];
	cvt.s32.s16 %r4, %h1;
	cvta.const.u64 %rd5, %rd3;
	ld.u32 %r5, [%rd5+4];
	ld.const.u8 %r6, [bytes+2];
	mul.wide.u32 %rd6, %r1, 32;
	add.s64 %rd7, %rd1, %rd6;
	st.global.v4.u32 [%rd7], {%r3, %r4, %r5, %r6};
	ret;
}
)";
  const WordRun r = run_words(text, 32);
  REQUIRE_FALSE(r.result.refutation.has_value());
  REQUIRE_FALSE(r.result.unfollowed.has_value());
  for (int lane : {0, 1, 2, 3, 6}) {
    INFO(lane);
    CHECK(r.word(lane, 0) == std::array<std::uint32_t, 4>{10, 11, 12, 0}[static_cast<std::size_t>(lane % 4)]);
    CHECK(r.word(lane, 1) == static_cast<std::uint32_t>(-3));
    CHECK(r.word(lane, 2) == 11u);
    CHECK(r.word(lane, 3) == 3u);
  }
  // Past the arrays: a fault at the load, naming the bank's size.
  const WordRun past = run_words(head + ".const .align 4 .u32 c[2] = {1, 2};\n" + R"(.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	ld.const.u32 %r1, [c+8];
	ret;
}
)",
                                 32);
  REQUIRE(past.result.refutation.has_value());
  CHECK(past.result.refutation->loc.line == 8);
  CHECK(past.result.refutation->message.find("outside the module's 8 bytes of .const arrays") != std::string::npos);
  const auto read = [&](const std::string& decl) {
    return error_of([&] { read_ptx(head + decl + "\n.visible .entry k()\n{\n\tret;\n}\n", "k.ptx"); });
  };
  CHECK(read(".const .u32 c[2] = {1, 2, 3};") == "4:27: more initial values than the array holds");
  CHECK(read(".const .f32 c[1] = {1.5};") ==
        "4:21: malformed constant '1.5' (decimal floats are not read; PTX writes 0f/0d)");
  CHECK(read(".const .u32 c[2] = {1 2};") == "4:23: expected ',' or '}' in an initialiser");
  CHECK(read(".const .b8 c[70000];") == "4:1: a .const array larger than the constant bank (65536 bytes)");
  CHECK(read(".const .f32 c[1] = {0f3F800000};").empty());
}

TEST_CASE("local memory carries provenance: a spill proves, a wrong reload is refuted at its line", "[ptx]") {
  const std::string path = kDir + "global.ptx";
  const std::string text = read_file(source_path(path));
  const std::string decl = "\t.reg .b64 \t%rd<68>;\n";
  const std::string mma = "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f100,%f99,%f98,%f97}, {%r32,%r33";
  REQUIRE(text.find(decl) != std::string::npos);
  REQUIRE(text.find(mma) != std::string::npos);
  // %r33 and %r34 (A's registers 1 and 2 of the first mma) spilled to the
  // depot and reloaded, through the local space and generic addresses.
  const auto spilled = [&](const std::string& reload) {
    std::string t = text;
    t.replace(t.find(mma), 0,
              "\tst.local.u32 [%SPL], %r33;\n\tst.u32 [%SP+4], %r34;\n\tmov.u32 %r33, 0;\n\tmov.u32 %r34, 0;\n" +
                  reload);
    t.replace(t.find(decl) + decl.size(), 0,
              "\t.local .align 8 .b8 __local_depot0[16];\n\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n"
              "\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n");
    return check_ptx_launch(read_ptx(t, "spill.ptx"),
                            read_launch(read_file(source_path(kDir + "global.launch.json")), "l.json"), {});
  };
  const PtxReport ok = spilled("\tld.local.u32 %r33, [%SPL];\n\tld.u32 %r34, [%SP+4];\n");
  CHECK(ok.verdict == FrameVerdict::proved);
  const PtxReport crossed = spilled("\tld.local.u32 %r33, [%SPL+4];\n\tld.u32 %r34, [%SP];\n");
  CHECK(crossed.verdict == FrameVerdict::refuted);
  CHECK_THAT(crossed.message, Catch::Contains("A's registers 1 (%r33) and 2 (%r34) are in each other's place"));
  const PtxReport unwritten = spilled("\tld.local.u32 %r33, [%SPL+8];\n\tld.u32 %r34, [%SP+4];\n");
  CHECK(unwritten.verdict == FrameVerdict::refuted);
  CHECK_THAT(unwritten.message, Catch::Contains("mma.sync reads A register %r33 of lane 0, which was never written"));
  const PtxReport outside = spilled("\tld.local.u32 %r33, [%SPL+14];\n\tld.u32 %r34, [%SP+4];\n");
  CHECK(outside.verdict == FrameVerdict::refuted);
  CHECK_THAT(outside.message,
             Catch::Contains("accesses 4 bytes of local memory at offset 14, outside the thread's 16 bytes"));
  REQUIRE(outside.finding.has_value());
  CHECK(outside.finding->loc.line == 119);  // the reload
  // The B register global_b_row loads from the wrong row, spilled and
  // reloaded: the blame stays with the ld.global that loaded it.
  std::string b_row = read_file(source_path(kDir + "global_b_row.ptx"));
  const std::string b_mma = "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f100,%f99,%f98,%f97}, {%r51,";
  const std::string b_decl = "\t.reg .b64 \t%rd<69>;\n";
  REQUIRE(b_row.find(b_mma) != std::string::npos);
  b_row.replace(b_row.find(b_mma), 0, "\tst.local.u32 [%SPL+8], %r55;\n\tld.local.u32 %r55, [%SPL+8];\n");
  b_row.replace(b_row.find(b_decl) + b_decl.size(), 0,
                "\t.local .align 8 .b8 __local_depot0[16];\n\t.reg .b64 %SPL;\n\tmov.u64 %SPL, __local_depot0;\n");
  const PtxReport blamed =
      check_ptx_launch(read_ptx(b_row, "b_row.ptx"),
                       read_launch(read_file(source_path(kDir + "global_b_row.launch.json")), "l.json"), {});
  CHECK(blamed.verdict == FrameVerdict::refuted);
  CHECK_THAT(blamed.message, Catch::Contains("B register %r55 holds B[48][0] as element b1"));
  CHECK_THAT(blamed.message, Catch::Contains("it was loaded by 'ld.global.u16' at line 153"));
}

TEST_CASE("named barriers: counts, bar.arrive, the whole CTA's order, and threads that wait forever", "[ptx]") {
  // 64 threads; warp 0 writes shared word `lane`, warp 1 reads it after
  // SYNC (warp 0 runs PRODUCER after its write, warp 1 CONSUMER before its read).
  const auto run = [](const std::string& producer, const std::string& consumer, int threads = 64) {
    const std::string text = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[128];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	and.b32 %r2, %r1, 31;
	shl.b32 %r3, %r2, 2;
	mov.u32 %r4, buf;
	add.s32 %r5, %r4, %r3;
	mov.u32 %r6, 0;
	setp.ge.u32 %p1, %r1, 32;
	@%p1 bra $L__consumer;
	add.s32 %r7, %r1, 100;
	st.shared.u32 [%r5], %r7;
)" + producer + R"(	bra.uni $L__out;
$L__consumer:
)" + consumer + R"(	ld.shared.u32 %r6, [%r5];
$L__out:
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r6;
	ret;
}
)";
    return run_words(text, threads);
  };
  // The whole CTA at barrier 1 (no count, or a count of every thread): as bar.sync 0.
  for (const std::string sync : {"\tbar.sync 1;\n", "\tbarrier.sync.aligned 1, 64;\n", "\tbarrier.sync 3, %r8;\n"}) {
    INFO(sync);
    const std::string set = sync.find("%r8") != std::string::npos ? "\tmov.u32 %r8, 64;\n" : "";
    const WordRun r = run(set + sync, set + sync);
    if (r.result.refutation) FAIL(r.result.refutation->message);
    REQUIRE_FALSE(r.result.unfollowed.has_value());
    CHECK(r.word(32, 0) == 100);
    CHECK(r.word(63, 0) == 131);
  }
  // bar.arrive: the consumers wait, the producers go on.  The barrier orders
  // the producers' writes before the consumers' reads (the threads' clocks,
  // core/ptx/sync_clock.h): neither refuted nor unchecked, the values arrive.
  const WordRun arrive = run("\tbar.arrive 1, 64;\n", "\tbar.sync 1, 64;\n");
  if (arrive.result.refutation) FAIL(arrive.result.refutation->message);
  REQUIRE_FALSE(arrive.result.unfollowed.has_value());
  CHECK(arrive.word(32, 0) == 100);
  CHECK(arrive.word(63, 0) == 131);
  // No barrier: refuted at the read.
  const WordRun none = run("", "");
  REQUIRE(none.result.refutation.has_value());
  CHECK(none.result.refutation->loc.line == 23);
  CHECK_THAT(none.result.refutation->message, Catch::Contains("with no barrier between the write and this read"));
  // A barrier of part of the CTA, twice (128 threads, 64 each time): every
  // thread passes, but the second phase (warps 2 and 3, consumers) orders
  // nothing of the producers' warp 0: their reads race its writes.
  const WordRun pairs = run("\tbar.sync 1, 64;\n", "\tbar.sync 1, 64;\n", 128);
  REQUIRE(pairs.result.refutation.has_value());
  CHECK(pairs.result.refutation->thread >= 64);
  CHECK_THAT(pairs.result.refutation->message, Catch::Contains("with no barrier between the write and this read"));
  // Threads that wait forever: the 32 left after a count of 96, two
  // barriers, two counts; a count larger than the CTA.
  const WordRun short_count = run("\tbar.sync 1, 96;\n", "\tbar.sync 1, 96;\n\tbra.uni $L__out;\n", 128);
  REQUIRE(short_count.result.refutation.has_value());
  CHECK_THAT(short_count.result.refutation->message,
             Catch::Contains("the thread waits forever at barrier 1, which expects 96 threads; 32 arrived"));
  const WordRun two = run("\tbar.sync 1;\n", "\tbar.sync 2;\n");
  REQUIRE(two.result.refutation.has_value());
  CHECK_THAT(two.result.refutation->message, Catch::Contains("the CTA's threads wait forever"));
  const WordRun counts = run("\tbar.sync 1, 64;\n", "\tbar.sync 1;\n");
  REQUIRE(counts.result.refutation.has_value());
  CHECK_THAT(counts.result.refutation->message,
             Catch::Contains("arrives at barrier 1 expecting the whole CTA, where the threads before expect 64"));
  const WordRun over = run("\tbar.sync 1, 96;\n", "\tbar.sync 1, 96;\n", 32);
  REQUIRE(over.result.refutation.has_value());
  CHECK_THAT(over.result.refutation->message, Catch::Contains("a thread count of 96 at barrier 1"));
}

TEST_CASE("the CTA machine's integer semantics: bfe, bfi, lop3, prmt, mul.hi, shfl.sync", "[ptx]") {
  // Each lane stores eight results into row `lane` of an 32 x 8 u32 tensor.
  const std::string text = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<20>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %laneid;
	mov.u32 %r2, 0xF0F0A5C3;
	bfe.u32 %r3, %r2, 4, 8;
	bfe.s32 %r4, %r2, 28, 8;
	bfi.b32 %r5, %r1, %r2, 8, 4;
	lop3.b32 %r6, %r2, %r1, 0xFF00FF00, 0xE8;
	prmt.b32 %r7, %r2, %r1, 0x3210;
	prmt.b32 %r8, %r2, %r1, 0x0B74;
	mul.hi.u32 %r9, %r2, %r2;
	shfl.sync.bfly.b32 %r10, %r1, 3, 31, -1;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
	st.global.v4.u32 [%rd3+16], {%r7, %r8, %r9, %r10};
	ret;
}
)";
  const PtxModule m = read_ptx(text, "k.ptx");
  GlobalMemory memory;
  TensorArg out;
  out.name = "out";
  out.dtype = DType::s32;
  out.shape = {32, 8};
  out.strides = {8, 1};
  const std::uint64_t base = memory.add(out);
  Provenance prov(m.kernels[0].code.size());
  const std::vector<std::uint64_t> params{base};
  const ptx::RunResult r = run_grid(m.kernels[0], GridShape{}, params, memory, prov, {});
  REQUIRE_FALSE(r.refutation.has_value());
  REQUIRE_FALSE(r.unfollowed.has_value());
  const auto& bytes = memory.regions()[0].bytes;
  const auto word = [&](int lane, int i) {
    std::uint32_t w = 0;
    for (int b = 0; b < 4; ++b) w |= std::uint32_t{bytes[static_cast<std::size_t>((lane * 8 + i) * 4 + b)]} << (8 * b);
    return w;
  };
  const std::uint32_t a = 0xF0F0A5C3;
  for (int lane : {0, 5, 31}) {
    INFO(lane);
    const auto l = static_cast<std::uint32_t>(lane);
    CHECK(word(lane, 0) == ((a >> 4) & 0xFF));
    CHECK(word(lane, 1) == 0xFFFFFFFFu);  // bits 28..35 of a: 0xF, sign-extended from bit 31
    CHECK(word(lane, 2) == ((a & ~0xF00u) | ((l & 0xF) << 8)));
    CHECK(word(lane, 3) == ((a & l) | (a & 0xFF00FF00u) | (l & 0xFF00FF00u)));  // 0xE8: majority
    CHECK(word(lane, 4) == a);
    const std::uint64_t pair = (std::uint64_t{l} << 32) | a;  // {b, a}: bytes 0..3 of a, 4..7 of b
    const auto byte = [&](int i) { return static_cast<std::uint32_t>((pair >> (8 * i)) & 0xFF); };
    const std::uint32_t sign3 = (byte(3) & 0x80) != 0 ? 0xFFu : 0u;  // selector 0xB: byte 3's sign
    CHECK(word(lane, 5) == (byte(4) | (byte(7) << 8) | (sign3 << 16) | (byte(0) << 24)));
    CHECK(word(lane, 6) == static_cast<std::uint32_t>((std::uint64_t{a} * a) >> 32));
    CHECK(word(lane, 7) == (l ^ 3u));
  }
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE(
    "sim of a PTX launch: D within the f64 reference's bound for the kernels that prove, not for a skipped K tile",
    "[ptx][sim]") {
  const auto outside = [](const std::string& path) { return sim_outside_bound(path, 8); };
  CHECK(outside("tests/data/ptx/nvcc/shared.ptx") == 0);
  CHECK(outside("tests/data/ptx/triton/f16_32x32x32_w4.ptx") == 0);
  CHECK(outside("tests/data/ptx/triton/bf16_32x32x32_w4.ptx") == 0);
  CHECK(outside("tests/data/ptx/triton/f16_32x32x32_w4_skip_k.ptx") > 0);
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("TVM TIRx's own CUDA, compiled to PTX, gets the verdict mmacheck gives its program", "[ptx][tirx]") {
  // tests/data/ptx/tirx/sources.tsv: each PTX file and the released-TIRx
  // program TVM compiled it from (scripts/ptx-oracle/tirx_kernels.py).
  std::istringstream sources(read_file(source_path("tests/data/ptx/tirx/sources.tsv")));
  int rows = 0, proved = 0, refuted = 0;
  for (std::string line; std::getline(sources, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t tab = line.find('\t');
    const std::string name = line.substr(0, tab), program = line.substr(tab + 1);
    INFO(name);
    const PtxReport ptx = check_file(name, "tests/data/ptx/tirx/");
    const test::RunResult cli = run_mmacheck({"prove", source_path(program), "--json"});
    if (name == "ldmatrix_bad_x4_for_x2") {
      // TVM writes past B's registers; the program reader refuses it at its
      // line (exit 2), the PTX shows what the hardware does: an ldmatrix
      // row address past the shared tensor.
      CHECK(cli.status == 2);
      CHECK(ptx.verdict == FrameVerdict::refuted);
      CHECK_THAT(ptx.message, Catch::Contains("outside the CTA's 768 bytes"));
    } else {
      CHECK_THAT(cli.out, Catch::Contains("\"verdict\":\"" + std::string(verdict_name(ptx.verdict)) + "\""));
    }
    ++rows;
    proved += ptx.verdict == FrameVerdict::proved ? 1 : 0;
    refuted += ptx.verdict == FrameVerdict::refuted ? 1 : 0;
  }
  CHECK(rows == 72);
  CHECK(proved == 36);
  CHECK(refuted == 36);
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("a global read of what another CTA wrote is refuted: nothing orders CTAs", "[ptx]") {
  // Thread 0 of CTA 0 writes D[0][0]; thread 0 of CTA 1 reads it.
  const std::string body =
      "\tmov.u32 %r3, %tid.x;\n\tsetp.ne.u32 %p2, %r3, 0;\n\t@%p2 ret;\n"
      "\tld.param.u64 %rd1, [d];\n\tmov.u32 %r1, %ctaid.x;\n\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra $L__read;\n"
      "\tst.global.u32 [%rd1], %r1;\n\tret;\n$L__read:\n\tld.global.u32 %r2, [%rd1];\n";
  std::string launch = kLaunch;
  launch.replace(launch.find("\"grid\": [1]"), 11, "\"grid\": [2]");
  const PtxReport r = check_ptx_launch(read_ptx(kernel(body), "k.ptx"), read_launch(launch, "l.json"), {});
  CHECK(r.verdict == FrameVerdict::refuted);
  CHECK_THAT(r.message,
             Catch::Contains("reads D[0][0], which thread 0 of CTA 0 (linear) wrote at line 17: nothing orders"));
  REQUIRE(r.finding.has_value());
  CHECK(r.finding->loc.line == 20);
  CHECK(r.finding->cta == std::array<int, 3>{1, 0, 0});
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("a PTX kernel without its launch file, or from standard input, is bad input at the kernel", "[ptx][cli]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mmacheck-ptx-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string ptx = (dir / "k.ptx").string();
  std::filesystem::copy_file(source_path(kDir + "global.ptx"), ptx, std::filesystem::copy_options::overwrite_existing);
  for (const std::string job : {"prove", "sim"}) {
    const test::RunResult r = run_mmacheck({job, ptx});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains(ptx + ":1:1: error: no launch file '" + (dir / "k.launch.json").string() +
                                      "' beside the kernel"));
  }
  std::filesystem::copy_file(source_path(kDir + "global.launch.json"), dir / "k.launch.json",
                             std::filesystem::copy_options::overwrite_existing);
  CHECK(run_mmacheck({"prove", ptx}).status == 0);
  std::filesystem::remove_all(dir);
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("the launch options choose the kernel and its launch file, grid and block, over the file's", "[ptx][cli]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mmacheck-ptx-options-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Two kernels in one module: the second a copy of the first, renamed.
  const std::string text = read_file(source_path(kDir + "global.ptx"));
  const std::size_t entry = text.find(".visible .entry gemm_m16n8k16(");
  REQUIRE(entry != std::string::npos);
  std::string second = text.substr(entry);
  second.replace(second.find("gemm_m16n8k16"), 13, "gemm_again");
  const std::string two = (dir / "two.ptx").string();
  std::ofstream(two) << text << "\n" << second;
  const std::string launch = source_path(kDir + "global.launch.json");
  Json no_kernel = Json::parse(read_file(launch));
  no_kernel.erase("kernel");
  std::ofstream(dir / "two.launch.json") << no_kernel.dump(2);

  test::RunResult r = run_mmacheck({"prove", two});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("the module has 2 kernels: name one with \"kernel\" or --kernel"));
  r = run_mmacheck({"prove", two, "--kernel", "gemm_again"});
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("proved: gemm_again"));
  r = run_mmacheck({"prove", two, "--kernel", "gemm_nope"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err,
             Catch::Contains("--kernel: the module has no kernel \"gemm_nope\" (it has gemm_m16n8k16, gemm_again)"));

  // --launch names a file elsewhere; --grid and --block over its values.
  const std::string lone = (dir / "lone.ptx").string();
  std::filesystem::copy_file(source_path(kDir + "global.ptx"), lone, std::filesystem::copy_options::overwrite_existing);
  CHECK(run_mmacheck({"prove", lone}).status == 2);
  r = run_mmacheck({"prove", lone, "--launch", launch});
  CHECK(r.status == 0);
  r = run_mmacheck({"prove", lone, "--launch", launch, "--grid", "1", "--json"});
  CHECK(r.status == 1);  // fewer CTAs than tiles: an element never written
  CHECK_THAT(r.out, Catch::Contains("is never written"));
  CHECK(Json::parse(r.out)["ptx"]["grid"] == Json::array({1, 1, 1}));
  r = run_mmacheck({"sim", lone, "--launch", launch, "--cases", "2", "--block", "16"});
  CHECK(r.status != 0);  // half a warp: the mma's lanes are not all there
  for (const std::string bad : {"0", "1,2,3,4", "2x", "-1", "a"}) {
    r = run_mmacheck({"prove", lone, "--launch", launch, "--grid", bad});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains("--grid: expected one to three positive numbers"));
  }
  r = run_mmacheck({"prove", lone, "--launch", launch, "--block", "64,32"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("--block: a block of more than 1024 threads"));
  // --max-steps bounds the run: too few is an error naming the bound.
  r = run_mmacheck({"prove", lone, "--launch", launch, "--max-steps", "100"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("the run executed more than 100 thread-instructions (--max-steps)"));
  CHECK(run_mmacheck({"sim", lone, "--launch", launch, "--max-steps", "100", "--cases", "1"}).status == 2);
  CHECK(run_mmacheck({"prove", lone, "--launch", launch, "--max-steps", "100000"}).status == 0);
  // On anything but a kernel, the options are an error, not ignored.
  r = run_mmacheck({"prove", source_path("examples/seed.txt"), "--kernel", "gemm"});
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("launch a PTX or CUDA kernel; this file is a gemm program"));
  std::filesystem::remove_all(dir);
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("a .cu kernel is compiled to PTX by NVRTC, and a finding names its .cu line", "[ptx][cli]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("mmacheck-ptx-cu-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string source = read_file(source_path(kDir + "gemm_global.cu"));
  const std::string launch = read_file(source_path(kDir + "global.launch.json"));
  const auto place = [&](const std::string& name, const std::string& prefix) {
    std::ofstream(dir / (name + ".cu")) << prefix << source;
    std::ofstream(dir / (name + ".launch.json")) << launch;
    return (dir / (name + ".cu")).string();
  };
  const std::string ok = place("ok", "");
  test::RunResult r = run_mmacheck({"prove", ok});
  if (!test::kWithCuda) {
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains(ok + ":1:1: error: this mmacheck was built without the CUDA layer"));
  } else if (r.status == 2 && r.err.find("which this machine lacks") != std::string::npos) {
    WARN("no NVRTC on this machine: " << r.err);
  } else {
    CHECK(r.status == 0);
    CHECK_THAT(r.out, Catch::StartsWith("proved: gemm_m16n8k16"));
    // The skipped K step: the store of D (its line in the .cu: the first
    // store after the loop, line 53 of the kernel, 54 with the #define).
    const std::string skip = place("skip", "#define PLANT_SKIP_K\n");
    r = run_mmacheck({"prove", skip, "--json"});
    CHECK(r.status == 1);
    const Json j = Json::parse(r.out);
    CHECK(j["verdict"] == "refuted");
    CHECK(j["ptx"]["source"]["file"] == skip);
    CHECK(j["ptx"]["source"]["line"] == 54);
    r = run_mmacheck({"prove", skip});
    CHECK_THAT(r.out, Catch::Contains(skip + ":54:3 (" + skip + ".ptx:"));
    CHECK_THAT(r.out, Catch::Contains("lacks the products of k = 16..31"));
    // A compile error: at the .cu line NVRTC names, with its log.
    std::ofstream(dir / "bad.cu") << "extern \"C\" __global__ void f() {\n  undefined_name();\n}\n";
    std::ofstream(dir / "bad.launch.json") << launch;
    r = run_mmacheck({"prove", (dir / "bad.cu").string()});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains((dir / "bad.cu").string() + ":2:1: error: NVRTC could not compile"));
    CHECK_THAT(r.err, Catch::Contains("undefined_name"));
    // An unclosed brace: NVRTC says "At end of source", the error is at the last line.
    std::ofstream(dir / "open.cu") << "extern \"C\" __global__ void f() {\n  int x = 0;\n";
    std::ofstream(dir / "open.launch.json") << launch;
    r = run_mmacheck({"prove", (dir / "open.cu").string()});
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains((dir / "open.cu").string() + ":2:1: error: NVRTC could not compile"));
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a finding in a compiler's PTX also names its source line (.loc)", "[ptx]") {
  const std::string path = "tests/data/ptx/triton/f16_32x32x32_w4_skip_k.ptx";
  const PtxModule m = read_ptx(read_file(source_path(path)), path);
  const PtxReport r = check_ptx_launch(m, read_launch_for(source_path(path)), {});
  REQUIRE(r.finding);
  CHECK(r.finding->loc.line == 501);
  CHECK(r.finding->source.file.ends_with("triton_kernels.py"));
  CHECK(r.finding->source.line == 61);
  CHECK(r.finding->source.col == 9);
  // `.loc` of a file no `.file` names, or line 0, is no source.
  const PtxModule bare = read_ptx(
      ".version 8.0\n.target sm_80\n.address_size 64\n.file 1 \"a.cu\"\n"
      ".visible .entry k()\n{\n.loc 2 5 1\nret;\n.loc 1 0 0\nret;\n.loc 1 7 3\nret;\n}\n",
      "bare.ptx");
  REQUIRE(bare.kernels[0].code.size() == 3);
  CHECK(bare.kernels[0].code[0].source.file.empty());
  CHECK(bare.kernels[0].code[1].source.file.empty());
  CHECK(bare.kernels[0].code[2].source.str() == "a.cu:7:3");
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("the grid's CTAs run at once give the report they give one after another", "[ptx]") {
  // Every kernel of tests/data/ptx: the verdict, the finding (line, CTA,
  // thread, message) and the step count do not depend on the threads.
  int files = 0, findings = 0;
  for (const std::string folder : {"nvcc", "triton", "triton_sm90", "wgmma", "tilelang", "tirx", "cute", "tcgen05_nvcc",
                                   "tilelang_sm100", "tirx_sm100"})
    for (const auto& entry : std::filesystem::directory_iterator(source_path("tests/data/ptx/" + folder))) {
      if (entry.path().extension() != ".ptx") continue;
      const std::string path = entry.path().string();
      const PtxModule m = read_ptx(read_file(path), path);
      const PtxLaunch launch = read_launch_for(path);
      RunOptions one, many;
      many.threads = 3;
      const PtxReport a = check_ptx_launch(m, launch, one), b = check_ptx_launch(m, launch, many);
      INFO(path);
      CHECK(a.verdict == b.verdict);
      CHECK(a.message == b.message);
      CHECK(a.steps == b.steps);
      REQUIRE(a.finding.has_value() == b.finding.has_value());
      if (a.finding) {
        ++findings;
        CHECK(a.finding->loc.line == b.finding->loc.line);
        CHECK(a.finding->cta == b.finding->cta);
        CHECK(a.finding->thread == b.finding->thread);
      }
      ++files;
    }
  CHECK(files > 100);
  CHECK(findings > 50);
}

TEST_CASE("two CTAs that touch one global byte, either writing, are refuted at the later CTA", "[ptx]") {
  // CTA 0 reads D[0][0]; CTA 1 writes it: the write, in CTA 1, whatever ran first.
  const std::string body =
      "\tmov.u32 %r3, %tid.x;\n\tsetp.ne.u32 %p2, %r3, 0;\n\t@%p2 ret;\n"
      "\tld.param.u64 %rd1, [d];\n\tmov.u32 %r1, %ctaid.x;\n\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 bra $L__write;\n"
      "\tld.global.u32 %r2, [%rd1];\n\tret;\n$L__write:\n\tst.global.u32 [%rd1], %r1;\n";
  std::string launch = kLaunch;
  launch.replace(launch.find("\"grid\": [1]"), 11, "\"grid\": [2]");
  for (const int threads : {1, 2}) {
    RunOptions o;
    o.threads = threads;
    const PtxReport r = check_ptx_launch(read_ptx(kernel(body), "k.ptx"), read_launch(launch, "l.json"), o);
    CHECK(r.verdict == FrameVerdict::refuted);
    CHECK_THAT(r.message, Catch::Contains("writes D[0][0], which thread 0 of CTA 0 (linear) reads at line 17: "
                                          "nothing orders one CTA's reads before another's writes"));
    REQUIRE(r.finding.has_value());
    CHECK(r.finding->loc.line == 20);
    CHECK(r.finding->cta == std::array<int, 3>{1, 0, 0});
  }
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("an accumulator's chain folds into one sum of runs, and compact keeps what the roots reach", "[ptx]") {
  Provenance grid(4);
  const std::uint64_t a = grid.add_input(0, 16 * 64, 2);  // A: 16 x 64, row-major
  const std::uint64_t b = grid.add_input(1, 64 * 8, 2);   // B: 64 x 8
  std::atomic<std::uint64_t> budget{0};
  Provenance cta = grid.arena(budget);
  // D[0][0] over four k steps of 16: each step's products continue the run.
  std::uint64_t acc = 0;
  std::vector<std::uint64_t> chain;
  for (int step = 0; step < 4; ++step) {
    std::vector<Product> ps;
    for (int k = 16 * step; k < 16 * step + 16; ++k)
      ps.push_back({a + static_cast<std::uint64_t>(k), b + static_cast<std::uint64_t>(k * 8)});
    acc = cta.add_sum(acc, ps, 4, Origin{step, 0, 0}, true);
    chain.push_back(acc);
  }
  const Provenance::Entry* e = cta.entry(acc);
  REQUIRE(e != nullptr);
  CHECK(e->parent == 0);  // folded: no chain left to walk
  REQUIRE(e->count == 1);
  const ProductRun run = cta.runs(*e)[0];
  CHECK(run.count == 64);
  CHECK(run.a_step == 1);
  CHECK(run.b_step == 8);
  CHECK(run.origin.inst == 0);  // the mma that began it
  // Without fold the chain stays; a broken progression starts a new run.
  const std::uint64_t kept =
      cta.add_sum(acc, std::vector<Product>{{a + 70, b}, {a + 3, b + 8}, {a + 4, b + 24}}, 4, {}, false);
  CHECK(cta.entry(kept)->parent == acc);
  CHECK(cta.entry(kept)->count == 2);
  // compact: of the five sums only `kept` and its parent are reached from the root.
  std::vector<Tag> roots{make_tag(kept, 0), make_tag(kept, 1), 0, make_tag(a + 5, 0)};
  cta.compact(roots);
  CHECK(tag_id(roots[3]) == a + 5);  // inputs keep their ids
  CHECK(tag_byte(roots[1]) == 1);
  const Provenance::Entry* k2 = cta.entry(tag_id(roots[0]));
  REQUIRE(k2 != nullptr);
  REQUIRE(cta.entry(k2->parent) != nullptr);
  CHECK(cta.runs(*cta.entry(k2->parent))[0].count == 64);
  CHECK(cta.next_id() == tag_id(roots[0]) + 1);  // two sums left, numbered in order
  // Absorbed into the grid: ids move by what the grid held before.
  const std::uint64_t delta = grid.absorb(std::move(cta));
  CHECK(grid.entry(grid.moved(tag_id(roots[0]), delta))->count == 2);
}

}  // namespace test_ptx

namespace test_ptx {

TEST_CASE("a grid of more CTAs than the run holds is an error before anything runs", "[ptx]") {
  const PtxModule m = read_ptx(read_file(source_path(kDir + "global.ptx")), "global.ptx");
  LaunchChoice choice;
  choice.grid = std::array<int, 3>{1 << 20, 2, 1};
  const PtxLaunch launch = read_launch_for(source_path(kDir + "global.ptx"), choice);
  CHECK_THROWS_WITH(check_ptx_launch(m, launch, {}),
                    Catch::Contains("a grid of 2097152 CTAs: more than the run holds"));
}

}  // namespace test_ptx
