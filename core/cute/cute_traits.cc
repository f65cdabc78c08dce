#include "core/cute/cute_traits.h"

#include <cctype>
#include <functional>
#include <map>
#include <set>

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

using Aliases = std::map<std::string, CuteLayoutSource, std::less<>>;

struct Reader {
  CppCursor c;
  Aliases aliases;
  std::set<std::string, std::less<>> includes;  // file names of #include lines
  bool lenient;                                 // header: problems, not Errors
  std::string file;

  bool layout_ahead() const {
    const CppToken& t = c.peek();
    if (t.is_name("cute") && c.peek(1).is("::")) return c.peek(2).is_name("Layout");
    return t.is_name("Layout") || t.is("(") || t.kind == CppKind::integer ||
           (t.kind == CppKind::identifier && t.text.size() > 1 && t.text[0] == '_' &&
            std::isdigit(static_cast<unsigned char>(t.text[1])));
  }

  std::optional<CuteLayout> builtin(std::string_view name) const {
    for (const IncludedAlias& a : kIncludedAliases)
      if (a.name == name && (!lenient || includes.count(a.header)))
        return parse_cute_layout(a.layout, "built-in alias");
    return std::nullopt;
  }

  // Skip to the `;` ending a statement, minding brackets.
  void skip_statement() {
    int depth = 0;
    while (!c.at_end()) {
      const CppToken& t = c.next();
      if (t.is("<") || t.is("(") || t.is("{")) ++depth;
      if (t.is(">") || t.is(")") || t.is("}")) --depth;
      if (t.is(";") && depth <= 0) return;
    }
  }

  // The right-hand side of `using X = ...` or `KEY = ...`: a layout or an alias.
  CuteLayoutSource member(bool statement) {
    CuteLayoutSource s;
    s.loc = c.peek().loc;
    try {
      if (!layout_ahead() && c.peek().kind == CppKind::identifier) {
        const CppToken& name = c.next();
        s.written = name.text;
        if (auto it = aliases.find(name.text); it != aliases.end()) {
          s.layout = it->second.layout;
          s.problem = it->second.problem;
        } else if (std::optional<CuteLayout> b = builtin(name.text)) {
          s.layout = std::move(b);
        } else {
          throw Error(name.loc, "'" + name.text + "' is not a layout this file defines" +
                                    (lenient ? " (nor an alias of a header it includes)" : ""));
        }
      } else {
        s.layout = parse_cute_layout(c);
      }
      if (statement) c.expect(";", "ending the declaration");
    } catch (const Error& e) {
      if (!lenient) throw;
      s.layout.reset();
      s.problem = e.message();
      if (statement) skip_statement();
    }
    return s;
  }

  std::optional<IntTuple> shape_member(bool statement) {
    try {
      IntTuple t = parse_cute_shape(c);
      if (statement) c.expect(";", "ending the declaration");
      return t;
    } catch (const Error&) {
      if (!lenient) throw;
      if (statement) skip_statement();
      return std::nullopt;
    }
  }

  void assign(CuteAtomTraits& atom, const CppToken& key, bool statement) {
    if (key.text == "ALayout" || key.text == "A") atom.a = member(statement);
    else if (key.text == "BLayout" || key.text == "B") atom.b = member(statement);
    else if (key.text == "CLayout" || key.text == "C") atom.c = member(statement);
    else if (key.text == "ThrID") atom.thr_id = member(statement);
    else if (key.text == "Shape_MNK") atom.shape_mnk = shape_member(statement);
    else if (key.text == "ThrLayoutVMNK" && atom.tiled) atom.thr_vmnk = member(statement);
    else if (key.text == "Tile" && atom.tiled) atom.tile = member(statement).layout->shape;
    else if (key.text == "AtomLayout" && atom.tiled) atom.atom_layout = member(statement).layout;
    else if (key.text == "Permutation" && atom.tiled) permutation(atom);
    else if (statement) skip_statement();
    else throw Error(key.loc, "unknown key '" + key.text +
                                 "' (A, B, C, ThrID, Shape_MNK; tiled: ThrLayoutVMNK, Tile, AtomLayout, Permutation)");
  }

  // `(P_M, P_N, P_K)`, each a layout or `_`.
  void permutation(CuteAtomTraits& atom) {
    c.expect("(", "opening the permutation (P_M, P_N, P_K)");
    for (int i = 0; i < 3; ++i) {
      if (i) c.expect(",", "between the permutation's modes");
      if (c.peek().is_name("_")) c.next();
      else atom.permutation[static_cast<std::size_t>(i)] = parse_cute_layout(c);
    }
    c.expect(")", "closing the permutation");
  }

  // After `MMA_Traits<`: the text up to the matching `>`, spaces dropped.
  std::string template_argument() {
    std::string text;
    int depth = 1;
    while (!c.at_end()) {
      const CppToken& t = c.next();
      if (t.is("<")) ++depth;
      if (t.is(">") && --depth == 0) break;
      text += t.text;
    }
    return text;
  }

  // After `struct`: MMA_Traits<ATOM> [: MMA_Traits<BASE>] { ... };
  std::optional<CuteAtomTraits> traits() {
    CuteAtomTraits atom;
    atom.loc = c.next().loc;  // struct
    c.next();                 // MMA_Traits
    c.next();                 // <
    atom.name = template_argument();
    if (c.accept(":")) {
      if (c.peek().is_name("public")) c.next();
      if (c.peek().is_name("MMA_Traits") && c.peek(1).is("<")) {
        c.next();
        c.next();
        atom.base = template_argument();
      }
      while (!c.at_end() && !c.peek().is("{") && !c.peek().is(";")) c.next();
    }
    if (!c.accept("{")) {  // a declaration only
      c.accept(";");
      return std::nullopt;
    }
    while (!c.at_end() && !c.peek().is("}")) {
      if (c.peek().is_name("using") && c.peek(1).kind == CppKind::identifier && c.peek(2).is("=")) {
        c.next();
        const CppToken key = c.next();
        c.next();
        assign(atom, key, true);
      } else if (c.accept("{")) {
        c.skip_balanced("{", "}");
      } else {
        c.next();
      }
    }
    c.accept("}");
    c.accept(";");
    return atom;
  }

