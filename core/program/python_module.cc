// The statements of a test file's Python: the module's defs and values, a
// factory's body (evaluated strictly) and a test's (read for what it builds).
#include "core/program/python_module.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "core/program/python_block.h"
#include "core/program/python_class.h"
#include "core/program/python_eval.h"

namespace mmacheck::python {

namespace {

constexpr int kMaxCallDepth = 64;
constexpr long kMaxStatements = 1'000'000;         // a test's evaluation, calls included
constexpr std::size_t kMaxParameterSets = 10'000;  // one test's, its stacked parametrize marks multiplied

std::string at_line(const SourceLoc& loc) { return " (line " + std::to_string(loc.line) + ")"; }

// The simple statement or compound header at the cursor: its end (the
// newline, ';' or, for a header, its ':').
std::size_t statement_end(const TokenCursor& in, bool header) {
  std::size_t k = 0;
  int depth = 0;
  while (true) {
    const Token& t = in.peek(k);
    if (t.kind == TokenKind::end || (depth == 0 && (t.ends_statement() || t.is_op(";")))) break;
    if (header && depth == 0 && t.is_op(":") && in.peek(k + 1).ends_statement()) break;
    if (t.opens()) ++depth;
    if (t.closes() && depth > 0) --depth;
    ++k;
  }
  return in.position() + k;
}

// The position of the assignment's '=' at depth 0 in [cursor, end), if any.
std::optional<std::size_t> assignment_at(const TokenCursor& in, std::size_t end, std::string* op) {
  int depth = 0;
  for (std::size_t k = 0; in.position() + k < end; ++k) {
    const Token& t = in.peek(k);
    if (t.opens()) ++depth;
    if (t.closes()) --depth;
    if (depth == 0 && t.kind == TokenKind::op &&
        (t.text == "=" || t.text == "+=" || t.text == "-=" || t.text == "*=" || t.text == "//=" || t.text == "%=")) {
      *op = t.text;
      return in.position() + k;
    }
  }
  return std::nullopt;
}

// The names of `a`, `a, b`, `(a, b)` before the '=' at `eq`; nullopt for
// other targets (a subscript, an attribute).
std::optional<std::vector<Token>> target_names(const TokenCursor& in, std::size_t eq) {
  std::vector<Token> names;
  std::size_t k = 0;
  const bool paren = in.peek().is_op("(") || in.peek().is_op("[");
  if (paren) ++k;
  while (in.position() + k < eq) {
    const Token& t = in.peek(k);
    if (paren && in.position() + k + 1 == eq && t.closes()) break;
    if (t.kind != TokenKind::identifier) return std::nullopt;
    names.push_back(t);
    ++k;
    if (in.position() + k < eq && !(paren && in.position() + k + 1 == eq)) {
      if (!in.peek(k).is_op(",")) return std::nullopt;
      ++k;
    }
  }
  if (names.empty()) return std::nullopt;
  return names;
}

void collect_kernels(const Value& v, std::vector<std::shared_ptr<const KernelSite>>& out) {
  if (const auto* k = v.get<std::shared_ptr<const KernelSite>>()) out.push_back(*k);
  if (const Items* items = v.items())
    for (const Value& x : *items) collect_kernels(x, out);
}

std::string joined_tokens(const TokenCursor& in, std::size_t from, std::size_t to) {
  std::string out;
  TokenCursor c(in.tokens(), from);
  while (c.position() < to) {
    const Token& t = c.next();
    if (t.kind == TokenKind::string) out += "\"" + t.text + "\"";
    else out += t.text;
    if (t.is_op(",")) out += " ";
  }
  return out;
}

// The decorator at '@': its dotted name and, when it is called, its '(' position.
Decorator read_decorator(TokenCursor& in) {
  const Token& at = in.next();
  Decorator d{"", at.loc, std::nullopt};
  while (in.peek().kind == TokenKind::identifier || in.peek().is_op(".")) d.name += in.next().text;
  if (in.peek().is_op("(")) d.arguments = in.position();
  while (!in.peek().ends_statement()) in.next();
  while (in.peek().kind == TokenKind::newline) in.next();
  return d;
}

bool builds_kernel_visit(const Function& f, std::set<const Function*>& visiting);

// Does a method `name` of a dataclass in `scope` build a kernel?  Which
// instance an `x.name(...)` reaches is known only when it runs, so any
// class's method of that name counts.
bool method_builds(const Scope& scope, std::string_view name, std::set<const Function*>& visiting) {
  for (const Scope* s = &scope; s; s = s->parent.get())
    for (const auto& [n, v] : s->names)
      if (const auto* c = v.get<std::shared_ptr<const Class>>())
        if (const auto m = (*c)->methods.find(name);
            m != (*c)->methods.end() && builds_kernel_visit(*m->second, visiting))
          return true;
  return false;
}

// One evaluation's state: its statement count, and every scope it makes,
// kept by the Module (defs and kernels point to their scopes without owning).
struct Budget {
  long statements = 0;
  std::vector<std::shared_ptr<Scope>>* scopes;
  std::set<const Function*>* called = nullptr;  // the defs and methods a test's evaluation called

  std::shared_ptr<Scope> scope(std::shared_ptr<const Scope> parent) const {
    auto s = std::make_shared<Scope>();
    s->parent = std::move(parent);
    scopes->push_back(s);
    return s;
  }
};

// Runs the statements of one body: a factory's (strict) or a test's
// (reading what it builds).
class Run {
 public:
  enum class Mode { factory, test };

