// TVMScript as TVM main's users write it (docs/tvmscript.md): `@T.prim_func` / `def`, `T.match_buffer`, `.local()`
// views, integer locals and tuple assignments.  The thread ids, `with` scopes and the scoped gemm are in
// tvmscript_scope.cc, the staging loops and register transfers in tvmscript_staging.cc.
//
// Every construct is either understood or an Error at its line and column:
// nothing is skipped except what has no meaning for the check (imports,
// docstrings, `pass`, the `T.device_entry()` marker).
#include <algorithm>
#include <limits>

#include "core/layout/shape_text.h"
#include "core/program/python_block.h"
#include "core/program/python_class.h"
#include "core/program/python_eval.h"
#include "core/program/python_values.h"
#include "core/program/tvmscript/program_parser.h"

namespace mmacheck {

using namespace program_detail;
using namespace python;

namespace {

// Python statements the reader does not follow; each is refused at its keyword.
constexpr std::string_view kUnsupported[] = {"if",     "elif",    "else",   "while",    "return", "class",    "try",
                                             "except", "finally", "assert", "del",      "global", "nonlocal", "lambda",
                                             "yield",  "raise",   "break",  "continue", "async",  "await"};

}  // namespace

bool program_detail::is_tirx_prefix(const Token& t) { return t.is_name("T") || t.is_name("Tx"); }

void ProgramParser::suite(const Token& header) {
  python::suite(in_, header, [this] { statement(); });
}

bool ProgramParser::python_statement() {
  const Token& t = in_.peek();
  if (!in_function_ && module_ && module_statement()) return true;
  if (!in_function_ && foreign_.skip(in_, [this](const std::string& name) {
        forget(name);
        if (module_)
          module_->bind(name, python::Value{python::Opaque{"bound by a statement mmacheck skips"}, false, {}});
      }))
    return true;
  if (auto inert = python::skip_inert_call(in_)) return skipped_.push_back(*inert), true;
  if (t.is_op("@")) return decorator(), true;
  if (t.kind == TokenKind::string) return in_.next(), true;  // a docstring
  if (t.kind != TokenKind::identifier) return false;
  if (t.text == "def")
    in_.fail(t, "a def without @T.prim_func is not read (mmacheck reads the layouts and @T.prim_func functions)");
  if (t.text == "for") return for_loop(), true;
  if (t.text == "if" && in_function_ && !loop_) return static_if(), true;
  if (t.text == "with") return with_statement(), true;
  if (t.text == "pass") return in_.next(), true;
  if (std::find(std::begin(kUnsupported), std::end(kUnsupported), t.text) != std::end(kUnsupported))
    in_.fail(t, "'" + t.text + "' is not supported by mmacheck's TVMScript reader (docs/tvmscript.md lists what is)");
  if (is_tirx_prefix(t) && in_.peek(1).is_op(".") && in_.peek(3).is_op("(") && is_thread_id_name(in_.peek(2).text))
    return thread_ids(nullptr), true;
  if (scoped_gemm()) return true;
  const Token& after = in_.peek(1);
  if (after.is_op(",")) return tuple_binding(), true;
  if (after.is_op("[")) return register_transfer(), true;
  if (after.is_op("=")) {
    const Token& rhs = in_.peek(2);
    if (is_tirx_prefix(rhs) && in_.peek(3).is_op(".") && in_.peek(5).is_op("(")) {
      const Token& fn = in_.peek(4);
      if (fn.is_name("match_buffer")) {
        const Token& name = in_.next();
        in_.next();  // '='
        in_.next();  // T
        in_.next();  // .
        return match_buffer_binding(name, in_.next()), true;
      }
      if (is_thread_id_name(fn.text)) {
        const Token& name = in_.next();
        in_.next();
        return thread_ids(&name), true;
      }
    }
    if (rhs.kind == TokenKind::identifier && in_.peek(3).is_op(".") && in_.peek(4).is_name("local") &&
        in_.peek(5).is_op("(")) {
      const Token& name = in_.next();
      in_.next();
      return view_binding(name), true;
    }
    if (in_function_ && (rhs.kind == TokenKind::integer || rhs.is_op("(") || rhs.is_op("-") ||
                         (rhs.kind == TokenKind::identifier && index_names().contains(rhs.text))))
      return index_binding(), true;
  }
  if (loop_)
    in_.fail(t,
             "a staging loop's body may hold only NAME = expression and register transfers "
             "(X_reg[s] = X_g[ROW, COL], X_g[ROW, COL] = X_reg[s]), got " +
                 describe(t));
  return false;
}

bool ProgramParser::module_statement() {
  const Token& t = in_.peek();
  std::size_t k = 0;  // a def's name, behind its decorators
  while (in_.peek(k).is_op("@")) {
    while (!in_.peek(k).ends_statement()) ++k;
    while (in_.peek(k).kind == TokenKind::newline) ++k;
  }
  const Token& def_kw = in_.peek(k);
  const std::string keyword = def_kw.is_name("class") ? "class" : "def";
  const Token def_name = def_kw.is_name("def") || def_kw.is_name("class") ? in_.peek(k + 1) : Token{};
  const int def_line = def_kw.loc.line;
  module_->refuse_kernel_class(in_);
  if (module_->define(in_)) {
    forget(def_name.text);
    foreign_.note(keyword + " " + def_name.text + " (line " + std::to_string(def_line) + ")");
    return true;
  }
  if (t.kind != TokenKind::identifier || !(in_.peek(1).is_op("=") || in_.peek(1).is_op(",") ||
                                           (in_.peek(1).kind == TokenKind::op && in_.peek(1).text.size() == 2 &&
                                            in_.peek(1).text[1] == '=' && in_.peek(1).text != "==")))
    return false;
  if (in_.peek(1).is_op("=")) {  // a buffer or a thread id stays the reader's
    std::size_t c = 2;
    if (is_tirx_prefix(in_.peek(c)) && in_.peek(c + 1).is_op(".")) c += 2;
    const Token& callee = in_.peek(c);
    if (callee.is_name("buffer") || callee.is_name("alloc_buffer") || callee.is_name("decl_buffer") ||
        is_thread_id_name(callee.text) || callee.is_name("match_buffer"))
      return false;
  }
  const bool data = in_.peek(1).is_op("=") && (in_.peek(2).is_op("[") || in_.peek(2).is_op("{"));
  const std::size_t start = in_.position();
  std::vector<std::pair<std::string, python::Value>> bound;
  try {
    bound = module_->assign(in_);
  } catch (const Error&) {
    if (!data || constructs_dataclass(start)) throw;
    in_.seek(start);  // data mmacheck does not evaluate: skipped, its name forgotten
    return false;
  }
  for (const auto& [name, value] : bound) mirror(t, name, value);
  return true;
}

bool ProgramParser::constructs_dataclass(std::size_t start) const {
  // A table of dataclass instances is data mmacheck reads: its error (a
  // missing field, an unknown keyword) is the file's, not a reason to skip it.
  TokenCursor c(in_.tokens(), start);
  for (int depth = 0; c.peek().kind != TokenKind::end && (depth > 0 || !c.peek().ends_statement()); c.next()) {
    if (c.peek().opens()) ++depth;
    if (c.peek().closes()) --depth;
    const python::Value* v = c.peek().kind == TokenKind::identifier ? module_->scope().find(c.peek().text) : nullptr;
    if (v && v->get<std::shared_ptr<const python::Class>>()) return true;
  }
  return false;
}

void ProgramParser::mirror(const Token& at, const std::string& name, const python::Value& value) {
  names_.layouts.erase(name);
  names_.lists.erase(name);
  names_.integers.erase(name);
  names_.others.erase(name);
  if (const auto* layout = value.get<LayoutValue>()) {
    Token n = at;
    n.text = name;
    declare(n);
    program_.layouts.push_back(LayoutBinding{name, layout_of(*layout), at.loc});
    names_.layouts.emplace(name, *layout);
    return;
  }
  if (const auto* i = value.get<std::int64_t>()) return void(names_.integers.emplace(name, *i));
  if (const bool* b = value.get<bool>()) return void(names_.integers.emplace(name, *b ? 1 : 0));
  if (const python::Items* items = value.items()) {
    std::vector<int> list;
    for (const python::Value& x : *items) {
      const auto* i = x.get<std::int64_t>();
      if (!i || *i < std::numeric_limits<int>::min() || *i > std::numeric_limits<int>::max()) break;
      list.push_back(static_cast<int>(*i));
    }
    if (list.size() == items->size()) return void(names_.lists.emplace(name, std::move(list)));
  }
  std::string kind = python::kind_name(value);  // "'X' is a string, not a layout"
  if (kind.rfind("a ", 0) == 0) kind.erase(0, 2);
  else if (kind.rfind("an ", 0) == 0) kind.erase(0, 3);
  names_.others.emplace(name, kind);
}

void ProgramParser::static_if() {
  const Token& first = in_.peek();
  bool done = false;
  while (true) {
    const Token& kw = in_.next();  // if, elif, else
    bool taken = true;
    if (!kw.is_name("else")) {
      const python::Scope constants;
      try {
        taken = python::truth(python::evaluate(in_, constants, nullptr));
      } catch (const Error& e) {
        throw Error(e.loc(),
                    "an if in a kernel is read when its condition is a Python constant (TVMScript decides it "
                    "while parsing; a factory's or test's parameters are constants): " +
                        e.message());
      }
    }
    if (taken && !done) suite(kw);
    else python::suite(in_, kw, [this] { python::skip_statement(in_); });
    done = done || taken;
    std::size_t k = 0;
    while (in_.peek(k).kind == TokenKind::newline) ++k;
    const Token& next = in_.peek(k);
    if (kw.is_name("else") || !((next.is_name("elif") || next.is_name("else")) && next.loc.col == first.loc.col))
      return;
    while (k-- > 0) in_.next();
  }
}

void ProgramParser::decorator() {
  const Token& at = in_.next();
  if ((in_.peek().is_name("I") || in_.peek().is_name("T")) && in_.peek(1).is_op(".") &&
      in_.peek(2).is_name("ir_module")) {
    for (int i = 0; i < 3; ++i) in_.next();
    python::expect_decorated(in_, at, "I.ir_module", "class");
    return module_class();
  }
  if (!(is_tirx_prefix(in_.peek()) && in_.peek(1).is_op(".") && in_.peek(2).is_name("prim_func")))
    in_.fail(in_.peek(), "unsupported decorator (mmacheck reads @T.prim_func functions), got " + describe(in_.peek()));
  in_.next();
  in_.next();
  const Token& callee = in_.next();
  if (in_.peek().is_op("(")) {  // @T.prim_func(private=True, check_well_formed=False)
    const Token& open = in_.next();
    while (!in_.peek().is_op(")")) {
      const Token& key = in_.expect_name("a keyword argument of T.prim_func");
      if (key.text != "private" && key.text != "check_well_formed")
        in_.fail(key, "T.prim_func() keyword '" + key.text + "' is not supported (private, check_well_formed)");
      in_.expect("=", "after '" + key.text + "'");
      parse_bool(in_);
      if (!in_.accept(",")) break;
    }
    in_.expect_close(")", "prim_func(", open);
  }
  if (!in_.peek().ends_statement()) in_.fail(in_.peek(), "unexpected " + describe(in_.peek()) + " after the decorator");
  python::expect_decorated(in_, at, callee.text, "def");
  function_def();
}

// @I.ir_module class Module: — TVM main's print of a module.  Its body holds
// @T.prim_func functions (class-level names would not be visible in them).
void ProgramParser::module_class() {
  const Token& cls = in_.next();
  in_.expect_name("the module's name");
  python::suite(in_, cls, [this] {
    const Token& t = in_.peek();
    if (t.kind == TokenKind::string || t.is_name("pass")) return void(in_.next());
    if (!t.is_op("@")) in_.fail(t, "an @I.ir_module class holds @T.prim_func functions, got " + describe(t));
    decorator();
  });
}

void ProgramParser::forget(const std::string& name) {
  names_.layouts.erase(name);
  names_.lists.erase(name);
  index_names_.erase(name);
  defined_at_.erase(name);
  names_.others.insert_or_assign(name, "name bound by a skipped def or data statement");
}

void ProgramParser::function_def() {
  const Token& def = in_.next();
  if (in_function_) in_.fail(def, "a def inside a function is not supported");
  const Token& name = in_.expect_name("the function's name after 'def'");
  const Token& open = in_.expect("(", "after the function's name");
  while (!in_.peek().is_op(")")) {
    const Token& param = in_.expect_name("a parameter name");
    declare(param);
    in_.expect(":", "after parameter '" + param.text + "' (A_ptr: T.handle or A: T.Buffer(shape, dtype))");
    if (!(is_tirx_prefix(in_.peek()) && in_.peek(1).is_op(".")))
      in_.fail(in_.peek(), "expected T.handle or T.Buffer(shape, dtype), got " + describe(in_.peek()));
    in_.next();
    in_.next();
    const Token& type = in_.expect_name("T.handle or T.Buffer");
    if (type.text == "handle") {
      handles_.emplace(param.text, false);
      names_.others.emplace(param.text, "handle");
    } else if (type.text == "Buffer") {
      program_.buffers.push_back(buffer_call(param, type));
      names_.others.emplace(param.text, "buffer");
    } else {
      in_.fail(type, "parameter type T." + type.text + " is not supported (T.handle, T.Buffer)");
    }
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", name.text + "(", open);
  if (in_.accept("->")) in_.fail(in_.peek(), "a @T.prim_func returns nothing; remove the '->' annotation");
  in_function_ = true;
  program_.written_order = true;  // a kernel's statements run as written
  suite(def);
  in_function_ = false;
}

void ProgramParser::index_binding() {
  const Token& name = in_.next();
  in_.next();  // '='
  IndexExpr value = parse_index_expr(in_, index_names());
  if (loop_) {
    if (defined_at_.contains(name.text))
      in_.fail(name, "'" + name.text + "' is already defined at line " + std::to_string(defined_at_.at(name.text)));
    loop_names_.insert_or_assign(name.text, std::move(value));
    return;
  }
  declare(name);
  index_names_.emplace(name.text, std::move(value));
}

// a, b, c = e0, e1, e2 (integer expressions; all read before any is bound).
void ProgramParser::tuple_binding() {
  std::vector<const Token*> names;
  while (true) {
    names.push_back(&in_.expect_name("a name"));
    if (!in_.accept(",")) break;
  }
  const Token& eq = in_.expect("=", "after the names (a, b = x, y)");
  if (!in_function_) {  // grouped, seps = L.group(shape), as TVM's group returns both
    const Token& at = in_.peek();
    LayoutValue value = parse_layout(in_, names_);
    const auto* grouped = std::get_if<GroupedLayout>(&value);
    if (!grouped || names.size() != 2)
      in_.fail(at, "outside a @T.prim_func a tuple assignment takes a group: grouped, seps = L.group(shape)");
    declare(*names[0]);
    declare(*names[1]);
    names_.lists.emplace(names[1]->text, grouped->seps());
    program_.layouts.push_back(LayoutBinding{names[0]->text, grouped->layout(), names[0]->loc});
    names_.layouts.emplace(names[0]->text, std::move(value));
    return;
  }
  std::vector<IndexExpr> values;
  while (true) {
    values.push_back(parse_index_expr(in_, index_names()));
    if (!in_.accept(",")) break;
  }
  if (values.size() != names.size())
    in_.fail(eq, std::to_string(names.size()) + " names but " + std::to_string(values.size()) + " values");
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Token& name = *names[i];
    if (loop_) {
      if (defined_at_.contains(name.text))
        in_.fail(name, "'" + name.text + "' is already defined at line " + std::to_string(defined_at_.at(name.text)));
      loop_names_.insert_or_assign(name.text, values[i]);
    } else {
      declare(name);
      index_names_.emplace(name.text, values[i]);
    }
  }
}

// X_reg = X.local(d0, d1, ...) or X.local(): a row-major reshape of each
// thread's storage span (TVM: the product must equal layout.storage().span()).
void ProgramParser::view_binding(const Token& name) {
  declare(name);
  const Token& buf_name = in_.next();
  in_.next();  // '.'
  const Token& local = in_.next();
  const BufferDecl& buf = program_.buffer(buf_name.text, buf_name.loc);
  if (buf.scope != MemScope::local)
    in_.fail(buf_name, "'" + buf.name + "' is a " + std::string(mem_scope_name(buf.scope)) +
                           " buffer; .local() views a register (local) buffer");
  std::int64_t span = 0;
  try {
    span = buf.layout.storage().span();
  } catch (const Error& e) {  // past int64
    throw e.located(buf_name.loc);
  }
  Shape shape;
  const Token& open = in_.expect("(", "after .local");
  while (!in_.peek().is_op(")")) {
    const Token& at = in_.peek();
    if (at.kind == TokenKind::identifier && in_.peek(1).is_op("="))
      in_.fail(at, ".local(" + at.text + "=...) is not supported (a shape only)");
    const IndexExpr e = parse_index_expr(in_, IndexNames{});
    const std::int64_t d = e.eval({});
    if (d <= 0 || d > span)
      in_.fail(at, ".local() dimension must be 1.." + std::to_string(span) + ", got " + std::to_string(d));
    shape.push_back(d);
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", "local(", open);
  if (shape.empty()) shape.push_back(span);
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  if (n != span)
    in_.fail(local, "'" + buf.name + "'.local(" + joined_text(shape) + ") has " + std::to_string(n) +
                        " registers but each thread's storage span of '" + buf.name + "' is " + std::to_string(span));
  views_.emplace(name.text, RegisterView{buf.name, shape});
  names_.others.emplace(name.text, "register view");
}

}  // namespace mmacheck
