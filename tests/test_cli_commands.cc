// The command line as users meet it: help generated from the options
// (COMMAND --help, help COMMAND), --version, the README's command table,
// many files per run (folders, -j, JSON Lines, worst exit status), --json for
// every reporting command and for bad input, and unsigned options that refuse
// negative values.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <tuple>
#include <unistd.h>

#include "core/base/json.h"
#include "core/base/worker_pool.h"
#include "tests/support.h"

namespace test_cli_commands {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

namespace fs = std::filesystem;

// The command names, from `mmacheck help`'s list.
std::vector<std::string> command_names() {
  const RunResult r = run_mmacheck({"help"});
  REQUIRE(r.status == 0);
  std::vector<std::string> names;
  std::istringstream lines(r.out);
  const std::regex row(R"(^  mmacheck ([a-z]+)\b.*)");
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, m, row)) names.push_back(m[1]);
  return names;
}

// The first two lines of COMMAND --help: the usage line and the summary.
std::pair<std::string, std::string> usage_and_summary(const std::string& help) {
  std::istringstream lines(help);
  std::string usage, summary;
  std::getline(lines, usage);
  std::getline(lines, summary);
  REQUIRE(usage.rfind("usage: ", 0) == 0);
  REQUIRE(summary.rfind("  ", 0) == 0);
  return {usage.substr(7), summary.substr(2)};
}

// A fresh folder for this process and test.
fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("mmacheck-cli-" + std::to_string(getpid())) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void copy_example(const std::string& example, const fs::path& to) {
  fs::create_directories(to.parent_path());
  fs::copy_file(source_path("examples/" + example), to, fs::copy_options::overwrite_existing);
}

std::vector<Json> json_lines(const std::string& out) {
  std::vector<Json> objects;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) objects.push_back(Json::parse(line));
  return objects;
}

}  // namespace

