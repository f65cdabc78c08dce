// Whole .py files as they are written and saved: the kernel among helpers,
// tests, data and a script block (skipped, never refused), TVM main's module
// print (`@I.ir_module class` of `@T.prim_func`s), and the bytes editors
// leave — a UTF-8 byte order mark, CR-only or CRLF line ends, tabs,
// non-ASCII names.  Each variant of an example is read to the example's
// verdict and check results; what could change the kernel is refused at its
// line and column.
#include <catch2/catch.hpp>

#include <regex>

#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_python_files {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
    text.replace(at, from.size(), to);
  return text;
}

// Every line of `text` indented by `n` spaces.
std::string indented(const std::string& text, int n) {
  return std::regex_replace(text, std::regex("(^|\n)(?=[^\n])"), "$1" + std::string(n, ' '));
}

// The verdict and check results, to compare a variant with its example.
std::vector<std::string> outcome(const Program& p) {
  const ProofReport r = prove_both(p);
  std::vector<std::string> out{std::string(verdict_name(r.verdict))};
  for (const CheckReport& c : r.checks) out.push_back(c.check.name() + " " + std::string(check_result_name(c.result)));
  return out;
}

// "LINE:COL: message" of the error reading `text` as the .py file `name`.
std::string error_of(const std::string& text, const std::string& name = "t.py") {
  try {
    parse_program(text, name);
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "no error";
}

// The Python around a kernel in TVM's test files: none of it is the kernel.
const std::string kBefore =
    "import pytest\n"
    "SHAPES = [(1, 1, 1, 16), (2, 2, 2, 16)]\n"
    "MODES = {\"f16\": 0.0}\n\n"
    "def helper(x, *, y=2) -> int:\n"
    "    \"\"\"A helper.\"\"\"\n"
    "    if x < y and x != 3 or x >= 4:\n"
    "        return x ** 2 // 1\n"
    "    else:\n"
    "        for i in range(3): x += i\n"
    "    return {\"a\": x}[\"a\"]\n\n";
const std::string kAfter =
    "\n@pytest.mark.parametrize(\"dtype\", [\"float16\", \"bfloat16\"])\n"
    "@pytest.mark.skipif(False, reason=\"x\")\n"
    "def test_numerics(dtype):\n"
    "    assert helper(1) >= 0\n\n"
    "class TestGemm:\n"
    "    def test_a(self):\n"
    "        pass\n\n"
    "if __name__ == \"__main__\":\n"
    "    pytest.main([__file__])\n";

}  // namespace

TEST_CASE("a kernel among helpers, tests, data and a script block is read as it stands", "[python][tirx][tvmscript]") {
  for (const char* example : {"examples/tirx_seed_corrected.py", "examples/tirx_seed.py", "examples/seed_corrected.py",
                              "examples/seed.py", "tests/data/tirx/printouts/wrong_d_store.script.py"}) {
    INFO(example);
    const std::string text = read_file(source_path(example));
    const std::vector<std::string> expected = outcome(parse_program(text, "e.py"));
    CHECK(outcome(parse_program(kBefore + text + kAfter, "whole.py")) == expected);
  }
}

TEST_CASE("the bytes editors leave do not change what a file means", "[python][lexer]") {
  for (const char* example :
       {"examples/tirx_seed_corrected.py", "examples/seed.py", "tests/data/tirx/printouts/c_tensor.lowered.py"}) {
    INFO(example);
    const std::string text = read_file(source_path(example));
    const std::vector<std::string> expected = outcome(parse_program(text, "e.py"));
    CHECK(outcome(parse_program("\xEF\xBB\xBF" + text, "bom.py")) == expected);
    CHECK(outcome(parse_program(replace_all(text, "\n", "\r"), "cr.py")) == expected);
    CHECK(outcome(parse_program(replace_all(text, "\n", "\r\n"), "crlf.py")) == expected);
    // Tabs for indentation, one per level, as Python reads them.
    std::string tabs = std::regex_replace(text, std::regex("\n        "), "\n\t\t");
    tabs = std::regex_replace(tabs, std::regex("\n    "), "\n\t");
    CHECK(outcome(parse_program(tabs, "tabs.py")) == expected);
    // A name in Greek: the lane.
    CHECK(outcome(parse_program(std::regex_replace(text, std::regex("\\blane\\b"), "\xCE\xBB\xCE\xB1\xCE\xBD"),
                                "u.py")) == expected);
  }
  // Not UTF-8, anywhere (a comment too), as Python refuses it: a located error, never a verdict.
  const std::string not_utf8 = "byte 0xFF is not UTF-8 (Python refuses a source that is not UTF-8";
  CHECK(error_of("A = S[8]\n\xFF = 1\n").rfind("2:1: " + not_utf8, 0) == 0);
  CHECK(error_of("# the seed \xFF\xFE\nA = S[8]\n").rfind("1:12: " + not_utf8, 0) == 0);
  CHECK(error_of("# \xC0\xAF overlong\n").find("1:3: byte 0xC0 is not UTF-8") == 0);
  CHECK(error_of("# \xED\xA0\x80 a surrogate\n").find("1:3: byte 0xED is not UTF-8") == 0);
  CHECK(error_of("# -*- coding: latin-1 -*-\n# caf\xE9\n").find("2:6: the file declares the encoding 'latin-1'") == 0);
  CHECK(error_of("# -*- coding: latin-1 -*-\nA = S[8]\n").find("encoding") == std::string::npos);  // ASCII: the same
  // Tabs and spaces whose nesting depends on the tab width: Python's TabError, refused here too.
  const std::string tab_error = "inconsistent use of tabs and spaces in indentation (Python's TabError";
  CHECK(error_of("@T.prim_func\ndef f():\n\tT.device_entry()\n        T.cta_id([1])\n").rfind("4:9: " + tab_error, 0) ==
        0);
  CHECK(error_of("@T.prim_func\ndef f():\n    T.device_entry()\n\tT.cta_id([1])\n").rfind("4:9: " + tab_error, 0) == 0);
  // What Python accepts is read: a tab-indented block inside a space-indented one.
  CHECK(error_of("@T.prim_func\ndef f():\n    for s in T.unroll(8):\n    \tT.cta_id([1])\n").find(tab_error) ==
        std::string::npos);
}

