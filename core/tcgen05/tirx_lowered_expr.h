// evaluate_lowered() — the integer expressions of a TIRx lowered dump (TVM
// 0.1.0a4's printed module after TileDispatch), evaluated with the values of
// its loop variables.  What TIRx's tcgen05.mma pattern passes is written in
// them (core/tcgen05/tcgen05_tirx.h):
//
//     T.uint64(65536) | T.uint64(1073758272) << T.uint64(32)
//         | T.Cast("uint64", (T.cuda.cvta_generic_to_shared(T.address_of(sa[0, repeat_2, 0, 0]))
//                             - T.Cast("uint32", ...) + T.Cast("uint32", ...)) // T.uint32(16)) & T.uint64(16383)
//
// Python's precedence and integer semantics (`//` and `%` floor): | ^ & << >>
// + - * // % and unary -, parentheses, integers, loop variables,
// T.int32/T.uint32/T.uint64(x) (the value), T.Cast("int32"|"uint32"|"uint64",
// x) (the value wrapped to the width, as the cast does), and
// T.cuda.cvta_generic_to_shared(T.address_of(BUF[i, ...])), the shared
// address of a buffer's element, which the caller gives (`address`).
// Values are exact on the way (an intermediate beyond 96 bits is an Error);
// the result must be an unsigned `bits`-bit value (its bits returned as
// int64: a 64-bit descriptor with bit 63 set is negative).  Anything else
// (another call, a float, a name that is no loop variable) at its token.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/program/lexer.h"

namespace mmacheck {

struct LoweredNames {
  std::map<std::string, std::int64_t, std::less<>> loop_vars;
  // The shared address of BUF[indices] (`buffer` the name token); throws
  // Error when BUF is no shared buffer or an index is out of range.
  std::function<std::int64_t(const Token& buffer, const std::vector<std::int64_t>& indices)> address;
};

// One expression at the cursor; stops before the `,` or `)` that ends it.
std::int64_t evaluate_lowered(TokenCursor& in, const LoweredNames& names, int bits);

// One condition at the cursor (tcgen05.mma's enable-input-D argument):
// T.Or/T.And/T.Not(...), T.bool(True|False), True, False, or a comparison
// (== != < <= > >=) of two expressions as above; stops like evaluate_lowered.
bool evaluate_lowered_condition(TokenCursor& in, const LoweredNames& names);

}  // namespace mmacheck