TEST_CASE("every command's --help gives its usage, options with defaults and an example", "[cli]") {
  const std::vector<std::string> names = command_names();
  REQUIRE(names.size() >= 10);
  for (const std::string& name : names) {
    INFO(name);
    if (!runs_here(name)) continue;  // test_cli_cuda_commands.cc
    const RunResult r = run_mmacheck({name, "--help"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    const auto [usage, summary] = usage_and_summary(r.out);
    CHECK(usage.rfind("mmacheck " + name, 0) == 0);
    CHECK(!summary.empty());
    CHECK(r.out.find("\nexample:\n  mmacheck " + name) != std::string::npos);
    // help COMMAND is the same text.
    CHECK(run_mmacheck({"help", name}).out == r.out);
  }
  const RunResult prove = run_mmacheck({"prove", "--help"});
  CHECK(prove.out.find("--timeout-ms arg (=10000)") != std::string::npos);
  CHECK(prove.out.find("--method arg (=z3)") != std::string::npos);
  CHECK(prove.out.find("-j [ --jobs ] arg (=1)") != std::string::npos);
  // The positional operand is in the usage line, not listed as an option.
  CHECK(prove.out.find("--file") == std::string::npos);
  CHECK(run_mmacheck({"sim", "-h"}).out.find("--cases arg (=64)") != std::string::npos);
}

TEST_CASE("each command's help example is a valid invocation", "[cli]") {
  for (const std::string name : {"prove", "layout", "emit", "sim", "mma", "help"}) {
    INFO(name);
    const RunResult help = run_mmacheck({name, "--help"});
    const std::size_t at = help.out.find("\nexample:\n  ");
    REQUIRE(at != std::string::npos);
    std::string example = help.out.substr(at + 12);
    example = example.substr(0, example.find('\n'));
    const std::string binary = MMACHECK_BINARY;
    const RunResult r = run_program({"sh", "-c",
                                     "cd '" + source_path("") + "' && '" + binary + "'" +
                                         example.substr(std::string("mmacheck").size()) + " >/dev/null"});
    INFO(example << "\n" << r.err);
    CHECK((r.status == 0 || r.status == 1));
  }
}

TEST_CASE("the README's command table is what --help says", "[cli]") {
  const std::string readme = read_file(source_path("README.md"));
  for (const std::string& name : command_names()) {
    INFO(name);
    if (!runs_here(name)) continue;  // no --help without CUDA: test_cli_cuda_commands.cc
    auto [usage, summary] = usage_and_summary(run_mmacheck({name, "--help"}).out);
    std::string escaped;
    for (const char c : usage) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
    CHECK(readme.find("| `" + escaped + "` | " + summary + " |\n") != std::string::npos);
  }
}

TEST_CASE("help for an unknown command and --version", "[cli]") {
  const RunResult bad = run_mmacheck({"help", "simm"});
  CHECK(bad.status == 2);
  CHECK(bad.err == "error: help: unknown command 'simm'; did you mean 'sim'?\n");
  const RunResult v = run_mmacheck({"--version"});
  CHECK(v.status == 0);
  CHECK(std::regex_match(v.out, std::regex(R"(mmacheck \d+\.\d+\.\d+ \(git ([0-9a-f]{12}(-dirty)?|unknown)\)\n)")));
  const RunResult git = run_program({"git", "-C", source_path(""), "rev-parse", "--short=12", "HEAD"});
  if (git.status == 0 && git.out.size() == 13) CHECK(v.out.find("(git " + git.out.substr(0, 12)) != std::string::npos);
}

TEST_CASE("negative values for unsigned options are errors, not 2^64 - 1", "[cli]") {
  const RunResult t = run_mmacheck({source_path("examples/seed.txt"), "--timeout-ms", "-1"});
  CHECK(t.status == 2);
  CHECK_THAT(t.err, Catch::Contains("'--timeout-ms' is invalid: it must be >= 0"));
  const RunResult s = run_mmacheck({"sim", source_path("examples/seed.txt"), "--seed=-1"});
  CHECK(s.status == 2);
  CHECK_THAT(s.err, Catch::Contains("'--seed' is invalid: it must be >= 0"));
  CHECK(run_mmacheck(
            {"sim", source_path("examples/seed_corrected.txt"), "--seed", "18446744073709551615", "--cases", "1"})
            .status == 0);
}

TEST_CASE("prove over several files and folders: a report each, a summary, the worst status", "[cli]") {
  const fs::path dir = temp_dir("batch");
  copy_example("seed_corrected.txt", dir / "a_good.txt");
  copy_example("seed.txt", dir / "sub" / "b_erratum.txt");
  copy_example("seed.txt", dir / ".hidden" / "skipped.txt");
  copy_example("seed.txt", dir / "notes.md");
  const RunResult r = run_mmacheck({"prove", dir.string()});
  CHECK(r.status == 1);
  const std::string a = (dir / "a_good.txt").string(), b = (dir / "sub" / "b_erratum.txt").string();
  CHECK(r.out.rfind("== " + a + " ==\n", 0) == 0);
  CHECK(r.out.find("\n== " + b + " ==\n") != std::string::npos);
  CHECK(r.out.find("skipped.txt") == std::string::npos);
  CHECK(r.out.find("notes.md") == std::string::npos);
  CHECK(r.out.find("\n2 files: 1 proved, 1 refuted\n") != std::string::npos);

  // -j 2 prints the same reports in the same order (times aside).
  const RunResult j = run_mmacheck({"prove", a, b, "-j", "2", "--method", "exhaustive"});
  const RunResult one = run_mmacheck({"prove", a, b, "--method", "exhaustive"});
  const std::regex ms(R"([0-9.]+ ms)");
  CHECK(std::regex_replace(j.out, ms, "T") == std::regex_replace(one.out, ms, "T"));
  CHECK(j.status == 1);

  // Bad input in one file is its report; the others still run; exit 2.
  std::ofstream(dir / "c_bad.txt") << "gemm(D, A, B, D)\n";
  const RunResult bad = run_mmacheck({"prove", a, (dir / "c_bad.txt").string(), b});
  CHECK(bad.status == 2);
  // Its error goes to stderr, as with one file: stdout carries only reports.
  CHECK(bad.err.find("c_bad.txt:1:6: error: unknown buffer 'D'") != std::string::npos);
  CHECK(bad.out.find("error:") == std::string::npos);
  CHECK(bad.out.find("\n3 files: 1 proved, 1 bad input, 1 refuted\n") != std::string::npos);

  const RunResult empty = run_mmacheck({"prove", temp_dir("empty").string()});
  CHECK(empty.status == 2);
  CHECK_THAT(empty.err,
             Catch::Contains("the folder holds no .txt, .py, .ptx, .ttgir, .mlir, .json, .hpp or .mmav file"));
}

TEST_CASE("prove is the front door: each family's file gets its family's check, never no gemm", "[cli]") {
  // (source, name in the folder, exit status alone): the name hides the kind
  // where it can, recognition is by content.
  const std::vector<std::tuple<std::string, std::string, int>> files = {
      {"examples/wgmma/bad_start.txt", "a.txt", 1},
      {"examples/wgmma/k_sw128_f16.txt", "b.txt", 0},
      {"examples/tma/bad_coverage.txt", "c.txt", 1},
      {"examples/tma/k_sw128_f16.txt", "d.txt", 0},
      {"examples/tcgen05/bad_idesc_m.txt", "e.txt", 1},
      {"examples/tcgen05/f16_k_sw128.txt", "f.txt", 0},
      {"examples/sparse/reject_k32_s8_16bit_meta.txt", "g.txt", 1},
      {"examples/sparse/k16_pattern.txt", "h.txt", 0},
      {"examples/scales/swapped.txt", "i.txt", 1},
      {"examples/scales/mxf8f6f4_1x.txt", "j.txt", 0},
      {"tests/data/triton/mma_v3_warpgroups_planted.json", "k.txt", 1},
      {"tests/data/triton/ttgir/sm80_f16_16x16x16_w1.ttgir", "l.ttgir", 0},
      {"tests/data/cute/gmma_traits_planted.hpp", "m.txt", 1},
      {"tests/data/cute/dsl_atoms.txt", "n.txt", 0},
      {"tests/data/wgmma/order/read_before_wait.ptx", "o.ptx", 1},
      {"tests/data/wgmma/order/ok.ptx", "p.ptx", 0},
      {"examples/seed.txt", "q.txt", 1},
      {"examples/seed_corrected.txt", "r.txt", 0},
      {"examples/seed.py", "s.py", 1},  // TVMScript
      {"examples/seed_corrected.py", "t.py", 0},
      {"examples/tirx_refuse_lane.py", "u.py", 1},  // the released TIRx: a program
      {"examples/tirx_bf16.py", "v.py", 0},
      {"examples/tirx_lowered_seed.py", "w.py", 1},  // TVM's lowered dump
      {"examples/tirx_lowered_seed_corrected.py", "x.py", 0},
      {"tests/data/tirx/printouts/c_tensor.script.py", "y.py", 0},  // TVM's print
      {"tests/data/tirx/tcgen05_bad_major.lowered.py", "z.py", 1},  // a tcgen05 dump
      {"tests/data/tirx/tcgen05_f16_k_sw128.lowered.py", "za.py", 0},
      {"tests/data/m16n8k8.f32.f16.f16.f32.mmav", "zb.txt", 0},  // a vector file (its planted twin below)
      {"tests/data/mmasim/tcgen05.sm_100.mmav", "zc.mmav", 0},
  };
  const fs::path dir = temp_dir("front_door"), good = temp_dir("front_door_good");
  for (const auto& [from, name, status] : files) {
    fs::copy_file(source_path(from), dir / name);
    if (status == 0) fs::copy_file(source_path(from), good / name);
    const RunResult one = run_mmacheck({(dir / name).string()});
    INFO(from << " as " << name << ":\n" << one.out << one.err);
    CHECK(one.status == status);
    CHECK(one.out.find("no gemm") == std::string::npos);
  }
  // A vector file whose recorded D is one bit off: replayed, it fails.
  std::string vectors = read_file(source_path("tests/data/m16n8k8.f32.f16.f16.f32.mmav"));
  const std::size_t d = vectors.find("\nD 3db0fa08");
  REQUIRE(d != std::string::npos);
  vectors.replace(d, 11, "\nD 3db0fa09");
  std::ofstream(dir / "zd.mmav") << vectors;
  const RunResult planted = run_mmacheck({(dir / "zd.mmav").string()});
  CHECK(planted.status == 1);
  CHECK(planted.out.find("failed  ") == 0);
  const RunResult all = run_mmacheck({"prove", dir.string()});
  CHECK(all.status == 1);
  CHECK(all.out.find("no gemm") == std::string::npos);
  CHECK(all.out.find("\n" + std::to_string(files.size() + 1) + " files: ") != std::string::npos);
  const RunResult ok = run_mmacheck({"prove", good.string(), "-j", "2"});
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  const auto good_files = std::count_if(files.begin(), files.end(), [](const auto& f) { return std::get<2>(f) == 0; });
  CHECK(ok.out.find("\n" + std::to_string(good_files) + " files: ") != std::string::npos);
  // --json: one object per file, each with its verdict.
  const RunResult json = run_mmacheck({"prove", dir.string(), "--json"});
  const std::vector<Json> objects = json_lines(json.out);
  CHECK(objects.size() == files.size() + 1);
  for (const Json& o : objects) CHECK(o.contains("verdict"));
}

TEST_CASE("a CuTe include folder: trait headers checked, other headers and CMakeLists.txt no gemm", "[cli][cute]") {
  // gemm named in a comment is no gemm; a call of it is one, whatever its spacing.
  const fs::path dir = temp_dir("cute_include");
  fs::create_directories(dir / "cute" / "atom");
  std::ofstream(dir / "cute" / "CMakeLists.txt") << "cmake_minimum_required(VERSION 3.19)\n# the gemm examples\n"
                                                    "add_library(cute INTERFACE)\n";
  std::ofstream(dir / "cute" / "atom" / "copy_traits.hpp")
      << "#pragma once\n// Helpers for the gemm kernels.\nnamespace cute {\n"
         "template <class T> struct copy_traits { using type = T; };\n}\n";
  fs::copy_file(source_path("tests/data/cute/pr3140_after.txt"), dir / "cute" / "atom" / "mma_traits_sm80.hpp");
  const RunResult r = run_mmacheck({"prove", dir.string()});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("3 files: 2 no gemm, 1 proved") != std::string::npos);
  // A layout file's gemm call is read, with a space before the bracket too.
  std::string seed = read_file(source_path("examples/seed.txt"));
  const std::size_t call = seed.find("gemm(");
  REQUIRE(call != std::string::npos);
  seed.replace(call, 5, "gemm (");
  std::ofstream(dir / "spaced.txt") << seed;
  const RunResult spaced = run_mmacheck({"prove", dir.string()});
  CHECK(spaced.status == 1);
  CHECK(spaced.out.find("4 files: 2 no gemm, 1 proved, 1 refuted") != std::string::npos);
}

TEST_CASE("JSON over several files is JSON Lines, one object per file, file first", "[cli]") {
  const fs::path dir = temp_dir("jsonl");
  copy_example("seed_corrected.txt", dir / "a.txt");
  std::ofstream(dir / "b.txt") << "gemm(D, A, B, D)\n";
  copy_example("reject_shape.txt", dir / "c.txt");
  const RunResult r = run_mmacheck({"prove", dir.string(), "--json", "-j", "3"});
  CHECK(r.status == 2);
  const std::vector<Json> objects = json_lines(r.out);
  REQUIRE(objects.size() == 3);
  CHECK(objects[0].begin().key() == "file");
  CHECK(objects[0]["file"] == (dir / "a.txt").string());
  CHECK(objects[0]["verdict"] == "proved");
  CHECK(objects[1]["file"] == (dir / "b.txt").string());
  CHECK(objects[1]["verdict"] == "bad input");
  CHECK(objects[1]["error"]["line"] == 1);
  CHECK(objects[1]["error"]["column"] == 6);
  CHECK(objects[1]["error"]["message"] == "unknown buffer 'D' (no buffers are declared)");
  CHECK(objects[1]["notes"] == Json::array());
  // The bad file's text goes to stderr, as with one file; stdout stays JSON.
  CHECK(r.err.find((dir / "b.txt").string() + ":1:6: error: unknown buffer 'D'") != std::string::npos);
  CHECK(objects[2]["verdict"] == "dispatch_failed");
  const RunResult sim =
      run_mmacheck({"sim", (dir / "a.txt").string(), (dir / "c.txt").string(), "--json", "--cases", "2"});
  CHECK(sim.status == 1);
  const std::vector<Json> sims = json_lines(sim.out);
  REQUIRE(sims.size() == 2);
  CHECK(sims[0]["verdict"] == "passed");
  CHECK(sims[0]["cases"] == 2);
  CHECK(sims[1]["verdict"] == "dispatch_failed");
}

TEST_CASE("bad input under --json is an object with verdict \"bad input\" and its error", "[cli]") {
  const fs::path dir = temp_dir("badjson");
  std::ofstream(dir / "bad.txt") << "\n  gemm(D, A, B, D)\n";
  const std::string path = (dir / "bad.txt").string();
  const RunResult r = run_mmacheck({"prove", path, "--json"});
  CHECK(r.status == 2);
  const Json j = Json::parse(r.out);
  CHECK(
      j.dump() ==
      Json({{"file", path},
            {"verdict", "bad input"},
            {"error",
             {{"file", path}, {"line", 2}, {"column", 8}, {"message", "unknown buffer 'D' (no buffers are declared)"}}},
            {"notes", Json::array()}})
          .dump());
  // stderr keeps the human form, with the source line and a caret.
  CHECK(r.err ==
        path + ":2:8: error: unknown buffer 'D' (no buffers are declared)\n    gemm(D, A, B, D)\n         ^\n");
  const RunResult usage = run_mmacheck({"sim", path, "--cases", "x", "--json"});
  CHECK(usage.status == 2);
  CHECK(Json::parse(usage.out)["file"].is_null());
  CHECK(Json::parse(usage.out)["error"]["message"].get<std::string>().find("--cases") != std::string::npos);
  const RunResult layout = run_mmacheck({"layout", "S[(2, 8) : (1@laneid, q)]", "--json"});
  CHECK(layout.status == 2);
  CHECK(Json::parse(layout.out)["error"]["column"] == 23);
}

TEST_CASE("JSON reports of sim, mma, draw, bench and gpu", "[cli]") {
  const RunResult sim = run_mmacheck({"sim", source_path("examples/seed_corrected.txt"), "--json", "--cases", "3"});
  CHECK(sim.status == 0);
  const Json s = Json::parse(sim.out);
  CHECK(s["verdict"] == "passed");
  CHECK(s["file"] == source_path("examples/seed_corrected.txt"));
  CHECK(s["instruction"] == "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  CHECK(s["shape"].dump() == R"({"M":16,"N":8,"K":16})");
  CHECK(s["failures"].empty());

  const RunResult mma = run_mmacheck({"mma", source_path("tests/data/m16n8k8.f32.f16.f16.f32.mmav"), "--json"});
  CHECK(mma.status == 0);
  const Json m = Json::parse(mma.out);
  CHECK(m["verdict"] == "passed");
  CHECK(m["failed"] == 0);
  CHECK(m["passed"].get<int>() > 0);
  CHECK(m["files"][0]["instructions"][0]["instruction"] == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");

  const fs::path svg = temp_dir("draw") / "seed.svg";
  const RunResult draw = run_mmacheck({"draw", source_path("examples/seed.txt"), "-o", svg.string(), "--json"});
  CHECK(draw.status == 1);
  const Json d = Json::parse(draw.out);
  CHECK(d["output"] == svg.string());
  CHECK(d["verdict"] == "refuted");
  CHECK(fs::exists(svg));

  const RunResult bench = run_mmacheck({"bench", "--seconds", "0.05", "--threads", "1", "--json"});
  CHECK(bench.status == 0);
  const Json b = Json::parse(bench.out);
  CHECK(b["threads"] == 1);
  CHECK(b["kernel"]["finite"]["mma"].get<std::int64_t>() > 0);
  CHECK(b["kernel"]["specials"]["mma"].get<std::int64_t>() > 0);
  CHECK(b["baseline"].get<std::string>().rfind("Eigen float32", 0) == 0);
  CHECK(b["ratio"].get<double>() > 0);

  if (!runs_here("gpu")) return;  // test_cli_cuda_commands.cc
  const RunResult gpu = run_mmacheck({"gpu", source_path("examples/seed_corrected.txt"), "--json", "--cases", "2"});
  REQUIRE((gpu.status == 0 || gpu.status == 3));
  CHECK(Json::parse(gpu.out)["verdict"] == (gpu.status == 0 ? "match" : "no_gpu"));
}

TEST_CASE("a progress line on a terminal for runs over a second, none otherwise", "[cli]") {
  const RunResult piped = run_mmacheck({"bench", "--seconds", "0.7", "--threads", "1"});
  CHECK(piped.status == 0);
  CHECK(piped.err.find('\r') == std::string::npos);
  // script(1) gives the program a terminal.
  if (run_program({"sh", "-c", "command -v script"}).status != 0) return skip("no script(1) for a terminal");
  const std::string binary = MMACHECK_BINARY;
  const RunResult tty =
      run_program({"script", "-qec", "'" + binary + "' bench --seconds 0.7 --threads 1", "/dev/null"});
  CHECK(tty.status == 0);
  CHECK(tty.out.find("\r[####") != std::string::npos);
  // Phases of 0.7 s: how many depends on the instruction sets the processor
  // runs (sim::isa_phases), so the total is any whole number of seconds.
  CHECK(std::regex_search(tty.out, std::regex(R"(\] 1/[0-9]+ s)")));
  CHECK(tty.out.find("ratio ") != std::string::npos);
}

TEST_CASE("threads and show options mean the same in every command that has them", "[cli]") {
  for (const char* command : {"sim", "gpu", "bench"}) {
    INFO(command);
    if (!runs_here(command)) continue;  // gpu without CUDA: test_cli_cuda_commands.cc
    const RunResult help = run_mmacheck({"help", command});
    CHECK(help.out.find("--threads arg (=0)") != std::string::npos);
    CHECK(help.out.find("(0: every hardware thread)") != std::string::npos);
  }
  for (const char* command : {"sim", "gpu", "replay"}) {
    INFO(command);
    if (!runs_here(command)) continue;
    CHECK(run_mmacheck({"help", command}).out.find("--show arg (=10)") != std::string::npos);
  }
  // bench's default, 0, is every hardware thread, as sim's and gpu's.
  const RunResult bench = run_mmacheck({"bench", "--seconds", "0.02", "--json"});
  REQUIRE(bench.status == 0);
  CHECK(Json::parse(bench.out)["threads"] == mmacheck::WorkerPool::hardware_threads());
}

TEST_CASE("cute and triton take many files and folders as prove does", "[cli][cute][triton]") {
  const fs::path dir = temp_dir("wings");
  for (const char* f : {"dsl_atoms.txt", "pr3140_after.txt", "mma_traits_mini.hpp"})
    fs::copy_file(source_path(std::string("tests/data/cute/") + f), dir / "cute" / f,
                  (fs::create_directories(dir / "cute"), fs::copy_options::overwrite_existing));
  std::ofstream(dir / "cute" / "notes.md") << "not an input\n";
  const RunResult folder = run_mmacheck({"cute", (dir / "cute").string()});
  CHECK(folder.out.find("== " + (dir / "cute" / "dsl_atoms.txt").string() + " ==\n") != std::string::npos);
  CHECK(folder.out.find("mma_traits_mini.hpp ==\n") != std::string::npos);
  CHECK(folder.out.find("notes.md") == std::string::npos);
  CHECK(folder.out.find("\n3 files: ") != std::string::npos);

  // One refuted file makes the run fail; its report is its own; the order is the operands'.
  const std::string good = source_path("tests/data/cute/dsl_atoms.txt"),
                    bad = source_path("tests/data/cute/pr3140_before.txt");
  const RunResult two = run_mmacheck({"cute", good, bad, "-j", "2"});
  CHECK(two.status == 1);
  CHECK(two.out.rfind("== " + good + " ==\n", 0) == 0);
  CHECK(two.out.find("\n2 files: 1 proved, 1 refuted\n") != std::string::npos);  // the word tma and wgmma use
  const RunResult lines = run_mmacheck({"cute", good, bad, "--json"});
  const std::vector<Json> objects = json_lines(lines.out);
  REQUIRE(objects.size() == 2);
  CHECK(objects[0]["file"] == good);
  CHECK(objects[1]["atoms"].size() == 1);
  CHECK(objects[1]["atoms"][0]["result"] == "refuted");

  // triton: the unchecked ones fail the run unless allowed, per file.
  const std::string dots = source_path("tests/data/triton/dots.json"),
                    v2 = source_path("tests/data/triton/mma_v2.json");
  const RunResult t = run_mmacheck({"triton", dots, v2});
  CHECK(t.status == 1);
  CHECK(t.out.find("\n2 files: 1 proved, 1 unchecked\n") != std::string::npos);
  CHECK(run_mmacheck({"triton", dots, v2, "--allow-unchecked"}).status == 0);
  fs::create_directories(dir / "notes");
  std::ofstream(dir / "notes" / "notes.md") << "not an input\n";
  const RunResult empty = run_mmacheck({"triton", (dir / "notes").string()});
  CHECK(empty.status == 2);
  CHECK_THAT(empty.err,
             Catch::Contains("the folder holds no .txt, .py, .ptx, .ttgir, .mlir, .json, .hpp or .mmav file"));
}

TEST_CASE("the family commands are aliases of the verbs for one release, and say which", "[cli]") {
  // Each names the verb on standard error and gives the verb's report, byte for byte.
  const std::string wgmma = source_path("examples/wgmma/bad_major.txt");
  const std::string vectors = source_path("tests/data/mmasim/wgmma.sm_90.mmav");
  const std::string sparse = source_path("tests/data/mma_sp/h200.k16.mmav");
  const std::vector<std::tuple<std::vector<std::string>, std::vector<std::string>, std::string>> pairs = {
      {{"wgmma", wgmma, "--json"}, {"prove", wgmma, "--json"}, "run 'mmacheck prove FILE...'"},
      {{"tma", source_path("examples/tma/k_sw128_f16.txt")},
       {"prove", source_path("examples/tma/k_sw128_f16.txt")},
       "run 'mmacheck prove FILE...'"},
      {{"cute", source_path("tests/data/cute/pr3140_before.txt")},
       {"prove", source_path("tests/data/cute/pr3140_before.txt")},
       "run 'mmacheck prove FILE...'"},
      {{"wgmma-sim", "--vectors", vectors}, {"replay", vectors}, "run 'mmacheck replay FILE...'"},
      {{"mma", "--vectors", source_path("tests/data/m16n8k8.f32.f16.f16.f32.mmav")},
       {"replay", source_path("tests/data/m16n8k8.f32.f16.f16.f32.mmav")},
       "run 'mmacheck replay FILE...'"},
      {{"sparse", "--vectors", sparse, "--arith", "all"}, {"replay", sparse, "--arith", "all"}, "vector files: replay"},
      {{"sparse", source_path("examples/sparse/k32_selector1.txt")},
       {"prove", source_path("examples/sparse/k32_selector1.txt")},
       "run 'mmacheck prove FILE..."},
  };
  for (const auto& [alias, verb, note] : pairs) {
    INFO(alias.front());
    const RunResult a = run_mmacheck(alias), v = run_mmacheck(verb);
    CHECK(a.status == v.status);
    CHECK(a.out == v.out);
    CHECK_THAT(a.err, Catch::StartsWith("mmacheck: '" + alias.front() + "' is an alias kept for one release: ") &&
                          Catch::Contains(note));
    CHECK(v.err.empty());
  }
  // help lists the verbs, then the aliases with their verbs.
  const RunResult help = run_mmacheck({"help"});
  const std::size_t aliases = help.out.find("aliases kept for one release:");
  REQUIRE(aliases != std::string::npos);
  CHECK(help.out.find("  mmacheck prove FILE...") < aliases);
  CHECK(help.out.find("  mmacheck wgmma ", aliases) != std::string::npos);
  CHECK(help.out.find("-> mmacheck replay FILE...", aliases) != std::string::npos);
  CHECK(help.out.find("  mmacheck sparse-gpu     -> mmacheck gpu --inst mma.sp|TAG", aliases) != std::string::npos);
  CHECK(help.out.find("  mmacheck wgmma-gpu", aliases) != std::string::npos);
  // An alias's help names the verb whose options it takes.
  const RunResult h = run_mmacheck({"tcgen05", "--help"});
  CHECK(h.status == 0);
  CHECK_THAT(h.out, Catch::Contains("its options are those of 'mmacheck prove --help'"));
}

TEST_CASE("prove reads a family's file from standard input once", "[cli]") {
  // The front door recognises the text it read; the family's check gets that text.
  const std::string binary = MMACHECK_BINARY;
  const RunResult r =
      run_program({"sh", "-c", "'" + binary + "' prove - < '" + source_path("examples/wgmma/bad_major.txt") + "'"});
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains("refuted    B (line 4)"));
  const RunResult v = run_program(
      {"sh", "-c", "'" + binary + "' prove - < '" + source_path("tests/data/mmasim/wgmma.sm_90.mmav") + "'"});
  CHECK(v.status == 2);
  CHECK_THAT(v.err, Catch::Contains("vector files are replayed from files, not from standard input"));
}

}  // namespace test_cli_commands
