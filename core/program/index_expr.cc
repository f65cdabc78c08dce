#include "core/program/index_expr.h"

#include <limits>
#include <optional>
#include <stdexcept>

#include "core/program/lexer.h"

namespace mmacheck {

struct IndexExpr::Node {
  Kind kind;
  std::int64_t value = 0;
  std::optional<IndexExpr> lhs, rhs;
  SourceLoc loc;
};

namespace {

using Kind = IndexExpr::Kind;

bool is_variable(Kind k) { return k == Kind::lane || k == Kind::warp || k == Kind::tid || k == Kind::slot; }
bool is_binary(Kind k) {
  return k == Kind::add || k == Kind::sub || k == Kind::mul || k == Kind::floordiv || k == Kind::floormod;
}

std::string_view spelling(Kind k) {
  switch (k) {
    case Kind::lane: return "lane";
    case Kind::warp: return "warp";
    case Kind::tid: return "tid";
    case Kind::slot: return "s";
    case Kind::add: return "+";
    case Kind::sub:
    case Kind::neg: return "-";
    case Kind::mul: return "*";
    case Kind::floordiv: return "//";
    case Kind::floormod: return "%";
    case Kind::literal: break;
  }
  return "";
}

// Python binding strength: + - < * // % < unary minus < atoms.
int precedence(Kind k) {
  if (k == Kind::add || k == Kind::sub) return 1;
  if (k == Kind::mul || k == Kind::floordiv || k == Kind::floormod) return 2;
  if (k == Kind::neg) return 3;
  return 4;
}

[[noreturn]] void overflow(const SourceLoc& loc) { throw Error(loc, "integer overflow in index expression"); }

}  // namespace

IndexExpr IndexExpr::literal(std::int64_t value, SourceLoc loc) {
  return IndexExpr(std::make_shared<const Node>(Node{Kind::literal, value, {}, {}, std::move(loc)}));
}

IndexExpr IndexExpr::variable(Kind var, SourceLoc loc) {
  if (!is_variable(var)) throw std::invalid_argument("IndexExpr::variable: not a variable kind");
  return IndexExpr(std::make_shared<const Node>(Node{var, 0, {}, {}, std::move(loc)}));
}

IndexExpr IndexExpr::unary(Kind op, IndexExpr operand, SourceLoc loc) {
  if (op != Kind::neg) throw std::invalid_argument("IndexExpr::unary: not a unary operator");
  return IndexExpr(std::make_shared<const Node>(Node{op, 0, std::move(operand), {}, std::move(loc)}));
}

IndexExpr IndexExpr::binary(Kind op, IndexExpr lhs, IndexExpr rhs, SourceLoc loc) {
  if (!is_binary(op)) throw std::invalid_argument("IndexExpr::binary: not a binary operator");
  return IndexExpr(std::make_shared<const Node>(Node{op, 0, std::move(lhs), std::move(rhs), std::move(loc)}));
}

IndexExpr::Kind IndexExpr::kind() const { return node_->kind; }
std::int64_t IndexExpr::value() const { return node_->value; }
const SourceLoc& IndexExpr::loc() const { return node_->loc; }

const IndexExpr& IndexExpr::lhs() const {
  if (!node_->lhs) throw std::logic_error("IndexExpr::lhs on a leaf");
  return *node_->lhs;
}

const IndexExpr& IndexExpr::rhs() const {
  if (!node_->rhs) throw std::logic_error("IndexExpr::rhs on a leaf or unary node");
  return *node_->rhs;
}

std::int64_t IndexExpr::apply(Kind op, std::int64_t a, std::int64_t b, const SourceLoc& loc) {
  std::int64_t r = 0;
  switch (op) {
    case Kind::add:
      if (__builtin_add_overflow(a, b, &r)) overflow(loc);
      return r;
    case Kind::sub:
      if (__builtin_sub_overflow(a, b, &r)) overflow(loc);
      return r;
    case Kind::mul:
      if (__builtin_mul_overflow(a, b, &r)) overflow(loc);
      return r;
    case Kind::floordiv:
    case Kind::floormod: {
      if (b == 0) throw Error(loc, std::string(op == Kind::floordiv ? "division" : "modulo") + " by zero");
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) {
        if (op == Kind::floormod) return 0;
        overflow(loc);
      }
      std::int64_t q = a / b;
      std::int64_t m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) {
        --q;
        m += b;
      }
      return op == Kind::floordiv ? q : m;
    }
    default: throw std::invalid_argument("IndexExpr::apply: not a binary operator");
  }
}

