// ReleaseReader — the reader behind parse_tirx_release (internal; the room's
// entry is tirx_release.h, which parse_program's table names).
//
// One reader takes both forms of docs/tirx-release.md: a program as users
// write it for apache-tvm-tirx 0.1.0a4 (`@T.function`, `T.device_entry`,
// `T.alloc_local`, `T.decl_tensor`, staging loops, `T.cuda.tile.apply`) and
// the module TVM prints after TileDispatch (`@T.ir_module class`,
// `T.device_scope`, `T.alloc_tensor`, `T.ptx.mma` in `T.unroll` loops).
//
// tirx_release_reader.cc: blocks, functions, launch, loops and staging.
// tirx_release_tensors.cc: tensor types, allocations, views, integer lets,
// layout bindings.  tirx_release_mma.cc: the mma (tile.apply, T.ptx.mma and
// its register arguments) and the Program the reader hands back.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/program/layout_parser.h"
#include "core/program/lexer.h"
#include "core/program/python_block.h"
#include "core/program/python_module.h"
#include "core/program/program.h"
#include "core/program/tirx_release/release_kernel.h"
#include "core/program/tirx_release/tirx_release.h"

namespace mmacheck {

class ReleaseReader {
 public:
  ReleaseReader(std::string_view text, const std::string& file);
  // A kernel a factory or a test built (core/program/kernel_instance.h): its
  // tokens with the closure's constants in place, and the layouts it names.
  ReleaseReader(std::vector<Token> tokens, const std::string& file,
                const std::vector<std::pair<std::string, python::Value>>& layouts);
  std::vector<ReleaseFunction> run();
  // The kernels the file's top level and tests build through factories
  // (`main = make_kernel(16)`, a test calling make_kernel), in order, each
  // read on its own; run() first.
  std::vector<KernelInstance> built();
  // What was passed over (parse_tirx_release's `skipped`): the file's foreign
  // statements, then T.func_attr and T.evaluate(0) in the kernel.
  std::vector<std::string> skipped() const;

 private:
  using View = ReleaseView;
  using Global = ReleaseGlobal;
  using Transfer = ReleaseTransfer;
  struct Loop {
    std::string var;
    std::int64_t extent = 0;  // the loop runs var over [first, extent)
    SourceLoc loc;
    std::int64_t first = 0;
  };
  // One argument of T.ptx.mma / T.if_then_else: a register element, a scalar or a string.
  struct Value {
    enum class Kind { reg, scalar, string };
    Kind kind = Kind::scalar;
    std::string view;                // reg
    std::optional<IndexExpr> index;  // reg
    double scalar = 0;               // scalar
    std::string dtype;               // scalar: its type as TVM types it ("float32"; "int32" for a Python int)
    std::string text;                // string
    SourceLoc loc;
  };
  static float finite_float32(const Value& v);
  struct MmaArg {
    Value value;                        // or the "then" branch of a select
    std::optional<Value> otherwise;     // T.if_then_else(cond, value, otherwise)
    std::optional<IndexExpr> lhs, rhs;  // the select's condition lhs == rhs
  };

  // tirx_release_reader.cc
  void suite(const Token& header);  // core/program/python_block.h
  void statement();
  void decorator();
  void function_def();
  void with_launch();
  void for_loop();
  void assignment();
  void transfer();
  void module_assignment();  // NAME = ..., a, b = ... at the top level (core/program/python_module.h)
  bool module_def();         // a top-level def: a factory, a test or a helper (core/program/python_module.h)

  // tirx_release_macro.cc
  bool macro_def();  // @T.macro / @T.inline def at the top level
  void macro_call();
  // An index expression at the cursor over `names`, where a call of a
  // top-level def (a helper, `row(lane, s)`) stands for what the def returns
  // (helper_call).
  IndexExpr index_expr(const IndexNames& names);
  IndexExpr helper_call(const python::Function& f, const std::vector<IndexExpr>& args, const Token& name);
  struct Macro;
  void require_hygiene(const Macro& macro, const std::string& name) const;
  void forget(const std::string& name);
  void skip_binding(const std::string& name);
  void skip_balanced();  // an argument value mmacheck does not need, up to ',' or ')'
  std::int64_t small_int(std::string_view what);
  Shape shape_value();
  std::pair<std::string, int> dtype_value();  // TVM's name and its bits
  // T.Tensor(shape, dtype[, scope=...][, layout=...]); the layout defaults to row-major.
  TileLayout tensor_type(Shape& shape, std::pair<std::string, int>& dtype, std::optional<MemScope>& scope);
  void declare(const Token& name);
  IndexNames names_for_loops() const;
  std::optional<double> constant_value(std::string* dtype = nullptr);
  std::pair<IndexExpr, IndexExpr> element_index(const IndexNames& names);
  void bind_threads(const Shape& block);
  IndexExpr warp_shuffle();

