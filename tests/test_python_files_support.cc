#include "tests/test_python_files_support.h"

#include "core/base/error.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"

namespace mmacheck::test {

std::map<std::string, std::string> kernel_verdicts(const std::string& text, const std::string& file) {
  const ReadProgram read = read_program(text, file);
  std::map<std::string, std::string> out;
  for (const KernelInstance& k : read.instances)
    out[k.name] = std::string(verdict_name(prove(k.program, ProveOptions{}).verdict));
  return out;
}

std::string kernel_error(const std::string& text, const std::string& file) {
  try {
    kernel_verdicts(text, file);
  } catch (const Error& e) {
    return std::to_string(e.loc().line) + ":" + std::to_string(e.loc().col) + ": " + e.message();
  }
  return "";
}

}  // namespace mmacheck::test