  Run(Mode mode, std::shared_ptr<Scope> scope, Budget& budget, int depth)
      : mode_(mode), scope_(std::move(scope)), budget_(budget), depth_(depth) {}

  // The body of `f` (cursor on its ':'), returning what it returns.
  Value body(const Function& f) {
    if (f.lambda) {
      TokenCursor in(f.tokens, f.colon + 1);
      if (++budget_.statements > kMaxStatements)
        in.fail(in.peek(), "the evaluation runs more than " + std::to_string(kMaxStatements) + " statements");
      Value v = evaluate(in, *scope_, caller());
      if (in.position() != f.end) in.fail(in.peek(), "mmacheck does not evaluate " + describe(in.peek()) + " here");
      return v;
    }
    TokenCursor in(f.tokens, f.colon);
    const Token& header = (*f.tokens)[f.keyword];
    suite(in, header, [&] { statement(in); });
    return result_;
  }

  // A test's kernels.
  struct Built {
    std::shared_ptr<const KernelSite> kernel;
    SourceLoc at;
    std::optional<std::string> expects;
  };
  std::vector<Built> built;

  Value call(const Function& f, const std::vector<CallArg>& args, const Token& callee) const {
    if (depth_ >= kMaxCallDepth)
      throw Error(callee.loc, "calls nested deeper than " + std::to_string(kMaxCallDepth) + " (mmacheck's limit)");
    auto locals = budget_.scope(closure(f));
    if (budget_.called) budget_.called->insert(&f);
    std::size_t positional = 0;
    for (const CallArg& a : args) {
      if (a.keyword) {
        const auto p =
            std::find_if(f.params.begin(), f.params.end(), [&](const Param& x) { return x.name == *a.keyword; });
        if (p == f.params.end()) throw Error(a.value.loc, f.name + "() has no parameter '" + *a.keyword + "'");
        if (!locals->names.emplace(*a.keyword, a.value).second)
          throw Error(a.value.loc, f.name + "() got parameter '" + *a.keyword + "' twice");
        continue;
      }
      if (positional >= f.params.size() || f.params[positional].keyword_only)
        throw Error(a.value.loc, f.name + "() takes " + std::to_string(positional) + " positional arguments");
      locals->names.emplace(f.params[positional++].name, a.value);
    }
    for (const Param& p : f.params) {
      if (locals->names.contains(p.name)) continue;
      if (!p.default_value) throw Error(callee.loc, f.name + "() is missing the argument '" + p.name + "'");
      locals->names.emplace(p.name, *p.default_value);
    }
    Run run(Mode::factory, locals, budget_, depth_ + 1);
    return run.body(f);
  }

  CallFunction caller() const {
    return [this](const Function& f, const std::vector<CallArg>& args, const Token& callee) {
      return call(f, args, callee);
    };
  }

  void statement(TokenCursor& in) {
    if (++budget_.statements > kMaxStatements)
      in.fail(in.peek(), "the evaluation runs more than " + std::to_string(kMaxStatements) + " statements");
    if (returned_) return skip_statement(in);
    const Token& t = in.peek();
    if (t.kind == TokenKind::string && (in.peek(1).ends_statement() || in.peek(1).is_op(";"))) return void(in.next());
    if (t.is_name("pass")) return void(in.next());
    if (skip_import(in)) return;
    if (at_kernel_decorator(in)) return kernel(in);
    if (t.is_op("@") || t.is_name("def")) return nested_def(in);
    if (t.is_name("if")) return if_chain(in);
    if (t.is_name("return")) {
      in.next();
      const CallFunction call = caller();
      if (mode_ == Mode::test) return skip_statement(in);
      result_ = in.peek().ends_statement() || in.peek().is_op(";") ? Value{None{}, false, t.loc}
                                                                   : evaluate_tuple(in, *scope_, call);
      returned_ = true;
      return;
    }
    if (mode_ == Mode::test) return test_statement(in);
    std::string op;
    const std::size_t end = statement_end(in, false);
    if (assignment_at(in, end, &op)) return void(assign(in, end));
    in.fail(t, "mmacheck evaluates a factory's assignments, if/elif/else, return, defs and kernels; got " +
                   describe(t) + " (docs/tvmscript.md, \"Test files\")");
  }

  // `a = ...`, `a, b = ...`, `a += ...` at the cursor (before `end`).
  std::vector<std::pair<std::string, Value>> assign(TokenCursor& in, std::size_t end) {
    std::string op;
    const std::size_t eq = *assignment_at(in, end, &op);
    const auto names = target_names(in, eq);
    if (!names) in.fail(in.peek(), "mmacheck assigns to names only (a = ..., a, b = ...)");
    if (op != "=" && names->size() != 1) in.fail(in.peek(), "an augmented assignment takes one name");
    in.seek(eq);
    const Token& eq_token = in.next();
    Value v = evaluate_tuple(in, *scope_, caller());
    if (in.position() != end) in.fail(in.peek(), "mmacheck does not evaluate " + describe(in.peek()) + " here");
    if (op != "=") {
      const Value* old = scope_->find(names->front().text);
      if (!old) in.fail(names->front(), "unknown name '" + names->front().text + "'");
      // `a op= b` is `a = a op b`: evaluate it as such from the tokens' values.
      auto tmp = std::make_shared<Scope>();
      tmp->names.emplace("__a", *old);
      tmp->names.emplace("__b", v);
      const std::string bin = op.substr(0, op.size() - 1);
      std::vector<Token> expr{Token{TokenKind::identifier, "__a", 0, 0, eq_token.loc},
                              Token{TokenKind::op, bin, 0, 0, eq_token.loc},
                              Token{TokenKind::identifier, "__b", 0, 0, eq_token.loc}};
      TokenCursor c(std::move(expr));
      v = evaluate(c, *tmp, caller());
    }
    return bind_targets(*names, v, eq_token);
  }

