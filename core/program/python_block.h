// The statement structure of the Python-syntax front ends (TVMScript, the
// released TIRx): blocks by indentation, the suite after a compound
// statement's ':', imports, and the line after a decorator.  Each reader
// passes its own `statement` (which reads one statement at the cursor); the
// structure, and its errors, are the same for all of them.
//
//     for s in T.unroll(4): a[s] = A[s]; b[s] = B[s]    <- both in the loop (a suite)
//     for s in T.unroll(4):
//         a[s] = A[s]                                   <- an indented block
//
// A block ends at the first statement left of its column; a statement right
// of it is "unexpected indent"; after a ':' at the end of a line the next
// statement must be indented further than the header.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/program/lexer.h"

namespace mmacheck::python {

using Statement = std::function<void()>;

// Statements at column `indent` until one starts left of it (indent 0: the
// top level, any column); the newline that ends the block is left for the
// caller.  `header` is the compound statement that opened the block (for
// messages), nullptr at the top level.
void block(TokenCursor& in, int indent, const Token* header, const Statement& statement);
// After a compound statement's header: expects ':', then reads the simple
// statements on the same line (separated by ';') or an indented block.
void suite(TokenCursor& in, const Token& header, const Statement& statement);
// One statement at the cursor, with the block of a compound one, passed
// over unread (the untaken branch of an if, a def's body until it is called).
void skip_statement(TokenCursor& in);
// `from ...` or `import ...` at the cursor: consumed up to the end of the
// statement (imports have no meaning for a check); false, consuming
// nothing, otherwise.
bool skip_import(TokenCursor& in);
// After a decorator's line: skips the blank lines up to the `keyword` (def,
// class) it decorates, leaving the cursor on it; otherwise an Error at the
// decorator's '@' ("@T.prim_func must be followed by a def").
void expect_decorated(TokenCursor& in, const Token& at, std::string_view decorator, std::string_view keyword);

// `@T.prim_func`, `@T.function`, `@I.ir_module` (also Tx., T.ir_module) at
// peek(k): a kernel a reader reads (or refuses), never one to skip.
bool at_kernel_decorator(const TokenCursor& in, std::size_t k = 0);

// `T.func_attr({...})` (the kernel's name, target and compiler options) and
// `T.evaluate(0)` compute nothing: consumed, returning "T.func_attr (line 9)".
// T.evaluate of anything else could call anything: an Error there.  nullopt,
// consuming nothing, at any other statement.
std::optional<std::string> skip_inert_call(TokenCursor& in);

// The top-level statements of a whole .py file that are not kernels and
// cannot change one, for a reader to pass over (docs/tvmscript.md):
//
//     def helper(x): ...               a def (helper, test, factory) and its decorators
//     @pytest.mark.parametrize(...)    decorators other than a kernel's
//     class TestGemm: ...              a class that is not an @I.ir_module
//     if __name__ == "__main__": ...   the script block (nothing is read after it)
//     SHAPES = [(1, 1, 1, 16), ...]    data: a list or dict bound to a name
//
// skip() consumes one such statement (with its block) and records it; the
// name it binds is passed to `forget`, so that the reader drops what it held
// under that name (a later use is an unknown name, never the value before).
// A kernel decorator inside a skipped def or class, or under another
// decorator, is an Error at the kernel: a factory's kernel depends on its
// arguments, which mmacheck does not evaluate.
class ForeignStatements {
 public:
  using Forget = std::function<void(const std::string& name)>;
  // At a top-level statement: true when it was skipped.
  bool skip(TokenCursor& in, const Forget& forget);
  // What was skipped, in order, each with its line ("def helper (line 12)").
  const std::vector<std::string>& skipped() const { return skipped_; }
  // Another statement passed over, in the file's order: a def the reader
  // keeps for the tests that call it (core/program/python_module.h).
  void note(std::string what) { skipped_.push_back(std::move(what)); }

 private:
  std::vector<std::string> skipped_;
  std::optional<int> main_block_line_;  // the if __name__ block, after which nothing is read
};

}  // namespace mmacheck::python