TEST_CASE("TVM main's print of a module is read: @I.ir_module class, @T.prim_func, T.func_attr",
          "[python][tvmscript]") {
  for (const char* example : {"examples/seed_corrected.py", "examples/seed.py"}) {
    INFO(example);
    const std::string text = read_file(source_path(example));
    const std::size_t at = text.find("@T.prim_func");
    REQUIRE(at != std::string::npos);
    std::string func = text.substr(at);
    const std::size_t body = func.find("):\n") + 3;
    func.insert(body, "    T.func_attr({\"global_symbol\": \"gemm\", \"target\": T.target({\"kind\": \"cuda\"})})\n");
    const std::string module =
        "# from tvm.script import ir as I\n" + text.substr(0, at) + "@I.ir_module\nclass Module:\n" + indented(func, 4);
    CHECK(outcome(parse_program(module, "module.py")) == outcome(parse_program(text, "e.py")));
  }
  CHECK(error_of("@I.ir_module\nclass Module:\n    A = 1\n    @T.prim_func\n    def f():\n        pass\n")
            .find("3:5: an @I.ir_module class holds @T.prim_func") == 0);
  CHECK(error_of("@I.ir_module\nclass Module:\n    A = 1\n").find("3:5: an @I.ir_module class holds @T.function") == 0);
}

TEST_CASE("what could change the kernel is refused where it stands", "[python][tirx][tvmscript]") {
  const std::string release = read_file(source_path("examples/tirx_seed_corrected.py"));
  const std::size_t kernel = release.find("@T.function");
  const std::string head = release.substr(0, kernel), func = release.substr(kernel);
  const int kernel_line = static_cast<int>(std::count(head.begin(), head.end(), '\n')) + 1;
  // A kernel built inside a def (a factory) is read where the file or its
  // tests call the factory; a factory no one calls would leave it unchecked.
  CHECK(error_of(head + "def make(n):\n" + indented(func, 4) + "    return main\n")
            .find(std::to_string(kernel_line + 1) + ":5: this kernel is built only when its factory is called") == 0);
  // ... also deeper, in a branch of the factory.
  CHECK(error_of(head + "def make(store):\n    if store:\n" + indented(func, 8))
            .find("built only when its factory is called") != std::string::npos);
  // Another decorator over the kernel may replace it.
  CHECK(error_of(head + "@wrap\n" + func)
            .find(std::to_string(kernel_line + 1) + ":1: a kernel under another decorator (@wrap)") == 0);
  // A def that rebinds a layout's name: the kernel's use of it is an error, not the old layout.
  CHECK(error_of(head + "def A_IMG():\n    pass\n" + func).find("'A_IMG' is a name bound by a skipped def") !=
        std::string::npos);
  // Data rebinding it is evaluated (module-level Python), and a second binding is refused where it stands.
  CHECK(error_of(head + "A_IMG = [1, 2]\n" + func).find("'A_IMG' is already defined at line") != std::string::npos);
  CHECK(error_of(head + "A_IMG = {1: 2}\n" + func).find("'A_IMG' is a name bound by a skipped def or data") !=
        std::string::npos);
  // Run as a script, the __main__ block comes first: nothing after it is read.
  CHECK(error_of(head + "if __name__ == \"__main__\":\n    pass\n" + func)
            .find(std::to_string(kernel_line + 2) + ":1: the if __name__ == \"__main__\" block at line " +
                  std::to_string(kernel_line) + " comes before this") == 0);
  // T.evaluate of a call could do anything; of a constant it does nothing.
  const std::string lane = "        lane = T.cuda.lane_id()\n";
  CHECK(outcome(parse_program(replace_once(release, lane, lane + "        T.evaluate(0)\n"), "e.py")) ==
        outcome(parse_program(release, "e.py")));
  CHECK(error_of(replace_once(release, lane, lane + "        T.evaluate(T.call_extern(\"f\"))\n"))
            .find("T.evaluate of anything but an integer constant") != std::string::npos);
  // Other Python at the top level is still refused, in Python's words, not the layout file's.
  const std::string tvmscript = read_file(source_path("examples/seed.py"));
  const std::string refused = error_of("import numpy as np\nnp.random.seed(0)\n" + tvmscript);
  CHECK(refused.find("2:") == 0);
  CHECK(refused.find("scope ...") == std::string::npos);
  CHECK(refused.find("TVMScript") != std::string::npos);
  CHECK(error_of("while True:\n    pass\n" + release).find("1:1:") == 0);
}

}  // namespace test_python_files