 private:
  std::vector<std::pair<std::string, Value>> bind_targets(const std::vector<Token>& names, const Value& v,
                                                          const Token& eq) {
    std::vector<std::pair<std::string, Value>> out;
    if (names.size() == 1) {
      out.emplace_back(names.front().text, v);
    } else if (const auto* g = v.get<LayoutValue>(); g && std::holds_alternative<GroupedLayout>(*g)) {
      // TVM's group returns the grouped layout and its separators.
      if (names.size() != 2) throw Error(eq.loc, "L.group(shape) gives two values: grouped, seps");
      Items seps;
      for (int s : std::get<GroupedLayout>(*g).seps()) seps.push_back(Value{std::int64_t{s}, false, v.loc});
      out.emplace_back(names[0].text, v);
      out.emplace_back(names[1].text, make_items(std::move(seps), false, v.loc));
    } else {
      const Items* items = v.items();
      if (!items)
        throw Error(eq.loc, "cannot unpack " + kind_name(v) + " into " + std::to_string(names.size()) + " names");
      if (items->size() != names.size())
        throw Error(eq.loc, "cannot unpack " + std::to_string(items->size()) + " values into " +
                                std::to_string(names.size()) + " names");
      for (std::size_t i = 0; i < names.size(); ++i) out.emplace_back(names[i].text, (*items)[i]);
    }
    for (const auto& [name, value] : out) scope_->names.insert_or_assign(name, value);
    return out;
  }

  void kernel(TokenCursor& in) {
    const Token& at = in.peek();
    auto site = std::make_shared<KernelSite>();
    site->loc = at.loc;
    site->tokens = in.tokens();
    site->begin = in.position();
    read_decorator(in);
    while (in.peek().is_op("@")) read_decorator(in);
    if (!in.peek().is_name("def")) in.fail(at, "@T.prim_func must be followed by a def");
    site->name = in.peek(1).text;
    skip_statement(in);
    site->end = in.position();
    // TVMScript reads the kernel when its decorator runs: the names it closes
    // over hold their values here, not what the def binds to them later.
    const std::shared_ptr<Scope> captured = budget_.scope(scope_->parent);
    captured->names = scope_->names;
    site->scope = captured;
    scope_->names.insert_or_assign(site->name, Value{std::shared_ptr<const KernelSite>(site), false, at.loc});
    if (mode_ == Mode::test) built.push_back(Built{site, at.loc, expects_});
  }

  void nested_def(TokenCursor& in) {
    auto f = read_def(in, scope_, caller());
    scope_->names.insert_or_assign(f->name, Value{std::shared_ptr<const Function>(f), false, f->loc});
  }

 public:
  // A def at the cursor (its decorators first): its parameters, defaults
  // (evaluated now, in `scope`, as Python does) and the place of its body.
  static std::shared_ptr<Function> read_def(TokenCursor& in, const std::shared_ptr<Scope>& scope,
                                            const CallFunction& call) {
    auto f = std::make_shared<Function>();
    while (in.peek().is_op("@")) f->decorators.push_back(read_decorator(in));
    const Token& def = in.peek();
    if (!def.is_name("def")) in.fail(def, "a decorator must be followed by a def");
    f->keyword = in.position();
    in.next();
    const Token& name = in.expect_name("the def's name");
    f->name = name.text;
    f->loc = def.loc;
    f->tokens = in.tokens();
    f->scope = scope;
    const Token& open = in.expect("(", "after the def's name");
    bool keyword_only = false;
    while (!in.peek().is_op(")")) {
      if (in.accept("*")) {
        if (in.peek().kind == TokenKind::identifier)
          in.fail(in.peek(), "mmacheck does not evaluate a def with *" + in.peek().text);
        keyword_only = true;
      } else if (in.peek().is_op("**")) {
        in.fail(in.peek(), "mmacheck does not evaluate a def with **kwargs");
      } else {
        Param p{in.expect_name("a parameter").text, std::nullopt, keyword_only};
        if (in.accept(":")) {  // an annotation: passed over
          int depth = 0;
          while (depth > 0 || !(in.peek().is_op(",") || in.peek().is_op("=") || in.peek().is_op(")"))) {
            if (in.peek().kind == TokenKind::end) in.fail(open, "the parameters are not closed");
            if (in.peek().opens()) ++depth;
            if (in.peek().closes()) --depth;
            in.next();
          }
        }
        if (in.accept("=")) {
          const std::size_t start = in.position();
          try {
            p.default_value = evaluate(in, *scope, call);
          } catch (const Error&) {  // evaluated only if needed: opaque until then
            in.seek(start);
            int depth = 0;
            while (depth > 0 || !(in.peek().is_op(",") || in.peek().is_op(")"))) {
              if (in.peek().kind == TokenKind::end) in.fail(open, "the parameters are not closed");
              if (in.peek().opens()) ++depth;
              if (in.peek().closes()) --depth;
              in.next();
            }
            p.default_value = Value{Opaque{"defaulted at line " + std::to_string(name.loc.line) +
                                           " to an expression mmacheck does not evaluate"},
                                    false, name.loc};
          }
        }
        f->params.push_back(std::move(p));
      }
      if (!in.accept(",")) break;
    }
    in.expect_close(")", name.text + "(", open);
    while (!in.peek().is_op(":") && !in.peek().ends_statement()) in.next();  // -> annotation
    f->colon = in.position();
    TokenCursor body(in.tokens(), f->colon);
    suite(body, def, [&] { skip_statement(body); });
    in.seek(body.position());
    f->end = in.position();
    return f;
  }

