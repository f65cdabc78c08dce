// Every --json command's output against docs/report.schema.json (the one
// shape of README's "JSON"), validated by valijson (Debian's
// libvalijson-dev): prove, sim, mma, bench, draw, cute, triton, wgmma, tcgen05, tma, bad input
// under each batch command, one file and many; gpu and capture where no GPU
// answers no_gpu.  Planted wrong documents must be rejected, so the check
// can fail.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "tests/support.h"

namespace test_report_schema {

namespace {

using mmacheck::test::read_file;
using mmacheck::test::run_mmacheck;
using mmacheck::test::source_path;
namespace fs = std::filesystem;

class ReportSchema {
 public:
  ReportSchema() {
    const nlohmann::json doc = nlohmann::json::parse(read_file(source_path("docs/report.schema.json")));
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(doc), schema_);
  }
  // "" when `object` conforms, else valijson's reasons.
  std::string errors(const nlohmann::json& object) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    if (validator.validate(schema_, valijson::adapters::NlohmannJsonAdapter(object), &results)) return "";
    std::string out;
    valijson::ValidationResults::Error e;
    while (results.popError(e)) {
      for (const std::string& p : e.context) out += p;
      out += ": " + e.description + "\n";
    }
    return out.empty() ? "invalid\n" : out;
  }

 private:
  valijson::Schema schema_;
};

const ReportSchema& schema() {
  static const ReportSchema s;
  return s;
}

// Every line of a command's stdout is one object that conforms; returns them.
std::vector<nlohmann::json> conforming_lines(const std::vector<std::string>& args) {
  const auto r = run_mmacheck(args);
  std::string joined;
  for (const std::string& a : args) joined += a + " ";
  INFO(joined << "\nstdout: " << r.out << "\nstderr: " << r.err);
  std::vector<nlohmann::json> objects;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    const nlohmann::json j = nlohmann::json::parse(line);
    CHECK(schema().errors(j) == "");
    objects.push_back(j);
  }
  CHECK(!objects.empty());
  return objects;
}

}  // namespace

