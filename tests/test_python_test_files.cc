// Test files as they stand (docs/tvmscript.md, "Test files"): the kernels a
// module's factories and parametrized tests build, each read and proved on
// its own, named as pytest names the test.  tests/data/tvm/test_files/
// holds a module in the style of TVM main's test_gemm_mma_m16n8k_.py
// (written for these tests) and the ids pytest collects from it
// (scripts/tvm-oracle/pytest_ids.py).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "core/base/error.h"
#include "core/base/json.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_python_files_support.h"

namespace test_python_test_files {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

const std::string kModule = "tests/data/tvm/test_files/test_gemm_factories.py";

std::string module_text() { return read_file(source_path(kModule)); }

std::map<std::string, std::string> verdicts(const std::string& text) {
  return kernel_verdicts(text, "test_gemm_factories.py");
}

std::string error_of(const std::string& text) { return kernel_error(text, "test_gemm_factories.py"); }

}  // namespace

TEST_CASE("a test module's kernels are the ones pytest's tests build, named by pytest's ids", "[python][testfiles]") {
  const ReadProgram read = read_program(module_text(), "test_gemm_factories.py");
  std::vector<std::string> names;
  for (const KernelInstance& k : read.instances) names.push_back(k.name);
  // pytest's ids, less the one test that builds no kernel.
  std::istringstream ids(read_file(source_path("tests/data/tvm/test_files/test_gemm_factories.ids")));
  std::vector<std::string> expected;
  for (std::string line; std::getline(ids, line);)
    if (!line.empty() && line != "test_nothing_built") expected.push_back(line);
  REQUIRE(expected.size() == 30);
  CHECK(names == expected);
  CHECK_FALSE(read.program.gemm.has_value());  // nothing at the top level
}

TEST_CASE("each kernel a test builds is proved with its own parameters", "[python][testfiles]") {
  const std::map<std::string, std::string> v = verdicts(module_text());
  REQUIRE(v.size() == 30);
  for (const auto& [name, verdict] : v) {
    INFO(name);
    if (name.rfind("test_rejects_scale[", 0) == 0) CHECK(verdict == "dispatch_failed");  // alpha 2, beta 0.5
    else CHECK(verdict == "proved");
  }
  // The parameters reach the kernel: K = 8 * 3 tiles of k8, C staged when beta is 1.
  const ReadProgram read = read_program(module_text(), "test_gemm_factories.py");
  for (const KernelInstance& k : read.instances) {
    if (k.name == "test_staged[bfloat16-1.0-2-1-3-8]") {
      const ProofReport r = prove(k.program, ProveOptions{});
      CHECK(r.inst->ptx().find("m16n8k8.row.col.f32.bf16.bf16.f32") != std::string::npos);
      CHECK(r.tiles_m * r.tiles_n * r.tiles_k == 6);
      CHECK(k.program.stages.size() == 3);  // A, B and C
    }
    if (k.name == "test_staged[float16-0.0-2-1-3-8]") CHECK(k.program.stages.size() == 2);
    if (k.name.rfind("test_rejects_scale", 0) == 0) CHECK(k.expects.has_value());
  }
}

TEST_CASE("pytest's semantics: marks evaluated at the def, a name bound again hides the earlier test",
          "[python][testfiles]") {
  const std::string text = module_text();
  // A rebinding after the test does not reach its parametrize mark (Python
  // evaluated the mark when the def ran): the kernels stay those of SHAPES[:2].
  const std::map<std::string, std::string> base = verdicts(text);
  const std::string rebound = replace_once(
      text,
      "\n\n@pytest.mark.parametrize(\"dtype\", [\"float16\", \"bfloat16\"])\n@pytest.mark.parametrize(\"transpose_a",
      "\nSHAPES = [(1, 1, 1, 7)]  # after the tests that used it\n\n"
      "@pytest.mark.parametrize(\"dtype\", [\"float16\", \"bfloat16\"])\n"
      "@pytest.mark.parametrize(\"transpose_a");
  CHECK(verdicts(rebound) == base);
  // A mark naming what is defined only below is Python's NameError: a located error here.
  const std::string early = replace_once(text, "@pytest.mark.parametrize(\"tm, tn, tk, k_inst\", SHAPES[:2])",
                                         "@pytest.mark.parametrize(\"tm, tn, tk, k_inst\", LATER)");
  CHECK(error_of(early + "\nLATER = SHAPES\n").find("LATER") != std::string::npos);
  // A factory's local bound again after its @T.prim_func: TVMScript read the kernel at its decorator.
  const std::string later_local =
      replace_once(text, "        return gemm\n", "        a_l = b_l\n        return gemm\n");
  CHECK(verdicts(later_local) == base);
  // A test shadowed by a later def of its name, or bound to None, is never run by pytest: not checked.
  std::size_t staged = 0;
  for (const auto& [name, verdict] : base) staged += name.rfind("test_staged[", 0) == 0;
  REQUIRE(staged > 0);
  for (const char* rebind : {"\ntest_staged = None\n", "\ndef test_staged():\n    pass\n"}) {
    INFO(rebind);
    const std::map<std::string, std::string> v = verdicts(text + rebind);
    CHECK(v.size() == base.size() - staged);
    for (const auto& [name, verdict] : v) CHECK(name.rfind("test_staged[", 0) != 0);
  }
}