 private:
  // if/elif/else: the taken suite is run, the others passed over.  In a
  // test a condition mmacheck cannot evaluate passes the whole chain over,
  // unless a kernel is built in it.
  void if_chain(TokenCursor& in) {
    bool done = false;
    const Token& first = in.peek();
    while (true) {
      const Token& kw = in.next();  // if, elif, else
      bool taken = false;
      if (!kw.is_name("else")) {
        const std::size_t cond = in.position();
        try {
          taken = truth(evaluate(in, *scope_, caller()));
        } catch (const Error& e) {
          if (mode_ == Mode::factory) throw;
          in.seek(cond);
          return unknown_condition(in, first, e);
        }
      } else {
        taken = true;
      }
      if (taken && !done) suite(in, kw, [&] { statement(in); });
      else suite(in, kw, [&] { skip_statement(in); });
      done = done || taken;
      std::size_t k = 0;
      while (in.peek(k).kind == TokenKind::newline) ++k;
      const Token& next = in.peek(k);
      if (!((next.is_name("elif") || next.is_name("else")) && next.loc.col == first.loc.col)) return;
      if (kw.is_name("else")) return;
      while (k-- > 0) in.next();
    }
  }

  // The rest of an if chain whose condition mmacheck cannot evaluate, in a test.
  void unknown_condition(TokenCursor& in, const Token& first, const Error& why) {
    TokenCursor probe(in.tokens(), in.position());
    while (!probe.peek().is_op(":")) probe.next();
    suite(probe, first, [&] { skip_statement(probe); });
    while (true) {
      std::size_t k = 0;
      while (probe.peek(k).kind == TokenKind::newline) ++k;
      const Token& next = probe.peek(k);
      if (!((next.is_name("elif") || next.is_name("else")) && next.loc.col == first.loc.col)) break;
      while (k-- > 0) probe.next();
      const Token& kw = probe.next();
      while (!probe.peek().is_op(":")) probe.next();
      suite(probe, kw, [&] { skip_statement(probe); });
    }
    if (builds_in(in, probe.position()))
      throw Error(first.loc, "a kernel is built under a condition mmacheck cannot evaluate: " + why.message());
    in.seek(probe.position());
  }

  // Does [cursor, end) define a kernel or call a def that builds one?
  bool builds_in(const TokenCursor& in, std::size_t end) const {
    TokenCursor c(in.tokens(), in.position());
    while (c.position() < end) {
      if (at_kernel_decorator(c)) return true;
      const Token& t = c.peek();
      std::set<const Function*> visiting;
      if (t.kind == TokenKind::identifier && c.peek(1).is_op("(") && c.position() > 0 &&
          (*c.tokens())[c.position() - 1].is_op(".") && method_builds(*scope_, t.text, visiting))
        return true;
      if (t.kind == TokenKind::identifier && c.peek(1).is_op("(") &&
          !(c.position() > 0 && (*c.tokens())[c.position() - 1].is_op("."))) {
        const Value* v = scope_->find(t.text);
        if (v && v->get<std::shared_ptr<const Function>>() &&
            builds_kernel(**v->get<std::shared_ptr<const Function>>()))
          return true;
      }
      c.next();
    }
    return false;
  }

  // A test's statement that is not a def, kernel, if or return.
  void test_statement(TokenCursor& in) {
    const Token& t = in.peek();
    if (t.is_name("with")) return with_statement(in);
    if (t.is_name("for") || t.is_name("while") || t.is_name("try") || t.is_name("class") || t.is_name("async")) {
      TokenCursor probe(in.tokens(), in.position());
      skip_statement(probe);
      if (builds_in(in, probe.position()))
        in.fail(t, "a kernel built in a '" + t.text +
                       "' statement of a test is not read (mmacheck reads the kernels "
                       "a test builds in straight-line code, if/else on its parameters and with blocks)");
      return in.seek(probe.position());
    }
    const std::size_t end = statement_end(in, false);
    std::string op;
    if (const auto eq = assignment_at(in, end, &op)) {
      const auto names = target_names(in, *eq);
      const std::size_t start = in.position();
      if (names) {
        try {
          std::vector<std::shared_ptr<const KernelSite>> kernels;
          for (const auto& [name, value] : assign(in, end)) collect_kernels(value, kernels);
          for (const auto& k : kernels) built.push_back(Built{k, t.loc, expects_});
          return;
        } catch (const Error&) {
          in.seek(start);
        }
      }
      builds(in, end);
      if (names)
        for (const Token& n : *names)
          scope_->names.insert_or_assign(n.text, Value{Opaque{"bound at line " + std::to_string(t.loc.line) +
                                                              " by a statement mmacheck does not evaluate"},
                                                       false, n.loc});
      return;
    }
    builds(in, end);
  }

