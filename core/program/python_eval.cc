// The grammar is Python's, from the conditional expression down:
//
//   expression := or_test ['if' or_test 'else' expression]
//   or_test    := and_test ('or' and_test)*        and_test := not_test ('and' not_test)*
//   not_test   := 'not' not_test | comparison      comparison := sum (COMP sum)*
//   sum        := term (('+' | '-') term)*         term := unary (('*' | '/' | '//' | '%') unary)*
//   unary      := ('-' | '+') unary | power        power := postfix ['**' unary]
//   postfix    := atom ('[' expression ']' | '(' args ')')*
//
// As in Python, the untaken side of a conditional and the right side of a
// short-circuited `and`/`or` are not evaluated (they are passed over).
#include "core/program/python_eval.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "core/program/python_class.h"

namespace mmacheck::python {

namespace {

constexpr std::string_view kLayoutBuilders[] = {
    "S", "R", "TileLayout", "T", "Tx", "Axis", "ComposeLayout", "SwizzleLayout", "Iter"};

bool is_number(const Value& v) { return v.get<std::int64_t>() || v.get<double>() || v.get<bool>(); }
bool is_integral(const Value& v) { return v.get<std::int64_t>() || v.get<bool>(); }
std::int64_t as_int(const Value& v) {
  if (const bool* b = v.get<bool>()) return *b ? 1 : 0;
  return *v.get<std::int64_t>();
}
double as_double(const Value& v) {
  if (const double* d = v.get<double>()) return *d;
  return static_cast<double>(as_int(v));
}

[[noreturn]] void unsupported(const Value& a, const Value& b, const Token& op) {
  throw Error(op.loc, "'" + op.text + "' is not defined for " + kind_name(a) + " and " + kind_name(b));
}

void check_known(const Value& v) {
  if (const Opaque* o = v.get<Opaque>()) throw Error(v.loc, "the value of a name " + o->why + " is not known");
}

// Python's builtins on integers and sequences, as module-level layout code
// uses them (`list(seps)`, `len(shape)`, `range(4)`); range is bounded, so
// that no file makes the evaluator hold more than kMaxRange values.
constexpr std::int64_t kMaxRange = std::int64_t{1} << 16;
// The characters of a string and the items of a list or tuple that `+`
// makes: `x = x + x` forty times would ask for a terabyte.
constexpr std::size_t kMaxJoined = std::size_t{1} << 20;

struct Builtin {
  std::string_view name;
  Value (*call)(const std::vector<CallArg>& args, const Token& at);
};

const Items& sequence_arg(const std::vector<CallArg>& args, const Token& at) {
  if (args.size() != 1 || args[0].keyword) throw Error(at.loc, at.text + "() takes one positional argument here");
  check_known(args[0].value);
  const Items* items = args[0].value.items();
  if (!items) throw Error(args[0].value.loc, at.text + "() of " + kind_name(args[0].value) + " is not evaluated");
  return *items;
}

std::int64_t integer_arg(const CallArg& a) {
  check_known(a.value);
  if (a.keyword) throw Error(a.value.loc, "no keyword arguments here");
  if (!is_integral(a.value)) throw Error(a.value.loc, "expected an integer, got " + kind_name(a.value));
  return as_int(a.value);
}

constexpr Builtin kBuiltins[] = {
    {"list",
     [](const std::vector<CallArg>& a, const Token& at) {
       return a.empty() ? make_items({}, true, at.loc) : make_items(sequence_arg(a, at), true, at.loc);
     }},
    {"tuple",
     [](const std::vector<CallArg>& a, const Token& at) {
       return a.empty() ? make_items({}, false, at.loc) : make_items(sequence_arg(a, at), false, at.loc);
     }},
    {"len",
     [](const std::vector<CallArg>& a, const Token& at) {
       if (a.size() == 1 && !a[0].keyword)
         if (const std::string* s = a[0].value.get<std::string>())
           return Value{static_cast<std::int64_t>(s->size()), false, at.loc};
       return Value{static_cast<std::int64_t>(sequence_arg(a, at).size()), false, at.loc};
     }},
    {"int",
     [](const std::vector<CallArg>& a, const Token& at) {
       if (a.size() != 1 || a[0].keyword) throw Error(at.loc, "int() takes one positional argument here");
       check_known(a[0].value);
       if (const double* d = a[0].value.get<double>()) {
         if (!(*d > -9.2e18 && *d < 9.2e18)) throw Error(a[0].value.loc, "int() of a float outside int64");
         return Value{static_cast<std::int64_t>(*d), false, at.loc};  // truncates toward zero, as Python
       }
       return Value{integer_arg(a[0]), false, at.loc};
     }},
    {"range",
     [](const std::vector<CallArg>& a, const Token& at) {
       if (a.empty() || a.size() > 3) throw Error(at.loc, "range() takes 1 to 3 integers");
       const std::int64_t start = a.size() == 1 ? 0 : integer_arg(a[0]);
       const std::int64_t stop = integer_arg(a[a.size() == 1 ? 0 : 1]);
       const std::int64_t step = a.size() == 3 ? integer_arg(a[2]) : 1;
       if (step == 0) throw Error(a[2].value.loc, "range() step must not be zero");
       Items out;
       for (std::int64_t v = start; step > 0 ? v < stop : v > stop; v += step) {
         if (static_cast<std::int64_t>(out.size()) == kMaxRange)
           throw Error(at.loc, "range() of more than " + std::to_string(kMaxRange) + " integers");
         out.push_back(Value{v, false, at.loc});
         if ((step > 0 && v > INT64_MAX - step) || (step < 0 && v < INT64_MIN - step)) break;
       }
       return make_items(std::move(out), false, at.loc);
     }},
};

Value arithmetic(const Value& a, const Value& b, const Token& op) {
  check_known(a);
  check_known(b);
  const SourceLoc& loc = a.loc;
  if (op.text == "+") {
    const auto bound = [&](std::size_t n, const char* what) {
      if (n > kMaxJoined)
        throw Error(op.loc, std::string("'+' makes a ") + what + " of " + std::to_string(n) + ", over mmacheck's " +
                                std::to_string(kMaxJoined));
    };
    if (const auto* s = a.get<std::string>())
      if (const auto* t = b.get<std::string>()) {
        bound(s->size() + t->size(), "string of characters");
        return Value{*s + *t, false, loc};
      }
    if (a.items() && b.items() && a.list == b.list) {
      bound(a.items()->size() + b.items()->size(), a.list ? "list of items" : "tuple of items");
      Items out = *a.items();
      out.insert(out.end(), b.items()->begin(), b.items()->end());
      return make_items(std::move(out), a.list, loc);
    }
  }
  if (!is_number(a) || !is_number(b)) unsupported(a, b, op);
  if (op.text == "/") {
    if (as_double(b) == 0) throw Error(op.loc, "division by zero");
    return Value{as_double(a) / as_double(b), false, loc};
  }
  if (is_integral(a) && is_integral(b)) {
    const std::int64_t x = as_int(a), y = as_int(b);
    std::int64_t r = 0;
    bool overflow = false;
    if (op.text == "+") overflow = __builtin_add_overflow(x, y, &r);
    else if (op.text == "-") overflow = __builtin_sub_overflow(x, y, &r);
    else if (op.text == "*") overflow = __builtin_mul_overflow(x, y, &r);
    else {  // '//' and '%' floor, as Python's
      if (y == 0) throw Error(op.loc, "integer division or modulo by zero");
      if (x == std::numeric_limits<std::int64_t>::min() && y == -1) overflow = true;
      else {
        std::int64_t q = x / y, m = x % y;
        if (m != 0 && ((m < 0) != (y < 0))) --q, m += y;
        r = op.text == "//" ? q : m;
      }
    }
    if (overflow) throw Error(op.loc, "integer overflow in '" + op.text + "' (mmacheck's integers are 64-bit)");
    return Value{r, false, loc};
  }
  const double x = as_double(a), y = as_double(b);
  if (op.text == "+") return Value{x + y, false, loc};
  if (op.text == "-") return Value{x - y, false, loc};
  if (op.text == "*") return Value{x * y, false, loc};
  if (y == 0) throw Error(op.loc, "float division or modulo by zero");
  const double q = std::floor(x / y);
  return Value{op.text == "//" ? q : x - q * y, false, loc};
}

bool equal(const Value& a, const Value& b) {
  check_known(a);
  check_known(b);
  if (is_number(a) && is_number(b))
    return as_double(a) == as_double(b) && (!is_integral(a) || !is_integral(b) || as_int(a) == as_int(b));
  if (a.get<None>() || b.get<None>()) return a.get<None>() && b.get<None>();
  if (const auto* s = a.get<std::string>()) {
    const auto* t = b.get<std::string>();
    return t && *s == *t;
  }
  if (a.items() && b.items()) {
    if (a.list != b.list || a.items()->size() != b.items()->size()) return false;
    for (std::size_t i = 0; i < a.items()->size(); ++i)
      if (!equal((*a.items())[i], (*b.items())[i])) return false;
    return true;
  }
  const auto* oa = a.get<std::shared_ptr<const Object>>();
  const auto* ob = b.get<std::shared_ptr<const Object>>();
  if (oa || ob) {
    for (const auto* o : {oa, ob})
      if (o && (*o)->cls->methods.contains("__eq__"))
        throw Error(a.loc, "mmacheck does not call " + (*o)->cls->name + "'s own __eq__");
    return oa && ob && objects_equal(**oa, **ob, equal);
  }
  if (const auto* ca = a.get<std::shared_ptr<const Class>>()) {
    const auto* cb = b.get<std::shared_ptr<const Class>>();
    return cb && *ca == *cb;
  }
  if (a.items() || b.items() || a.get<std::string>() || b.get<std::string>()) return false;
  throw Error(a.loc, "mmacheck does not compare " + kind_name(a) + " with " + kind_name(b));
}

bool compare(const Value& a, const Value& b, const Token& op) {
  if (op.text == "==") return equal(a, b);
  if (op.text == "!=") return !equal(a, b);
  if (op.text == "is" || op.text == "is not") {
    if (!(a.get<None>() || a.get<bool>() || b.get<None>() || b.get<bool>()))
      throw Error(op.loc, "mmacheck reads 'is' with None, True or False only");
    const bool same = a.v.index() == b.v.index() && equal(a, b);
    return op.text == "is" ? same : !same;
  }
  if (op.text == "in" || op.text == "not in") {
    bool found = false;
    if (const Items* items = b.items()) {
      for (const Value& x : *items) found = found || equal(a, x);
    } else if (const auto* s = b.get<std::string>()) {
      const auto* t = a.get<std::string>();
      if (!t) unsupported(a, b, op);
      found = s->find(*t) != std::string::npos;
    } else {
      unsupported(a, b, op);
    }
    return op.text == "in" ? found : !found;
  }
  int order = 0;  // <0, 0, >0
  if (is_number(a) && is_number(b)) {
    if (is_integral(a) && is_integral(b)) order = as_int(a) < as_int(b) ? -1 : as_int(a) > as_int(b);
    else order = as_double(a) < as_double(b) ? -1 : as_double(a) > as_double(b);
  } else if (a.get<std::string>() && b.get<std::string>()) {
    order = a.get<std::string>()->compare(*b.get<std::string>());
  } else {
    unsupported(a, b, op);
  }
  if (op.text == "<") return order < 0;
  if (op.text == "<=") return order <= 0;
  if (op.text == ">") return order > 0;
  return order >= 0;
}

bool is_comparison(const TokenCursor& in) {
  const Token& t = in.peek();
  if (t.kind == TokenKind::op)
    return t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" || t.text == ">" || t.text == ">=";
  return t.is_name("in") || t.is_name("is") || (t.is_name("not") && in.peek(1).is_name("in"));
}

// Passes over what is left of the expression at the cursor up to a token
// (at bracket depth 0) that ends it or is one of `stops`.
void pass_over(TokenCursor& in, std::initializer_list<std::string_view> stops) {
  int depth = 0;
  while (true) {
    const Token& t = in.peek();
    if (t.kind == TokenKind::end) return;
    if (depth == 0) {
      if (t.closes() || t.ends_statement() || t.is_op(",") || t.is_op(":") || t.is_op(";") || t.is_op("=") ||
          t.is_name("for"))
        return;
      for (std::string_view s : stops)
        if (t.is_name(s)) return;
    }
    if (t.opens()) ++depth;
    if (t.closes()) --depth;
    in.next();
  }
}

class Evaluator {
 public:
  Evaluator(TokenCursor& in, const Scope& scope, const CallFunction& call) : in_(in), scope_(scope), call_(call) {}

