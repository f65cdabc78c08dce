#include "tests/support.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

extern char** environ;

namespace mmacheck::test {

std::string source_path(const std::string& rel) { return std::string(MMACHECK_SOURCE_DIR) + "/" + rel; }

std::string shared_vectors_dir() {
  const std::filesystem::path dir = std::filesystem::path(MMACHECK_SOURCE_DIR).parent_path() / "shared" / "vectors";
  return std::filesystem::is_directory(dir) ? dir.string() : std::string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

RunResult run_program(const std::vector<std::string>& argv) {
  RunResult result;
  char out_name[] = "/tmp/mmacheck-test-out-XXXXXX";
  char err_name[] = "/tmp/mmacheck-test-err-XXXXXX";
  const int out_fd = mkstemp(out_name);
  const int err_fd = mkstemp(err_name);
  if (out_fd < 0 || err_fd < 0) return result;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  std::vector<char*> cargs;
  for (const std::string& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, cargs[0], &actions, nullptr, cargs.data(), environ) == 0) {
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    if (WIFEXITED(wstatus)) result.status = WEXITSTATUS(wstatus);
  }
  posix_spawn_file_actions_destroy(&actions);
  close(out_fd);
  close(err_fd);
  result.out = read_file(out_name);
  result.err = read_file(err_name);
  std::remove(out_name);
  std::remove(err_name);
  return result;
}

RunResult run_mmacheck(const std::vector<std::string>& args) {
  std::vector<std::string> argv{MMACHECK_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv);
}

void skip(const std::string& reason) { std::cout << "MMACHECK-SKIPPED: " << reason << std::endl; }

bool runs_here(const std::string& command) {
  return kWithCuda || std::find(kCudaCommands.begin(), kCudaCommands.end(), command) == kCudaCommands.end();
}

}  // namespace mmacheck::test
