#include "core/program/kernel_instance.h"

#include <unordered_map>

#include <bit>
#include <cstdint>
#include <functional>

#include <limits>
#include <set>

#include "core/program/python_eval.h"

namespace mmacheck {

namespace {

bool opens(const Token& t) { return t.is_op("(") || t.is_op("[") || t.is_op("{"); }
bool closes(const Token& t) { return t.is_op(")") || t.is_op("]") || t.is_op("}"); }

// The kernel's own names: its parameters, and every name a statement of it
// assigns (`a = `, `a, b = `), a `for` binds or a `with ... as` names.
std::set<std::string> own_names(const std::vector<Token>& t) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const bool start = i == 0 || t[i - 1].kind == TokenKind::newline || t[i - 1].is_op(";");
    if (t[i].is_name("def") && i + 1 < t.size()) {  // the def's name and parameters
      out.insert(t[i + 1].text);
      int depth = 0;
      for (std::size_t j = i + 2; j < t.size(); ++j) {
        if (opens(t[j])) ++depth;
        if (closes(t[j]) && --depth == 0) break;
        if (depth == 1 && t[j].kind == TokenKind::identifier && (t[j - 1].is_op("(") || t[j - 1].is_op(",")))
          out.insert(t[j].text);
      }
    }
    if (t[i].is_name("for") || t[i].is_name("as")) {
      for (std::size_t j = i + 1; j < t.size() && !t[j].is_name("in") && !t[j].is_op(":") && !t[j].ends_statement();
           ++j)
        if (t[j].kind == TokenKind::identifier) out.insert(t[j].text);
    }
    if (start) {
      std::size_t j = i;
      std::vector<std::string> names;
      while (j < t.size() &&
             (t[j].kind == TokenKind::identifier || t[j].is_op(",") || t[j].is_op("(") || t[j].is_op(")"))) {
        if (t[j].kind == TokenKind::identifier) names.push_back(t[j].text);
        ++j;
      }
      if (j < t.size() && t[j].kind == TokenKind::op && t[j].text.back() == '=' && t[j].text != "==")
        out.insert(names.begin(), names.end());
    }
  }
  return out;
}

// The literal tokens of a constant at `loc`; false for what is no constant.
bool literal(const python::Value& v, const SourceLoc& loc, std::vector<Token>& out) {
  const auto number = [&](TokenKind kind, std::string text, std::int64_t i, double d, bool negative) {
    if (negative) {
      out.push_back(Token{TokenKind::op, "(", 0, 0, loc});
      out.push_back(Token{TokenKind::op, "-", 0, 0, loc});
    }
    out.push_back(Token{kind, std::move(text), i, d, loc});
    if (negative) out.push_back(Token{TokenKind::op, ")", 0, 0, loc});
  };
  if (v.get<python::None>()) out.push_back(Token{TokenKind::identifier, "None", 0, 0, loc});
  else if (const bool* b = v.get<bool>()) out.push_back(Token{TokenKind::identifier, *b ? "True" : "False", 0, 0, loc});
  else if (const auto* i = v.get<std::int64_t>()) {
    if (*i == std::numeric_limits<std::int64_t>::min()) return false;
    const std::int64_t m = *i < 0 ? -*i : *i;
    number(TokenKind::integer, std::to_string(m), m, 0, *i < 0);
  } else if (const double* d = v.get<double>()) {
    const double m = *d < 0 ? -*d : *d;
    python::Value mv{m, false, loc};
    number(TokenKind::floating, python::pytest_id(mv).value_or("0.0"), 0, m, *d < 0);
  } else if (const auto* s = v.get<std::string>()) {
    out.push_back(Token{TokenKind::string, *s, 0, 0, loc});
  } else if (const python::Items* items = v.items()) {
    out.push_back(Token{TokenKind::op, v.list ? "[" : "(", 0, 0, loc});
    for (const python::Value& x : *items) {
      if (!literal(x, loc, out)) return false;
      out.push_back(Token{TokenKind::op, ",", 0, 0, loc});
    }
    if (v.list && !items->empty()) out.pop_back();
    out.push_back(Token{TokenKind::op, v.list ? "]" : ")", 0, 0, loc});
  } else {
    return false;
  }
  return true;
}

bool foldable(const Token& t) {
  if (t.kind == TokenKind::integer) return true;
  if (t.kind != TokenKind::op) return false;
  return t.text == "+" || t.text == "-" || t.text == "*" || t.text == "//" || t.text == "%" || t.text == "(" ||
         t.text == ")";
}

// Integer arithmetic of literals alone between `(`/`[`/`,` and `)`/`]`/`,`,
// evaluated: `T.unroll(1 * 1 * 4)` reads as `T.unroll(4)`.
std::vector<Token> folded(std::vector<Token> t) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    out.push_back(t[i]);
    if (!(t[i].is_op("(") || t[i].is_op("[") || t[i].is_op(","))) continue;
    std::size_t j = i + 1;
    int depth = 0;
    bool op = false;
    while (j < t.size() && foldable(t[j])) {
      if (t[j].is_op("(")) {
        ++depth;
      } else if (t[j].is_op(")")) {
        if (depth == 0) break;
        --depth;
      } else if (t[j].kind == TokenKind::op) {
        op = true;
      }
      ++j;
    }
    if (!op || depth != 0 || j >= t.size() || !(t[j].is_op(")") || t[j].is_op("]") || t[j].is_op(","))) continue;
    std::vector<Token> run(t.begin() + static_cast<std::ptrdiff_t>(i + 1), t.begin() + static_cast<std::ptrdiff_t>(j));
    TokenCursor in(run);
    const python::Scope none;
    const python::Value v = python::evaluate(in, none, nullptr);
    const auto* n = v.get<std::int64_t>();
    if (!n || in.peek().kind != TokenKind::end) continue;
    literal(v, t[i + 1].loc, out);
    i = j - 1;
  }
  return out;
}

}  // namespace

