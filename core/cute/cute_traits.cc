#include "core/cute/cute_traits.h"

#include <cctype>
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
constexpr std::string_view kMemberList = "ValTypeD/A/B/C, Shape_MNK, ThrID, ALayout, BLayout, CLayout, FrgTypeA/B/C";

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

std::string loc_text(const SourceLoc& loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

struct Reader {
  CppCursor c;
  Aliases aliases;
  std::set<std::string, std::less<>> includes;  // file names of #include lines
  bool header;                                  // a trait header (else an atom list)

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
      const CppToken& name = c.next();
      s.written = name.text;
      if (auto it = aliases.find(name.text); it != aliases.end()) {
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

  void assign(CuteAtomTraits& atom, const CppToken& key, bool statement, std::set<std::string, std::less<>>& seen) {
    const std::string canonical =
        key.text == "A" || key.text == "B" || key.text == "C" ? key.text + "Layout" : key.text;
    if (!seen.insert(canonical).second)
      throw Error(key.loc, std::string(header ? "member '" : "key '") + key.text + "' given twice for " + atom.name);
    const int vt = val_type_index(key.text);
    if (vt >= 0) atom.val_types[static_cast<std::size_t>(vt)] = val_type(statement);
    else if (key.text == "ALayout" || (!header && key.text == "A")) atom.a = member(statement);
    else if (key.text == "BLayout" || (!header && key.text == "B")) atom.b = member(statement);
    else if (key.text == "CLayout" || (!header && key.text == "C")) atom.c = member(statement);
    else if (key.text == "ThrID") atom.thr_id = member(statement);
    else if (key.text == "Shape_MNK") atom.shape_mnk = shape_member(statement);
    else if (header && key.text.rfind("FrgType", 0) == 0 && known_member(key.text)) {
      atom.frg_types.push_back(key.text);
      type_text(statement);
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

  // At `struct MMA_Traits <`: the specialization, its base and its body.
  // nullopt for a declaration without a body.
  std::optional<CuteAtomTraits> traits(bool templated) {
    CuteAtomTraits atom;
    atom.templated = templated;
    atom.loc = c.next().loc;              // struct
    c.next();                             // MMA_Traits
    const SourceLoc open = c.next().loc;  // <
    atom.name = template_argument(open);
    if (atom.name.find('<') != std::string::npos) atom.templated = true;
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
    c.next();  // =
    if (!layout_ahead()) return skip_statement();
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
  Reader r{CppCursor(tokenize_cpp(text, file), limits.get(Resource::depth)), {}, {}, true};
  std::vector<CuteAtomTraits> atoms;
  std::vector<CppToken> open;  // brackets outside atom bodies, innermost last
  bool templated = false;      // the last `template <...>` had parameters
  while (!r.c.at_end()) {
    const CppToken& t = r.c.peek();
    if (t.kind == CppKind::directive) {
      if (t.text.find("include") != std::string::npos) r.includes.insert(include_name(t.text));
      r.c.next();
    } else if (alias_ahead(r.c)) {
      if (templated)
        r.skip_statement();  // an alias template (`template <int N> using X = ...Int<N/8>...`): no one layout
      else r.alias();
      templated = false;
    } else if (t.is_name("template") && r.c.peek(1).is("<")) {
      r.c.next();
      r.c.next();
      templated = !r.c.accept(">");
      if (templated) r.c.skip_balanced("<", ">");
    } else if ((t.is_name("struct") || t.is_name("class")) && r.c.peek(1).is_name("MMA_Traits") &&
               r.c.peek(2).is("<")) {
      if (std::optional<CuteAtomTraits> atom = r.traits(templated)) atoms.push_back(std::move(*atom));
      templated = false;
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
      if (t.is(";")) templated = false;
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
  Reader r{CppCursor(tokenize_cpp(text, file), limits.get(Resource::depth)), {}, {}, false};
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
