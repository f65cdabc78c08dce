// Python expressions, evaluated while read, over the values of
// core/program/python_value.h — the part of Python a test file uses to
// decide a kernel's closure:
//
//     16 * Mt, kinst // (4 * KP), -1, 0.5       int and float arithmetic
//     beta == 1.0, not store, a and b, x in L   comparisons and logic
//     A_FRAG if kinst == 16 else A_FRAG_K8      conditional expressions
//     (1, 2), [16, 8], SHAPES[0]                tuples, lists, indexing
//     _frag(Mt, Nt, Kt, kinst=16)               calls of the file's defs
//     D_FRAG.tile_to([16 * Mt, 8], [16, 8])     layout expressions (layout_parser.h)
//
// A layout expression starts at a layout builder (S, R, TileLayout, T.,
// Axis, ...) or a name bound to a layout, and is read by the layout parser
// with the scope's integers, integer tuples and layouts as its names.
// Anything else (another call, an attribute, a dict) is an Error at its
// token: the statement executor (python_module.h) decides whether that
// refuses the file or only leaves a name unknown.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/program/layout_parser.h"
#include "core/program/lexer.h"
#include "core/program/python_value.h"

namespace mmacheck::python {

// One argument of a call: `value` or `keyword=value`.
struct CallArg {
  std::optional<std::string> keyword;
  Value value;
};

// Calls a def of the file (the executor's job: it runs the body).
using CallFunction = std::function<Value(const Function& f, const std::vector<CallArg>& args, const Token& callee)>;

// One expression at the cursor (a conditional expression at most; a bare
// `a, b` stops at the comma).
Value evaluate(TokenCursor& in, const Scope& scope, const CallFunction& call);
// `a, b, c` as an assignment's right side or a return value: a tuple when
// there is a comma, else the one value.
Value evaluate_tuple(TokenCursor& in, const Scope& scope, const CallFunction& call);
// The call `f(args)` with the cursor on `(`.
std::vector<CallArg> evaluate_args(TokenCursor& in, const Scope& scope, const CallFunction& call);

// The names a layout expression may use in `scope`: its layouts, integers
// (bools as 0/1) and tuples of integers, the innermost binding of each.
LayoutNames layout_names(const Scope& scope);

}  // namespace mmacheck::python
