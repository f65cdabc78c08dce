// The commands on the cuda layer (gpu, capture) in both builds.  With CUDA
// they run (test_cuda_cli.cc has the rest); in a build without it
// (-DMMACHECK_CUDA=OFF, or no toolkit found) help still lists them, and
// running them, their --help and `help NAME` say that this build has no
// CUDA support, exit 2.  Built in both configurations, so a command that
// starts needing CUDA without its row saying so fails here.
#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/json.h"
#include "tests/support.h"

namespace test_cli_cuda_commands {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::vector<std::string> listed_commands(const std::string& overview) {
  std::vector<std::string> names;
  std::istringstream lines(overview);
  const std::regex row(R"(^  mmacheck ([a-z-]+) .*)");
  std::smatch m;
  for (std::string line; std::getline(lines, line);)
    if (std::regex_match(line, m, row)) names.push_back(m[1]);
  return names;
}

std::string refusal(const std::string& command) {
  return "error: " + command + ": this mmacheck was built without CUDA (configure with -DMMACHECK_CUDA=ON)\n";
}

}  // namespace

TEST_CASE("help lists the CUDA commands in every build and says when this build has none", "[cli][cuda-off]") {
  const RunResult help = run_mmacheck({"help"});
  REQUIRE(help.status == 0);
  const std::vector<std::string> names = listed_commands(help.out);
  for (const std::string& name : kCudaCommands) {
    INFO(name);
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  }
  const std::string note =
      "this build has no CUDA support: gpu, capture, wgmma-gpu, sparse-gpu exit 2 (configure with -DMMACHECK_CUDA=ON)\n";
  CHECK((help.out.find(note) != std::string::npos) == !kWithCuda);
  // Exactly the CUDA commands are refused; every other one gives its help.
  for (const std::string& name : names) {
    INFO(name);
    const RunResult r = run_mmacheck({name, "--help"});
    CHECK(r.status == (runs_here(name) ? 0 : 2));
    CHECK((r.err == refusal(name)) == !runs_here(name));
  }
}

TEST_CASE("without CUDA, gpu and capture refuse to run with exit 2, whatever their arguments", "[cli][cuda-off]") {
  if (kWithCuda) {
    // With CUDA the command parses its own usage: a missing FILE is a usage error, not a refusal.
    const RunResult r = run_mmacheck({"gpu"});
    CHECK(r.status == 2);
    CHECK(r.err.find("built without CUDA") == std::string::npos);
    return;
  }
  const std::vector<std::vector<std::string>> runs = {
      {"gpu"},
      {"gpu", source_path("examples/seed_corrected.txt"), "--cases", "2"},
      {"gpu", "/nonexistent/layout.txt"},
      {"capture", "--instr", "m16n8k16.f16", "-o", "/nonexistent/out.mmav"},
      {"help", "gpu"},
      {"help", "capture"},
  };
  for (const std::vector<std::string>& args : runs) {
    INFO(args[0] << " " << args[1 % args.size()]);
    const RunResult r = run_mmacheck(args);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == refusal(args[0] == "help" ? args[1] : args[0]));
  }
  const RunResult json = run_mmacheck({"gpu", source_path("examples/seed_corrected.txt"), "--json"});
  CHECK(json.status == 2);
  const Json j = Json::parse(json.out);
  REQUIRE(j.contains("error"));  // the one shape of bad input (cli/json_shape.h)
  CHECK(j["verdict"] == "bad input");
  CHECK(j["error"]["message"] == "gpu: this mmacheck was built without CUDA (configure with -DMMACHECK_CUDA=ON)");
  CHECK(j["file"].is_null());
}

}  // namespace test_cli_cuda_commands