  // Evaluates every call of a kernel-building def in [cursor, end); the
  // kernels they return are the test's.
  void builds(TokenCursor& in, std::size_t end) {
    while (in.position() < end) {
      const Token& t = in.peek();
      const bool attribute = in.position() > 0 && (*in.tokens())[in.position() - 1].is_op(".");
      const Value* v = t.kind == TokenKind::identifier && (in.peek(1).is_op("(") || in.peek(1).is_op(".")) && !attribute
                           ? scope_->find(t.text)
                           : nullptr;
      const auto* f = v && in.peek(1).is_op("(") ? v->get<std::shared_ptr<const Function>>() : nullptr;
      if (const auto* obj = v && in.peek(1).is_op(".") ? v->get<std::shared_ptr<const Object>>() : nullptr;
          obj && in.peek(2).kind == TokenKind::identifier && in.peek(3).is_op("(")) {
        const auto m = (*obj)->cls->methods.find(in.peek(2).text);
        if (m != (*obj)->cls->methods.end() && builds_kernel(*m->second)) {
          const Token& callee = in.peek(2);
          in.next(), in.next(), in.next();
          std::vector<CallArg> args = evaluate_args(in, *scope_, caller());
          args.insert(args.begin(), CallArg{std::nullopt, Value{*obj, false, t.loc}});
          std::vector<std::shared_ptr<const KernelSite>> kernels;
          collect_kernels(call(*m->second, args, callee), kernels);
          for (const auto& k : kernels) built.push_back(Built{k, callee.loc, expects_});
          continue;
        }
      }
      if (f && builds_kernel(**f)) {
        const Token& callee = in.next();
        const std::vector<CallArg> args = evaluate_args(in, *scope_, caller());
        std::vector<std::shared_ptr<const KernelSite>> kernels;
        collect_kernels(call(**f, args, callee), kernels);
        for (const auto& k : kernels) built.push_back(Built{k, callee.loc, expects_});
        continue;
      }
      in.next();
    }
  }

  // `with A [as x], B:` — pytest.raises(...) records the expectation for what
  // the block builds.
  void with_statement(TokenCursor& in) {
    const Token& kw = in.next();
    const std::size_t end = statement_end(in, true);
    std::optional<std::string> expects = expects_;
    if (in.peek().is_name("pytest") && in.peek(1).is_op(".") && in.peek(2).is_name("raises") && in.peek(3).is_op("(")) {
      TokenCursor c(in.tokens(), in.position() + 3);
      int depth = 0;
      do {
        if (c.peek().opens()) ++depth;
        if (c.peek().closes()) --depth;
        c.next();
      } while (depth > 0 && c.position() < end);
      expects = "pytest.raises" + joined_tokens(in, in.position() + 3, c.position()) + at_line(kw.loc);
    }
    builds(in, end);
    const std::optional<std::string> outer = expects_;
    expects_ = expects;
    suite(in, kw, [&] { statement(in); });
    expects_ = outer;
  }

