// ProgramParser — the statement-level parser behind parse_program (internal;
// use parse_program from program.h).  One instance reads one file, top to
// bottom: names must be defined before they are used, and each statement
// ends at a newline or `;`.
//
// program_parser.cc: statements, bindings, scope, stage/store.
// program_calls.cc: the calls buffer(...) and gemm(...) and their arguments.
// tvmscript_parser.cc, tvmscript_scope.cc, tvmscript_staging.cc: TVMScript (a @T.prim_func, its
// thread ids, match_buffer, .local() views, the staging loops, the scoped
// gemm); see docs/tvmscript.md.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/program/layout_parser.h"
#include "core/program/lexer.h"
#include "core/program/program.h"
#include "core/program/python_block.h"
#include "core/program/python_module.h"

namespace mmacheck {

// The TVMScript reader's word tests (the argument values are
// core/program/python_values.h).
namespace program_detail {
bool is_tirx_prefix(const Token& t);  // T or Tx
// T.<name>(...) is a thread id TVM has (warp_id, lane_id, ..., warpgroup_id).
bool is_thread_id_name(std::string_view name);
}  // namespace program_detail

class ProgramParser {
 public:
  ProgramParser(std::string_view text, const std::string& file);
  // A kernel a test file's factory or test built (kernel_instance.h): its
  // tokens with the closure's constants in place, and the closure's layouts.
  ProgramParser(std::vector<Token> kernel, const std::string& file,
                const std::vector<std::pair<std::string, python::Value>>& layouts);
  Program run();
  // After run(), in a .py file: the kernels its tests build
  // (core/program/python_module.h); `notes` gets what was passed over.
  std::vector<python::Instance> instances(std::vector<std::string>& notes,
                                          std::optional<SourceLoc>* uncalled = nullptr) const;
  // What was passed over (parse_tvmscript's `skipped`): the file's foreign
  // statements, then T.func_attr and T.evaluate(0).
  std::vector<std::string> skipped() const;

 private:
  // A register view `X_reg = X.local(d0, ...)`: a row-major reshape of each
  // thread's storage span of buffer X.
  struct RegisterView {
    std::string buffer;
    Shape shape;
  };
  // The loop around the statement being read: its variables and extents
  // (one for T.unroll/T.serial/range, several for T.grid).
  struct Loop {
    std::vector<std::string> vars;
    Shape extents;
  };

  // After a compound statement's header: its suite (core/program/python_block.h).
  void suite(const Token& header);
  void statement();
  // TVMScript statements (tvmscript_parser.cc); false when the statement at
  // the cursor is none of them.
  bool python_statement();
  void decorator();
  // A .py file's top-level def or assignment, evaluated by module_ (its
  // layouts, integers and integer tuples mirrored into names_).
  bool module_statement();
  // Does the module statement at `start` call a dataclass of the module?
  bool constructs_dataclass(std::size_t start) const;
  void mirror(const Token& at, const std::string& name, const python::Value& value);
  // `if` in a kernel on a Python constant, as TVMScript decides it while parsing.
  void static_if();
  void module_class();  // @I.ir_module class Module: (TVM's print), its @T.prim_func functions
  void function_def();
  void forget(const std::string& name);  // a name a skipped def or data statement binds
  void for_loop();
  void with_statement();
  void thread_ids(const Token* name);
  bool scoped_gemm();
  void index_binding();
  void tuple_binding();
  void view_binding(const Token& name);
  void match_buffer_binding(const Token& name, const Token& callee);
  // `VIEW[i] = G[ROW, COL]` (a stage) or `G[ROW, COL] = VIEW[i]` (a store);
  // tvmscript_staging.cc.
  void register_transfer();
  // The slot index `[i, ...]` of `view`: checks that it enumerates the
  // registers in the loop's order and returns nothing (the slot is the loop's).
  void register_index(const Token& view_name, const RegisterView& view);
  std::pair<IndexExpr, IndexExpr> matrix_index(const Token& matrix);
  // Index names visible at the cursor: the function's, then the loop's.
  const IndexNames& index_names() const { return loop_ ? loop_names_ : index_names_; }

  void binding();
  void scope_statement();
  void staging_statement();
  // Shared memory (shared_statements.cc): `fill S = G[.T]`, `drain S -> G[.T]`,
  // `ldmatrix.xN[.trans] R[FIRST] = S[ROW, COL]`, `stmatrix... -> S[...]`,
  // `ld.shared R[s] = S[...]`, `st.shared R[s] -> S[...]`; the swizzle
  // values of buffer(...) and TIRx's ComposeLayout.
  void fill_statement();
  void shared_copy_statement();
  void tile_copy_statement();
  bool at_shared_copy() const;
  Swizzle swizzle_value();
  std::optional<Swizzle> optional_swizzle();  // a swizzle or None
  // `ComposeLayout(SWIZZLE, LAYOUT)` / `ComposeLayout(M, B, S, LAYOUT[, inner])`
  // at the cursor (after its callee): the layout and its swizzle.
  std::pair<TileLayout, Swizzle> compose_layout(const Token& callee);
  // Consumes `[T.|Tx.][warp.]NAME` when followed by '(' and returns NAME's
  // token; nullptr (consuming nothing) otherwise.
  const Token* accept_callee(std::string_view name);
  // Records a new name; throws on a reserved name or a redefinition.
  void declare(const Token& name);

  BufferDecl buffer_call(const Token& name, const Token& callee);
  void gemm_call(const Token& callee);
  // Reads `(arg, ..., key=arg)` after `callee`: for each argument,
  // `parse_one(i)` parses the value of parameter i at the cursor.  The first
  // `required` parameters must be given.
  void call_args(const Token& callee, std::initializer_list<std::string_view> params, std::size_t required,
                 const std::function<void(std::size_t)>& parse_one);
  OperandRef operand();

  TokenCursor in_;
  Program program_;
  // TVMScript state: function-level index names (the lane, warp, thread ids
  // and integer locals), the loop being read and its names, the views, the
  // handle parameters, the `with` scope, the thread-id extents.
  IndexNames index_names_;
  std::optional<Loop> loop_;
  IndexNames loop_names_;
  std::map<std::string, RegisterView, std::less<>> views_;
  std::map<std::string, bool, std::less<>> handles_;  // name -> matched
  std::optional<ExecScope::Kind> with_scope_;
  std::optional<std::int64_t> warps_, threads_;
  bool in_function_ = false;
  LayoutNames names_;
  std::map<std::string, int, std::less<>> defined_at_;  // name -> line
  // A whole .py file's defs, classes, data and script block, passed over;
  // skipped_ adds T.func_attr and T.evaluate(0) (Program::skipped).
  python::ForeignStatements foreign_;
  std::vector<std::string> skipped_;
  // A .py file's Python (defs, values, the kernels its tests build).
  std::optional<python::Module> module_;
};

}  // namespace mmacheck
