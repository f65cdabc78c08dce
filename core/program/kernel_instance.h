// A kernel a factory or a test built (core/program/python_module.h), made
// ready for the TVMScript reader as TVMScript itself reads it: the names
// its closure binds to Python constants are those constants.
//
//     Mt, dtype, Al = 2, "float16", <layout>      the closure
//     A = T.alloc_buffer((16 * Mt, 16), dtype, scope="local", layout=Al)
//  -> A = T.alloc_buffer((32, 16), "float16", scope="local", layout=Al)   and Al bound
//
// Each constant's literal takes the name's place (and location); constant
// integer arithmetic between brackets and commas is folded; the kernel's
// own names (parameters, assignment and loop targets) are never replaced.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <functional>

#include "core/program/lexer.h"
#include "core/program/program.h"
#include "core/program/python_module.h"
#include "core/program/python_value.h"

namespace mmacheck {

struct ClosedKernel {
  std::vector<Token> tokens;  // the decorator through the def's block, then `end`
  // The closure's layouts the kernel names, for the reader to bind.
  std::vector<std::pair<std::string, python::Value>> layouts;
};

ClosedKernel close_kernel(const python::KernelSite& site);

// Whether two closed kernels are one input to the kernel reader: the same
// tokens (kind, spelling, place) and the same layouts under the same names.
// The reader reads nothing else, so such kernels read to one Program: a test
// parametrized over values the kernel does not use builds it again and again.
bool same_kernel(const ClosedKernel& a, const ClosedKernel& b);
// A hash of the tokens' spellings and places, equal for the same kernel.
std::size_t kernel_hash(const ClosedKernel& kernel);

// What a reader makes of one closed kernel: its Program and what it passed over.
struct ReadKernel {
  Program program;
  std::vector<std::string> skipped;
};

// The kernels a file's tests build (python::Module::instances), each closed
// and read by `read` once: a kernel built again from the same closure is the
// first one's Program, its report shared (KernelInstance::same_as).  Both
// readers of test files (TVMScript, the released TIRx) read them so.
std::vector<KernelInstance> read_instances(const std::vector<python::Instance>& built,
                                           const std::function<ReadKernel(const ClosedKernel&)>& read);

}  // namespace mmacheck