TEST_CASE("a mistake in a factory, a helper or a test's kernel is refuted in the kernels it reaches",
          "[python][testfiles]") {
  const std::string text = module_text();
  const auto not_proved = [](const std::map<std::string, std::string>& v, const std::string& prefix) {
    int n = 0;
    for (const auto& [name, verdict] : v)
      if (name.rfind(prefix, 0) == 0 && verdict != "proved") ++n;
    return n;
  };
  // B's column in the staged factory: every staged kernel.
  {
    const auto v = verdicts(replace_once(text, "nt * 8 + lane // 4]", "nt * 8 + lane % 8]"));
    CHECK(not_proved(v, "test_staged[") == 10);
    CHECK(not_proved(v, "test_lowers[") == 0);
  }
  // The K-major fragment over the transposed A (a conditional expression in a factory).
  {
    const auto v = verdicts(replace_once(text, "a_l = A_KM if transpose_a else A_K16", "a_l = A_K16"));
    CHECK(not_proved(v, "test_oriented[True-") == 4);
    CHECK(not_proved(v, "test_oriented[False-") == 0);
  }
  // A kernel inside a test: the register order of its A staging.
  {
    const auto v = verdicts(
        replace_once(text, "2 * (lane % 4) + kp + 8 * kh]\n        Tx", "2 * (lane % 4) + kh + 8 * kp]\n        Tx"));
    CHECK(not_proved(v, "test_inline[") == 2);
  }
  // The k16 base picked for k8 (a conditional expression in a helper): TVM's own tile_to refuses it, at the
  // helper's line, for the first kernel that reaches it.
  CHECK(error_of(
            replace_once(text, "a_base = A_K16 if k_inst == 16 else A_K8", "a_base = A_K16 if k_inst == 8 else A_K8"))
            .find("38:48: shape [16, 16] has 256 elements but the layout covers 128") == 0);
  // A branch of a static if inside the kernel: the stage of C only when beta is 1.
  {
    const auto v = verdicts(replace_once(text, "C_g[mt * 16 + lane // 4 + 8 * rm, nt * 8 + 2 * (lane % 4) + rn]",
                                         "C_g[mt * 16 + lane // 4 + 8 * rn, nt * 8 + 2 * (lane % 4) + rm]"));
    CHECK(not_proved(v, "test_staged[bfloat16-1.0") == 5);
    CHECK(not_proved(v, "test_staged[float16-0.0") == 0);
  }
}

