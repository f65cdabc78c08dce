#include "core/base/file_io.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>
#include <utility>

#include "core/base/error.h"

namespace mmacheck {

namespace {

std::string reason(int err) { return std::strerror(err); }

// "a directory", "a FIFO", ... for what a path is when it is not a regular file.
std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "not a regular file";
}

// Closes on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

// Reads until end of file, at most kMaxInputBytes; throws past the cap.
std::string read_all(int fd, const std::string& name, const SourceLoc& loc) {
  std::string text;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(loc, "cannot read '" + name + "': " + reason(errno));
    }
    if (n == 0) return text;
    if (text.size() + static_cast<std::size_t>(n) > kMaxInputBytes)
      throw Error(loc, "cannot read '" + name + "': more than " + std::to_string(kMaxInputBytes >> 20) +
                           " MiB, the limit for an input file");
    text.append(buf, static_cast<std::size_t>(n));
  }
}

// Blocks every catchable signal for its lifetime: a Ctrl-C (or SIGXFSZ)
// between creating a named temporary and renaming it waits until the
// temporary is gone.  Blocking SIGXFSZ turns an over-limit write into EFBIG.
class SignalsBlocked {
 public:
  SignalsBlocked() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved_);
  }
  ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

 private:
  sigset_t saved_;
};

// Where write_file_atomic puts the content: `path` itself (a new name or a
// regular file), or the regular file a symbolic link leads to.
struct Target {
  std::filesystem::path path;
  bool exists = false;
  mode_t mode = 0;  // of the existing file
};

// The name a chain of symbolic links ends at (which need not exist).
template <class Refuse>
std::filesystem::path follow_links(const std::filesystem::path& link, const Refuse& refuse) {
  std::filesystem::path p = link;
  for (int hop = 0; hop < 40; ++hop) {  // Linux's own limit on a chain of links
    std::error_code ec;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) return p;
    const std::filesystem::path to = std::filesystem::read_symlink(p, ec);
    if (ec) throw refuse("cannot follow the symbolic link: " + ec.message());
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  throw refuse("too many levels of symbolic links");
}

Target resolve_target(const std::string& path) {
  const auto refuse = [&](const std::string& why) { return Error("cannot write '" + path + "': " + why); };
  const auto writable = [&](const std::filesystem::path& file, mode_t mode) {
    if ((mode & 0222) == 0 || ::access(file.c_str(), W_OK) != 0) throw refuse("the file is read-only");
  };
  const auto regular = [&](mode_t mode) {
    if (!S_ISREG(mode))
      throw refuse("it is " + kind_of(mode) +
                   "; mmacheck replaces only regular files (use '-o -' for standard output)");
  };
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) throw refuse(reason(errno));
    return Target{path, false, 0};
  }
  if (!S_ISLNK(st.st_mode)) {
    regular(st.st_mode);
    writable(path, st.st_mode);
    return Target{path, true, st.st_mode};
  }
  // A symbolic link.  The kernel's view (stat) decides what it leads to, so
  // /dev/stdout is refused for what fd 1 is (a pipe, a terminal); the name
  // the link resolves to must be that very file (not a /proc pseudo-name).
  std::error_code ec;
  const std::filesystem::path resolved = follow_links(path, refuse);
  if (::stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) throw refuse(reason(errno));
    if (!std::filesystem::is_directory(resolved.parent_path(), ec))
      throw refuse("it is a symbolic link to '" + resolved.string() + "', whose folder does not exist");
    return Target{resolved, false, 0};  // a link to a new name: the name is created
  }
  regular(st.st_mode);
  struct stat named {};
  if (::stat(resolved.c_str(), &named) != 0 || named.st_ino != st.st_ino || named.st_dev != st.st_dev)
    throw refuse("it is a symbolic link to a file without a name of its own");
  writable(resolved, st.st_mode);
  return Target{resolved, true, st.st_mode};
}