TEST_CASE("every --json command prints objects of docs/report.schema.json", "[cli][schema]") {
  const std::string seed = source_path("examples/seed.txt"), good = source_path("examples/seed_corrected.txt");
  const std::string declined = source_path("examples/reject_shape.txt");
  CHECK(conforming_lines({"prove", seed, "--json"})[0]["verdict"] == "refuted");
  CHECK(conforming_lines({"prove", good, declined, "--json"}).size() == 2);
  CHECK(conforming_lines({"sim", good, "--json", "--cases", "2"})[0]["verdict"] == "passed");
  CHECK(conforming_lines({"sim", declined, "--json", "--cases", "2"})[0]["verdict"] == "dispatch_failed");
  CHECK(conforming_lines({"mma", source_path("tests/data/m16n8k8.f32.f16.f16.f32.mmav"), "--json"})[0]["verdict"] ==
        "passed");
  // layout: an expression evaluated (its map, a ComposeLayout's offsets, a file's lanes).
  CHECK(conforming_lines({"layout", "S[(2, 8, 4, 2) : (2, 4@laneid, 1@laneid, 1)]", "--shape", "16,8",
                          "--json"})[0]["verdict"] == "evaluated");
  CHECK(conforming_lines({"layout", "ComposeLayout(3, 3, 3, TileLayout(S[8 : 1]))", "--shape", "8",
                          "--json"})[0]["verdict"] == "evaluated");
  CHECK(conforming_lines({"layout", seed, "--by-lane", "--json"})[0]["buffers"].size() > 0);
  // capture: one object, no GPU here or none in the build.
  const fs::path captured = fs::temp_directory_path() / "mmacheck_schema_capture.mmav";
  const std::string capture = conforming_lines(
      {"capture", "--instr", "m16n8k16.f16", "--cases", "2", "-o", captured.string(), "--json"})[0]["verdict"];
  CHECK(
      (capture == "captured" || capture == "no_gpu" || (!mmacheck::test::runs_here("gpu") && capture == "bad input")));
  // emit: the text, or TVM's reasons.
  const nlohmann::json emitted = conforming_lines({"emit", good, "--cuda", "--json"})[0];
  CHECK(emitted["verdict"] == "emitted");
  CHECK(emitted["emit"]["format"] == "cuda");
  CHECK(emitted["emit"]["text"].get<std::string>().find("mma.sync") != std::string::npos);
  CHECK(conforming_lines({"emit", good, "--json"})[0]["emit"]["format"] == "tirx");
  CHECK(conforming_lines({"emit", declined, "--json"})[0]["verdict"] == "dispatch_failed");
  // The GPU jobs of the families: one object, on a machine without a GPU too.
  for (const std::vector<std::string>& gpu_job :
       {std::vector<std::string>{"gpu", "--inst", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "--cases", "2",
                                 "--json"},
        std::vector<std::string>{"gpu", "--inst", "sp.m16n8k16.f16", "--selector", "0", "--cases", "2", "--json"},
        std::vector<std::string>{"gpu", source_path("examples/sparse/k16_pattern.txt"), "--cases", "2", "--json"},
        std::vector<std::string>{"wgmma-gpu", "--inst", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "--cases",
                                 "2", "--json"},
        std::vector<std::string>{"sparse-gpu", "--inst", "sp.m16n8k16.f16", "--selector", "0", "--cases", "2",
                                 "--json"}}) {
    const std::string verdict = conforming_lines(gpu_job)[0]["verdict"];
    CHECK((verdict == "match" || verdict == "no_gpu" || (!mmacheck::test::runs_here("gpu") && verdict == "bad input")));
  }
  // A kernel's PTX with its launch file: prove (proved, refuted), sim, gpu.
  const std::string ptx_ok = source_path("tests/data/ptx/nvcc/shared.ptx");
  CHECK(conforming_lines({"prove", ptx_ok, "--json"})[0]["verdict"] == "proved");
  const nlohmann::json ptx_bad =
      conforming_lines({"prove", source_path("tests/data/ptx/nvcc/shared_no_wait.ptx"), "--json"})[0];
  CHECK(ptx_bad["verdict"] == "refuted");
  CHECK(ptx_bad["ptx"]["line"] == 130);
  CHECK(conforming_lines({"sim", ptx_ok, "--cases", "2", "--json"})[0]["verdict"] == "passed");
  const std::string ptx_gpu = conforming_lines({"gpu", ptx_ok, "--cases", "2", "--json"})[0]["verdict"];
  CHECK((ptx_gpu == "match" || ptx_gpu == "no_gpu" || (!mmacheck::test::runs_here("gpu") && ptx_gpu == "bad input")));
  // A file of several kernels (a factory's builds): one object per kernel.
  const auto kernels =
      conforming_lines({"gpu", source_path("tests/data/tirx/factories/test_factory.py"), "--cases", "2", "--json"});
  // (A build without CUDA answers the file once: bad input.)
  if (!mmacheck::test::runs_here("gpu") && kernels.size() == 1) CHECK(kernels[0]["verdict"] == "bad input");
  else REQUIRE(kernels.size() == 6);
  for (const auto& k : kernels) {
    const std::string verdict = k["verdict"];
    CHECK((verdict == "match" || verdict == "differ" || verdict == "no_gpu" ||
           (!mmacheck::test::runs_here("gpu") && verdict == "bad input")));
  }
  CHECK(conforming_lines({"bench", "--seconds", "0.02", "--threads", "1", "--json"})[0]["verdict"] == "measured");
  const fs::path svg = fs::temp_directory_path() / "mmacheck_schema_seed.svg";
  CHECK(conforming_lines({"draw", seed, "-o", svg.string(), "--json"})[0]["verdict"] == "refuted");
  // A declined program's picture carries TVM's reasons, as prove's report does.
  const nlohmann::json drawn_declined = conforming_lines({"draw", declined, "-o", svg.string(), "--json"})[0];
  CHECK(drawn_declined["verdict"] == "dispatch_failed");
  CHECK_FALSE(drawn_declined["reasons"].empty());
  CHECK(conforming_lines({"cute", source_path("tests/data/cute/pr3140_before.txt"), "--json"})[0]["verdict"] ==
        "refuted");
  CHECK(conforming_lines({"triton", source_path("tests/data/triton/mma_v2.json"), "--json"}).size() == 1);
  CHECK(conforming_lines({"wgmma", source_path("examples/wgmma/bad_major.txt"), "--json"})[0]["verdict"] == "refuted");
  CHECK(conforming_lines({"wgmma", source_path("examples/wgmma/k_sw128_f16.txt"), "--json"})[0]["verdict"] == "proved");
  CHECK(conforming_lines({"tcgen05", source_path("examples/tcgen05/bad_tmem_lane.txt"), "--json"})[0]["verdict"] ==
        "refuted");
  CHECK(conforming_lines({"tcgen05", source_path("examples/tcgen05/bad_swizzle.txt"), "--json"})[0]["verdict"] ==
        "refuted");
  CHECK(conforming_lines({"tcgen05", source_path("examples/tcgen05/f16_k_sw128.txt"), "--json"})[0]["verdict"] ==
        "proved");
  CHECK(conforming_lines(
            {"sim", source_path("examples/wgmma/bad_major.txt"), "--cases", "2", "--json"})[0]["verdict"] == "failed");
  CHECK(conforming_lines({"sim", source_path("examples/tcgen05/bad_swizzle.txt"), "--cases", "2",
                          "--json"})[0]["verdict"] == "failed");
  CHECK(conforming_lines({"sim", source_path("examples/tcgen05/bad_idesc_m.txt"), "--json"})[0]["verdict"] == "failed");
  CHECK(conforming_lines({"sim", source_path("examples/tcgen05/f8_pair_m256.txt"), "--json"})[0]["verdict"] ==
        "unchecked");
  CHECK(conforming_lines({"sim", source_path("examples/sparse/k32_selector1.txt"), "--cases", "2",
                          "--json"})[0]["verdict"] == "passed");
  // A TIRx dump's K loop and computation (tests/test_tcgen05_repeats.cc).
  const auto frozen = conforming_lines(
      {"tcgen05", source_path("tests/data/tirx/tcgen05_planted/tcgen05_a_frozen.lowered.py"), "--json"});
  CHECK(frozen[0]["verdict"] == "refuted");
  CHECK(frozen[0]["tcgen05"]["k_loop"]["result"] == "refuted");
  CHECK(conforming_lines({"tcgen05", source_path("tests/data/tirx/tcgen05_neg_a.lowered.py"),
                          "--json"})[0]["tcgen05"]["computation"] ==
        "D = (-A) * B over 4 K blocks; neg_a, neg_b, sat_d as stated by " +
            source_path("tests/data/tirx/tcgen05_neg_a.py") + ":12");
  const auto tma = conforming_lines({"tma", source_path("examples/tma/bad_swizzle_mode.txt"), "--json"});
  CHECK(tma[0]["verdict"] == "refuted");
  CHECK(tma[0]["tma_operands"][0]["fields"][0] == "swizzle mode");
  CHECK(conforming_lines({"tma", source_path("examples/tma/k_sw128_f16.txt"), "--json"})[0]["verdict"] == "proved");
  // A piece superseded by the program as executed (K reversed in A and B alike).
  const auto superseded =
      conforming_lines({"prove", source_path("tests/data/program/tvmscript/ok_k_reversed.py"), "--json"});
  CHECK(superseded[0]["verdict"] == "proved");
  CHECK(superseded[0].dump().find("\"superseded\"") != std::string::npos);
  // Every family's vector files, through replay and their family commands.
  const std::string mmav = source_path("tests/data/m16n8k8.f32.f16.f16.f32.mmav"),
                    wgmma_v = source_path("tests/data/mmasim/wgmma.sm_90.mmav"),
                    tcgen05_v = source_path("tests/data/mmasim/tcgen05.sm_100.mmav"),
                    sparse_v = source_path("tests/data/mma_sp/h200.k16.mmav");
  const auto replayed = conforming_lines({"replay", mmav, wgmma_v, tcgen05_v, sparse_v, "--json"});
  REQUIRE(replayed.size() == 4);
  for (const nlohmann::json& r : replayed) CHECK(r["verdict"] == "passed");
  CHECK(replayed[1]["family"] == "wgmma");
  CHECK(conforming_lines({"wgmma-sim", wgmma_v, "--json"})[0]["verdict"] == "passed");
  CHECK(conforming_lines({"tcgen05-sim", tcgen05_v, "--json"})[0]["verdict"] == "passed");
  CHECK(conforming_lines({"sparse", "--vectors", sparse_v, "--json"})[0]["verdict"] == "passed");
  CHECK(conforming_lines({"prove", sparse_v, "--json"})[0]["family"] == "mma.sp");
  // The metadata and scale files, alone and through the front door.
  for (const char* command : {"sparse", "prove"}) {
    CHECK(conforming_lines({command, source_path("examples/sparse/k32_selector1.txt"), "--json"})[0]["verdict"] ==
          "proved");
    const nlohmann::json scales = conforming_lines({command == std::string("prove") ? "prove" : "scales",
                                                    source_path("examples/scales/swapped.txt"), "--json"})[0];
    CHECK(scales["verdict"] == "refuted");
    CHECK(scales["scales"].size() == 2);
  }
  const std::string gpu = conforming_lines({"gpu", good, "--json", "--cases", "2"})[0]["verdict"];
  // Without CUDA gpu's object is bad input, still of the shape.
  CHECK((gpu == "match" || gpu == "no_gpu" || (!mmacheck::test::runs_here("gpu") && gpu == "bad input")));
  const fs::path bad = fs::temp_directory_path() / "mmacheck_schema_bad.txt";
  { std::ofstream(bad) << "gemm(D, A, B, D)\n"; }
  for (const char* command :
       {"prove", "sim", "gpu", "draw", "cute", "triton", "wgmma", "tcgen05", "tma", "scales", "sparse", "replay"})
    CHECK(conforming_lines({command, bad.string(), "--json"})[0]["verdict"] == "bad input");
  const auto many = conforming_lines({"prove", good, bad.string(), "--json"});
  REQUIRE(many.size() == 2);
  CHECK(many[1]["error"]["line"] == 1);
}