  Value expression() {
    const TokenCursor::Nesting guard(in_);
    const std::size_t start = in_.position();
    // Is there an `if` of this expression?  (Then the condition comes first.)
    pass_over(in_, {"if", "else"});
    if (!in_.peek().is_name("if")) {
      in_.seek(start);
      return or_test();
    }
    in_.next();
    const bool taken = truth(or_test());
    if (!in_.peek().is_name("else"))
      in_.fail(in_.peek(), "expected 'else' in a conditional expression (x if c else y), got " + describe(in_.peek()));
    in_.next();
    const std::size_t otherwise = in_.position();
    if (!taken) return expression();
    in_.seek(start);
    Value v = or_test();
    in_.seek(otherwise);
    pass_over(in_, {});
    return v;
  }

  Value tuple() {
    const Token& first = in_.peek();
    Value v = expression();
    if (!in_.peek().is_op(",")) return v;
    Items items{std::move(v)};
    while (in_.accept(",") && !ends_tuple(in_.peek())) items.push_back(expression());
    return make_items(std::move(items), false, first.loc);
  }

  std::vector<CallArg> args() {
    const Token& open = in_.expect("(", "to call");
    std::vector<CallArg> out;
    while (!in_.peek().is_op(")")) {
      CallArg arg;
      if (in_.peek().kind == TokenKind::identifier && in_.peek(1).is_op("=")) {
        arg.keyword = in_.next().text;
        in_.next();
      } else if (!out.empty() && out.back().keyword) {
        in_.fail(in_.peek(), "positional argument after a keyword argument");
      }
      if (in_.peek().is_op("*") || in_.peek().is_op("**"))
        in_.fail(in_.peek(), "mmacheck does not evaluate unpacked arguments (*args, **kwargs)");
      arg.value = expression();
      out.push_back(std::move(arg));
      if (!in_.accept(",")) break;
    }
    in_.expect_close(")", "(", open);
    return out;
  }

