#include "core/cute/cute_traits.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>
#include <unordered_map>

#include "core/cute/cute_dsl_print.h"

namespace mmacheck {

namespace {

// Aliases a trait header may use from a header it includes (CUTLASS's
// mma_traits_sm80.hpp defines these in an anonymous namespace; sm89's copies
// one of them).  Used for a header only when it #includes the defining one,
// and always for atom lists.
struct IncludedAlias {
  std::string_view header;
  std::string_view name;
  std::string_view layout;
};
constexpr IncludedAlias kIncludedAliases[] = {
    {"mma_traits_sm80.hpp", "SM80_8x4", "((4,8),1):((8,1),0)"},
    {"mma_traits_sm80.hpp", "SM80_8x8_Row", "((4,8),2):((16,1),8)"},
    {"mma_traits_sm80.hpp", "SM80_8x16_Row", "((4,8),4):((32,1),8)"},
    {"mma_traits_sm80.hpp", "SM80_16x8_Row", "((4,8),(2,2)):((32,1),(16,8))"},
};

// Definitions a GMMA trait header may use from mma_traits_sm90_gmma.hpp (the
// facts of its SM90::GMMA namespace, in mmacheck's words): for a header that
// #includes it, and for its companion mma_traits_sm90_gmma_ext.hpp, which it
// #includes at its end (so the companion sees them without an #include).
struct IncludedDefinitions {
  std::string_view header;
  std::string_view companion;
  std::string_view text;
};
constexpr IncludedDefinitions kIncludedDefinitions[] = {
    {"mma_traits_sm90_gmma.hpp", "mma_traits_sm90_gmma_ext.hpp",
     "template <int N> using CLayout_64xN = Layout<Shape<Shape<_4,_8,_4>,Shape<_2,_2,Int<N/8>>>,"
     "                                            Stride<Stride<_128,_1,_16>,Stride<_64,_8,_512>>>;"
     "using CLayout_64x8 = CLayout_64xN<8>;     using CLayout_64x16 = CLayout_64xN<16>;"
     "using CLayout_64x32 = CLayout_64xN<32>;   using CLayout_64x64 = CLayout_64xN<64>;"
     "using CLayout_64x96 = CLayout_64xN<96>;   using CLayout_64x128 = CLayout_64xN<128>;"
     "using CLayout_64x192 = CLayout_64xN<192>; using CLayout_64x256 = CLayout_64xN<256>;"
     "using ALayout_64x8 = ((4,8,4),(2,2)):((64,1,16),(8,256));"
     "using ALayout_64x16 = ((4,8,4),(2,2,2)):((128,1,16),(64,8,512));"
     "using ALayout_64x32 = ((4,8,4),(4,2,2)):((256,1,16),(64,8,1024));"
     "template <int M, int K> using ABLayout = Layout<Shape<_128,Shape<Int<M>,Int<K>>>, Stride<_0,Stride<_1,Int<M>>>>;"},
};

// The element types CUTLASS's trait headers give as ValTypeX (namespace
// qualifiers and `typename` dropped), as the atom name's type token.
struct ValTypeName {
  std::string_view cpp;
  std::string_view token;
};
constexpr ValTypeName kValTypes[] = {
    {"half_t", "F16"},        {"bfloat16_t", "BF16"},   {"tfloat32_t", "TF32"},     {"float", "F32"},
    {"double", "F64"},        {"int8_t", "S8"},         {"uint8_t", "U8"},          {"int4b_t", "S4"},
    {"uint4b_t", "U4"},       {"uint1b_t", "U1"},       {"int32_t", "S32"},         {"int16_t", "S16"},
    {"float_e4m3_t", "E4M3"}, {"float_e5m2_t", "E5M2"}, {"complex<double>", "C64"}, {"complex<float>", "C32"},
};

// The members of an MMA_Traits body mmacheck reads.
constexpr std::string_view kMembers[] = {"ValTypeD", "ValTypeA", "ValTypeB", "ValTypeC", "Shape_MNK", "ThrID",
                                         "ALayout",  "BLayout",  "CLayout",  "FrgTypeA", "FrgTypeB",  "FrgTypeC"};
constexpr std::string_view kMemberList =
    "ValTypeD/A/B/C, Shape_MNK, ThrID, ALayout, BLayout, CLayout, FrgTypeA/B/C; before CUTLASS 3.4 ElementD/A/B/CVal, "
    "ElementA/B/CFrg";

// The members' names before CUTLASS 3.4 (`using ElementDVal = float;`,
// ElementAFrg for FrgTypeA), read as the names that replaced them.
struct OldMemberName {
  std::string_view old_name, name;
};
constexpr OldMemberName kOldMemberNames[] = {
    {"ElementDVal", "ValTypeD"}, {"ElementAVal", "ValTypeA"}, {"ElementBVal", "ValTypeB"}, {"ElementCVal", "ValTypeC"},
    {"ElementAFrg", "FrgTypeA"}, {"ElementBFrg", "FrgTypeB"}, {"ElementCFrg", "FrgTypeC"},
};

// A member's name as mmacheck reads it: the old spelling's replacement.
std::string_view member_name(std::string_view written) {
  for (const OldMemberName& o : kOldMemberNames)
    if (o.old_name == written) return o.name;
  return written;
}

bool known_member(std::string_view name) {
  for (std::string_view m : kMembers)
    if (m == name) return true;
  return false;
}

int val_type_index(std::string_view key) {
  constexpr std::string_view kKeys[] = {"ValTypeD", "ValTypeA", "ValTypeB", "ValTypeC"};
  for (int i = 0; i < 4; ++i)
    if (key == kKeys[i]) return i;
  return -1;
}

using Aliases = std::map<std::string, CuteLayoutSource, std::less<>>;

// A template parameter: its type as written ("GMMA::Major", "int", "class")
// and its name.
struct TemplateParam {
  std::string type;
  std::string name;
};

// `template <int N> using NAME = ...;`: the parameters and the tokens after `=`.
struct AliasTemplate {
  std::vector<std::string> params;
  std::vector<CppToken> body;
  SourceLoc loc;
};

// Template parameter types that cannot change an atom's layouts: wgmma's
// transpose (which smem layout the descriptor describes, not the register
// fragments), its input negation and, in CUTLASS 3.0, whether D accumulates
// (GMMA::ScaleOut, a run-time operand from 3.1 on).
constexpr std::string_view kNeutralParams[] = {"GMMA::Major", "GMMA::ScaleIn", "GMMA::ScaleOut"};

bool neutral(std::string type) {
  for (std::string_view ns : {"cute::", "SM90::"})
    if (type.rfind(ns, 0) == 0) type.erase(0, ns.size());
  for (std::string_view n : kNeutralParams)
    if (n == type) return true;
  return false;
}

std::string join_tokens(const std::vector<CppToken>& tokens) {
  std::string text;
  for (const CppToken& t : tokens)
    text += (t.kind == CppKind::identifier && !text.empty() && std::isalnum(static_cast<unsigned char>(text.back())))
                ? " " + t.text
                : t.text;
  return text;
}

CppToken integer_token(std::int64_t v, const SourceLoc& loc) {
  CppToken t;
  t.kind = CppKind::integer;
  t.text = std::to_string(v);
  t.value = v;
  t.loc = loc;
  return t;
}

// An Int<...> argument: integers joined by + - * / (C++ precedence and
// truncating division), or the Error at the first token that is not.
std::int64_t evaluate(const std::vector<CppToken>& e, const SourceLoc& at) {
  std::size_t i = 0;
  const auto operand = [&]() -> std::int64_t {
    if (i >= e.size() || e[i].kind != CppKind::integer)
      throw Error(i < e.size() ? e[i].loc : at,
                  "expected an integer in Int<...>, got " + (i < e.size() ? describe(e[i]) : std::string("'>'")));
    return e[i++].value;
  };
  const auto term = [&]() {
    std::int64_t v = operand();
    while (i < e.size() && (e[i].is("*") || e[i].is("/"))) {
      const CppToken& op = e[i++];
      const std::int64_t r = operand();
      if (op.is("/") && r == 0) throw Error(op.loc, "division by zero in Int<...>");
      v = op.is("*") ? v * r : v / r;
      if (v >= (std::int64_t{1} << 31) || v <= -(std::int64_t{1} << 31))
        throw Error(op.loc, "Int<...> is too large for a layout (at most 2^31 - 1)");
    }
    return v;
  };
  std::int64_t v = term();
  while (i < e.size() && (e[i].is("+") || e[i].is("-"))) {
    const bool plus = e[i++].is("+");
    v = plus ? v + term() : v - term();
  }
  if (i != e.size()) throw Error(e[i].loc, "unexpected " + describe(e[i]) + " in Int<...>");
  return v;
}

std::string loc_text(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

struct TraitsReader {
  CppCursor c;
  Aliases aliases;
  std::set<std::string, std::less<>> includes;  // file names of #include lines
  bool header;                                  // a trait header (else an atom list)
  std::int64_t max_depth;
  std::map<std::string, AliasTemplate, std::less<>> alias_templates;
  std::set<std::string, std::less<>> loaded;  // headers whose definitions were read

  // Past `NS::` qualifiers (not `cute::Layout`, a layout): the offset of the name.
  std::size_t unqualified(std::size_t k = 0) const {
    while (c.peek(k).kind == CppKind::identifier && c.peek(k + 1).is("::") && !c.peek(k + 2).is_name("Layout")) k += 2;
    return k;
  }

  // A name (possibly qualified) this reader can turn into a layout.
  bool layout_name_ahead() const {
    const std::size_t k = unqualified();
    const CppToken& t = c.peek(k);
    if (t.kind != CppKind::identifier) return false;
    if (c.peek(k + 1).is("<")) return alias_templates.count(t.text) != 0;
    return aliases.count(t.text) != 0 || builtin(t.text).has_value();
  }

  // After `template <`: the parameters up to the matching `>`.
  std::vector<TemplateParam> template_params() {
    std::vector<TemplateParam> params;
    std::vector<CppToken> part;
    int depth = 0;
    bool in_default = false;
    const auto close = [&] {
      if (part.empty()) return;
      TemplateParam p;
      p.name = part.back().text;
      part.pop_back();
      p.type = join_tokens(part);
      params.push_back(std::move(p));
      part.clear();
    };
    while (true) {
      if (c.at_end()) throw Error(c.peek().loc, "template <...> is not closed before the end of the input");
      const CppToken& t = c.next();
      if (t.is("<") || t.is("(")) ++depth;
      if ((t.is(">") || t.is(")")) && depth-- == 0) break;
      if (depth == 0 && t.is(",")) {
        close();
        in_default = false;
      } else if (depth == 0 && t.is("=")) {
        in_default = true;
      } else if (!in_default) {
        part.push_back(t);
      }
    }
    close();
    return params;
  }

  // `using NAME = ...;` after `template <int ...>`.
  void alias_template(const std::vector<TemplateParam>& params) {
    c.next();  // using
    const CppToken name = c.next();
    c.next();  // =
    AliasTemplate a;
    a.loc = name.loc;
    for (const TemplateParam& p : params) a.params.push_back(p.name);
    int depth = 0;
    while (true) {
      if (c.at_end()) throw Error(name.loc, "the alias template has no ';' before the end of the input");
      if (depth == 0 && c.peek().is(";")) break;
      const CppToken& t = c.next();
      if (t.is("<") || t.is("(")) ++depth;
      if (t.is(">") || t.is(")")) --depth;
      a.body.push_back(t);
    }
    c.next();
    alias_templates[name.text] = std::move(a);
  }

  // At NAME `<` of an alias template: its layout for the integer arguments.
  CuteLayout instantiate(const CppToken& name) {
    const AliasTemplate& a = alias_templates.at(name.text);
    c.expect("<", "after " + name.text);
    std::vector<std::int64_t> args;
    do {
      const CppToken& t = c.next();
      std::int64_t v = 0;
      const std::string_view digits = t.kind == CppKind::identifier && t.text.size() > 1 && t.text[0] == '_'
                                          ? std::string_view(t.text).substr(1)
                                          : std::string_view{};
      const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (t.kind == CppKind::integer) args.push_back(t.value);
      else if (!digits.empty() && ec == std::errc{} && ptr == digits.data() + digits.size()) args.push_back(v);
      else throw Error(t.loc, "expected an integer argument of " + name.text + "<...>, got " + describe(t));
      if (args.back() >= (std::int64_t{1} << 31)) throw Error(t.loc, "argument " + t.text + " is too large");
    } while (c.accept(","));
    c.expect(">", "closing " + name.text + "<...>");
    if (args.size() != a.params.size())
      throw Error(name.loc, name.text + " takes " + std::to_string(a.params.size()) + " arguments, given " +
                                std::to_string(args.size()) + " (defined at " + loc_text(a.loc) + ")");
    std::vector<CppToken> tokens;
    for (const CppToken& t : a.body) {
      std::size_t p = 0;
      while (p < a.params.size() && !t.is_name(a.params[p])) ++p;
      tokens.push_back(p < a.params.size() ? integer_token(args[p], t.loc) : t);
    }
    std::vector<CppToken> folded;  // Int<expression> -> Int<value>
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      folded.push_back(tokens[i]);
      if (!(tokens[i].is_name("Int") || tokens[i].is_name("C")) || i + 1 >= tokens.size() || !tokens[i + 1].is("<"))
        continue;
      std::size_t end = i + 2;
      while (end < tokens.size() && !tokens[end].is(">")) ++end;
      const std::vector<CppToken> expr(tokens.begin() + static_cast<std::ptrdiff_t>(i + 2),
                                       tokens.begin() + static_cast<std::ptrdiff_t>(end));
      folded.push_back(tokens[i + 1]);
      folded.push_back(integer_token(evaluate(expr, tokens[i + 1].loc), tokens[i + 1].loc));
      i = end - 1;
    }
    CppToken stop;
    stop.loc = name.loc;
    folded.push_back(stop);
    try {
      CppCursor body(std::move(folded), max_depth);
      CuteLayout layout = parse_cute_layout(body);
      if (!body.at_end()) throw Error(body.peek().loc, "unexpected " + describe(body.peek()) + " after the layout");
      return layout;
    } catch (const Error& e) {
      throw Error(name.loc, name.text + "<...> (defined at " + loc_text(a.loc) + "): " + e.message());
    }
  }

  // Read `using` and `template <int ...> using` definitions from `text`, as
  // if they stood here.
  void define(std::string_view text, const std::string& what) {
    CppCursor outer(tokenize_cpp(text, what), max_depth);
    std::swap(c, outer);
    while (!c.at_end()) {
      std::vector<TemplateParam> params;
      if (c.peek().is_name("template") && c.peek(1).is("<")) {
        c.next();
        c.next();
        params = template_params();
      }
      if (params.empty()) alias();
      else alias_template(params);
    }
    std::swap(c, outer);
  }

  // The definitions of an #included header (or of the header whose companion
  // `file` is), once.
  void include(const std::string& name, bool companion) {
    for (const IncludedDefinitions& d : kIncludedDefinitions)
      if ((companion ? d.companion : d.header) == name && loaded.insert(std::string(d.header)).second)
        define(d.text, "mmacheck's definitions of " + std::string(d.header));
  }

  // At `[NS::]ScaleOut accumulate_ =`: wgmma's run-time accumulate flag.
  bool accumulate_ahead() const {
    const std::size_t k = unqualified();
    return c.peek(k).is_name("ScaleOut") && c.peek(k + 1).is_name("accumulate_") && c.peek(k + 2).is("=");
  }

  bool layout_ahead() const {
    const CppToken& t = c.peek();
    if (t.is_name("cute") && c.peek(1).is("::")) return c.peek(2).is_name("Layout");
    return t.is_name("Layout") || t.is("(") || t.kind == CppKind::integer ||
           (t.kind == CppKind::identifier && t.text.size() > 1 && t.text[0] == '_' &&
            std::isdigit(static_cast<unsigned char>(t.text[1])));
  }

  std::optional<CuteLayout> builtin(std::string_view name) const {
    for (const IncludedAlias& a : kIncludedAliases)
      if (a.name == name && (!header || includes.count(a.header))) return parse_cute_layout(a.layout, "built-in alias");
    return std::nullopt;
  }

  // Skip to the `;` ending a statement, minding brackets (a non-layout alias).
  void skip_statement() {
    const SourceLoc start = c.peek().loc;
    int depth = 0;
    while (!c.at_end()) {
      const CppToken& t = c.next();
      if (t.is("<") || t.is("(") || t.is("{") || t.is("[")) ++depth;
      if (t.is(">") || t.is(")") || t.is("}") || t.is("]")) --depth;
      if (t.is(";") && depth <= 0) return;
    }
    throw Error(start, "the declaration has no ';' before the end of the input (is the file truncated?)");
  }

  // The right-hand side of `using X = ...` or `KEY = ...`: a layout or an alias.
  CuteLayoutSource member(bool statement) {
    CuteLayoutSource s;
    s.loc = c.peek().loc;
    if (!layout_ahead() && c.peek().kind == CppKind::identifier) {
      for (std::size_t k = unqualified(); k > 0; --k) s.written += c.next().text;
      const CppToken name = c.next();
      s.written += name.text;
      if (c.peek().is("<") && alias_templates.count(name.text)) {
        const std::size_t from = c.position();
        s.layout = instantiate(name);
        const std::size_t to = c.position();
        for (c.seek(from); c.position() < to;) s.written += c.next().text;
      } else if (auto it = aliases.find(name.text); it != aliases.end()) {
        s.layout = it->second.layout;
      } else if (std::optional<CuteLayout> b = builtin(name.text)) {
        s.layout = std::move(b);
      } else {
        throw Error(name.loc, "'" + name.text + "' is not a layout this file defines" +
                                  (header ? " (nor an alias of a header it #includes)" : ""));
      }
    } else {
      s.layout = parse_cute_layout(c);
    }
    if (statement) c.expect(";", "ending the declaration");
    return s;
  }

  IntTuple shape_member(bool statement) {
    IntTuple t = parse_cute_shape(c);
    if (statement) c.expect(";", "ending the declaration");
    return t;
  }

  // A C++ type name up to `;` or `,` outside brackets, spaces dropped.
  std::string type_text(bool statement) {
    std::string text;
    int depth = 0;
    const SourceLoc start = c.peek().loc;
    while (!c.at_end()) {
      const CppToken& t = c.peek();
      if (depth == 0 && (t.is(";") || (!statement && t.is(",")))) break;
      if (!statement && depth == 0 && t.kind == CppKind::identifier &&
          (c.peek(1).is(":") || t.text == "using" || (t.text == "tiled" && c.peek(1).kind == CppKind::identifier)))
        break;  // the next entry of an atom list
      if (t.is("<")) ++depth;
      if (t.is(">") && --depth < 0) throw Error(t.loc, "unbalanced '>' in a type name");
      if (t.kind == CppKind::literal || t.is("{") || t.is("}"))
        throw Error(t.loc, "unexpected " + describe(t) + " in a type name");
      text += (t.kind == CppKind::identifier && !text.empty() && std::isalnum(static_cast<unsigned char>(text.back())))
                  ? " " + t.text
                  : t.text;
      c.next();
    }
    if (text.empty()) throw Error(start, "expected a type name, got " + describe(c.peek()));
    if (statement) c.expect(";", "ending the declaration");
    return text;
  }

  CuteValType val_type(bool statement) {
    CuteValType v;
    v.loc = c.peek().loc;
    v.written = type_text(statement);
    std::string core = v.written;
    if (core.rfind("typename ", 0) == 0) core = core.substr(9);
    for (std::string_view ns : {"cute::", "cutlass::", "std::"})
      for (std::size_t at; (at = core.find(ns)) != std::string::npos;) core.erase(at, ns.size());
    if (core.size() > 13 && core.ends_with("::GaussComplex")) {
      v.token = "GC64";
      return v;
    }
    for (const ValTypeName& t : kValTypes)
      if (t.cpp == core) v.token = t.token;
    if (v.token.empty())
      throw Error(v.loc, "unknown element type '" + v.written +
                             "' (mmacheck knows half_t, bfloat16_t, tfloat32_t, float, double, int8_t, uint8_t, "
                             "int4b_t, uint4b_t, uint1b_t, int32_t, float_e4m3_t, float_e5m2_t, complex<double>)");
    return v;
  }

  void assign(CuteAtomTraits& atom, const CppToken& written, bool statement, std::set<std::string, std::less<>>& seen) {
    CppToken key = written;
    if (header) key.text = std::string(member_name(written.text));
    const std::string canonical =
        key.text == "A" || key.text == "B" || key.text == "C" ? key.text + "Layout" : key.text;
    if (!seen.insert(canonical).second)
      throw Error(key.loc, std::string(header ? "member '" : "key '") + written.text + "' given twice for " +
                               atom.name + (written.text != key.text ? " (as " + key.text + ")" : ""));
    const int vt = val_type_index(key.text);
    if (vt >= 0) atom.val_types[static_cast<std::size_t>(vt)] = val_type(statement);
    else if (key.text == "ALayout" || (!header && key.text == "A")) atom.a = member(statement);
    else if (key.text == "BLayout" || (!header && key.text == "B")) atom.b = member(statement);
    else if (key.text == "CLayout" || (!header && key.text == "C")) atom.c = member(statement);
    else if (key.text == "ThrID") atom.thr_id = member(statement);
    else if (key.text == "Shape_MNK") atom.shape_mnk = shape_member(statement);
    else if (header && key.text.rfind("FrgType", 0) == 0 && known_member(key.text)) {
      atom.frg_types.push_back({key.text, type_text(statement)});
    } else if (!header && key.text == "ThrLayoutVMNK" && atom.tiled) atom.thr_vmnk = member(statement);
    else if (!header && key.text == "Tile" && atom.tiled) atom.tile = member(statement).layout->shape;
    else if (!header && key.text == "AtomLayout" && atom.tiled) atom.atom_layout = member(statement).layout;
    else if (!header && key.text == "Permutation" && atom.tiled) atom.permutation = parse_cute_permutation(c);
    else if (header)
      throw Error(key.loc, "unknown member '" + key.text + "' of MMA_Traits<" + atom.name + "> (mmacheck reads " +
                               std::string(kMemberList) + ")");
    else
      throw Error(key.loc, "unknown key '" + key.text +
                               "' (A, B, C, ThrID, Shape_MNK, ValTypeD/A/B/C; tiled: ThrLayoutVMNK, Tile, AtomLayout, "
                               "Permutation)");
  }

  // After `MMA_Traits<`: the text up to the matching `>`, spaces dropped.
  std::string template_argument(const SourceLoc& open) {
    std::string text;
    int depth = 1;
    while (true) {
      if (c.at_end() || c.peek().is(";") || c.peek().is("{") || c.peek().is("}"))
        throw Error(open, "MMA_Traits<...> is not closed by '>' before " + describe(c.peek()));
      const CppToken& t = c.next();
      if (t.is("<")) ++depth;
      if (t.is(">") && --depth == 0) break;
      text += t.text;
    }
    if (text.empty()) throw Error(open, "MMA_Traits<> names no atom");
    return text;
  }

  // A partial specialization MMA_Traits<NAME<P...>> whose parameters P are
  // all layout-neutral, each named once: the atom NAME, read as any other.
  static void resolve(CuteAtomTraits& atom, const std::vector<TemplateParam>& params) {
    const std::size_t lt = atom.name.find('<');
    if (lt == std::string::npos || atom.name.back() != '>') return;
    std::multiset<std::string> args, names;
    const std::string list = atom.name.substr(lt + 1, atom.name.size() - lt - 2);
    for (std::size_t start = 0, comma; start <= list.size(); start = comma + 1) {
      comma = std::min(list.find(',', start), list.size());
      args.insert(list.substr(start, comma - start));
    }
    for (const TemplateParam& p : params) {
      if (!neutral(p.type)) return;
      names.insert(p.name);
    }
    if (args != names) return;
    atom.name.resize(lt);
    atom.templated = false;
    for (const TemplateParam& p : params) atom.resolved.push_back(p.type + " " + p.name);
  }

  // At `struct MMA_Traits <`: the specialization, its base and its body.
  // nullopt for a declaration without a body.
  std::optional<CuteAtomTraits> traits(const std::vector<TemplateParam>& params) {
    CuteAtomTraits atom;
    atom.templated = !params.empty();
    atom.loc = c.next().loc;              // struct
    c.next();                             // MMA_Traits
    const SourceLoc open = c.next().loc;  // <
    atom.name = template_argument(open);
    if (atom.name.find('<') != std::string::npos) atom.templated = true;
    if (!params.empty()) resolve(atom, params);
    if (c.accept(":")) {
      if (c.peek().is_name("public")) c.next();
      if (!(c.peek().is_name("MMA_Traits") && c.peek(1).is("<")))
        throw Error(c.peek().loc, "MMA_Traits<" + atom.name + "> derives from " + describe(c.peek()) +
                                      ": mmacheck reads bases of the form MMA_Traits<ATOM> only");
      c.next();
      const SourceLoc base_open = c.next().loc;
      atom.base = template_argument(base_open);
      if (!c.peek().is("{"))
        throw Error(c.peek().loc,
                    "expected '{' after the base MMA_Traits<" + atom.base + ">, got " + describe(c.peek()));
    }
    if (c.accept(";")) return std::nullopt;  // a declaration only
    const SourceLoc body = c.expect("{", "opening the body of MMA_Traits<" + atom.name + ">").loc;
    const auto unclosed = [&] {
      return Error(body, "the body of MMA_Traits<" + atom.name + "> is never closed (is the header truncated?)");
    };
    if (atom.templated) {
      int depth = 1;  // not read: the checker calls it unchecked
      while (depth > 0) {
        if (c.at_end()) throw unclosed();
        const CppToken& t = c.next();
        depth += t.is("{") ? 1 : t.is("}") ? -1 : 0;
      }
    } else {
      std::set<std::string, std::less<>> seen;
      while (!c.peek().is("}")) {
        if (c.at_end()) throw unclosed();
        if (accumulate_ahead()) {
          skip_statement();
          continue;
        }
        if (!(c.peek().is_name("using") && c.peek(1).kind == CppKind::identifier && c.peek(2).is("=")))
          throw Error(c.peek().loc, "unexpected " + describe(c.peek()) + " in the body of MMA_Traits<" + atom.name +
                                        "> (mmacheck reads its using-declarations: " + std::string(kMemberList) + ")");
        c.next();
        const CppToken key = c.next();
        c.next();
        assign(atom, key, true, seen);
      }
      c.next();
    }
    c.expect(";", "after the body of MMA_Traits<" + atom.name + ">");
    return atom;
  }

  // `using NAME = ...;` outside an atom: a layout alias, or another alias (skipped).
  void alias() {
    c.next();  // using
    const CppToken name = c.next();
    c.next();                                                              // =
    if (!layout_ahead() && !layout_name_ahead()) return skip_statement();  // not a layout alias
    CuteLayoutSource s = member(true);
    if (const auto it = aliases.find(name.text); it != aliases.end())
      throw Error(name.loc,
                  "layout alias '" + name.text + "' defined twice (first at " + loc_text(it->second.loc) + ")");
    s.loc = name.loc;
    aliases.emplace(name.text, std::move(s));
  }
};

// Members an atom does not write come from its base, as C++ inheritance
// does; the base must be specialized before (C++ needs it complete).  Then
// every member the checker reads must be there.
void inherit(std::vector<CuteAtomTraits>& atoms) {
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    CuteAtomTraits& atom = atoms[i];
    if (!atom.base.empty() && !atom.templated) {
      if (atom.base == atom.name) throw Error(atom.loc, "MMA_Traits<" + atom.name + "> inherits from itself");
      const auto it = index.find(atom.base);
      if (it == index.end())
        throw Error(atom.loc, "MMA_Traits<" + atom.name + "> inherits from MMA_Traits<" + atom.base +
                                  ">, which this file does not specialize before it");
      const CuteAtomTraits& base = atoms[it->second];
      for (auto m : {&CuteAtomTraits::thr_id, &CuteAtomTraits::a, &CuteAtomTraits::b, &CuteAtomTraits::c})
        if (!(atom.*m).present()) atom.*m = base.*m;
      if (!atom.shape_mnk) atom.shape_mnk = base.shape_mnk;
      for (std::size_t k = 0; k < 4; ++k)
        if (!atom.val_types[k]) atom.val_types[k] = base.val_types[k];
      if (atom.frg_types.empty()) atom.frg_types = base.frg_types;
    }
    if (!atom.templated) {
      const std::pair<bool, std::string_view> needed[] = {{atom.shape_mnk.has_value(), "Shape_MNK"},
                                                          {atom.thr_id.present(), "ThrID"},
                                                          {atom.a.present(), "ALayout"},
                                                          {atom.b.present(), "BLayout"},
                                                          {atom.c.present(), "CLayout"},
                                                          {atom.val_types[0].has_value(), "ValTypeD"},
                                                          {atom.val_types[1].has_value(), "ValTypeA"},
                                                          {atom.val_types[2].has_value(), "ValTypeB"},
                                                          {atom.val_types[3].has_value(), "ValTypeC"}};
      for (const auto& [given, member] : needed)
        if (!given)
          throw Error(atom.loc, "MMA_Traits<" + atom.name + "> gives no " + std::string(member) +
                                    (atom.base.empty() ? "" : " (nor does its base)") + "; CuTe's MMA_Atom needs it");
    }
    const auto [it, fresh] = index.emplace(atom.name, i);
    if (!fresh)
      throw Error(atom.loc, "MMA_Traits<" + atom.name + "> is specialized twice (first at " +
                                loc_text(atoms[it->second].loc) + ")");
  }
}

std::string include_name(const std::string& directive) {
  const std::size_t open = directive.find_first_of("<\"");
  const std::size_t close = directive.find_last_of(">\"");
  if (open == std::string::npos || close == std::string::npos || close <= open) return "";
  const std::string path = directive.substr(open + 1, close - open - 1);
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool alias_ahead(const CppCursor& c) {
  return c.peek().is_name("using") && c.peek(1).kind == CppKind::identifier && c.peek(2).is("=");
}

}  // namespace

std::vector<CuteAtomTraits> read_cute_header(const std::string& text, const std::string& file, const Limits& limits) {
  TraitsReader r{CppCursor(tokenize_cpp(text, file), limits.get(Resource::depth)),
                 {},
                 {},
                 true,
                 limits.get(Resource::depth),
                 {},
                 {}};
  r.include(std::filesystem::path(file).filename().string(), true);
  std::vector<CuteAtomTraits> atoms;
  std::vector<CppToken> open;         // brackets outside atom bodies, innermost last
  std::vector<TemplateParam> params;  // of the last `template <...>` (empty: none, or `template <>`)
  while (!r.c.at_end()) {
    const CppToken& t = r.c.peek();
    if (t.kind == CppKind::directive) {
      const bool include = t.text.find("include") != std::string::npos;
      const std::string name = include ? include_name(t.text) : "";
      r.c.next();
      if (include) {
        r.includes.insert(name);
        r.include(name, false);
      }
    } else if (alias_ahead(r.c)) {
      const bool ints =
          std::all_of(params.begin(), params.end(), [](const TemplateParam& p) { return p.type == "int"; });
      if (params.empty()) r.alias();
      else if (ints) r.alias_template(params);  // `template <int N> using X = ...Int<N/8>...`
      else r.skip_statement();                  // a type alias template: no layout
      params.clear();
    } else if (t.is_name("template") && r.c.peek(1).is("<")) {
      r.c.next();
      r.c.next();
      params = r.template_params();
    } else if ((t.is_name("struct") || t.is_name("class")) && r.c.peek(1).is_name("MMA_Traits") &&
               r.c.peek(2).is("<")) {
      if (std::optional<CuteAtomTraits> atom = r.traits(params)) atoms.push_back(std::move(*atom));
      params.clear();
    } else if (t.is("{") || t.is("(") || t.is("[")) {
      open.push_back(r.c.next());
    } else if (t.is("}") || t.is(")") || t.is("]")) {
      const std::string_view want = t.is("}") ? "{" : t.is(")") ? "(" : "[";
      if (open.empty() || !open.back().is(want))
        throw Error(t.loc, "'" + t.text + "' closes " +
                               (open.empty() ? std::string("nothing")
                                             : "'" + open.back().text + "' of " + loc_text(open.back().loc)));
      open.pop_back();
      r.c.next();
    } else {
      if (t.is(";")) params.clear();
      r.c.next();
    }
  }
  if (!open.empty())
    throw Error(open.back().loc, "'" + open.back().text + "' is never closed (is the header truncated?)");
  inherit(atoms);
  return atoms;
}

std::vector<CuteAtomTraits> read_cute_atom_list(const std::string& text, const std::string& file,
                                                const Limits& limits) {
  TraitsReader r{CppCursor(tokenize_cpp(text, file), limits.get(Resource::depth)),
                 {},
                 {},
                 false,
                 limits.get(Resource::depth),
                 {},
                 {}};
  std::vector<CuteAtomTraits> atoms;
  std::unordered_map<std::string, std::size_t> plain;  // atom name -> index of its (untiled) entry
  while (!r.c.at_end()) {
    if (alias_ahead(r.c)) {
      r.alias();
      continue;
    }
    CuteAtomTraits atom;
    if (r.c.peek().is_name("tiled") && r.c.peek(1).kind == CppKind::identifier) {
      r.c.next();
      atom.tiled = true;
    }
    const CppToken& name = r.c.expect_name("(an atom's name) at the start of an entry");
    atom.name = name.text;
    atom.loc = name.loc;
    r.c.expect(":", "after the atom's name");
    std::set<std::string, std::less<>> seen;
    do {
      const CppToken key = r.c.expect_name("(A, B, C, ThrID or Shape_MNK)");
      r.c.expect("=", "after " + key.text);
      r.assign(atom, key, false, seen);
    } while (r.c.accept(","));
    r.c.accept(";");
    if (!atom.thr_id.present()) {
      atom.thr_id.layout = CuteLayout::compact(IntTuple::of(32));
      atom.thr_id.loc = atom.loc;
    }
    if (atom.tiled && atom.atom_layout) {
      const auto it = plain.find(atom.name);
      if (it == plain.end())
        throw Error(atom.loc, "tiled " + atom.name + " in CuTe notation needs the atom's own entry before it");
      const CuteAtomTraits& base = atoms[it->second];
      if (seen.count("ALayout") || seen.count("BLayout") || seen.count("CLayout") || seen.count("ThrID"))
        throw Error(atom.loc, "tiled " + atom.name + " with AtomLayout takes A, B, C and ThrID from the atom's entry");
      atom.thr_id = base.thr_id;
      atom.a = base.a;
      atom.b = base.b;
      atom.c = base.c;
      atom.val_types = base.val_types;
      if (!atom.shape_mnk) atom.shape_mnk = base.shape_mnk;
    }
    for (const CuteLayoutSource* s : {&atom.a, &atom.b, &atom.c})
      if (!s->present())
        throw Error(atom.loc, "atom " + atom.name + " gives no A, B or C layout (all three are needed)");
    if (atom.tiled && !atom.atom_layout && (!atom.thr_vmnk.present() || !atom.tile))
      throw Error(atom.loc, "tiled " + atom.name + " needs ThrLayoutVMNK and Tile, or AtomLayout");
    if (!atom.tiled) {
      const auto [it, fresh] = plain.emplace(atom.name, atoms.size());
      if (!fresh)
        throw Error(atom.loc,
                    "atom " + atom.name + " is listed twice (first at " + loc_text(atoms[it->second].loc) + ")");
    }
    atoms.push_back(std::move(atom));
  }
  return atoms;
}

std::vector<CuteAtomTraits> read_cute_file(const std::string& text, const std::string& file, const Limits& limits) {
  if (text.find("MMA_Traits") != std::string::npos) return read_cute_header(text, file, limits);
  if (is_cute_dsl_print(text)) return read_cute_dsl_print(text, file, limits);
  return read_cute_atom_list(text, file, limits);
}

}  // namespace mmacheck
