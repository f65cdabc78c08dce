// IndexExpr — an integer expression over a few named variables, as written in
// a layout file's `stage` / `store` statements:
//
//     lane // 4 + 8 * ((s // 2) % 2)
//
// Literals, the variables `lane` (0..31, lane in the warp), `warp` (warp in
// the CTA), `tid` (thread in the scope: 32*warp + lane) and `s` (register
// slot), the operators + - * // % with Python's meaning (// and % floor), unary
// minus and parentheses.  Immutable; copies share the tree.
//
//     IndexExpr e = ...;                       // parsed from "lane // 4 + 8 * s"
//     e.eval({.lane = 5, .slot = 1}) == 9;
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"

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
  static IndexExpr variable(Kind var, SourceLoc loc = {});  // lane, warp, tid or slot
  static IndexExpr unary(Kind op, IndexExpr operand, SourceLoc loc = {});  // neg
  static IndexExpr binary(Kind op, IndexExpr lhs, IndexExpr rhs, SourceLoc loc = {});

  Kind kind() const;
  std::int64_t value() const;     // literal only
  const IndexExpr& lhs() const;   // unary/binary operand
  const IndexExpr& rhs() const;   // binary only
  const SourceLoc& loc() const;   // where the (sub)expression starts

  // Throws Error (at the operator's location) on division or modulo by zero.
  std::int64_t eval(const IndexEnv& env) const;
  // Fully parenthesised only where needed, Python operator spelling.
  std::string str() const;

 private:
  struct Node;
  explicit IndexExpr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

}  // namespace mmacheck