 private:
  static bool ends_tuple(const Token& t) { return t.ends_statement() || t.closes() || t.is_op("=") || t.is_op(";"); }

  Value or_test() {
    Value v = and_test();
    while (in_.peek().is_name("or")) {
      in_.next();
      if (truth(v)) pass_over(in_, {"if", "else", "or"});
      else v = and_test();
    }
    return v;
  }

  Value and_test() {
    Value v = not_test();
    while (in_.peek().is_name("and")) {
      in_.next();
      if (!truth(v)) pass_over(in_, {"if", "else", "or", "and"});
      else v = not_test();
    }
    return v;
  }

  Value not_test() {
    const TokenCursor::Nesting guard(in_);
    if (in_.peek().is_name("not")) {
      const Token& t = in_.next();
      return Value{!truth(not_test()), false, t.loc};
    }
    return comparison();
  }

  Value comparison() {
    Value lhs = sum();
    if (!is_comparison(in_)) return lhs;
    bool result = true;
    const SourceLoc loc = lhs.loc;
    while (is_comparison(in_)) {
      Token op = in_.next();
      if (op.is_name("not")) op.text = "not " + in_.next().text;
      else if (op.is_name("is") && in_.peek().is_name("not")) op.text = "is not", in_.next();
      Value rhs = sum();
      result = result && compare(lhs, rhs, op);
      lhs = std::move(rhs);
    }
    return Value{result, false, loc};
  }

