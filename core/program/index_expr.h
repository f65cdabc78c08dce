// IndexExpr — an integer expression over a few named variables, as written in
// a layout file's `stage` / `store` statements:
//
//     lane // 4 + 8 * ((s // 2) % 2)
//
// Literals, the variables `lane` (0..31, lane in the warp), `warp` (warp in
// the CTA), `tid` (thread in the scope: 32*warp + lane) and `s` (register
// slot), the operators + - * // % with Python's meaning (// and % floor), unary
// minus and parentheses; also `x >> k`, `x << k` and `x & (2^k - 1)` with a
// literal k (read as x // 2^k, x * 2^k, x % 2^k, which they are in Python).
// Immutable; copies share the tree.
//
//     IndexExpr e = parse_index_expr("lane // 4 + 8 * s", "<expr>");
//     e.eval({.lane = 5, .slot = 1}) == 9;
//     e.str() == "lane // 4 + 8 * s";
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/error.h"

namespace mmacheck {

struct IndexEnv {
  std::int64_t lane = 0;
  std::int64_t warp = 0;
  std::int64_t tid = 0;
  std::int64_t slot = 0;
};

class IndexExpr {
 public:
  enum class Kind { literal, lane, warp, tid, slot, add, sub, mul, floordiv, floormod, neg };

  static IndexExpr literal(std::int64_t value, SourceLoc loc = {});
  static IndexExpr variable(Kind var, SourceLoc loc = {});                 // lane, warp, tid or slot
  static IndexExpr unary(Kind op, IndexExpr operand, SourceLoc loc = {});  // neg
  static IndexExpr binary(Kind op, IndexExpr lhs, IndexExpr rhs, SourceLoc loc = {});

  Kind kind() const;
  std::int64_t value() const;    // literal only
  const IndexExpr& lhs() const;  // unary/binary operand
  const IndexExpr& rhs() const;  // binary only
  // A leaf's token, or a unary/binary node's operator token (so that eval's
  // errors point at the operator).
  const SourceLoc& loc() const;

  // Throws Error (at the operator's location) on division or modulo by zero
  // and on int64 overflow.
  std::int64_t eval(const IndexEnv& env) const;
  // Fully parenthesised only where needed, Python operator spelling.
  std::string str() const;
  // The expression with every occurrence of variable `var` replaced by
  // `value` (a warp shuffle reads another lane's value: lane := 0).
  //
  //     parse_index_expr("tid // 32", ..).substitute(Kind::tid, 32 * warp).str() == "32 * warp // 32"
  IndexExpr substitute(Kind var, const IndexExpr& value) const;

  // One binary operator (add, sub, mul, floordiv, floormod) on integers, with
  // the semantics above; errors are placed at `loc`.  Also used to fold
  // constant arithmetic in layout expressions.
  static std::int64_t apply(Kind op, std::int64_t lhs, std::int64_t rhs, const SourceLoc& loc);

 private:
  struct Node;
  explicit IndexExpr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

class TokenCursor;
struct Token;

// Names an expression may use in place of the built-in variables, each
// standing for an expression (TVMScript: `lane` bound by T.lane_id, a loop
// variable, `kp = s % 2`).  A name is replaced by its expression.
using IndexNames = std::map<std::string, IndexExpr, std::less<>>;

// Parse one expression at the cursor, stopping before the first token that
// cannot continue it (`,` `]` or the end of the line).  Variables: lane,
// warp, tid, s; at most 1000 binary operators (which bounds the tree's depth).
// Throws Error at the offending token ("unknown variable 'x'", "use '//' for
// division", ...).
IndexExpr parse_index_expr(TokenCursor& in);
// The same, where identifiers are exactly the `names` (no built-in lane, s).
IndexExpr parse_index_expr(TokenCursor& in, const IndexNames& names);

// A function an expression may call, `row(lane, s)`: from its arguments'
// expressions (positional) and the call's name token, the expression it
// stands for (the released TIRx's Python helpers, run as TVMScript's parser
// runs them: core/program/tirx_release/).  It throws Error to refuse a call.
using IndexFunction = std::function<IndexExpr(const std::vector<IndexExpr>& args, const Token& name)>;
using IndexFunctions = std::map<std::string, IndexFunction, std::less<>>;
// The same, where `NAME(ARG, ...)` calls the function of that name.
IndexExpr parse_index_expr(TokenCursor& in, const IndexNames& names, const IndexFunctions& functions);
// Parse `text`, which must hold exactly one expression; `source` names it in
// messages (SourceLoc::file).
IndexExpr parse_index_expr(std::string_view text, const std::string& source);

}  // namespace mmacheck