  void alias() {
    c.next();  // using
    const CppToken name = c.next();
    c.next();  // =
    if (layout_ahead()) {
      aliases[name.text] = member(true);
    } else {
      skip_statement();
    }
  }
};

// Members an atom does not write come from its base, as C++ inheritance does.
void inherit(std::vector<CuteAtomTraits>& atoms) {
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < atoms.size(); ++i) index.emplace(atoms[i].name, i);
  std::vector<int> state(atoms.size(), 0);  // 0 new, 1 in progress, 2 done
  std::function<void(std::size_t)> resolve = [&](std::size_t i) {
    if (state[i] != 0) return;
    state[i] = 1;
    CuteAtomTraits& atom = atoms[i];
    if (!atom.base.empty()) {
      auto it = index.find(atom.base);
      const bool found = it != index.end() && state[it->second] != 1;
      if (found) resolve(it->second);
      CuteLayoutSource missing;
      missing.problem = "inherits from " + atom.base + ", which this file does not specialize";
      missing.loc = atom.loc;
      const CuteAtomTraits* base = found ? &atoms[it->second] : nullptr;
      for (auto member : {&CuteAtomTraits::thr_id, &CuteAtomTraits::a, &CuteAtomTraits::b, &CuteAtomTraits::c})
        if (!(atom.*member).present()) atom.*member = base ? base->*member : missing;
      if (!atom.shape_mnk && base) atom.shape_mnk = base->shape_mnk;
    }
    state[i] = 2;
  };
  for (std::size_t i = 0; i < atoms.size(); ++i) resolve(i);
}

std::string include_name(const std::string& directive) {
  const std::size_t open = directive.find_first_of("<\"");
  const std::size_t close = directive.find_last_of(">\"");
  if (open == std::string::npos || close == std::string::npos || close <= open) return "";
  const std::string path = directive.substr(open + 1, close - open - 1);
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::vector<CuteAtomTraits> read_cute_header(const std::string& text, const std::string& file) {
  Reader r{CppCursor(tokenize_cpp(text, file)), {}, {}, true, file};
  std::vector<CuteAtomTraits> atoms;
  while (!r.c.at_end()) {
    const CppToken& t = r.c.peek();
    if (t.kind == CppKind::directive) {
      if (t.text.find("include") != std::string::npos) r.includes.insert(include_name(t.text));
      r.c.next();
    } else if (t.is_name("using") && r.c.peek(1).kind == CppKind::identifier && r.c.peek(2).is("=")) {
      r.alias();
    } else if ((t.is_name("struct") || t.is_name("class")) && r.c.peek(1).is_name("MMA_Traits") &&
               r.c.peek(2).is("<")) {
      if (std::optional<CuteAtomTraits> atom = r.traits()) atoms.push_back(std::move(*atom));
    } else {
      r.c.next();
    }
  }
  inherit(atoms);
  return atoms;
}

std::vector<CuteAtomTraits> read_cute_atom_list(const std::string& text, const std::string& file) {
  Reader r{CppCursor(tokenize_cpp(text, file)), {}, {}, false, file};
  std::vector<CuteAtomTraits> atoms;
  while (!r.c.at_end()) {
    if (r.c.peek().is_name("using") && r.c.peek(1).kind == CppKind::identifier && r.c.peek(2).is("=")) {
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
    do {
      const CppToken key = r.c.expect_name("(A, B, C, ThrID or Shape_MNK)");
      r.c.expect("=", "after " + key.text);
      r.assign(atom, key, false);
    } while (r.c.accept(","));
    r.c.accept(";");
    if (!atom.thr_id.present()) {
      atom.thr_id.layout = CuteLayout::compact(IntTuple::of(32));
      atom.thr_id.loc = atom.loc;
    }
    if (atom.tiled && atom.atom_layout) {
      const CuteAtomTraits* base = nullptr;
      for (const CuteAtomTraits& a : atoms)
        if (!a.tiled && a.name == atom.name) base = &a;
      if (!base) throw Error(atom.loc, "tiled " + atom.name + " in CuTe notation needs the atom's own entry before it");
      atom.thr_id = base->thr_id;
      atom.a = base->a;
      atom.b = base->b;
      atom.c = base->c;
    }
    for (const CuteLayoutSource* s : {&atom.a, &atom.b, &atom.c})
      if (!s->present()) throw Error(atom.loc, "atom " + atom.name + " gives no A, B or C layout (all three are needed)");
    if (atom.tiled && !atom.atom_layout && (!atom.thr_vmnk.present() || !atom.tile))
      throw Error(atom.loc, "tiled " + atom.name + " needs ThrLayoutVMNK and Tile, or AtomLayout");
    atoms.push_back(std::move(atom));
  }
  return atoms;
}

std::vector<CuteAtomTraits> read_cute_file(const std::string& text, const std::string& file) {
  return text.find("MMA_Traits") != std::string::npos ? read_cute_header(text, file)
                                                        : read_cute_atom_list(text, file);
}

}  // namespace mmacheck