  Value sum() {
    Value v = term();
    while (in_.peek().is_op("+") || in_.peek().is_op("-")) {
      const Token& op = in_.next();
      v = arithmetic(v, term(), op);
    }
    return v;
  }

  Value term() {
    Value v = unary();
    while (in_.peek().is_op("*") || in_.peek().is_op("/") || in_.peek().is_op("//") || in_.peek().is_op("%")) {
      const Token& op = in_.next();
      v = arithmetic(v, unary(), op);
    }
    return v;
  }

  Value unary() {
    const TokenCursor::Nesting guard(in_);
    const Token& t = in_.peek();
    if (t.is_op("-") || t.is_op("+")) {
      in_.next();
      const Value v = unary();
      check_known(v);
      if (!is_number(v)) in_.fail(t, "unary '" + t.text + "' is not defined for " + kind_name(v));
      if (t.text == "+") return v;
      if (is_integral(v)) return arithmetic(Value{std::int64_t{0}, false, t.loc}, v, t);
      return Value{-as_double(v), false, t.loc};
    }
    Value base = postfix();
    if (!in_.peek().is_op("**")) return base;
    const Token& op = in_.next();
    const Value exponent = unary();
    if (!is_integral(base) || !is_integral(exponent) || as_int(exponent) < 0)
      in_.fail(op, "mmacheck evaluates '**' on integers with an exponent of at least 0");
    // By squaring: 64 steps at most (1 ** (2^63 - 1) once looped 2^63 times).
    // A square is taken only where a later bit uses it, so an overflow is
    // the result's own.
    Value r{std::int64_t{1}, false, base.loc}, b = base;
    const Token times{TokenKind::op, "*", 0, 0, op.loc};
    for (std::int64_t e = as_int(exponent); e > 0;) {
      if (e & 1) r = arithmetic(r, b, times);
      e >>= 1;
      if (e > 0) b = arithmetic(b, b, times);
    }
    return r;
  }

