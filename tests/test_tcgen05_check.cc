// `mmacheck tcgen05` and check_tcgen05 (core/tcgen05/tcgen05_check.h): the
// correct examples prove, each planted example is refuted naming its field
// or element, every mistake class planted into every proved operand is
// refuted with a fix that proves, and bad input is a located error (exit 2).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/tcgen05/tcgen05_check.h"
#include "core/tcgen05/tcgen05_reader.h"
#include "tests/support.h"

namespace test_tcgen05_check {

using namespace mmacheck;
using mmacheck::test::read_file;
using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;

namespace {

namespace fs = std::filesystem;

std::string example(const std::string& name) { return source_path("examples/tcgen05/" + name); }

Tcgen05Case read_example(const std::string& name) {
  const std::string path = example(name);
  return read_tcgen05_file(read_file(path), path);
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("mmacheck_tcgen05_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p.string();
}

const char* const kProved[] = {"f16_k_sw128.txt", "tf32_mn_sw128_m64.txt", "f8_pair_m256.txt", "f16_pair_m128.txt"};

}  // namespace

TEST_CASE("tcgen05: the correct examples prove every part", "[tcgen05][check][examples]") {
  for (const char* name : kProved) {
    INFO(name);
    const Tcgen05Case c = read_example(name);
    const Tcgen05Report r = check_tcgen05(c);
    CHECK(r.result == FrameVerdict::proved);
    CHECK(r.idesc == r.idesc_expected);
    CHECK(r.operands.size() >= 2);
    for (const Tcgen05OperandReport& o : r.operands) CHECK(o.result == FrameVerdict::proved);
    REQUIRE(r.tmem);
    CHECK(r.tmem->result == FrameVerdict::proved);
    const auto run = run_mmacheck({"tcgen05", example(name)});
    INFO(run.out << run.err);
    CHECK(run.status == 0);
  }
  // The pair's tiles are the CTA's halves: A 128 x 32 of M = 256, B 128 x 32 of N = 256.
  const Tcgen05Case pair = read_example("f8_pair_m256.txt");
  CHECK(pair.operands[0].placement.operand.rows == 128);
  CHECK(pair.operands[1].placement.operand.rows == 128);
  CHECK(pair.operands[0].placement.operand.k == 32);
}

TEST_CASE("tcgen05: the planted examples are refuted naming the field or element", "[tcgen05][check][examples]") {
  struct Planted {
    const char* file;
    const char* text;  // in the report
  };
  const Planted planted[] = {
      {"bad_swizzle.txt",
       "likely wrong: swizzle: descriptor start=0x0 lbo=16 sbo=1024 base_offset=0 "
       "lbo_mode=relative swizzle=128B (0x4000404000010000)"},
      {"bad_lbo_sbo.txt", "likely wrong: lbo/sbo swapped: "},
      {"bad_major.txt", "likely wrong: major: descriptor"},
      {"bad_major.txt", "with A MN-major (transpose A = 1 in the instruction descriptor)"},
      {"bad_idesc_m.txt",
       "instruction descriptor M >> 4 (bits 24-28) is 4 (M = 64) but the instruction needs 8 "
       "(M = 128)"},
      {"bad_idesc_n.txt", "instruction descriptor atype (bits 7-9) is 0 (f16) but the instruction needs 1 (bf16)"},
      {"bad_idesc_n.txt",
       "instruction descriptor N >> 3 (bits 17-22) is 16 (N = 128) but the instruction needs 32 "
       "(N = 256)"},
      {"bad_tmem_lane.txt",
       "D[m=16][n=0] is written to CTA 0 lane 32 column 0 but the layout has it at CTA 0 lane "
       "16 column 0 (the lane differs;"},
      {"bad_tmem_columns.txt",
       "D[m=0][n=1] is written to CTA 0 lane 0 column 1 but the layout has it at CTA 0 lane "
       "64 column 0 (the lane and the column differ;"},
  };
  for (const Planted& p : planted) {
    INFO(p.file);
    const auto run = run_mmacheck({"tcgen05", example(p.file)});
    INFO(run.out << run.err);
    CHECK(run.status == 1);
    CHECK(run.out.find(p.text) != std::string::npos);
    CHECK(run.out.find("refuted: ") != std::string::npos);
  }
  // The idesc mistake leaves the operand proved: the parts are judged apart.
  const Tcgen05Report m = check_tcgen05(read_example("bad_idesc_m.txt"));
  CHECK(m.idesc_result == FrameVerdict::refuted);
  REQUIRE(m.operands.size() == 1);
  CHECK(m.operands[0].result == FrameVerdict::proved);
  // The folder: the worst status.
  CHECK(run_mmacheck({"tcgen05", source_path("examples/tcgen05")}).status == 1);
}

TEST_CASE("tcgen05: every mistake class is refuted on every proved operand", "[tcgen05][check]") {
  int planted = 0;
  for (const char* name : kProved) {
    const Tcgen05Case c = read_example(name);
    for (const Tcgen05Operand& good : c.operands) {
      INFO(name << " " << good.placement.name);
      REQUIRE(check_tcgen05_operand(c.instr, good).result == FrameVerdict::proved);
      std::vector<std::pair<std::string, Tcgen05Operand>> wrong;
      for (const Tcgen05SwizzleRow& row : tcgen05_swizzles())
        if (row.canonical && row.mode != good.descriptor.swizzle) {
          Tcgen05Operand w = good;
          w.descriptor.swizzle = row.mode;
          wrong.emplace_back("swizzle " + std::string(row.name), w);
        }
      const FieldUse use = field_use(good.placement.operand, *tcgen05_swizzle(good.descriptor.swizzle).canonical);
      if (use.lbo && use.sbo && good.descriptor.lbo != good.descriptor.sbo) {
        Tcgen05Operand w = good;
        std::swap(w.descriptor.lbo, w.descriptor.sbo);
        wrong.emplace_back("lbo/sbo swapped", w);
      }
      Tcgen05Operand major = good;
      major.placement.operand.major = good.placement.operand.major == Major::k ? Major::mn : Major::k;
      wrong.emplace_back("major", major);
      Tcgen05Operand start = good;
      start.descriptor.start += 16;
      wrong.emplace_back("start", start);
      for (const auto& [what, w] : wrong) {
        INFO(what);
        const Tcgen05OperandReport r = check_tcgen05_operand(c.instr, w);
        CHECK(r.result == FrameVerdict::refuted);
        REQUIRE(r.counterexample);
        CHECK(r.message.find(std::string(1, r.operand) + "[") == 0);
        REQUIRE(!r.fixes.empty());
        Tcgen05Operand fixed = w;
        fixed.descriptor = r.fixes[0].descriptor;
        fixed.placement.operand.major = r.fixes[0].major;
        CHECK(check_tcgen05_operand(c.instr, fixed).result == FrameVerdict::proved);
        // The fix is the original descriptor's encoding (bits 46-48 = 0b001, tcgen05's swizzle code) when it
        // changes one field.
        if (r.fixes[0].fields.size() == 1 && what != "major")
          CHECK(r.fixes[0].descriptor.encode() == good.descriptor.encode());
        ++planted;
      }
    }
  }
  CHECK(planted >= 30);
}

TEST_CASE("tcgen05: what is not modelled is unchecked", "[tcgen05][check]") {
  const std::string base32 =
      write_temp("base32.txt",
                 "instr kind=tf32 m=128 n=64 d=f32 a=tf32 b=tf32 a_major=MN b_major=MN\nidesc 0x08118910\n"
                 "operand A\ndescriptor start=0x0 lbo=1024 sbo=512 swizzle=128B_base32B\n"
                 "smem base=0x0 layout=S[(4, 32, 8) : (256, 1, 32)]\n");
  const auto r = run_mmacheck({"tcgen05", base32});
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(r.out.find("unchecked  A (line 3)") != std::string::npos);
  CHECK(r.out.find("128B with 32B atomic") != std::string::npos);
  CHECK(run_mmacheck({"tcgen05", base32, "--allow-unchecked"}).status == 0);
  const std::string absolute = write_temp("absolute.txt",
                                          "instr kind=f16 m=128 n=64 d=f32 a=f16 b=f16\nidesc 0x08100010\noperand B\n"
                                          "descriptor start=0x0 lbo=128 sbo=256 swizzle=none lbo_mode=absolute\n"
                                          "smem base=0x0 layout=S[(8, 8, 2, 8) : (128, 8, 64, 1)]\n");
  CHECK(run_mmacheck({"tcgen05", absolute}).out.find("absolute leading-dimension mode") != std::string::npos);
  const std::string base_offset =
      write_temp("base_offset.txt",
                 "instr kind=f16 m=128 n=64 d=f32 a=f16 b=f16\nidesc 0x08100010\noperand B\n"
                 "descriptor start=0x0 lbo=128 sbo=256 swizzle=none base_offset=1\n"
                 "smem base=0x0 layout=S[(8, 8, 2, 8) : (128, 8, 64, 1)]\n");
  CHECK(run_mmacheck({"tcgen05", base_offset}).out.find("base_offset 1") != std::string::npos);
  for (const std::string& p : {base32, absolute, base_offset}) fs::remove(p);
}

TEST_CASE("tcgen05 --json reports each part", "[tcgen05][cli]") {
  const auto r = run_mmacheck({"tcgen05", example("bad_idesc_n.txt"), "--json"});
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["verdict"] == "refuted");
  CHECK(j["tcgen05"]["idesc"]["value"] == "0x8200410");
  CHECK(j["tcgen05"]["idesc"]["expected"] == "0x8400490");
  REQUIRE(j["tcgen05"]["idesc"]["differences"].size() == 2);
  CHECK(j["tcgen05"]["idesc"]["differences"][1]["field"] == "N >> 3");
  CHECK(j["tcgen05"]["idesc"]["differences"][1]["low_bit"] == 17);
  const auto lane = nlohmann::json::parse(run_mmacheck({"tcgen05", example("bad_tmem_lane.txt"), "--json"}).out);
  CHECK(lane["tcgen05"]["tmem"]["counterexample"]["m"] == 16);
  CHECK(lane["tcgen05"]["tmem"]["counterexample"]["written"]["lane"] == 32);
  CHECK(lane["tcgen05"]["tmem"]["counterexample"]["placed"]["lane"] == 16);
  const auto swz = nlohmann::json::parse(run_mmacheck({"tcgen05", example("bad_swizzle.txt"), "--json"}).out);
  CHECK(swz["tcgen05"]["operands"][0]["fixes"][0]["fields"][0] == "swizzle");
  CHECK(swz["tcgen05"]["operands"][0]["fixes"][0]["descriptor"] == "0x4000404000010000");
}

TEST_CASE("tcgen05: bad input is a located error", "[tcgen05][cli]") {
  struct Bad {
    const char* text;
    const char* where;  // ":LINE:COL: error: " and the message's start
  };
  const std::string good_head = "instr kind=f16 m=128 n=64 d=f32 a=f16 b=f16\nidesc 0x08100010\n";
  const Bad bad[] = {
      // A Hopper wgmma descriptor: bits 46-48 clear.
      {"operand B\ndescriptor 0x4000004000010240\nsmem base=0x0 layout=S[(64, 16) : (16, 1)]\n",
       ":4:12: error: tcgen05 descriptor 0x4000004000010240: bits 46-48 are 0"},
      {"operand B\ndescriptor 0x6000404000010240\nsmem base=0x0 layout=S[(64, 16) : (16, 1)]\n",
       ":4:12: error: tcgen05 descriptor 0x6000404000010240: swizzle code 3"},
      {"operand B\ndescriptor start=0x0 lbo=16 sbo=8 swizzle=128B\nsmem base=0x0 layout=S[(64, 16) : (16, 1)]\n",
       ":4:1: error: tcgen05 descriptor sbo must be a multiple of 16"},
      {"operand B\ndescriptor start=0x0 lbo=16 sbo=16 swizzle=96B\nsmem base=0x0 layout=S[(64, 16) : (16, 1)]\n",
       ":4:44: error: swizzle= expects none"},
      {"operand C\n", ":3:9: error: expected the operand, A or B"},
      {"operand A\nsmem base=0x0 layout=S[8]\n", ":4:1: error: expected a 'descriptor' line"},
      {"tmem D layout=S[(128, 64) : (1@TLane, 1@laneid)]\n", ":3:15: error: a TMEM layout of D is on TLane"},
      {"tmem D layout=S[(2, 64, 64) : (1@cbx, 1@TLane, 1@TCol)]\n", ":3:15: error: cta_group::1 writes D"},
      {"idesc 0x1\n", ":3:1: error: a second 'idesc' line"},
      {"bogus x=1\n", ":3:1: error: unknown statement 'bogus'"},
  };
  for (const Bad& b : bad) {
    INFO(b.text);
    const std::string path = write_temp("bad.txt", good_head + b.text);
    const auto r = run_mmacheck({"tcgen05", path});
    CHECK(r.status == 2);
    CHECK(r.err.find(path + b.where) != std::string::npos);
    fs::remove(path);
  }
  const Bad heads[] = {
      {"instr kind=f12 m=128 n=64 d=f32 a=f16 b=f16\nidesc 0\n", ":1:12: error: unknown kind 'f12'"},
      {"instr kind=f16 m=256 n=64 d=f32 a=f16 b=f16\nidesc 0\n", ":1:1: error: cta_group::1 has M = 64 or 128"},
      {"instr kind=f16 m=128 n=64 d=f32 a=tf32 b=f16\nidesc 0\n", ":1:35: error: kind::f16 has no operand format"},
      {"instr kind=f16 m=128 n=64 d=f32 a=f16 b=f16\n", ":1:1: error: no 'idesc' line"},
      {"idesc 0\n", ":1:1: error: a tcgen05 file starts with its 'instr' line"},
      {"instr kind=f16 m=128 n=64 d=f32 a=f16 b=f16\nidesc 0x100000000\n",
       ":2:7: error: the instruction descriptor is 32 bits"},
  };
  for (const Bad& b : heads) {
    INFO(b.text);
    const std::string path = write_temp("head.txt", b.text);
    const auto r = run_mmacheck({"tcgen05", path});
    CHECK(r.status == 2);
    CHECK(r.err.find(path + b.where) != std::string::npos);
    fs::remove(path);
  }
}

}  // namespace test_tcgen05_check