ClosedKernel close_kernel(const python::KernelSite& site) {
  const std::vector<Token> raw(site.tokens->begin() + static_cast<std::ptrdiff_t>(site.begin),
                               site.tokens->begin() + static_cast<std::ptrdiff_t>(site.end));
  const std::set<std::string> own = own_names(raw);
  const std::shared_ptr<const python::Scope> scope = python::closure(site);
  ClosedKernel out;
  std::set<std::string> bound;
  std::vector<Token> tokens;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const Token& t = raw[i];
    const bool attribute = i > 0 && raw[i - 1].is_op(".");
    const bool keyword =
        i + 1 < raw.size() && raw[i + 1].is_op("=") && i > 0 && (raw[i - 1].is_op("(") || raw[i - 1].is_op(","));
    const python::Value* v = t.kind == TokenKind::identifier && !attribute && !keyword && !own.contains(t.text)
                                 ? scope->find(t.text)
                                 : nullptr;
    if (const python::Opaque* o = v ? v->get<python::Opaque>() : nullptr)
      throw Error(t.loc, "the kernel uses '" + t.text + "', a name " + o->why + "; mmacheck needs its value here");
    if (v && v->get<LayoutValue>()) {
      if (bound.insert(t.text).second) out.layouts.emplace_back(t.text, *v);
      tokens.push_back(t);
      continue;
    }
    std::vector<Token> lit;
    if (v && literal(*v, t.loc, lit)) tokens.insert(tokens.end(), lit.begin(), lit.end());
    else tokens.push_back(t);
  }
  out.tokens = folded(std::move(tokens));
  out.tokens.push_back(Token{TokenKind::end, "", 0, 0, site.tokens->back().loc});
  return out;
}

std::size_t kernel_hash(const ClosedKernel& kernel) {
  std::size_t h = kernel.layouts.size();
  const auto mix = [&](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (const Token& t : kernel.tokens) {
    mix(std::hash<std::string>{}(t.text));
    mix(static_cast<std::size_t>(t.loc.line) * 4099 + static_cast<std::size_t>(t.loc.col));
  }
  return h;
}

bool same_kernel(const ClosedKernel& a, const ClosedKernel& b) {
  const auto same_token = [](const Token& x, const Token& y) {
    return x.kind == y.kind && x.text == y.text && x.int_value == y.int_value &&
           std::bit_cast<std::uint64_t>(x.float_value) == std::bit_cast<std::uint64_t>(y.float_value) &&
           x.loc.file == y.loc.file && x.loc.line == y.loc.line && x.loc.col == y.loc.col;
  };
  const auto same_layout = [](const LayoutValue& x, const LayoutValue& y) {
    if (x.index() != y.index()) return false;
    if (const auto* g = std::get_if<GroupedLayout>(&x))
      return g->layout() == std::get<GroupedLayout>(y).layout() && g->seps() == std::get<GroupedLayout>(y).seps();
    return std::get<TileLayout>(x) == std::get<TileLayout>(y);
  };
  if (a.tokens.size() != b.tokens.size() || a.layouts.size() != b.layouts.size()) return false;
  for (std::size_t i = 0; i < a.tokens.size(); ++i)
    if (!same_token(a.tokens[i], b.tokens[i])) return false;
  for (std::size_t i = 0; i < a.layouts.size(); ++i) {
    const LayoutValue* x = a.layouts[i].second.get<LayoutValue>();
    const LayoutValue* y = b.layouts[i].second.get<LayoutValue>();
    if (a.layouts[i].first != b.layouts[i].first || !x || !y || !same_layout(*x, *y)) return false;
  }
  return true;
}

std::vector<KernelInstance> read_instances(const std::vector<python::Instance>& built,
                                           const std::function<ReadKernel(const ClosedKernel&)>& read) {
  // Found by a hash of the closed kernel, confirmed token for token.
  std::vector<KernelInstance> instances;
  std::vector<ClosedKernel> closed_kernels;                   // the distinct ones
  std::vector<std::size_t> first_instance;                    // where each was read, in instances
  std::unordered_multimap<std::size_t, std::size_t> by_hash;  // hash -> index into closed_kernels
  for (const python::Instance& b : built) {
    ClosedKernel closed = close_kernel(*b.kernel);
    const std::size_t hash = kernel_hash(closed);
    std::optional<std::size_t> same;
    for (auto [it, end] = by_hash.equal_range(hash); it != end && !same; ++it)
      if (same_kernel(closed_kernels[it->second], closed)) same = it->second;
    if (same) {
      KernelInstance again = instances[first_instance[*same]];
      again.name = b.name;
      again.built_at = b.built_at;
      again.expects = b.expects;
      again.same_as = first_instance[*same];
      instances.push_back(std::move(again));
      continue;
    }
    ReadKernel kernel = read(closed);
    instances.push_back(
        KernelInstance{b.name, std::move(kernel.program), b.built_at, b.expects, std::move(kernel.skipped)});
    by_hash.emplace(hash, closed_kernels.size());
    closed_kernels.push_back(std::move(closed));
    first_instance.push_back(instances.size() - 1);
  }
  return instances;
}

}  // namespace mmacheck