TEST_CASE("docs/report.schema.json rejects objects out of the shape", "[cli][schema]") {
  const nlohmann::json good =
      nlohmann::json::parse(run_mmacheck({"prove", source_path("examples/seed.txt"), "--json"}).out);
  REQUIRE(schema().errors(good) == "");
  nlohmann::json no_verdict = good;
  no_verdict.erase("verdict");
  CHECK(schema().errors(no_verdict) != "");
  nlohmann::json old_result = no_verdict;  // the old key of sim and gpu at the top
  old_result["result"] = "passed";
  CHECK(schema().errors(old_result) != "");
  nlohmann::json no_notes = good;
  no_notes.erase("notes");
  CHECK(schema().errors(no_notes) != "");
  nlohmann::json bad_check = good;
  bad_check["checks"][0]["result"] = "probably";
  CHECK(schema().errors(bad_check) != "");
  nlohmann::json no_checks = good;
  no_checks.erase("checks");
  CHECK(schema().errors(no_checks) != "");
  // The old bad-input object, location at the top and no verdict.
  CHECK(schema().errors({{"file", "a.txt"}, {"line", 1}, {"column", 6}, {"message", "x"}}) != "");
  CHECK(schema().errors({{"file", "a.txt"}, {"verdict", "bad input"}, {"notes", nlohmann::json::array()}}) != "");
  CHECK(schema().errors({{"file", nullptr}, {"verdict", "passed"}, {"notes", nlohmann::json::array()}}) != "");
  nlohmann::json wgmma =
      nlohmann::json::parse(run_mmacheck({"wgmma", source_path("examples/wgmma/bad_swizzle.txt"), "--json"}).out);
  REQUIRE(schema().errors(wgmma) == "");
  nlohmann::json bad_field = wgmma;
  bad_field["wgmma_operands"][0]["fixes"][0]["fields"][0] = "colour";
  CHECK(schema().errors(bad_field) != "");
  nlohmann::json no_descriptor = wgmma;
  no_descriptor["wgmma_operands"][0].erase("descriptor");
  CHECK(schema().errors(no_descriptor) != "");
}

}  // namespace test_report_schema