TEST_CASE("what a test file's Python does beyond what mmacheck evaluates is a located error", "[python][testfiles]") {
  const std::string text = module_text();
  // A loop in a factory.
  CHECK(error_of(replace_once(text, "    KP = 2\n", "    for i in range(2):\n        pass\n    KP = 2\n"))
            .find("mmacheck evaluates a factory's assignments, if/elif/else, return, defs and kernels; got 'for'") !=
        std::string::npos);
  // A call of something other than the file's defs in a factory.
  CHECK(error_of(replace_once(text, "    KP = 2\n", "    KP = max(2, 1)\n")).find("unknown name 'max'") !=
        std::string::npos);
  // An if on a run-time value inside a kernel.
  CHECK(error_of(replace_once(text, "        if beta == 1.0:\n", "        if lane < 4:\n"))
            .find("an if in a kernel is read when its condition is a Python constant") != std::string::npos);
  // A kernel built in a test's loop.
  CHECK(error_of(replace_once(text, "    func = make_oriented(transpose_a, transpose_b, dtype)\n",
                              "    for d in [dtype]:\n        func = make_oriented(transpose_a, transpose_b, d)\n"))
            .find("a kernel built in a 'for' statement of a test is not read") != std::string::npos);
  // A factory argument bound by a statement mmacheck does not evaluate.
  const std::string opaque = error_of(replace_once(text, "    func = make_oriented(transpose_a, transpose_b, dtype)\n",
                                                   "    d = np.float16\n    func = make_oriented(transpose_a, "
                                                   "transpose_b, d)\n"));
  CHECK(opaque.find("the kernel uses 'dtype', a name bound at line ") != std::string::npos);
  CHECK(opaque.find("by a statement mmacheck does not evaluate") != std::string::npos);
  // A parameter no parametrize gives: a fixture.
  CHECK(error_of(replace_once(text, "def test_accumulates():\n    assert \"c_local\" in lower(make_scaled(1.0, 1.0))",
                              "def test_accumulates(beta):\n    assert \"c_local\" in lower(make_scaled(1.0, beta))"))
            .find("pytest fixture") != std::string::npos);
  // Stacked marks multiply: past the limit the product is an error at the mark that crosses it.
  std::string marks;
  for (int i = 0; i < 5; ++i) marks += "@pytest.mark.parametrize(\"p" + std::to_string(i) + "\", list(range(10)))\n";
  std::string ten = marks;
  for (std::size_t at; (at = ten.find("list(range(10))")) != std::string::npos;)
    ten.replace(at, 15, "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]");
  const std::string product =
      "import pytest\nfrom tvm.script import tirx as T\ndef mk():\n    @T.prim_func\n"
      "    def g():\n        pass\n    return g\n" +
      ten + "def test_x(p0, p1, p2, p3, p4):\n    mk()\n";
  CHECK(error_of(product).find("8:1: the parametrize marks of test_x make more than 10000 parameter sets") == 0);
  // A kernel built in a test class's method (pytest runs it; classes are
  // passed over), by a factory call or a kernel of its own: at that place.
  CHECK(
      error_of(text + "\nclass TestGemm:\n    def test_one(self):\n        make_oriented(False, False, \"float16\")\n")
          .find("'make_oriented', which builds a kernel, is called in class 'TestGemm'") != std::string::npos);
  CHECK(error_of(text + "\nclass TestOwn:\n    def test_own(self):\n        @T.prim_func\n        def k():\n"
                        "            T.device_entry()\n")
            .find("a kernel is defined in class 'TestOwn'") != std::string::npos);
  // A class that builds nothing is passed over as before.
  CHECK(error_of(text + "\nclass Helper:\n    def size(self):\n        return 4\n").empty());
  // A factory no test calls, in a file that builds nothing else: nothing would be checked.
  const std::string lone =
      "from tvm.script import tirx as T\n\ndef make():\n    @T.prim_func\n    def f():\n"
      "        T.device_entry()\n    return f\n";
  CHECK(error_of(lone).find("4:5: this kernel is built only when its factory is called, and no test") == 0);
  // ... and beside other kernels it is listed in the note.
  const ReadProgram read = read_program(text + "\n" + lone.substr(lone.find("def make")), "t.py");
  CHECK(read.instances.size() == 30);
  CHECK(std::any_of(read.skipped.begin(), read.skipped.end(), [](const std::string& s) {
    return s.find("def make (line ") == 0 && s.find("builds kernels no test calls") != std::string::npos;
  }));
}

TEST_CASE("a test file's Python is bounded: '**' by squaring, '+' of strings and lists", "[python][testfiles]") {
  const std::string text = module_text();
  const auto with_kp = [&](const std::string& lines) { return replace_once(text, "    KP = 2\n", lines); };
  // 1 ** (2^63 - 1) looped 2^63 times; by squaring it is 63 steps, and the file reads as before.
  CHECK(error_of(with_kp("    KP = 2 * 1 ** 9223372036854775807 + 0 * (-1) ** 9223372036854775807\n")).empty());
  CHECK(error_of(with_kp("    KP = 2 ** 62 // 2 ** 61\n")).empty());
  CHECK_THAT(error_of(with_kp("    KP = 2 ** 63\n")), Catch::Contains("overflow"));
  CHECK_THAT(error_of(with_kp("    KP = 3 ** 9223372036854775807\n")), Catch::Contains("overflow"));
  // Doubling a string or a list grew until memory ran out; past 2^20 it is an error at the '+'.
  std::string doubling = "    s = \"ab\"\n    l = [0, 1]\n";
  for (int i = 0; i < 19; ++i) doubling += "    s = s + s\n    l = l + l\n";
  CHECK(error_of(with_kp(doubling + "    KP = 2\n")).empty());
  CHECK_THAT(error_of(with_kp(doubling + "    s = s + s\n    KP = 2\n")),
             Catch::Contains(":11: '+' makes a string of characters of 2097152, over mmacheck's 1048576"));
  CHECK_THAT(error_of(with_kp(doubling + "    l = l + l\n    KP = 2\n")),
             Catch::Contains("'+' makes a list of items of 2097152, over mmacheck's 1048576"));
}

