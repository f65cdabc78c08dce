// ReleaseReader, the statements (their blocks and suites:
// core/program/python_block.h): the decorators, the
// function and its tensor parameters, the launch, loops and the staging
// transfers in them (tensors and lets: tirx_release_tensors.cc).
//
// Every construct is read or refused at its line and column; only what has
// no meaning for the check is skipped (imports, docstrings, `pass`, a
// launch's attrs, T.func_attr, T.evaluate of a constant, and in a whole .py
// file the defs, classes, data and the if __name__ block around the kernel,
// python::ForeignStatements; all but the first four are listed in
// Program::skipped).
#include <algorithm>

#include "core/program/python_block.h"
#include "core/program/kernel_instance.h"
#include "core/program/tirx_release/tirx_release_reader.h"

#include <algorithm>
#include <cmath>
#include <climits>

namespace mmacheck {

namespace {

constexpr std::int64_t kMaxDim = 1 << 20;

// T.cuda.thread_idx("x"), T.cuda.lane_id() and T.cuda.warp_id() become one
// identifier each, so that index expressions can name them.
std::vector<Token> fold_thread_calls(std::vector<Token> tokens) {
  std::vector<Token> out;
  out.reserve(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const auto at = [&](std::size_t k) -> const Token& { return tokens[std::min(i + k, tokens.size() - 1)]; };
    if (at(0).is_name("T") && at(1).is_op(".") && at(2).is_name("cuda") && at(3).is_op(".")) {
      if (at(4).is_name("thread_idx") && at(5).is_op("(") && at(6).kind == TokenKind::string && at(7).is_op(")")) {
        Token t = at(0);
        t.kind = TokenKind::identifier;
        t.text = "T.cuda.thread_idx(\"" + at(6).text + "\")";
        out.push_back(t);
        i += 7;
        continue;
      }
      if ((at(4).is_name("lane_id") || at(4).is_name("warp_id")) && at(5).is_op("(") && at(6).is_op(")")) {
        Token t = at(0);
        t.kind = TokenKind::identifier;
        t.text = "T.cuda." + at(4).text + "()";
        out.push_back(t);
        i += 6;
        continue;
      }
    }
    out.push_back(std::move(tokens[i]));
  }
  return out;
}

}  // namespace

// A module (`@I.ir_module class`) is the released TIRx's when its functions
// are `@T.function`s; one of `@T.prim_func`s (TVM main's print) is TVMScript's.
bool is_tirx_release(std::string_view text, const std::string& file) {
  const std::vector<Token> tokens = tokenize(text, file);
  bool module = false, prim_func = false;
  for (std::size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (!(tokens[i].is_op("@") && tokens[i + 2].is_op("."))) continue;
    if (names_tirx(tokens[i + 1]) && tokens[i + 3].is_name("function")) return true;
    module = module || (names_tirx(tokens[i + 1]) && tokens[i + 3].is_name("ir_module"));
    prim_func = prim_func || tokens[i + 3].is_name("prim_func");
  }
  return module && !prim_func;
}

std::vector<ReleaseFunction> parse_tirx_release_functions(std::string_view text, const std::string& file,
                                                          std::vector<std::string>* skipped,
                                                          std::vector<KernelInstance>* built) {
  ReleaseReader reader(text, file);
  std::vector<ReleaseFunction> functions = reader.run();
  std::vector<KernelInstance> kernels = reader.built();
  if (skipped) *skipped = reader.skipped();
  if (built) *built = std::move(kernels);
  else if (!kernels.empty())
    throw Error(kernels.front().built_at, "the file builds kernels through factories: read_program reads each");
  return functions;
}

Program parse_tirx_release(std::string_view text, const std::string& file, std::vector<std::string>* skipped) {
  std::vector<ReleaseFunction> functions = parse_tirx_release_functions(text, file, skipped);
  if (functions.empty()) throw Error(SourceLoc{file}, "no @T.function in the file");
  if (functions.size() > 1)
    throw Error(functions[1].loc, "the file holds " + std::to_string(functions.size()) + " kernels (" +
                                      functions[0].name + ", " + functions[1].name +
                                      (functions.size() > 2 ? ", ..." : "") + "): read_program reads each");
  return std::move(functions.front().program);
}

std::vector<std::string> ReleaseReader::skipped() const {
  std::vector<std::string> out = foreign_.skipped();
  // A helper a kernel called was read there, not skipped.
  std::erase_if(out, [&](const std::string& note) {
    return std::any_of(helpers_called_.begin(), helpers_called_.end(),
                       [&](const std::string& name) { return note.rfind("def " + name + " (line ", 0) == 0; });
  });
  out.insert(out.end(), skipped_.begin(), skipped_.end());
  return out;
}

ReleaseReader::ReleaseReader(std::string_view text, const std::string& file)
    : ReleaseReader(tokenize(text, file), file, {}) {}

ReleaseReader::ReleaseReader(std::vector<Token> tokens, const std::string& file,
                             const std::vector<std::pair<std::string, python::Value>>& layouts)
    : in_(fold_thread_calls(std::move(tokens))), file_(file), module_(in_.tokens()) {
  for (const auto& [name, value] : layouts)
    if (const LayoutValue* layout = value.get<LayoutValue>()) {
      layout_names_.layouts.insert_or_assign(name, *layout);
      module_.bind(name, value);
    }
  bind_threads(Shape{32, 1, 1});
  index_names_.emplace("T.cuda.lane_id()", IndexExpr::variable(IndexExpr::Kind::lane));
  index_names_.emplace("T.cuda.warp_id()", IndexExpr::variable(IndexExpr::Kind::warp));
}

// threadIdx over the block's linear thread id (x fastest), as CUDA numbers
// threads and TVM's warp and lane ids read them: tid = x + bx * (y + by * z).
void ReleaseReader::bind_threads(const Shape& block) {
  using K = IndexExpr::Kind;
  const IndexExpr tid = IndexExpr::variable(K::tid);
  const auto lit = [](std::int64_t v) { return IndexExpr::literal(v); };
  const std::int64_t bx = block[0], by = block.size() > 1 ? block[1] : 1;
  const IndexExpr y = IndexExpr::binary(K::floordiv, tid, lit(bx));
  index_names_.insert_or_assign("T.cuda.thread_idx(\"x\")", IndexExpr::binary(K::floormod, tid, lit(bx)));
  index_names_.insert_or_assign("T.cuda.thread_idx(\"y\")", IndexExpr::binary(K::floormod, y, lit(by)));
  index_names_.insert_or_assign("T.cuda.thread_idx(\"z\")", IndexExpr::binary(K::floordiv, tid, lit(bx * by)));
}

std::vector<ReleaseFunction> ReleaseReader::run() {
  python::block(in_, 0, nullptr, [this] { statement(); });
  functions_read_ = functions_.size();
  return std::move(functions_);
}

std::vector<KernelInstance> ReleaseReader::built() {
  std::vector<std::string> notes;
  std::optional<SourceLoc> uncalled;
  std::vector<python::Instance> kernels = built_at_top_;
  for (python::Instance& i : module_.instances(notes, &uncalled)) kernels.push_back(std::move(i));
  skipped_.insert(skipped_.end(), notes.begin(), notes.end());
  if (kernels.empty() && functions_read_ == 0) {
    if (uncalled)
      throw Error(*uncalled,
                  "this kernel is built only when its factory is called, and neither the file nor its tests call "
                  "it: nothing here would be checked (docs/tirx-release.md, \"Factories and tests\")");
    in_.fail(in_.peek(), "no @T.function in the file");
  }
  return read_instances(kernels, [&](const ClosedKernel& closed) {
    ReleaseReader kernel(closed.tokens, file_, closed.layouts);
    std::vector<ReleaseFunction> functions = kernel.run();
    if (functions.size() != 1)
      throw Error(closed.tokens.front().loc,
                  "a factory's kernel is one @T.function, got " + std::to_string(functions.size()));
    return ReadKernel{std::move(functions.front().program), kernel.skipped()};
  });
}

// A top-level def that is no kernel: a factory building one from its
// arguments, a test calling factories, or a helper (core/program/python_module.h).
bool ReleaseReader::module_def() {
  std::size_t k = 0;  // the def's name, behind its decorators
  while (in_.peek(k).is_op("@")) {
    while (!in_.peek(k).ends_statement()) ++k;
    while (in_.peek(k).kind == TokenKind::newline) ++k;
  }
  const std::string keyword = in_.peek(k).is_name("class") ? "class" : "def";
  const Token name = in_.peek(k).is_name("def") || in_.peek(k).is_name("class") ? in_.peek(k + 1) : Token{};
  const int line = in_.peek(k).loc.line;
  module_.refuse_kernel_class(in_);
  if (!module_.define(in_)) return false;
  forget(name.text);
  foreign_.note(keyword + " " + name.text + " (line " + std::to_string(line) + ")");
  // A def an index expression may call (helper_call reads it there).
  if (const python::Value* v = module_.scope().find(name.text))
    if (const auto* f = v->get<std::shared_ptr<const python::Function>>()) helpers_.insert_or_assign(name.text, *f);
  return true;
}

void ReleaseReader::suite(const Token& header) {
  python::suite(in_, header, [this] { statement(); });
}

void ReleaseReader::statement() {
  const Token& t = in_.peek();
  last_loc_ = t.loc;
  if (!in_function_ && t.kind == TokenKind::identifier && (in_.peek(1).is_op(",") || in_.peek(1).is_op("=")) &&
      !(in_.peek(2).is_name("Axis") && in_.peek(3).is_op(".") && in_.peek(4).is_name("get")))
    return module_assignment();
  if (!in_function_ && macro_def()) return;
  if (!in_function_ && module_def()) return;
  if (in_function_ && t.kind == TokenKind::identifier && in_.peek(1).is_op("(") && macros_.contains(t.text))
    return macro_call();
  if (!in_function_ && foreign_.skip(in_, [this](const std::string& name) { skip_binding(name); })) return;
  if (t.is_op("@")) return decorator();
  if (t.kind == TokenKind::string) return void(in_.next());  // a docstring
  if (t.kind != TokenKind::identifier) in_.fail(t, "expected a statement, got " + describe(t));
  if (python::skip_import(in_)) return;
  if (t.text == "pass") return void(in_.next());
  if (t.text == "with") return with_launch();
  if (t.text == "for") return for_loop();
  if (names_tirx(t) && in_.peek(1).is_op(".") && in_.peek(2).is_name("cuda") && in_.peek(4).is_name("tile"))
    return tile_apply();
  if (names_tirx(t) && in_.peek(1).is_op(".") && in_.peek(2).is_name("ptx") && in_.peek(4).is_name("mma"))
    return ptx_mma();
  if (names_tirx(t) && in_.peek(1).is_op(".") && in_.peek(2).is_name("ptx") && in_.peek(4).is_name("ldmatrix"))
    return ptx_ldmatrix();
  if (names_tirx(t) && in_.peek(1).is_op(".") && in_.peek(2).is_name("cuda") &&
      (in_.peek(4).is_name("cta_sync") || in_.peek(4).is_name("warp_sync")))
    return barrier();
  // Function attributes (global_symbol, target, backend_config) name the
  // kernel and its compiler; they compute nothing.
  if (auto inert = python::skip_inert_call(in_)) return skipped_.push_back(*inert);
  if (in_.peek(1).is_op("[") && shared_.contains(t.text)) return shared_copy();
  if (in_.peek(1).is_op("[")) return transfer();
  if (in_.peek(1).is_op("=") || in_.peek(1).is_op(":")) return assignment();
  in_.fail(t, "'" + t.text + "' is not a statement mmacheck reads in released TIRx (docs/tirx-release.md lists them)");
}

// @T.function[(...)] def ... | @T.ir_module / @I.ir_module class NAME: ...
void ReleaseReader::decorator() {
  const Token& at = in_.next();
  if (!(names_tirx(in_.peek()) && in_.peek(1).is_op(".")))
    in_.fail(in_.peek(),
             "unsupported decorator (mmacheck reads @T.function and @T.ir_module), got " + describe(in_.peek()));
  in_.next();
  in_.next();
  const Token& kind = in_.expect_name("function or ir_module");
  if (kind.text != "function" && kind.text != "ir_module")
    in_.fail(kind, "unsupported decorator @T." + kind.text + " (mmacheck reads @T.function and @T.ir_module)");
  if (in_.peek().is_op("(")) skip_balanced();
  const std::string_view next = kind.text == "function" ? "def" : "class";
  python::expect_decorated(in_, at, "T." + kind.text, next);
  if (next == "def") return function_def();
  const Token& cls = in_.next();
  in_.expect_name("the module's name");
  // Its body holds functions: a name bound at class level is not visible in them.
  python::suite(in_, cls, [this] {
    const Token& t = in_.peek();
    if (t.kind == TokenKind::string || t.is_name("pass")) return void(in_.next());
    if (!t.is_op("@")) in_.fail(t, "an @I.ir_module class holds @T.function functions, got " + describe(t));
    decorator();
  });
}

void ReleaseReader::function_def() {
  const Token& def = in_.next();
  const Token& name = in_.expect_name("the function's name");
  for (const ReleaseFunction& f : functions_)
    if (f.name == name.text)
      in_.fail(name,
               "a second @T.function '" + name.text + "' (the first is at line " + std::to_string(f.loc.line) + ")");
  // What the function binds is its own: the module's names come back after it.
  const LayoutNames module_layouts = layout_names_;
  const IndexNames module_indices = index_names_;
  module_index_names_ = index_names_;  // what a helper the kernel calls sees
  const std::map<std::string, int, std::less<>> module_defined = defined_at_;
  const Token& open = in_.expect("(", "after the function's name");
  while (!in_.peek().is_op(")")) {
    const Token& param = in_.expect_name("a parameter");
    declare(param);
    in_.expect(":", "after parameter '" + param.text + "' (A: T.Tensor(shape, dtype))");
    if (!(in_.peek().is_name("T") && in_.peek(1).is_op(".") && in_.peek(2).is_name("Tensor")))
      in_.fail(in_.peek(), "a parameter is a T.Tensor(shape, dtype), got " + describe(in_.peek()));
    Shape shape;
    std::pair<std::string, int> dtype;
    std::optional<MemScope> scope;
    tensor_type(shape, dtype, scope);
    globals_.emplace(param.text, Global{shape, dtype.first, param.loc});
    layout_names_.others.emplace(param.text, "tensor");
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", name.text + "(", open);
  if (in_.accept("->")) in_.fail(in_.peek(), "a kernel returns nothing; remove the '->' annotation");
  in_function_ = true;
  suite(def);
  in_function_ = false;
  // A copy into shared memory no barrier follows is seen by no statement: after them all.
  flush_copies(SourceLoc{last_loc_.file, last_loc_.line + 1, 1}, false);
  functions_.push_back(ReleaseFunction{name.text, name.loc, finish()});
  layout_names_ = module_layouts;
  index_names_ = module_indices;
  defined_at_ = module_defined;
  allocs_.clear();
  views_.clear();
  globals_.clear();
  loops_.clear();
  transfers_.clear();
  shared_.clear();
  matrix_views_.clear();
  fills_.clear();
  copies_.clear();
  matrix_copies_.clear();
  mma_.reset();
  launched_ = false;
  block_threads_ = 32;
  bind_threads(Shape{32, 1, 1});
}

// with T.device_entry(launch=T.cuda.LaunchConfig(grid=[..], block=[32])):
// with T.device_scope(gx, gy, gz, bx, by, bz, attrs={...}):   (TVM's print)
void ReleaseReader::with_launch() {
  const Token& with = in_.next();
  if (!in_function_) in_.fail(with, "a 'with' outside a @T.function is not read");
  if (!(in_.peek().is_name("T") && in_.peek(1).is_op(".") &&
        (in_.peek(2).is_name("device_entry") || in_.peek(2).is_name("device_scope"))))
    in_.fail(in_.peek(), "expected with T.device_entry(...): or T.device_scope(...):, got " + describe(in_.peek()));
  if (launched_) in_.fail(with, "mmacheck reads one device entry per function");
  in_.next();
  in_.next();
  const Token& fn = in_.next();
  const Token& open = in_.expect("(", "after T." + fn.text);
  std::optional<Shape> block;
  if (in_.peek().kind == TokenKind::integer) {  // the six launch values, grid then block
    Shape values;
    while (in_.peek().kind == TokenKind::integer) {
      values.push_back(small_int("a launch extent"));
      if (!in_.accept(",")) break;
    }
    if (values.size() != 6) in_.fail(open, "expected six launch extents (grid x, y, z, block x, y, z)");
    block = Shape(values.begin() + 3, values.end());
  }
  while (!in_.peek().is_op(")")) {
    const Token& key = in_.expect_name("a keyword argument");
    in_.expect("=", "after '" + key.text + "'");
    if (key.text == "launch") {
      if (!(in_.peek().is_name("T") && in_.peek(2).is_name("cuda") && in_.peek(4).is_name("LaunchConfig")))
        in_.fail(in_.peek(), "launch= takes T.cuda.LaunchConfig(grid=..., block=...)");
      for (int i = 0; i < 5; ++i) in_.next();
      const Token& lopen = in_.expect("(", "after LaunchConfig");
      while (!in_.peek().is_op(")")) {
        const Token& k = in_.expect_name("a LaunchConfig field");
        in_.expect("=", "after '" + k.text + "'");
        if (k.text == "grid") shape_value();
        else if (k.text == "block") block = shape_value();
        else in_.fail(k, "LaunchConfig field '" + k.text + "' is not read (grid, block)");
        if (!in_.accept(",")) break;
      }
      in_.expect_close(")", "LaunchConfig(", lopen);
    } else if (key.text == "attrs" || key.text == "kernel_attrs" || key.text == "backend_config") {
      skip_balanced();
    } else {
      in_.fail(key, "T." + fn.text + " keyword '" + key.text + "' is not read (launch, attrs)");
    }
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", "T." + fn.text + "(", open);
  if (!block) in_.fail(fn, "the device entry has no block size (launch=T.cuda.LaunchConfig(grid=[1], block=[32]))");
  if (block->size() > 3) in_.fail(fn, "a block has at most three dimensions (x, y, z)");
  std::int64_t threads = 1;
  for (std::int64_t d : *block) threads *= d;
  // Fewer than 32 threads is a warp TVM's pattern refuses (dispatch says
  // so); more is whole warps, each running the pattern on its own images.
  if (threads < 1 || threads > 1024)
    in_.fail(fn, "a block of " + std::to_string(threads) + " threads: CUDA allows at most 1024");
  if (threads > 32 && threads % 32 != 0)
    in_.fail(fn, "a block of " + std::to_string(threads) +
                     " threads is not whole warps (TVM: Warp indices require a block size divisible by 32)");
  block->resize(3, 1);
  bind_threads(*block);
  block_threads_ = static_cast<int>(threads);
  launched_ = true;
  suite(with);
}

void ReleaseReader::for_loop() {
  const Token& keyword = in_.next();
  if (!launched_) in_.fail(keyword, "a loop outside the device entry is not read");
  const Token& var = in_.expect_name("a loop variable");
  if (!in_.peek().is_name("in"))
    in_.fail(in_.peek(), "expected 'in' after the loop variable, got " + describe(in_.peek()));
  in_.next();
  if (in_.peek().is_name("T") && in_.peek(1).is_op(".")) {
    in_.next();
    in_.next();
    const Token& fn = in_.expect_name("T.unroll or T.serial");
    // Vectorizing a loop changes how its iterations issue, not what they move.
    if (fn.text != "unroll" && fn.text != "serial" && fn.text != "vectorized")
      in_.fail(fn, "T." + fn.text + ": mmacheck reads loops over T.unroll, T.serial, T.vectorized or range");
  } else if (!in_.peek().is_name("range")) {
    in_.fail(in_.peek(), "mmacheck reads loops over T.unroll, T.serial or range, got " + describe(in_.peek()));
  } else {
    in_.next();
  }
  const Token& open = in_.expect("(", "after the iterator");
  std::int64_t lo = 0, hi = small_int("a loop bound");
  if (in_.accept(",")) {
    lo = hi;
    hi = small_int("a loop bound");
  }
  in_.expect_close(")", "(", open);
  if (lo < 0 || hi <= lo)
    in_.fail(open, "a loop runs over lo..hi with 0 <= lo < hi, got " + std::to_string(lo) + ".." + std::to_string(hi));
  if (loops_.size() >= 8) in_.fail(keyword, "loops nested more than 8 deep are not read");
  for (const Loop& l : loops_)
    if (l.var == var.text) in_.fail(var, "loop variable '" + var.text + "' shadows the enclosing loop's");
  if (index_names_.contains(var.text) || defined_at_.contains(var.text))
    in_.fail(var, "loop variable '" + var.text + "' is already defined");
  loops_.push_back(Loop{var.text, hi, var.loc, lo});
  suite(keyword);
  loops_.pop_back();
}

// view[INDEX] = G[ROW, COL]  (stage)   |   G[ROW, COL] = view[INDEX]  (store)
// INDEX is the loop's variable (every register of the view when the loop
// covers them all) or an expression of it (`d_r[3 - s]`), and the loop may
// cover part of the view (`T.unroll(4, 8)`): the statement then moves the
// slots it names (SlotLoop), each checked to lie in the view.
void ReleaseReader::transfer() {
  const Token& first = in_.next();
  if (loops_.size() != 1)
    in_.fail(first,
             "a register transfer sits in exactly one loop over the view's registers "
             "(for s in T.unroll(n): a_h[s] = A[...])");
  const Loop& loop = loops_.front();
  const IndexNames names = names_for_loops();
  const auto slot = [&](const Token& view_name) -> std::optional<SlotLoop> {
    const auto it = views_.find(view_name.text);
    if (matrix_views_.contains(view_name.text))
      in_.fail(view_name, "'" + view_name.text +
                              "' is a view for the ldmatrix pattern; a staging loop moves a register view of one "
                              "dimension with the default layout (S[n : 1])");
    if (it == views_.end()) in_.fail(view_name, "'" + view_name.text + "' is not a register view (T.decl_tensor)");
    const Token& open = in_.expect("[", "after the view");
    const Token& index_at = in_.peek();
    const IndexExpr index = index_expr(names);
    in_.expect_close("]", "[", open);
    const std::int64_t size = it->second.size;
    SlotLoop loop_slots{index, loop.first, loop.extent};
    for (std::int64_t s = loop.first; s < loop.extent; ++s) {
      const IndexEnv env{0, 0, 0, s};
      const auto uses_thread = [&] {  // the register index is the same in every lane
        return index.eval(IndexEnv{1, 1, 1, s}) != index.eval(env) ||
               index.eval(IndexEnv{31, 3, 127, s}) != index.eval(env);
      };
      if (uses_thread()) in_.fail(index_at, "a view's index depends on the loop's variable alone, not on the lane");
      if (const std::int64_t r = index.eval(env); r < 0 || r >= size)
        in_.fail(index_at, view_name.text + "[" + index.str() + "] at " + loop.var + " = " + std::to_string(s) +
                               " is register " + std::to_string(r) + ", outside '" + view_name.text + "''s " +
                               std::to_string(size) + " registers");
    }
    const bool whole = index.kind() == IndexExpr::Kind::slot && loop.first == 0 && loop.extent == size;
    return whole ? std::nullopt : std::optional<SlotLoop>(loop_slots);
  };
  const auto element = [&](const Token& global) {
    if (!globals_.contains(global.text))
      in_.fail(global, "'" + global.text + "' is not a tensor parameter of the function");
    return element_index(names);
  };
  if (views_.contains(first.text)) {
    std::optional<SlotLoop> slots = slot(first);
    in_.expect("=", "after the register");
    const Token& value_at = in_.peek();
    std::string written;
    if (std::optional<double> value = constant_value(&written)) {  // d_r[s] = T.float32(0), T.float32(1.5)
      // TVM casts the constant to the view's type: a float32 view holds a
      // float32 or a Python literal rounded to f32; another type's constant
      // is rounded to that type first (T.Cast("float32", T.float16(0.1))).
      if (*value != 0 && !written.empty() && written != "float32")
        in_.fail(value_at, "a register set to a T." + written + " constant: TVM rounds it to " + written +
                               " before the register's type; mmacheck reads float32 constants (T.float32(x)), and 0");
      const float held = static_cast<float>(*value);
      if (!std::isfinite(held))
        in_.fail(value_at,
                 "the constant " + std::to_string(*value) + " is not a finite float32; mmacheck reads finite ones");
      Transfer set{false, first.text, "", IndexExpr::literal(0), IndexExpr::literal(0), first.loc, std::move(slots)};
      set.constant = held;
      transfers_.push_back(std::move(set));
      return;
    }
    const Token& global = in_.expect_name("a tensor parameter");
    auto [row, col] = element(global);
    transfers_.push_back(Transfer{false, first.text, global.text, row, col, first.loc, std::move(slots)});
    return;
  }
  auto [row, col] = element(first);
  in_.expect("=", "after the element");
  const Token& view = in_.expect_name("a register view");
  std::optional<SlotLoop> slots = slot(view);
  transfers_.push_back(Transfer{true, view.text, first.text, row, col, first.loc, std::move(slots)});
}

// [ROW, COL] after a tensor's name: the element's index expressions.
std::pair<IndexExpr, IndexExpr> ReleaseReader::element_index(const IndexNames& names) {
  const Token& open = in_.expect("[", "after the tensor");
  IndexExpr row = index_expr(names);
  in_.expect(",", "between the row and the column");
  IndexExpr col = index_expr(names);
  in_.expect_close("]", "[", open);
  return {std::move(row), std::move(col)};
}

// A constant at the cursor, consumed: T.float32(0), T.float16(0.0), 0.0, -1;
// nullopt, consuming nothing, at anything else.  `dtype`, when given, receives
// the type it is written in ("float16"; "" for a Python literal).
std::optional<double> ReleaseReader::constant_value(std::string* dtype) {
  const auto number = [&](std::size_t k) -> std::optional<double> {
    const bool neg = in_.peek(k).is_op("-");
    const Token& t = in_.peek(k + (neg ? 1 : 0));
    if (t.kind != TokenKind::integer && t.kind != TokenKind::floating) return std::nullopt;
    const double v = t.kind == TokenKind::integer ? static_cast<double>(t.int_value) : t.float_value;
    return neg ? -v : v;
  };
  const auto skip = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) in_.next();
  };
  if (names_tirx(in_.peek()) && in_.peek(1).is_op(".") && release_dtype_bits(in_.peek(2).text) &&
      in_.peek(3).is_op("(")) {
    const std::optional<double> v = number(4);
    const std::size_t len = in_.peek(4).is_op("-") ? 7 : 6;  // T . f32 ( [-] N )
    if (!v || !in_.peek(len - 1).is_op(")")) return std::nullopt;
    if (dtype) *dtype = in_.peek(2).text;
    skip(len);
    return v;
  }
  if (const std::optional<double> v = number(0); v && in_.peek(in_.peek().is_op("-") ? 2 : 1).ends_statement()) {
    skip(in_.peek().is_op("-") ? 2 : 1);
    return v;
  }
  return std::nullopt;
}

IndexNames ReleaseReader::names_for_loops() const {
  IndexNames names = index_names_;
  if (loops_.size() == 1) {
    names.insert_or_assign(loops_.front().var, IndexExpr::variable(IndexExpr::Kind::slot, loops_.front().loc));
    return names;
  }
  // Nested (repeat) loops: one flat iteration index s, row-major over the loops.
  std::int64_t stride = 1;
  for (std::size_t i = loops_.size(); i-- > 0;) {
    const Loop& l = loops_[i];
    const IndexExpr s = IndexExpr::variable(IndexExpr::Kind::slot, l.loc);
    const IndexExpr q = IndexExpr::binary(IndexExpr::Kind::floordiv, s, IndexExpr::literal(stride, l.loc), l.loc);
    names.insert_or_assign(l.var,
                           IndexExpr::binary(IndexExpr::Kind::floormod, q, IndexExpr::literal(l.extent, l.loc), l.loc));
    stride *= l.extent;
  }
  return names;
}

// A name a def or a skipped data statement binds (python::ForeignStatements):
// what the reader held under it is gone, as in Python.
void ReleaseReader::forget(const std::string& name) {
  helpers_.erase(name);
  layout_names_.layouts.erase(name);
  layout_names_.lists.erase(name);
  index_names_.erase(name);
  defined_at_.erase(name);
  layout_names_.others.insert_or_assign(name, "name bound by a skipped def or data statement");
}

// A name a statement the reader passes over binds: unknown to the Python
// evaluation too.
void ReleaseReader::skip_binding(const std::string& name) {
  forget(name);
  module_.bind(name, python::Value{python::Opaque{"bound by a skipped def or data statement"}, false, {}});
}

// A top-level assignment, evaluated as Python (python_module.h): its names
// become the layouts, integers and integer tuples the kernel's layout and
// index expressions use.
void ReleaseReader::module_assignment() {
  std::vector<Token> targets;
  for (std::size_t k = 0; !in_.peek(k).is_op("=") && !in_.peek(k).ends_statement(); ++k)
    if (in_.peek(k).kind == TokenKind::identifier) targets.push_back(in_.peek(k));
  const std::size_t at = in_.position();
  std::vector<std::pair<std::string, python::Value>> bound;
  try {
    bound = module_.assign(in_);
  } catch (const Error&) {
    // Data mmacheck need not evaluate (a dict, a table of strings) is passed
    // over as the other readers pass it; anything else is the error it is.
    in_.seek(at);
    if (foreign_.skip(in_, [this](const std::string& name) { skip_binding(name); })) return;
    throw;
  }
  for (const auto& binding : bound) {
    const std::string& name = binding.first;  // named, not a structured binding: the lambda below captures it
    const python::Value& value = binding.second;
    const auto target = std::find_if(targets.begin(), targets.end(), [&](const Token& t) { return t.text == name; });
    const Token at = target != targets.end() ? *target : Token{TokenKind::identifier, name, 0, 0, value.loc};
    if (const auto* kernel = value.get<std::shared_ptr<const python::KernelSite>>()) {
      built_at_top_.push_back(python::Instance{name, *kernel, at.loc, std::nullopt});
      forget(name);
      continue;
    }
    declare(at);
    if (const LayoutValue* layout = value.get<LayoutValue>()) {
      layout_names_.layouts.emplace(name, *layout);
    } else if (value.get<std::int64_t>() || value.get<bool>()) {
      const std::int64_t v = value.get<bool>() ? std::int64_t{*value.get<bool>()} : *value.get<std::int64_t>();
      layout_names_.integers.emplace(name, v);
      index_names_.insert_or_assign(name, IndexExpr::literal(v, value.loc));
    } else if (const python::Items* items = value.items();
               items && std::all_of(items->begin(), items->end(), [](const python::Value& i) {
                 const std::int64_t* n = i.get<std::int64_t>();
                 return n && *n >= INT_MIN && *n <= INT_MAX;
               })) {
      std::vector<int> ints;
      for (const python::Value& i : *items) ints.push_back(static_cast<int>(*i.get<std::int64_t>()));
      layout_names_.lists.emplace(name, std::move(ints));
    } else {
      layout_names_.others.emplace(name, python::kind_name(value));
    }
  }
}

// An argument value mmacheck does not need (attrs={...}), or a whole
// parenthesised group: up to the ',' or ')' (or line end) that ends it.
void ReleaseReader::skip_balanced() {
  int depth = 0;
  while (true) {
    const Token& t = in_.peek();
    if (t.kind == TokenKind::end) in_.fail(t, "unexpected end of input inside brackets");
    if (depth == 0 && (t.is_op(",") || t.is_op(")") || t.ends_statement())) return;
    if (t.is_op("(") || t.is_op("[") || t.is_op("{")) ++depth;
    if (t.is_op(")") || t.is_op("]") || t.is_op("}")) --depth;
    in_.next();
  }
}

std::int64_t ReleaseReader::small_int(std::string_view what) {
  const Token& t = in_.peek();
  std::int64_t v = t.int_value;
  if (const auto it = layout_names_.integers.find(t.text);
      t.kind == TokenKind::identifier && it != layout_names_.integers.end())
    v = it->second;  // a module constant
  else if (t.kind != TokenKind::integer)
    in_.fail(t, "expected " + std::string(what) + " (an integer), got " + describe(t));
  if (v > kMaxDim)
    in_.fail(t, std::string(what) + " " + t.text + " is too large (at most " + std::to_string(kMaxDim) + ")");
  in_.next();
  return v;
}

void ReleaseReader::declare(const Token& name) {
  if (const auto it = defined_at_.find(name.text); it != defined_at_.end())
    in_.fail(name, "'" + name.text + "' is already defined at line " + std::to_string(it->second));
  defined_at_.emplace(name.text, name.loc.line);
}

}  // namespace mmacheck
