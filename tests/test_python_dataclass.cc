// Dataclass parameter tables in test files (docs/tvmscript.md, "Test
// files"; core/program/python_class.h): kernels a dataclass's method builds
// or a test builds from an instance's fields, named by pytest's ids (the
// `ids=` lambda evaluated per value, `cfg0` for an instance without ids),
// and Python's errors for what a dataclass does not accept.
// tests/data/tvm/test_files/test_gemm_dataclass.py is test_gemm_factories.py
// with a Config table; its .ids are pytest's (scripts/tvm-oracle/pytest_ids.py).
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_python_files_support.h"

namespace test_python_dataclass {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::string module_text() { return read_file(source_path("tests/data/tvm/test_files/test_gemm_dataclass.py")); }

std::map<std::string, std::string> verdicts(const std::string& text) {
  return kernel_verdicts(text, "test_gemm_dataclass.py");
}

std::string error_of(const std::string& text) { return kernel_error(text, "test_gemm_dataclass.py"); }

const std::string kMethod = "        return make_gemm(self.tm, self.tn, self.tk, self.k_inst, dtype=self.dtype)\n";

// A method that builds its own kernel, storing D register by register.
const std::string kStoringMethod = R"(        acc_l, a_l, b_l = fragments(self.tm, self.tn, self.tk, self.k_inst)
        M, N, K = 16 * self.tm, 8 * self.tn, self.k_inst * self.tk
        tn = self.tn
        count = self.tm * self.tn * 4
        dtype = self.dtype