TEST_CASE("prove checks a test file's kernels, one report each, and holds the tests' expectations",
          "[python][testfiles][cli]") {
  const RunResult r = run_mmacheck({"prove", source_path(kModule)});
  CHECK(r.status == 0);
  CHECK(r.out.find("-- test_staged[bfloat16-1.0-2-1-3-8] --") != std::string::npos);
  CHECK(r.out.find("30 kernels: 2 dispatch_failed as expected, 28 proved") != std::string::npos);
  const RunResult j = run_mmacheck({"prove", "--json", source_path(kModule)});
  CHECK(j.status == 0);
  int lines = 0, expected = 0;
  std::istringstream in(j.out);
  for (std::string line; std::getline(in, line); ++lines) {
    const Json doc = parse_json(line, "stdout");
    CHECK(doc.contains("kernel"));
    if (doc.contains("expects_failure")) {
      ++expected;
      CHECK(doc["as_expected"].get<bool>());
      CHECK(doc["verdict"] == "dispatch_failed");
    }
  }
  CHECK(lines == 30);
  CHECK(expected == 2);
  // A kernel its test expects TVM to refuse, which dispatches: the file fails.
  const std::string disagree =
      replace_once(module_text(), "ids=[\"alpha2\", \"beta_half\"]", "ids=[\"alpha2\", \"one\"]");
  const std::string path = std::filesystem::temp_directory_path() / "mmacheck_test_disagree.py";
  { std::ofstream(path) << replace_once(disagree, "[(2.0, 0.0), (1.0, 0.5)]", "[(2.0, 0.0), (1.0, 0.0)]"); }
  const RunResult d = run_mmacheck({"prove", path});
  CHECK(d.status == 1);
  CHECK(d.out.find("but TVM's dispatch does not fail on it") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("a kernel built again from the same closure is checked once; one that differs is checked",
          "[python][testfiles][cli]") {
  // 2,000 parameter sets the kernel does not use (issue 34: 10,000 took 137 s).
  const std::string path = std::filesystem::temp_directory_path() / "mmacheck_test_seeds.py";
  {
    std::ofstream(path) << module_text()
                        << "\n\n@pytest.mark.parametrize(\"seed\", range(2000))\n"
                           "def test_seeds(seed):\n    np.random.seed(seed)\n    lower(make_gemm(1, 1, 1, 16))\n"
                           "\n\n@pytest.mark.parametrize(\"tm\", [4, 2])\n"
                           "def test_tm(tm):\n    lower(make_gemm(tm, 3, 1, 16))\n";
  }
  const RunResult r = run_mmacheck({"prove", path});
  CHECK(r.status == 0);
  CHECK(r.out.find("2032 kernels: 2 dispatch_failed as expected, 2030 proved") != std::string::npos);
  // test_lowers built the seeds' kernel first: each seed shares its report.
  CHECK(r.out.find("-- test_seeds[0] --\nproved: the same kernel as test_lowers[1-1-1-16] (checked once)") !=
        std::string::npos);
  CHECK(r.out.find("-- test_seeds[1999] --\nproved: the same kernel as test_lowers[1-1-1-16] (checked once)") !=
        std::string::npos);
  // Kernels no other test builds are checked in full.
  CHECK(r.out.find("-- test_tm[4] --\nproved: the same kernel") == std::string::npos);
  CHECK(r.out.find("-- test_tm[2] --\nproved: the same kernel") == std::string::npos);
  CHECK(r.out.find("-- test_tm[4] --\n") != std::string::npos);
  const RunResult j = run_mmacheck({"prove", "--json", path});
  int same = 0;
  std::istringstream in(j.out);
  for (std::string line; std::getline(in, line);) same += parse_json(line, "stdout").contains("same_as");
  CHECK(same >= 1999);
  std::filesystem::remove(path);
}

TEST_CASE("sim simulates each kernel a test file's tests build", "[python][testfiles][cli]") {
  const RunResult r = run_mmacheck({"sim", "--cases", "8", source_path(kModule)});
  CHECK(r.status == 0);
  CHECK(r.out.find("-- test_staged[bfloat16-1.0-2-1-3-8] --\nmma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32") !=
        std::string::npos);
  CHECK(r.out.find("30 kernels: 2 dispatch_failed as expected, 28 passed") != std::string::npos);
  // A wrong B staging is a wrong D in simulation too, in the kernels that have it.
  const std::string path = std::filesystem::temp_directory_path() / "mmacheck_test_sim_wrong.py";
  { std::ofstream(path) << replace_once(module_text(), "nt * 8 + lane // 4]", "nt * 8 + lane % 8]"); }
  const RunResult w = run_mmacheck({"sim", "--cases", "8", "--json", path});
  CHECK(w.status == 1);
  int failed = 0;
  std::istringstream in(w.out);
  for (std::string line; std::getline(in, line);)
    if (parse_json(line, "stdout")["verdict"] == "failed") ++failed;
  CHECK(failed == 10);
  std::filesystem::remove(path);
}

}  // namespace test_python_test_files
