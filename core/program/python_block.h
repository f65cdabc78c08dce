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
#include <string_view>

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
// `from ...` or `import ...` at the cursor: consumed up to the end of the
// statement (imports have no meaning for a check); false, consuming
// nothing, otherwise.
bool skip_import(TokenCursor& in);
// After a decorator's line: skips the blank lines up to the `keyword` (def,
// class) it decorates, leaving the cursor on it; otherwise an Error at the
// decorator's '@' ("@T.prim_func must be followed by a def").
void expect_decorated(TokenCursor& in, const Token& at, std::string_view decorator, std::string_view keyword);

}  // namespace mmacheck::python