  Value postfix() {
    Value v = atom();
    while (true) {
      const Token& t = in_.peek();
      if (t.is_op("(")) {
        const auto* f = v.get<std::shared_ptr<const Function>>();
        check_known(v);
        if (const auto* cls = v.get<std::shared_ptr<const Class>>()) {
          v = construct(*cls, args(), t);
          continue;
        }
        if (!f)
          in_.fail(t, "mmacheck evaluates calls of the file's own defs and layout methods; " + kind_name(v) +
                          " is neither");
        v = call_(**f, args(), t);
      } else if (t.is_op("[")) {
        in_.next();
        std::optional<Value> start, stop;
        if (!in_.peek().is_op(":")) start = expression();
        if (in_.accept(":")) {
          if (!in_.peek().is_op("]")) stop = expression();
          in_.expect_close("]", "[", t);
          v = slice(v, start, stop, t);
        } else {
          in_.expect_close("]", "[", t);
          v = subscript(v, *start, t);
        }
      } else if (t.is_op(".")) {
        check_known(v);
        const auto* obj = v.get<std::shared_ptr<const Object>>();
        if (!obj)
          in_.fail(t, "mmacheck does not evaluate attributes of " + kind_name(v) + " ('." + in_.peek(1).text + "')");
        v = attribute(*obj);
      } else {
        return v;
      }
    }
  }

  // `obj.name` (cursor on '.'): a field's value, or a method called with obj as self.
  Value attribute(const std::shared_ptr<const Object>& obj) {
    in_.next();
    const Token& name = in_.expect_name("an attribute");
    if (const Value* field = field_value(*obj, name.text)) {
      Value out = *field;
      out.loc = name.loc;
      return out;
    }
    const auto m = obj->cls->methods.find(name.text);
    if (m == obj->cls->methods.end()) in_.fail(name, obj->cls->name + " has no field or method '" + name.text + "'");
    if (!in_.peek().is_op("("))
      in_.fail(name, "mmacheck reads a method only where it is called (" + name.text + "(...))");
    const Token& open = in_.peek();
    std::vector<CallArg> a = args();
    a.insert(a.begin(), CallArg{std::nullopt, Value{obj, false, name.loc}});
    return call_(*m->second, a, open);
  }

  // f"...{expr}...": each replacement field evaluated here and formatted as
  // str() formats it; {{ and }} are braces.  Conversions and format specs
  // (!r, :>4) are not read.
  Value fstring(const Token& f) {
    const Token& s = in_.next();
    std::string out;
    for (std::size_t i = 0; i < s.text.size(); ++i) {
      const char c = s.text[i];
      const SourceLoc here{s.loc.file, s.loc.line, s.loc.col + 2 + static_cast<int>(i)};
      if (c == '}') {
        if (i + 1 < s.text.size() && s.text[i + 1] == '}') ++i;
        else throw Error(here, "f-string: single '}' is not allowed");
        out += '}';
        continue;
      }
      if (c != '{') {
        out += c;
        continue;
      }
      if (i + 1 < s.text.size() && s.text[i + 1] == '{') {
        out += '{', ++i;
        continue;
      }
      int depth = 0;
      std::size_t j = i + 1;
      for (; j < s.text.size() && (depth > 0 || s.text[j] != '}'); ++j) {
        if (s.text[j] == '!' || (s.text[j] == ':' && depth == 0))
          throw Error(SourceLoc{here.file, here.line, here.col + static_cast<int>(j - i)},
                      "mmacheck does not read f-string conversions or format specs");
        if (s.text[j] == '(' || s.text[j] == '[' || s.text[j] == '{') ++depth;
        if (s.text[j] == ')' || s.text[j] == ']' || s.text[j] == '}') --depth;
      }
      if (j >= s.text.size()) throw Error(here, "f-string: expecting '}'");
      const SourceLoc start{here.file, here.line, here.col + 1};
      TokenCursor c2(std::make_shared<const std::vector<Token>>(tokenize(s.text.substr(i + 1, j - i - 1), start)), 0);
      const Value v = Evaluator(c2, scope_, call_).expression();
      if (c2.peek().kind != TokenKind::end) c2.fail(c2.peek(), "f-string: expected '}', got " + describe(c2.peek()));
      check_known(v);
      const auto text = pytest_id(v);
      if (!text)
        throw Error(start, "mmacheck formats numbers, strings, bools and None in f-strings, not " + kind_name(v));
      out += *text;
      i = j;
    }
    return Value{std::move(out), false, f.loc};
  }

