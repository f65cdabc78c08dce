// Argument values of the Python-syntax front ends (TVMScript, the released
// TIRx, the layout file's calls): shapes, dtype and scope words, booleans,
// numbers.  Each reads one value at the cursor or throws Error there.
//
//     (16, 8)  [16, 8]  16           -> parse_shape
//     "float16"  float16  T.float16  -> parse_dtype_word
//     "local"  local                 -> parse_scope_word
#pragma once

#include <string_view>

#include "core/program/dtype.h"
#include "core/program/lexer.h"
#include "core/program/program.h"

namespace mmacheck::python {

Shape parse_shape(TokenCursor& in);                         // 16, (16, 8) or [16, 8]; positive, < 2^62 elements
const Token& word(TokenCursor& in, std::string_view what);  // "x", x or T.x
DType parse_dtype_word(TokenCursor& in);                    // "float16", float16, T.float16
MemScope parse_scope_word(TokenCursor& in);                 // "local", local
bool parse_bool(TokenCursor& in);                           // True, False
double parse_number(TokenCursor& in);                       // 1, -0.5

}  // namespace mmacheck::python