IndexExpr IndexExpr::substitute(Kind var, const IndexExpr& value) const {
  const Node& n = *node_;
  if (n.kind == var) return value;
  if (n.rhs) return binary(n.kind, n.lhs->substitute(var, value), n.rhs->substitute(var, value), n.loc);
  if (n.lhs) return unary(n.kind, n.lhs->substitute(var, value), n.loc);
  return *this;
}

std::int64_t IndexExpr::eval(const IndexEnv& env) const {
  const Node& n = *node_;
  switch (n.kind) {
    case Kind::literal: return n.value;
    case Kind::lane: return env.lane;
    case Kind::warp: return env.warp;
    case Kind::tid: return env.tid;
    case Kind::slot: return env.slot;
    case Kind::neg: {
      std::int64_t r = 0;
      if (__builtin_sub_overflow(std::int64_t{0}, n.lhs->eval(env), &r)) overflow(n.loc);
      return r;
    }
    default: return apply(n.kind, n.lhs->eval(env), n.rhs->eval(env), n.loc);
  }
}

std::string IndexExpr::str() const {
  const Node& n = *node_;
  if (n.kind == Kind::literal) return std::to_string(n.value);
  if (is_variable(n.kind)) return std::string(spelling(n.kind));
  // A child is parenthesised when it binds more loosely than this node (or
  // as tightly, on the right: the operators are left-associative).
  const auto child = [&](const IndexExpr& c, bool right) {
    const int pc = c.kind() == Kind::literal && c.value() < 0 ? precedence(Kind::neg) : precedence(c.kind());
    const bool parens = pc < precedence(n.kind) || (right && pc == precedence(n.kind));
    return parens ? std::string("(").append(c.str()).append(")") : c.str();
  };
  if (n.kind == Kind::neg) return std::string("-").append(child(*n.lhs, true));
  return child(*n.lhs, false) + " " + std::string(spelling(n.kind)) + " " + child(*n.rhs, true);
}

// ---- parsing ---------------------------------------------------------------

namespace {

class IndexParser {
 public:
  IndexParser(TokenCursor& in, const IndexNames* names, const IndexFunctions* functions = nullptr)
      : in_(in), names_(names), functions_(functions) {}

  // bits := shift ('&' MASK)*   where MASK is a literal 2^k - 1: x & MASK is
  // x % 2^k (also for negative x, as in Python)
  IndexExpr bits() {
    IndexExpr lhs = shift();
    while (in_.peek().is_op("&")) {
      const Token& op = operator_token();
      const std::int64_t mask = literal_operand(shift(), op, "'&'");
      if (mask < 0 || mask == INT64_MAX || ((mask + 1) & mask) != 0)
        in_.fail(op, "'&' is supported with a mask 2^k - 1 (3, 7, 15, ...), got " + std::to_string(mask));
      lhs = IndexExpr::binary(Kind::floormod, lhs, IndexExpr::literal(mask + 1, op.loc), op.loc);
    }
    return lhs;
  }

  // shift := sum (('>>' | '<<') K)*   with K a literal 0..62: x >> K is
  // x // 2^K (floor, as in Python), x << K is x * 2^K
  IndexExpr shift() {
    IndexExpr lhs = sum();
    while (in_.peek().is_op(">>") || in_.peek().is_op("<<")) {
      const Token& op = operator_token();
      const std::int64_t k = literal_operand(sum(), op, "'" + op.text + "'");
      if (k < 0 || k > 62) in_.fail(op, "shift count must be 0..62, got " + std::to_string(k));
      lhs = IndexExpr::binary(op.text == ">>" ? Kind::floordiv : Kind::mul, lhs,
                              IndexExpr::literal(std::int64_t{1} << k, op.loc), op.loc);
    }
    return lhs;
  }

  // sum := product (('+' | '-') product)*
  IndexExpr sum() {
    IndexExpr lhs = product();
    while (in_.peek().is_op("+") || in_.peek().is_op("-")) {
      const Token& op = operator_token();
      lhs = IndexExpr::binary(op.text == "+" ? Kind::add : Kind::sub, lhs, product(), op.loc);
    }
    return lhs;
  }

 private:
  // Consumes a binary operator.  Their number bounds the depth of the tree
  // (a long chain `1 + 1 + ...` nests to the left), and so the recursion of
  // eval, str and the destructor.
  const Token& operator_token() {
    if (++operators_ > kMaxOperators)
      in_.fail(in_.peek(), "index expression too long (limit " + std::to_string(kMaxOperators) + " operators)");
    return in_.next();
  }