void write_all(int fd, std::string_view content, const std::string& path) {
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error("cannot write '" + path + "': " + reason(errno));
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

// The mode a new file gets (0666 less the umask), or the existing file's.
mode_t output_mode(const Target& target) {
  if (target.exists) return target.mode & 07777;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

std::string temp_name(const std::filesystem::path& target) {
  std::random_device random;
  char suffix[17];
  std::snprintf(suffix, sizeof suffix, "%08x%08x", random(), random());
  return (target.parent_path() / ("." + target.filename().string() + ".tmp-" + suffix)).string();
}

// Links the unnamed file `fd` under a fresh hidden name beside the target
// and renames it over the target.  false when linkat is unavailable (no
// /proc): the caller falls back to a named temporary.
bool publish_unnamed(int fd, const Target& target, const std::string& path) {
  const std::string proc = "/proc/self/fd/" + std::to_string(fd);
  const SignalsBlocked blocked;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string tmp = temp_name(target.path);
    if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      if (errno == EEXIST) continue;
      if (errno == ENOENT && attempt == 0) return false;
      throw Error("cannot write '" + path + "': " + reason(errno));
    }
    if (std::rename(tmp.c_str(), target.path.c_str()) != 0) {
      const int err = errno;
      ::unlink(tmp.c_str());
      throw Error("cannot write '" + path + "': " + reason(err));
    }
    return true;
  }
  throw Error("cannot write '" + path + "': no free temporary name");
}

// Without O_TMPFILE: a named temporary, written and renamed with signals blocked.
void write_named_temp(const Target& target, std::string_view content, const std::string& path) {
  const SignalsBlocked blocked;
  std::string tmp = (target.path.parent_path() / ("." + target.path.filename().string() + ".tmp-XXXXXX")).string();
  Fd file{::mkstemp(tmp.data())};
  if (file.fd < 0) throw Error("cannot write '" + path + "': " + reason(errno));
  try {
    ::fchmod(file.fd, output_mode(target));
    write_all(file.fd, content, path);
    if (::close(file.release()) != 0) throw Error("cannot write '" + path + "': " + reason(errno));
    if (std::rename(tmp.c_str(), target.path.c_str()) != 0)
      throw Error("cannot write '" + path + "': " + reason(errno));
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
}

}  // namespace

std::string input_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

std::string read_text_file(const std::string& path) {
  const std::string name = input_name(path);
  const SourceLoc loc{name, 0, 0};
  if (path == "-") return read_all(STDIN_FILENO, name, loc);
  // O_NONBLOCK: opening a FIFO without a writer must not wait for one.
  Fd file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) throw Error(loc, "cannot read '" + path + "': " + reason(errno));
  struct stat st {};
  if (::fstat(file.fd, &st) != 0) throw Error(loc, "cannot read '" + path + "': " + reason(errno));
  if (!S_ISREG(st.st_mode))
    throw Error(loc, "cannot read '" + path + "': it is " + kind_of(st.st_mode) +
                         "; mmacheck reads regular files (or '-' for standard input)");
  if (static_cast<std::uint64_t>(st.st_size) > kMaxInputBytes)
    throw Error(loc, "cannot read '" + path + "': " + std::to_string(st.st_size) + " bytes, more than " +
                         std::to_string(kMaxInputBytes >> 20) + " MiB, the limit for an input file");
  return read_all(file.fd, path, loc);
}

void write_file_atomic(const std::string& path, std::string_view content) {
  if (path == "-") {
    std::cout.write(content.data(), static_cast<std::streamsize>(content.size()));
    finish_standard_output();
    return;
  }
  if (path.empty()) throw Error("cannot write '': empty file name");
  const Target target = resolve_target(path);
  const std::filesystem::path dir = target.path.has_parent_path() ? target.path.parent_path() : ".";
  Fd file{::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, output_mode(target))};
  if (file.fd < 0) {
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
      throw Error("cannot write '" + path + "': " + reason(errno));
    Target named = target;
    if (!named.path.has_parent_path()) named.path = dir / named.path;
    return write_named_temp(named, content, path);
  }
  if (target.exists) ::fchmod(file.fd, target.mode & 07777);
  write_all(file.fd, content, path);
  Target placed = target;
  if (!placed.path.has_parent_path()) placed.path = dir / placed.path;
  if (!publish_unnamed(file.fd, placed, path)) write_named_temp(placed, content, path);
}

void finish_standard_output() {
  errno = 0;
  std::cout.flush();
  if (std::cout) return;
  const int err = errno;
  std::cout.clear();
  throw Error("cannot write standard output" + (err ? ": " + reason(err) : std::string()));
}

}  // namespace mmacheck