  // tirx_release_shared.cc
  void shared_copy();                                   // S[ROW, COL] = G[ROW2, COL2] in loops over the block
  void barrier();                                       // T.cuda.cta_sync() / T.cuda.warp_sync()
  void flush_copies(const SourceLoc& at, bool synced);  // the copies so far become fills
  void matrix_apply(const Token& start, const Token& open, const Token& opcode);
  void ptx_ldmatrix();
  // `starts`, when given, receives per dimension the region's start as an
  // expression of the warp (`A_w[warp:warp + 1, ...]`, a block of several
  // warps), or nullopt where it is an integer (op.begin's).
  ReleaseMatrixOperand matrix_operand(std::string_view role, std::vector<std::optional<IndexExpr>>* starts = nullptr);
  // The ldmatrix statement of an instruction: `words` its registers' words of
  // the image `image`, `lane_words[w]` the words of `view`'s storage warp w's
  // address lanes name (one list per warp of the block).
  void add_ldmatrix(const SourceLoc& loc, int num, bool trans, const std::string& image,
                    const std::vector<std::int64_t>& words, const ReleaseMatrixOperand& view,
                    const std::vector<std::vector<std::int64_t>>& lane_words);

  // tirx_release_mma.cc
  void tile_apply();
  void apply_tail(const Token* tuple_open, const Token& open, const Token& start, std::string_view pattern);
  void ptx_mma();
  ReleaseImage image_operand(std::string_view role, ImageRegion* region = nullptr);
  Value value_arg(const IndexNames& names);
  const ReleaseImage& image_of_view(const Value& v, std::string_view role);
  Program finish();

  TokenCursor in_;
  std::string file_;
  LayoutNames layout_names_;
  IndexNames index_names_;  // lane, thread ids, integer lets
  std::map<std::string, ReleaseImage, std::less<>> allocs_;
  std::map<std::string, View, std::less<>> views_;
  std::map<std::string, Global, std::less<>> globals_;
  std::map<std::string, int, std::less<>> defined_at_;
  std::vector<Loop> loops_;
  std::vector<Transfer> transfers_;
  // Shared memory (tirx_release_shared.cc): the tensors, the 32-bit views of
  // tensors and images the ldmatrix pattern reads, the copies into shared
  // memory no barrier has shown yet (per shared tensor: its global and, per
  // element, the global element it receives), the fills, ldmatrix statements
  // and applies so far.
  struct PendingCopy {
    std::string global;
    SourceLoc loc;
    std::vector<std::pair<std::int64_t, std::int64_t>> sources;
    std::vector<int> writer;  // per element, the thread that wrote it last (-1: none)
  };
  std::map<std::string, ReleaseShared, std::less<>> shared_;
  std::map<std::string, ReleaseMatrixOperand, std::less<>> matrix_views_;
  std::map<std::string, PendingCopy, std::less<>> pending_;
  std::vector<SharedFillStmt> fills_;
  std::vector<SharedCopyStmt> copies_;
  std::vector<ReleaseMatrixCopy> matrix_copies_;
  SourceLoc last_loc_;  // the latest statement's, for a copy no barrier shows
  std::optional<ReleaseMma> mma_;
  bool in_function_ = false;
  bool launched_ = false;
  int block_threads_ = 32;                  // block=[N] of the device entry
  std::vector<ReleaseFunction> functions_;  // read so far
  std::size_t functions_read_ = 0;          // by run(), which hands them over
  std::vector<std::string> skipped_;        // T.func_attr, T.evaluate(0)
  python::ForeignStatements foreign_;
  // The module's Python values (constants, their tuples, layouts), as the
  // top level binds them: `MT, NT, KT = 2, 1, 2`, `shape = [16 * MT, 8]`,
  // `grouped, seps = L.group(shape)`, `list(seps)`.
  python::Module module_;
  // @T.macro / @T.inline helpers: their parameters and body (tokens of the file).
  struct Macro {
    std::vector<std::string> params;
    TokenCursor::Tokens tokens;
    std::size_t body_begin = 0, body_end = 0;
    int column = 0;  // the body's
    SourceLoc loc;
  };
  std::map<std::string, Macro, std::less<>> macros_;
  int macro_depth_ = 0;
  // Top-level plain defs, which an index expression may call as TVMScript's
  // parser does (a Python function run on the expressions): their body is
  // read at the call; the module's names as they stand at the kernel's def.
  std::map<std::string, std::shared_ptr<const python::Function>, std::less<>> helpers_;
  int helper_depth_ = 0;
  IndexNames module_index_names_;
  std::set<std::string, std::less<>> helpers_called_;
  // Kernels the top level binds by calling a factory (`main = make_kernel()`).
  std::vector<python::Instance> built_at_top_;
};

// `T` or `I`: the names a TIRx script gives the tirx module and its IR
// builder (`import tvm.tirx as T`, `from tvm.script import ir as I`).
inline bool names_tirx(const Token& t) { return t.is_name("T") || t.is_name("I"); }

}  // namespace mmacheck