  Mode mode_;
  std::shared_ptr<Scope> scope_;
  Budget& budget_;
  int depth_;
  bool returned_ = false;
  Value result_{None{}, false, {}};
  std::optional<std::string> expects_;
};

bool builds_kernel_visit(const Function& f, std::set<const Function*>& visiting) {
  if (!visiting.insert(&f).second) return false;
  TokenCursor c(f.tokens, f.colon);
  while (c.position() < f.end) {
    if (at_kernel_decorator(c)) return true;
    const Token& t = c.peek();
    if (t.kind == TokenKind::identifier && c.peek(1).is_op("(") && (*f.tokens)[c.position() - 1].is_op(".") &&
        method_builds(*closure(f), t.text, visiting))
      return true;
    if (t.kind == TokenKind::identifier && c.peek(1).is_op("(") && !(*f.tokens)[c.position() - 1].is_op(".")) {
      const Value* v = closure(f)->find(t.text);
      if (const auto* g = v ? v->get<std::shared_ptr<const Function>>() : nullptr)
        if (builds_kernel_visit(**g, visiting)) return true;
    }
    c.next();
  }
  return false;
}

// One `@pytest.mark.parametrize(argnames, argvalues[, ids=...])`: each
// parameter set's id and bindings.
std::vector<std::pair<std::string, std::vector<std::pair<std::string, Value>>>> parameter_sets(
    const Function& test, const Decorator& d, const CallFunction& call) {
  TokenCursor in(test.tokens, *d.arguments);
  const std::vector<CallArg> args = evaluate_args(in, *closure(test), call);
  std::optional<Value> names_v, values_v, ids_v;
  std::size_t positional = 0;
  for (const CallArg& a : args) {
    const std::string key = a.keyword.value_or(positional == 0 ? "argnames" : positional == 1 ? "argvalues" : "?");
    if (!a.keyword) ++positional;
    if (key == "argnames") names_v = a.value;
    else if (key == "argvalues") values_v = a.value;
    else if (key == "ids") ids_v = a.value;
    else throw Error(a.value.loc, "parametrize's '" + key + "' is not read by mmacheck (argnames, argvalues, ids)");
  }
  if (!names_v || !values_v) throw Error(d.loc, "parametrize needs argnames and argvalues");
  std::vector<std::string> names;
  if (const auto* s = names_v->get<std::string>()) {
    std::string cur;
    for (char ch : *s + ",") {
      if (ch == ',') {
        if (!cur.empty()) names.push_back(cur);
        cur.clear();
      } else if (ch != ' ' && ch != '\t') {
        cur += ch;
      }
    }
  } else if (const Items* items = names_v->items()) {
    for (const Value& x : *items) {
      const auto* s = x.get<std::string>();
      if (!s) throw Error(x.loc, "parametrize's argnames must be strings");
      names.push_back(*s);
    }
  }
  if (names.empty()) throw Error(names_v->loc, "parametrize's argnames name no parameter");
  const Items* values = values_v->items();
  if (!values)
    throw Error(values_v->loc, "parametrize's argvalues must be a list or tuple, got " + kind_name(*values_v));
  const Items* ids = ids_v ? ids_v->items() : nullptr;
  const auto* id_function = ids_v ? ids_v->get<std::shared_ptr<const Function>>() : nullptr;
  if (ids_v && !ids && !id_function)
    throw Error(ids_v->loc, "mmacheck reads parametrize's ids as a list of strings or a function of one value");
  if (ids && ids->size() != values->size())
    throw Error(ids_v->loc, "ids has " + std::to_string(ids->size()) + " entries for " +
                                std::to_string(values->size()) + " parameter sets");
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, Value>>>> out;
  for (std::size_t i = 0; i < values->size(); ++i) {
    const Value& set = (*values)[i];
    std::vector<Value> row;
    if (names.size() == 1) {
      row.push_back(set);
    } else {
      const Items* items = set.items();
      if (!items || items->size() != names.size())
        throw Error(set.loc, "a parameter set of " + std::to_string(names.size()) + " names needs a tuple of " +
                                 std::to_string(names.size()) + " values");
      row = *items;
    }
    std::string id;
    if (ids && !(*ids)[i].get<None>()) {
      const auto* s = (*ids)[i].get<std::string>();
      if (!s) throw Error((*ids)[i].loc, "an id must be a string");
      id = *s;
    } else {
      // pytest calls a function ids with each value; None keeps its own id.
      for (std::size_t j = 0; j < row.size(); ++j) {
        std::optional<std::string> own;
        if (id_function) {
          const Token at{TokenKind::op, "(", 0, 0, ids_v->loc};
          const Value v = call(**id_function, {CallArg{std::nullopt, row[j]}}, at);
          if (const auto* s = v.get<std::string>()) own = *s;
          else if (!v.get<None>())
            throw Error(ids_v->loc, "ids returned " + kind_name(v) + " for parameter set " + std::to_string(i) +
                                        "; mmacheck reads a string or None");
        }
        id += (j ? "-" : "") + own.value_or(pytest_id(row[j]).value_or(names[j] + std::to_string(i)));
      }
    }
    std::vector<std::pair<std::string, Value>> bindings;
    for (std::size_t j = 0; j < row.size(); ++j) bindings.emplace_back(names[j], row[j]);
    out.emplace_back(std::move(id), std::move(bindings));
  }
  // pytest makes repeated ids unique: x0, x1 (x_0 after a digit).
  std::map<std::string, int> count, seen;
  for (const auto& [id, b] : out) ++count[id];
  for (auto& [id, b] : out)
    if (count[id] > 1) {
      const std::string base = id;
      id = base + (std::isdigit(static_cast<unsigned char>(base.back())) ? "_" : "") + std::to_string(seen[base]++);
    }
  return out;
}

}  // namespace

bool builds_kernel(const Function& f) {
  std::set<const Function*> visiting;
  return builds_kernel_visit(f, visiting);
}

Module::Module(TokenCursor::Tokens tokens) : tokens_(std::move(tokens)), scope_(std::make_shared<Scope>()) {}

bool Module::define(TokenCursor& in) {
  const Token& t = in.peek();
  if (!(t.is_op("@") && !at_kernel_decorator(in)) && !t.is_name("def")) return false;
  // Decorated: is it a def (a class, a kernel under a decorator are the reader's)?
  std::size_t k = 0;
  while (in.peek(k).is_op("@")) {
    if (at_kernel_decorator(in, k)) return false;
    while (!in.peek(k).ends_statement()) ++k;
    while (in.peek(k).kind == TokenKind::newline) ++k;
  }
  if (in.peek(k).is_name("class") && dataclass_at(in)) return define_class(in), true;
  if (!in.peek(k).is_name("def")) return false;
  Budget budget{0, &scopes_};
  Run run(Run::Mode::factory, scope_, budget, 0);
  auto f = Run::read_def(in, scope_, run.caller());
  scope_->names.insert_or_assign(f->name, Value{std::shared_ptr<const Function>(f), false, f->loc});
  unbind_test(f->name);
  if (f->name.rfind("test", 0) == 0) tests_.push_back(Test{f, parameter_sets_of(*f)});
  return true;
}

namespace {

bool is_dataclass_decorator(const std::string& name) { return name == "dataclass" || name == "dataclasses.dataclass"; }

}  // namespace

bool Module::dataclass_at(const TokenCursor& in) {
  TokenCursor c(in.tokens(), in.position());
  bool dataclass = false;
  while (c.peek().is_op("@")) dataclass = is_dataclass_decorator(read_decorator(c).name) || dataclass;
  return dataclass && c.peek().is_name("class");
}

void Module::define_class(TokenCursor& in) {
  Budget budget{0, &scopes_};
  Run run(Run::Mode::factory, scope_, budget, 0);
  const CallFunction call = run.caller();
  auto cls = std::make_shared<Class>();
  while (in.peek().is_op("@")) {
    const Decorator d = read_decorator(in);
    if (!is_dataclass_decorator(d.name))
      throw Error(d.loc, "mmacheck reads a dataclass under @dataclass alone, not @" + d.name);
    if (!d.arguments) continue;
    TokenCursor a(in.tokens(), *d.arguments);
    for (const CallArg& arg : evaluate_args(a, *scope_, call)) {
      const bool* on = arg.value.get<bool>();
      if (!arg.keyword || !on || (*arg.keyword != "frozen" && *arg.keyword != "eq") || (*arg.keyword == "eq" && !*on))
        throw Error(arg.value.loc, "mmacheck reads @dataclass with frozen=True/False (and eq=True) only");
      if (*arg.keyword == "frozen") cls->frozen = *on;
    }
  }
  const Token& keyword = in.next();
  const Token& name = in.expect_name("the class's name");
  cls->name = name.text;
  cls->loc = keyword.loc;
  if (in.peek().is_op("("))
    in.fail(in.peek(), "mmacheck reads a dataclass without base classes (class " + name.text + ":)");
  const auto statement = [&] {
    const Token& t = in.peek();
    if (t.kind == TokenKind::string && (in.peek(1).ends_statement() || in.peek(1).is_op(";"))) return void(in.next());
    if (t.is_name("pass")) return void(in.next());
    if (t.is_op("@")) in.fail(t, "mmacheck reads a dataclass's plain methods only (no decorators)");
    if (t.is_name("def")) {
      auto f = Run::read_def(in, scope_, call);
      if (f->params.empty() || f->params.front().keyword_only)
        throw Error(f->loc,
                    "method " + f->name + " of " + cls->name + " takes no self (mmacheck reads instance methods)");
      const std::string method = f->name;
      cls->methods.insert_or_assign(method, std::shared_ptr<const Function>(std::move(f)));
      return;
    }
    if (t.kind != TokenKind::identifier || !in.peek(1).is_op(":"))
      in.fail(t, "mmacheck reads a dataclass's fields (name: type [= default]) and methods; got " + describe(t));
    in.next(), in.next();
    if (in.peek().is_name("ClassVar") || (in.peek(2).is_name("ClassVar") && in.peek(1).is_op(".")))
      in.fail(in.peek(), "mmacheck does not read ClassVar fields");
    int depth = 0;  // the annotation, passed over
    while (depth > 0 || !(in.peek().is_op("=") || in.peek().ends_statement() || in.peek().is_op(";"))) {
      if (in.peek().opens()) ++depth;
      if (in.peek().closes()) --depth;
      in.next();
    }
    Field field{t.text, std::nullopt, t.loc};
    if (in.accept("=")) {
      if (in.peek().is_name("field") && in.peek(1).is_op("(") && !scope_->find("field")) {
        in.next();
        for (const CallArg& arg : evaluate_args(in, *scope_, call)) {
          if (arg.keyword != "default") throw Error(arg.value.loc, "mmacheck reads field(default=...) only");
          field.default_value = arg.value;
        }
      } else {
        field.default_value = evaluate(in, *scope_, call);
      }
      if (!in.peek().ends_statement() && !in.peek().is_op(";"))
        in.fail(in.peek(), "mmacheck does not evaluate " + describe(in.peek()) + " here");
    }
    if (cls->field(field.name)) in.fail(t, "field '" + field.name + "' is declared twice");
    if (!field.default_value && !cls->fields.empty() && cls->fields.back().default_value)
      in.fail(t, "non-default argument '" + field.name + "' follows default argument (a dataclass's fields)");
    cls->fields.push_back(std::move(field));
  };
  suite(in, keyword, statement);
  for (const Field& f : cls->fields)
    if (cls->methods.contains(f.name)) throw Error(f.loc, "'" + f.name + "' is both a field and a method");
  const std::string class_name = cls->name;
  scope_->names.insert_or_assign(class_name, Value{std::shared_ptr<const Class>(std::move(cls)), false, keyword.loc});
  unbind_test(name.text);
}

void Module::refuse_kernel_class(const TokenCursor& in) const {
  if (dataclass_at(in)) return;  // define reads it
  std::size_t k = 0;
  while (in.peek(k).is_op("@")) {
    // @I.ir_module: TVMScript's module of kernels, the reader's own.
    if (in.peek(k + 2).is_op(".") && in.peek(k + 3).is_name("ir_module")) return;
    while (!in.peek(k).ends_statement()) ++k;
    while (in.peek(k).kind == TokenKind::newline) ++k;
  }
  if (!in.peek(k).is_name("class")) return;
  const Token& keyword = in.peek(k);
  const std::string name = in.peek(k + 1).text;
  TokenCursor end(in.tokens(), in.position());
  skip_statement(end);
  const auto refuse = [&](const Token& at, const std::string& what) {
    throw Error(at.loc, what + " in class '" + printable(name) + "' (line " + std::to_string(keyword.loc.line) +
                            "): mmacheck reads the kernels a file's test functions build and passes classes over, so "
                            "it would go unchecked; build it in a test function (docs/tvmscript.md, \"Test files\")");
  };
  for (TokenCursor c(in.tokens(), in.position() + k); c.position() < end.position(); c.next()) {
    if (at_kernel_decorator(c)) refuse(c.peek(), "a kernel is defined");
    const Token& t = c.peek();
    if (t.kind != TokenKind::identifier || !c.peek(1).is_op("(") ||
        (c.position() > 0 && (*c.tokens())[c.position() - 1].is_op(".")))
      continue;
    const Value* v = scope_->find(t.text);
    if (v && v->get<std::shared_ptr<const Function>>() && builds_kernel(**v->get<std::shared_ptr<const Function>>()))
      refuse(t, "'" + t.text + "', which builds a kernel, is called");
  }
}

void Module::unbind_test(const std::string& name) {
  tests_.erase(std::remove_if(tests_.begin(), tests_.end(), [&](const Test& t) { return t.def->name == name; }),
               tests_.end());
}

std::vector<std::pair<std::string, Value>> Module::assign(TokenCursor& in) {
  Budget budget{0, &scopes_};
  Run run(Run::Mode::factory, scope_, budget, 0);
  auto bound = run.assign(in, statement_end(in, false));
  for (const auto& [name, value] : bound) unbind_test(name);
  return bound;
}

void Module::bind(const std::string& name, Value value) {
  unbind_test(name);
  scope_->names.insert_or_assign(name, std::move(value));
}

std::vector<Module::ParameterSet> Module::parameter_sets_of(const Function& test) const {
  Budget budget{0, &scopes_};
  const Run outer(Run::Mode::factory, scope_, budget, 0);
  const CallFunction call = outer.caller();
  // Stacked parametrize marks, the one nearest the def first (pytest's order).
  std::vector<ParameterSet> sets{{"", {}}};
  for (auto d = test.decorators.rbegin(); d != test.decorators.rend(); ++d) {
    const std::string& n = d->name;
    if (n != "pytest.mark.parametrize" && n != "mark.parametrize") continue;
    if (!d->arguments) throw Error(d->loc, "parametrize needs its arguments");
    const auto mark = parameter_sets(test, *d, call);
    std::vector<ParameterSet> next;
    for (const auto& [id, bindings] : sets)
      for (const auto& [id2, bindings2] : mark) {
        if (next.size() == kMaxParameterSets)
          throw Error(d->loc, "the parametrize marks of " + test.name + " make more than " +
                                  std::to_string(kMaxParameterSets) + " parameter sets (mmacheck's limit)");
        auto merged = bindings;
        merged.insert(merged.end(), bindings2.begin(), bindings2.end());
        next.emplace_back(id.empty() ? id2 : id + "-" + id2, std::move(merged));
      }
    sets = std::move(next);
  }
  return sets;
}

std::vector<Instance> Module::instances(std::vector<std::string>& notes, std::optional<SourceLoc>* uncalled) const {
  std::vector<Instance> out;
  std::set<const Function*> called;
  for (const auto& [test, sets] : tests_) {
    Budget budget{0, &scopes_, &called};
    for (const auto& [id, bindings] : sets) {
      auto locals = budget.scope(closure(*test));
      for (const auto& [name, value] : bindings) locals->names.insert_or_assign(name, value);
      for (const Param& p : test->params)
        if (!locals->names.contains(p.name))
          locals->names.emplace(p.name, p.default_value.value_or(
                                            Value{Opaque{"that is a pytest fixture (" + test->name + "'s parameter '" +
                                                         p.name + "'), which mmacheck does not evaluate"},
                                                  false, test->loc}));
      Run run(Run::Mode::test, locals, budget, 0);
      run.body(*test);
      const std::string base = test->name + (id.empty() ? "" : "[" + id + "]");
      std::map<std::string, int> names;
      for (const auto& b : run.built) ++names[b.kernel->name];
      for (const auto& b : run.built) {
        std::string name = base;
        if (run.built.size() > 1) name += "::" + b.kernel->name + (names[b.kernel->name] > 1 ? at_line(b.at) : "");
        out.push_back(Instance{name, b.kernel, b.at, b.expects});
      }
    }
  }
  std::vector<std::pair<std::string, std::shared_ptr<const Function>>> factories;  // "def make", "method Config.build"
  for (const auto& [name, value] : scope_->names) {
    if (const auto* f = value.get<std::shared_ptr<const Function>>()) factories.emplace_back("def " + (*f)->name, *f);
    if (const auto* c = value.get<std::shared_ptr<const Class>>())
      for (const auto& [method, f] : (*c)->methods) factories.emplace_back("method " + (*c)->name + "." + method, f);
  }
  for (const auto& [what, fn] : factories) {
    const auto* f = &fn;
    if ((*f)->name.rfind("test", 0) == 0 || !builds_kernel(**f)) continue;
    const bool used = called.contains(f->get()) || std::any_of(out.begin(), out.end(), [&](const Instance& i) {
                        return i.kernel->begin > (*f)->keyword && i.kernel->end <= (*f)->end;
                      });
    if (used) continue;
    notes.push_back(what + at_line((*f)->loc) + " builds kernels no test calls");
    if (uncalled && !*uncalled) {
      *uncalled = (*f)->loc;
      for (TokenCursor c((*f)->tokens, (*f)->colon); c.position() < (*f)->end; c.next())
        if (at_kernel_decorator(c)) {
          *uncalled = c.peek().loc;
          break;
        }
    }
  }
  return out;
}

}  // namespace mmacheck::python
