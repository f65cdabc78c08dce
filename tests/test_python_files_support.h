// Helpers for the tests of Python test files (a module whose tests build
// kernels, docs/tvmscript.md "Test files"): each kernel's verdict by its
// pytest name and the reader's error where it refuses a variant (the
// variants are planted with tests/test_prove_support.h's replace_once).
#pragma once

#include <map>
#include <string>

#include "tests/test_prove_support.h"

namespace mmacheck::test {

// Every kernel the module's tests build, read as `file`: name -> verdict.
std::map<std::string, std::string> kernel_verdicts(const std::string& text, const std::string& file);

// "LINE:COL: message" of the Error reading and proving them throws; "" when none.
std::string kernel_error(const std::string& text, const std::string& file);

}  // namespace mmacheck::test