  // product := unary (('*' | '//' | '%') unary)*
  IndexExpr product() {
    IndexExpr lhs = unary();
    while (true) {
      const Token& t = in_.peek();
      if (t.is_op("/")) in_.fail(t, "use '//' for division ('/' is not integer division)");
      const Kind op = t.is_op("*")    ? Kind::mul
                      : t.is_op("//") ? Kind::floordiv
                      : t.is_op("%")  ? Kind::floormod
                                      : Kind::literal;
      if (op == Kind::literal) return lhs;
      operator_token();
      lhs = IndexExpr::binary(op, lhs, unary(), t.loc);
    }
  }

  // unary := ('-' | '+') unary | atom
  IndexExpr unary() {
    const TokenCursor::Nesting guard(in_);
    const Token& t = in_.peek();
    if (t.is_op("+")) {
      in_.next();
      return unary();
    }
    if (t.is_op("-")) {
      in_.next();
      return IndexExpr::unary(Kind::neg, unary(), t.loc);
    }
    return atom();
  }

  // atom := INT | lane | warp | tid | s | '(' sum ')'
  IndexExpr atom() {
    const Token& t = in_.next();
    if (t.kind == TokenKind::integer) return IndexExpr::literal(t.int_value, t.loc);
    if (t.kind == TokenKind::identifier && functions_ && in_.peek().is_op("(")) {
      if (const auto f = functions_->find(t.text); f != functions_->end()) {
        const Token& open = in_.next();
        std::vector<IndexExpr> args;
        while (!in_.peek().is_op(")")) {
          if (in_.peek().kind == TokenKind::identifier && in_.peek(1).is_op("="))
            in_.fail(in_.peek(),
                     "'" + t.text + "' is called with a keyword argument; mmacheck passes arguments by position");
          args.push_back(bits());
          if (!in_.accept(",")) break;
        }
        in_.expect_close(")", t.text + "(", open);
        return f->second(args, t);
      }
    }
    if (t.kind == TokenKind::identifier && names_) {
      if (const auto it = names_->find(t.text); it != names_->end()) return it->second;
      std::string known;
      for (const auto& [name, value] : *names_) known += (known.empty() ? "" : ", ") + name;
      in_.fail(t, "unknown variable '" + t.text + "' (known: " + (known.empty() ? "none" : known) + ")");
    }
    if (t.kind == TokenKind::identifier) {
      for (Kind v : {Kind::lane, Kind::warp, Kind::tid, Kind::slot})
        if (t.text == spelling(v)) return IndexExpr::variable(v, t.loc);
      in_.fail(t, "unknown variable '" + t.text + "' (known: lane, warp, tid, s)");
    }
    if (t.is_op("(")) {
      IndexExpr inner = bits();
      in_.expect_close(")", "(", t);
      return inner;
    }
    if (t.kind == TokenKind::floating) in_.fail(t, "expected an integer, got '" + t.text + "'");
    in_.fail(t, "expected an integer expression, got " + describe(t));
  }

  // The value of a shift count or mask, which must fold to a constant.
  std::int64_t literal_operand(const IndexExpr& e, const Token& op, const std::string& what) {
    if (e.kind() != Kind::literal) in_.fail(op, "the right operand of " + what + " must be an integer literal");
    return e.value();
  }

  static constexpr int kMaxOperators = 1000;
  TokenCursor& in_;
  const IndexNames* names_;
  const IndexFunctions* functions_;
  int operators_ = 0;
};

}  // namespace

IndexExpr parse_index_expr(TokenCursor& in) { return IndexParser(in, nullptr).bits(); }

IndexExpr parse_index_expr(TokenCursor& in, const IndexNames& names) { return IndexParser(in, &names).bits(); }

IndexExpr parse_index_expr(TokenCursor& in, const IndexNames& names, const IndexFunctions& functions) {
  return IndexParser(in, &names, &functions).bits();
}

IndexExpr parse_index_expr(std::string_view text, const std::string& source) {
  TokenCursor in(tokenize(text, source));
  IndexExpr e = parse_index_expr(in);
  while (in.peek().kind == TokenKind::newline) in.next();
  if (in.peek().kind != TokenKind::end)
    in.fail(in.peek(), "unexpected " + describe(in.peek()) + " after the expression");
  return e;
}

}  // namespace mmacheck
