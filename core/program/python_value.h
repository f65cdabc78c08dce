// The values of the Python that decides a kernel: what a test file's module,
// its factories and its parametrized tests compute before TVMScript reads
// the kernel (core/program/python_module.h).  Python's own semantics: ints
// are exact (overflow is an error, never a wrap), `//` and `%` floor, bools
// compare as ints, a tuple and a list are sequences.
//
//     16, 0.0, "float16", True, None      scalars
//     (1, 1, 2, 16), [16, 8]              Items (list: [...])
//     A_FRAG.tile_to([16, 16], [16, 8])   a LayoutValue (core/program/layout_parser.h)
//     def _build(Mt, ...): ...            a Function: called by the evaluator
//     @T.prim_func def gemm(): ...        a KernelSite: read by TVMScript with its closure
//     lambda c: f"{c.tm}x{c.tn}"         a Function too (its body one expression)
//     @dataclass class Config: ...        a Class; Config(1, 2) an Object (python_class.h)
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/base/error.h"
#include "core/program/layout_parser.h"
#include "core/program/lexer.h"

namespace mmacheck::python {

struct Value;
struct Function;
struct KernelSite;
struct Scope;
struct Class;
struct Object;
using Items = std::vector<Value>;

// A name bound by a statement mmacheck does not evaluate (a test's
// `dev = tvm.cuda(0)`, a pytest fixture): using it is an Error saying so.
struct Opaque {
  std::string why;  // "bound at line 12 by a statement mmacheck does not evaluate"
};
struct None {};

struct Value {
  std::variant<None, bool, std::int64_t, double, std::string, std::shared_ptr<const Items>, LayoutValue,
               std::shared_ptr<const Function>, std::shared_ptr<const KernelSite>, std::shared_ptr<const Class>,
               std::shared_ptr<const Object>, Opaque>
      v;
  bool list = false;  // Items written [...]
  SourceLoc loc;

  template <class T>
  const T* get() const {
    return std::get_if<T>(&v);
  }
  const Items* items() const {
    const auto* p = get<std::shared_ptr<const Items>>();
    return p ? p->get() : nullptr;
  }
};

Value make_items(Items items, bool list, const SourceLoc& loc);

// "an integer", "a string", "a tuple", "a layout", "def f", ... for messages.
std::string kind_name(const Value& value);
// Python's truth value; an Error for what has none here (an opaque name).
bool truth(const Value& value);
// The value as Python's repr would spell it for an id: 16, 0.0, 1e-05,
// True, None, the string itself; nullopt for what pytest names by position.
std::optional<std::string> pytest_id(const Value& value);

// A def's parameter: `name`, `name=default`, after `*` keyword only.
struct Param {
  std::string name;
  std::optional<Value> default_value;
  bool keyword_only = false;
};

// A decorator over a def, kept for tests: its dotted name and the position
// of its '(' when it has arguments (evaluated when the test is).
struct Decorator {
  std::string name;  // "pytest.mark.parametrize"
  SourceLoc loc;
  std::optional<std::size_t> arguments;
};

// A def of the file.  Its body is read again at every call, from the
// shared token list; `scope` is where it was defined (the module's or a
// def's, Python's closure).  Scopes hold the defs and kernels bound in
// them, so these point back without owning: the Module keeps every scope
// (core/program/python_module.h), as long as its instances are read.
struct Function {
  std::string name;
  SourceLoc loc;
  std::vector<Param> params;
  std::vector<Decorator> decorators;
  TokenCursor::Tokens tokens;
  std::size_t keyword;  // the `def` token
  std::size_t colon;    // the ':' that opens its suite
  std::size_t end;      // the token after its block (a lambda's: after its expression)
  std::weak_ptr<const Scope> scope;
  bool lambda = false;  // `lambda x: expr`: `keyword` is `lambda`, the body the expression after `colon`
};

// A @T.prim_func def reached while evaluating: the decorator through its
// block, and the names it closes over, for TVMScript to read it with.
struct KernelSite {
  std::string name;
  SourceLoc loc;  // the '@'
  TokenCursor::Tokens tokens;
  std::size_t begin, end;
  std::weak_ptr<const Scope> scope;
};

// Names: a def's locals, then the scopes it closes over, the module's last.
struct Scope : std::enable_shared_from_this<Scope> {
  std::map<std::string, Value, std::less<>> names;
  std::shared_ptr<const Scope> parent;

  const Value* find(std::string_view name) const;
};

// The scope a def or kernel closes over; an Error (a bug, never input) once
// its Module is gone.
std::shared_ptr<const Scope> closure(const Function& f);
std::shared_ptr<const Scope> closure(const KernelSite& k);

}  // namespace mmacheck::python
