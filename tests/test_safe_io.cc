// Defects 4, 5 and 6 of the hardening issue: outputs replace only regular
// files (or go to `-`), atomically and without leftovers; inputs are
// regular files of bounded size; a failed write of standard output is exit 2.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "core/base/error.h"
#include "core/base/file_io.h"
#include "tests/support.h"
#include "tests/test_hardening_support.h"

namespace mmacheck::test_safe_io {
namespace {

using Catch::Matchers::Contains;
namespace fs = std::filesystem;

std::string write_error(const std::string& path, const std::string& content = "x") {
  try {
    write_file_atomic(path, content);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string read_error(const std::string& path) {
  try {
    (void)read_text_file(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("outputs refuse devices, directories and FIFOs, and leave them alone", "[hardening][io]") {
  test::ScratchDir dir;
  CHECK_THAT(write_error("/dev/null"),
             Contains("cannot write '/dev/null': it is a character device") && Contains("-o -"));
  CHECK(fs::is_character_file("/dev/null"));
  CHECK_THAT(write_error(dir.path()), Contains("it is a directory"));
  const std::string fifo = dir.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(write_error(fifo), Contains("it is a FIFO"));
  CHECK(fs::is_fifo(fifo));
}

TEST_CASE("draw -o /dev/null is refused; -o - writes the picture to standard output", "[hardening][io]") {
  const std::string seed = test::source_path("examples/seed_corrected.txt");
  const test::RunResult dev = test::run_mmacheck({"draw", seed, "-o", "/dev/null"});
  CHECK(dev.status == 2);
  CHECK_THAT(dev.err, Contains("character device"));
  CHECK(fs::is_character_file("/dev/null"));
  const test::RunResult out = test::run_mmacheck({"draw", seed, "-o", "-"});
  CHECK(out.status == 0);
  CHECK(out.out.rfind("<svg", 0) == 0);
  CHECK_THAT(out.err, Contains("proved"));
  // /dev/stdout leads (through /proc) to what fd 1 is, here a pipe: refused
  // for being one, never replaced by a regular file.
  const test::RunResult piped =
      test::run_program({"sh", "-c", "\"$0\" draw \"$1\" -o /dev/stdout | cat; exit $?", MMACHECK_BINARY, seed});
  CHECK_THAT(piped.err, Contains("cannot write '/dev/stdout': it is a FIFO"));
  CHECK(fs::is_symlink("/dev/stdout"));
}

TEST_CASE("outputs: regular files replaced, read-only refused, symbolic links followed", "[hardening][io]") {
  test::ScratchDir dir;
  const std::string plain = dir.write("plain.svg", "old");
  write_file_atomic(plain, "new");
  CHECK(test::read_file(plain) == "new");

  const std::string locked = dir.write("locked.svg", "keep");
  fs::permissions(locked, fs::perms::owner_read | fs::perms::group_read);
  CHECK_THAT(write_error(locked), Contains("read-only"));
  CHECK(test::read_file(locked) == "keep");

  // A link to a regular file: the link stays, its target gets the content.
  const std::string target = dir.write("target.svg", "old");
  const std::string link = dir.file("link.svg");
  fs::create_symlink(target, link);
  write_file_atomic(link, "through the link");
  CHECK(fs::is_symlink(link));
  CHECK(test::read_file(target) == "through the link");

  // A link to a new name in an existing folder creates it; one into a
  // missing folder, or to a device, is refused.
  const std::string fresh = dir.file("fresh-link.svg");
  fs::create_symlink(dir.file("created.svg"), fresh);
  write_file_atomic(fresh, "created");
  CHECK(test::read_file(dir.file("created.svg")) == "created");
  const std::string nowhere = dir.file("nowhere.svg");
  fs::create_symlink(dir.file("missing/x.svg"), nowhere);
  CHECK_THAT(write_error(nowhere), Contains("does not exist"));
  const std::string to_device = dir.file("device.svg");
  fs::create_symlink("/dev/null", to_device);
  CHECK_THAT(write_error(to_device), Contains("character device"));

  // Nothing hidden is left beside the outputs.
  for (const std::string& name : dir.entries()) CHECK(name.find(".tmp-") == std::string::npos);
}

TEST_CASE("a signal during the write leaves no temporary file behind", "[hardening][io]") {
  test::ScratchDir dir;
  const std::string out = dir.write("big.svg", "old");
  const std::string content(8 << 20, 'x');
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The file size limit makes the kernel send SIGXFSZ (default: terminate)
    // in the middle of the write, after the temporary exists.
    const rlimit small{1 << 20, 1 << 20};
    ::setrlimit(RLIMIT_FSIZE, &small);
    try {
      write_file_atomic(out, content);
    } catch (...) {
      ::_exit(3);
    }
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK((WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 3)));
  CHECK(test::read_file(out) == "old");
  for (const std::string& name : dir.entries()) CHECK(name.find(".tmp-") == std::string::npos);
}

TEST_CASE("inputs: only regular files, bounded, never blocking", "[hardening][io]") {
  test::ScratchDir dir;
  const auto start = std::chrono::steady_clock::now();
  CHECK_THAT(read_error("/dev/zero"), Contains("'/dev/zero': it is a character device"));
  const std::string fifo = dir.file("fifo.txt");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(read_error(fifo), Contains("it is a FIFO"));  // no writer: must not wait for one
  CHECK_THAT(read_error(dir.path()), Contains("it is a directory"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));

  const std::string huge = dir.file("huge.txt");
  {
    const int fd = ::open(huge.c_str(), O_CREAT | O_WRONLY, 0600);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, static_cast<off_t>(kMaxInputBytes) + 1) == 0);  // sparse: no disk used
    ::close(fd);
  }
  CHECK_THAT(read_error(huge), Contains("MiB, the limit for an input file"));
  CHECK(read_text_file(dir.write("ok.txt", "abc")) == "abc");
  try {
    (void)read_text_file(fifo);
  } catch (const Error& e) {
    CHECK(e.loc().file == fifo);
  }
}

TEST_CASE("the commands read - as standard input and refuse /dev/zero", "[hardening][io]") {
  const std::string seed = test::source_path("examples/seed_corrected.txt");
  const test::RunResult piped = test::run_program({"sh", "-c", "exec \"$0\" prove - < \"$1\"", MMACHECK_BINARY, seed});
  CHECK(piped.status == 0);
  CHECK_THAT(piped.out, Contains("verdict: proved"));
  const test::RunResult zero = test::run_mmacheck({"prove", "/dev/zero"});
  CHECK(zero.status == 2);
  CHECK_THAT(zero.err, Contains("/dev/zero: error: cannot read '/dev/zero': it is a character device"));
}

TEST_CASE("a failed write of standard output is exit 2, never a silent 0", "[hardening][io]") {
  if (!fs::exists("/dev/full")) return test::skip("no /dev/full");
  const std::string seed = test::source_path("examples/seed_corrected.txt");
  for (const std::string& command :
       {std::string("emit \"$1\""), std::string("prove --json \"$1\""), std::string("layout 'S[8 : 1]' --shape 8")}) {
    const test::RunResult r =
        test::run_program({"sh", "-c", "exec \"$0\" " + command + " > /dev/full", MMACHECK_BINARY, seed});
    INFO(command);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Contains("cannot write standard output: No space left on device"));
  }
}

}  // namespace mmacheck::test_safe_io