  // `lambda a, b: expr` (cursor on `lambda`): a Function whose body is the
  // expression, closing over this scope; the expression is read when called.
  Value lambda() {
    const std::size_t keyword = in_.position();
    const Token& kw = in_.next();
    auto f = std::make_shared<Function>();
    f->name = "<lambda>";
    f->loc = kw.loc;
    f->lambda = true;
    f->tokens = in_.tokens();
    f->keyword = keyword;
    while (!in_.peek().is_op(":")) {
      const Token& p = in_.expect_name("a lambda's parameter");
      if (in_.peek().is_op("=")) in_.fail(in_.peek(), "mmacheck does not read a lambda's parameter defaults");
      f->params.push_back(Param{p.text, std::nullopt, false});
      if (!in_.accept(",")) break;
    }
    f->colon = in_.position();
    in_.expect(":", "after a lambda's parameters");
    pass_over(in_, {});
    f->end = in_.position();
    const std::shared_ptr<const Scope> scope = scope_.weak_from_this().lock();
    if (!scope) in_.fail(kw, "a lambda is not evaluated here");
    f->scope = scope;
    return Value{std::shared_ptr<const Function>(std::move(f)), false, kw.loc};
  }

  static Value subscript(const Value& v, const Value& index, const Token& at) {
    check_known(v);
    const Items* items = v.items();
    if (!items || !is_integral(index)) throw Error(at.loc, kind_name(v) + " cannot be indexed by " + kind_name(index));
    std::int64_t i = as_int(index);
    const auto n = static_cast<std::int64_t>(items->size());
    if (i < 0) i += n;
    if (i < 0 || i >= n) throw Error(at.loc, "index " + std::to_string(as_int(index)) + " out of range");
    return (*items)[static_cast<std::size_t>(i)];
  }

  // `items[start:stop]`, Python's clamping of out-of-range bounds included.
  static Value slice(const Value& v, const std::optional<Value>& start, const std::optional<Value>& stop,
                     const Token& at) {
    check_known(v);
    const Items* items = v.items();
    if (!items) throw Error(at.loc, kind_name(v) + " cannot be sliced");
    const auto n = static_cast<std::int64_t>(items->size());
    const auto bound = [&](const std::optional<Value>& b, std::int64_t otherwise) {
      if (!b || b->get<None>()) return otherwise;
      if (!is_integral(*b)) throw Error(b->loc, "a slice bound must be an integer, got " + kind_name(*b));
      std::int64_t i = as_int(*b);
      if (i < 0) i += n;
      return std::clamp<std::int64_t>(i, 0, n);
    };
    const std::int64_t lo = bound(start, 0), hi = bound(stop, n);
    Items out;
    for (std::int64_t i = lo; i < hi; ++i) out.push_back((*items)[static_cast<std::size_t>(i)]);
    return make_items(std::move(out), v.list, v.loc);
  }

  bool at_layout() const {
    const Token& t = in_.peek();
    if (t.kind != TokenKind::identifier) return false;
    if (const Value* v = scope_.find(t.text)) return v->get<LayoutValue>() != nullptr;
    return std::find(std::begin(kLayoutBuilders), std::end(kLayoutBuilders), t.text) != std::end(kLayoutBuilders);
  }

