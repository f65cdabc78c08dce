// A test file's Python, as far as it decides kernels (docs/tvmscript.md,
// "Test files"): the module's values and defs, the factories that build
// kernels from their arguments, and the parametrized tests that call them —
// TVM's own tests as they stand:
//
//     D_FRAG = TileLayout(S[...])                     a module value
//     def _build(Mt, *, beta=0.0, dtype="float16"):   a factory: read again at each call
//         D = D_FRAG.tile_to([16 * Mt, 8], [16, 8])
//         @T.prim_func
//         def gemm(): ...                             a kernel closing over Mt, beta, dtype, D
//         return gemm
//     @pytest.mark.parametrize("Mt", [1, 2])
//     def test_lowers(Mt):
//         _lower(_build(Mt))                          instances test_lowers[1], test_lowers[2]
//
// A factory is evaluated strictly: assignments, if/elif/else, return, defs
// and kernels; anything else in it is an Error at its line.  A test body is
// not run: its statements are read for the kernels they build (a kernel it
// defines, a call of a factory anywhere in a statement, evaluated with the
// test's parameters); what else it does is passed over, and a name it binds
// by a statement mmacheck does not evaluate is opaque (an Error where a
// factory needs it).  `with pytest.raises(...)` around a build is recorded:
// the test expects that kernel to fail.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/program/lexer.h"
#include "core/program/python_value.h"

namespace mmacheck::python {

// One kernel a test builds.
struct Instance {
  std::string name;  // pytest's id: test_lowers[2-1-1-16]; `::gemm` added when a test builds several
  std::shared_ptr<const KernelSite> kernel;
  SourceLoc built_at;                  // the factory call or the kernel's def in the test
  std::optional<std::string> expects;  // "pytest.raises(RuntimeError, match=\"dispatch failed\")"
};

class Module {
 public:
  explicit Module(TokenCursor::Tokens tokens);

  // At a top-level def (decorators included) that is not a kernel, or an
  // @dataclass class (core/program/python_class.h): records it and returns
  // true; false, consuming nothing, elsewhere.
  bool define(TokenCursor& in);
  // At a top-level class (decorators included): throws at the first place
  // its body builds a kernel (a kernel decorator, a call of a def that
  // builds one) — pytest runs a Test* class's methods, mmacheck passes
  // classes over, so such a kernel would go unchecked.  Consumes nothing.
  void refuse_kernel_class(const TokenCursor& in) const;
  // At `NAME = ...`, `a, b = ...` (or `NAME += ...`): evaluates the right
  // side and binds the names; returns them with their values.  Throws at
  // what does not evaluate.
  std::vector<std::pair<std::string, Value>> assign(TokenCursor& in);
  // A name the file binds otherwise (a layout the TVMScript reader read).
  void bind(const std::string& name, Value value);
  const Scope& scope() const { return *scope_; }

  // The kernels the file's tests (top-level `def test_*`) build, in the
  // order pytest collects them.  `notes` gets what was passed over: the
  // factories no test calls ("def _build (line 12) builds kernels no test
  // calls"); `uncalled`, when given, the place of the first kernel of such
  // a factory (its `@`), or of the factory when it builds through another def.
  std::vector<Instance> instances(std::vector<std::string>& notes, std::optional<SourceLoc>* uncalled = nullptr) const;

 private:
  TokenCursor::Tokens tokens_;
  std::shared_ptr<Scope> scope_;
  // Every scope an evaluation made (defs and kernels do not own theirs).
  mutable std::vector<std::shared_ptr<Scope>> scopes_;
  // A test as pytest collects it: its def and its parameter sets, the
  // parametrize marks evaluated where the def stands (Python evaluates a
  // decorator's arguments when the def runs, not at the end of the module).
  using ParameterSet = std::pair<std::string, std::vector<std::pair<std::string, Value>>>;  // id, bindings
  struct Test {
    std::shared_ptr<const Function> def;
    std::vector<ParameterSet> sets;
  };
  std::vector<ParameterSet> parameter_sets_of(const Function& test) const;
  // A name bound again (a def, `test_x = None`): the earlier test is gone, as for pytest.
  void unbind_test(const std::string& name);
  std::vector<Test> tests_;
  // At decorators naming @dataclass (or dataclasses.dataclass) over a class.
  static bool dataclass_at(const TokenCursor& in);
  // Reads the class at the cursor: its fields, their defaults (evaluated
  // now, as Python does), its methods; binds its name.
  void define_class(TokenCursor& in);
};

// Does `f` (or a def it calls, of the module) define a kernel?
bool builds_kernel(const Function& f);

}  // namespace mmacheck::python