        @T.prim_func
        def gemm_store(D_ptr: T.handle):
            D_g = T.match_buffer(D_ptr, (M, N), "float32")
            T.device_entry()
            _cta = T.cta_id([1])
            _warp = T.warp_id([1])
            lane = T.lane_id([32])
            A = T.alloc_buffer((M, K), dtype, scope="local", layout=a_l)
            B = T.alloc_buffer((K, N), dtype, scope="local", layout=b_l)
            D = T.alloc_buffer((M, N), "float32", scope="local", layout=acc_l)
            Tx.warp.gemm(D, A, B, D, transpose_A=False, transpose_B=False, alpha=1.0, beta=0.0)
            D_reg = D.local(count)
            for c in T.unroll(count):
                rn = c % 2
                rm = (c // 2) % 2
                nt = (c // 4) % tn
                mt = c // (4 * tn)
                D_g[mt * 16 + lane // 4 + rm * 8, nt * 8 + (lane % 4) * 2 + rn] = D_reg[c]

        return gemm_store
)";

}  // namespace

TEST_CASE("a dataclass table's kernels are proved under pytest's ids", "[python][testfiles][dataclass]") {
  const ReadProgram read = read_program(module_text(), "test_gemm_dataclass.py");
  std::vector<std::string> names;
  for (const KernelInstance& k : read.instances) names.push_back(k.name);
  std::istringstream ids(read_file(source_path("tests/data/tvm/test_files/test_gemm_dataclass.ids")));
  std::vector<std::string> expected;
  for (std::string line; std::getline(ids, line);)
    if (!line.empty() && line != "test_nothing_built") expected.push_back(line);
  REQUIRE(expected.size() == 36);
  CHECK(names == expected);  // test_table[2x1x1k8] (the lambda), test_table_direct[cfg1] (by position)
  const std::map<std::string, std::string> v = verdicts(module_text());
  for (const char* name : {"test_table[1x1x1k16]", "test_table[2x1x1k8]", "test_table[1x2x2k16]",
                           "test_table_direct[cfg0]", "test_table_direct[cfg1]", "test_table_direct[cfg2]"}) {
    INFO(name);
    CHECK(v.at(name) == "proved");
  }
  // The fields reach the kernel: Config(2, 1, 1, 8) is 2 x 1 x 1 tiles of m16n8k8.
  for (const KernelInstance& k : read.instances)
    if (k.name == "test_table[2x1x1k8]") {
      const ProofReport r = prove(k.program, ProveOptions{});
      CHECK(r.inst->ptx().find("m16n8k8") != std::string::npos);
      CHECK(r.tiles_m * r.tiles_n * r.tiles_k == 2);
    }
}

TEST_CASE("a mistake built through a dataclass method is refuted", "[python][testfiles][dataclass]") {
  const std::string storing = replace_once(module_text(), kMethod, kStoringMethod);
  const auto v = verdicts(storing);
  CHECK(v.at("test_table[1x1x1k16]") == "proved");
  CHECK(v.at("test_table[2x1x1k8]") == "proved");
  CHECK(v.at("test_table[1x2x2k16]") == "proved");
  // tm where the store loop needs tn: the D registers land in the wrong tiles.
  const auto w = verdicts(replace_once(storing, "        tn = self.tn\n", "        tn = self.tm\n"));
  CHECK(w.at("test_table[1x1x1k16]") == "proved");  // tm == tn
  CHECK(w.at("test_table[2x1x1k8]") == "refuted");
  CHECK(w.at("test_table[1x2x2k16]") == "refuted");
  CHECK(w.at("test_table_direct[cfg1]") == "proved");  // built by make_gemm, not the method
  // dataclasses.replace: a copy with fields replaced, its method called.
  const ReadProgram swapped =
      read_program(replace_once(module_text(), "    assert cfg.build() is not None",
                                "    func = dataclasses.replace(cfg, tm=cfg.tn, tn=cfg.tm).build()"),
                   "test_gemm_dataclass.py");
  bool seen = false;
  for (const KernelInstance& k : swapped.instances)
    if (k.name == "test_table[2x1x1k8]") {
      const ProofReport r = prove(k.program, ProveOptions{});
      CHECK(r.verdict == Verdict::proved);
      CHECK(r.tiles_m == 1);
      CHECK(r.tiles_n == 2);
      seen = true;
    }
  CHECK(seen);
}

TEST_CASE("a dataclass is constructed as Python constructs it, or the file is a located error",
          "[python][testfiles][dataclass]") {
  const std::string text = module_text();
  const std::string table = "CONFIGS = [Config(1, 1, 1), Config(2, 1, 1, 8), Config(tm=1, tn=2, tk=2)]";
  CHECK(error_of(replace_once(text, table, "CONFIGS = [Config(1, 1)]")) ==
        "287:18: Config() missing required argument 'tk'");
  CHECK(error_of(replace_once(text, table, "CONFIGS = [Config(1, 1, 1, kinst=8)]")) ==
        "287:34: Config() got an unexpected keyword argument 'kinst'");
  CHECK(error_of(replace_once(text, table, "CONFIGS = [Config(1, 1, 1, tm=2)]")) ==
        "287:31: Config() got multiple values for argument 'tm'");
  CHECK(error_of(replace_once(text, table, "CONFIGS = [Config(tm=1, 1, 1)]")) ==
        "287:25: positional argument after a keyword argument");
  CHECK(error_of(replace_once(text, table, "CONFIGS = [Config(1, 1, 1, 16, \"float16\", 0)]")) ==
        "287:43: Config() takes 5 positional arguments (its fields) but more were given");
  CHECK(error_of(replace_once(text, "    tk: int\n", "    tk: int = 1\n")).find("non-default argument 'k_inst'") ==
        std::string::npos);
  CHECK(error_of(replace_once(text, "    tm: int\n", "    tm: int = 1\n")).find("non-default argument 'tn'") !=
        std::string::npos);
  // An attribute the class does not have, in a test's build.
  CHECK(error_of(replace_once(text, "make_gemm(cfg.tm, cfg.tn", "make_gemm(cfg.tm, cfg.tn_")) ==
        "297:34: Config has no field or method 'tn_'");
}

TEST_CASE("a class that is not a dataclass stays unread: using it is a located error",
          "[python][testfiles][dataclass]") {
  const std::string plain = replace_once(module_text(), "@dataclass(frozen=True)\n", "");
  // Its method builds a kernel: refused at the call (pytest would not run it, mmacheck would not check it).
  CHECK(error_of(plain).rfind("283:16: 'make_gemm', which builds a kernel, is called in class 'Config'", 0) == 0);
  // Without one, the table of its instances is data mmacheck does not read: the test's mark is refused.
  const std::string e = error_of(replace_once(plain, kMethod, "        return None\n"));
  INFO(e);
  CHECK(e.rfind("289:33: parametrize's argvalues must be a list or tuple", 0) == 0);
}

TEST_CASE("a dataclass method that builds kernels no test calls is noted", "[python][testfiles][dataclass]") {
  const std::string text =
      replace_once(module_text(), "    assert cfg.build() is not None", "    assert cfg is not None");
  const ReadProgram read = read_program(text, "test_gemm_dataclass.py");
  bool noted = false;
  for (const std::string& n : read.skipped)
    noted = noted || n.find("method Config.build (line 283) builds kernels no test calls") != std::string::npos;
  CHECK(noted);
  // Called by a test (through make_gemm, whose kernel it returns), it is not.
  for (const std::string& n : read_program(module_text(), "test_gemm_dataclass.py").skipped)
    CHECK(n.find("method Config.build (line 283) builds") == std::string::npos);
}

TEST_CASE("ids given as a list of strings still name a dataclass table", "[python][testfiles][dataclass]") {
  const std::string text =
      replace_once(module_text(), "ids=lambda c: f\"{c.tm}x{c.tn}x{c.tk}k{c.k_inst}\"", "ids=[\"one\", \"two\", None]");
  const auto v = verdicts(text);
  CHECK(v.contains("test_table[one]"));
  CHECK(v.contains("test_table[two]"));
  CHECK(v.contains("test_table[cfg2]"));
}

}  // namespace test_python_dataclass