  Value atom() {
    const Token& t = in_.peek();
    if (at_layout()) return Value{parse_layout(in_, layout_names(scope_)), false, t.loc};
    // A builtin the file does not shadow, called.
    if (t.kind == TokenKind::identifier && in_.peek(1).is_op("(") && !scope_.find(t.text))
      for (const Builtin& b : kBuiltins)
        if (b.name == t.text) {
          in_.next();
          return b.call(args(), t);
        }
    if (t.kind == TokenKind::identifier && (t.text == "f" || t.text == "F") && in_.peek(1).kind == TokenKind::string &&
        in_.peek(1).loc.line == t.loc.line && in_.peek(1).loc.col == t.loc.col + 1) {
      in_.next();
      return fstring(t);
    }
    if (t.is_name("lambda") && !scope_.find(t.text)) return lambda();
    if (t.is_name("dataclasses") && !scope_.find(t.text) && in_.peek(1).is_op(".") && in_.peek(2).is_name("replace") &&
        in_.peek(3).is_op("(")) {
      in_.next(), in_.next();
      const Token& at = in_.next();
      return replace(args(), at);
    }
    in_.next();
    switch (t.kind) {
      case TokenKind::integer: return Value{t.int_value, false, t.loc};
      case TokenKind::floating: return Value{t.float_value, false, t.loc};
      case TokenKind::string: {
        std::string s = t.text;  // adjacent literals join
        while (in_.peek().kind == TokenKind::string) s += in_.next().text;
        return Value{std::move(s), false, t.loc};
      }
      case TokenKind::identifier: return name(t);
      default: break;
    }
    if (t.is_op("(") || t.is_op("[")) {
      const bool list = t.is_op("[");
      const std::string close = list ? "]" : ")";
      Items items;
      bool comma = false;
      while (!in_.peek().is_op(close)) {
        items.push_back(expression());
        if (in_.peek().is_name("for")) in_.fail(in_.peek(), "mmacheck does not evaluate comprehensions");
        if (!in_.accept(",")) break;
        comma = true;
      }
      in_.expect_close(close, t.text, t);
      if (!list && !comma && items.size() == 1) return items.front();
      return make_items(std::move(items), list, t.loc);
    }
    if (t.is_op("{")) in_.fail(t, "mmacheck does not evaluate dicts and sets");
    in_.fail(t, "expected an expression, got " + describe(t));
  }

  Value name(const Token& t) {
    if (t.text == "True" || t.text == "False") return Value{t.text == "True", false, t.loc};
    if (t.text == "None") return Value{None{}, false, t.loc};
    if (const Value* v = scope_.find(t.text)) {
      Value out = *v;
      out.loc = t.loc;
      return out;
    }
    in_.fail(t, "unknown name '" + t.text + "'");
  }

  TokenCursor& in_;
  const Scope& scope_;
  const CallFunction& call_;
};

}  // namespace

Value evaluate(TokenCursor& in, const Scope& scope, const CallFunction& call) {
  return Evaluator(in, scope, call).expression();
}

Value evaluate_tuple(TokenCursor& in, const Scope& scope, const CallFunction& call) {
  return Evaluator(in, scope, call).tuple();
}

std::vector<CallArg> evaluate_args(TokenCursor& in, const Scope& scope, const CallFunction& call) {
  return Evaluator(in, scope, call).args();
}

LayoutNames layout_names(const Scope& scope) {
  LayoutNames names;
  for (const Scope* s = &scope; s; s = s->parent.get())
    for (const auto& [name, value] : s->names) {
      if (names.layouts.contains(name) || names.integers.contains(name) || names.lists.contains(name) ||
          names.others.contains(name))
        continue;  // an inner binding shadows
      if (const auto* l = value.get<LayoutValue>()) names.layouts.emplace(name, *l);
      else if (is_integral(value)) names.integers.emplace(name, as_int(value));
      else if (const Items* items = value.items();
               items && std::all_of(items->begin(), items->end(), [](const Value& x) {
                 return is_integral(x) && as_int(x) >= std::numeric_limits<int>::min() &&
                        as_int(x) <= std::numeric_limits<int>::max();
               })) {
        std::vector<int> list;
        for (const Value& x : *items) list.push_back(static_cast<int>(as_int(x)));
        names.lists.emplace(name, std::move(list));
      } else {
        names.others.emplace(name, kind_name(value));
      }
    }
  return names;
}

}  // namespace mmacheck::python
