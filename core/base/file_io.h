// Reading inputs and writing outputs whole, safely.
//
// Inputs are regular files (or `-`, standard input), at most
// kMaxInputBytes: a directory, a FIFO (which would block forever without a
// writer), a device (/dev/zero never ends) or a file over the cap is bad
// input, reported before anything is read.
//
// Outputs are never left half written and never replace what is not a
// regular file.  `-` is standard output.  Otherwise the target must be a
// new name or a writable regular file; a symbolic link is followed (the
// link stays, its target is replaced) when it leads to a regular file or a
// new name in an existing folder, and refused when it dangles into nothing
// or leads to anything else.  Directories, FIFOs, devices (/dev/stdout,
// /dev/full), sockets and read-only files are refused with the reason.
// The content goes into an unnamed file (O_TMPFILE) in the target's
// folder, which is linked under a hidden temporary name and renamed over
// the target with every catchable signal blocked, so neither a failed
// write nor a signal leaves a temporary behind.  Where the file system has
// no O_TMPFILE, a named temporary is written with signals blocked.
//
//     write_file_atomic("seed.svg", svg);   // seed.svg complete, or unchanged
//     write_file_atomic("/dev/full", svg);  // throws "cannot write '/dev/full': it is a
//                                           //   character device; ..."
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace mmacheck {

inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

// The whole file (`-`: standard input); throws Error("cannot read 'FILE': reason")
// located at FILE on failure.
std::string read_text_file(const std::string& path);
// The name messages give an input: "<stdin>" for `-`, otherwise the path.
std::string input_name(const std::string& path);

// Write `content` to `path` as described above; throws Error on failure
// and leaves the target as it was.  `-` writes to standard output (through
// std::cout, flushed; a failed write throws).
void write_file_atomic(const std::string& path, std::string_view content);

// Flush std::cout; throws Error("cannot write standard output: reason") when
// any write to it failed (a full disk, a closed pipe).  Every command's
// output is checked so: a lost result is exit 2, never a silent 0.
void finish_standard_output();

}  // namespace mmacheck
