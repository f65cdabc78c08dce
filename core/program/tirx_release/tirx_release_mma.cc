// ReleaseReader, the mma: `T.cuda.tile.apply` of the PTX mma pattern, the
// `T.ptx.mma` calls of a lowered dump with their register arguments
// evaluated for every unrolled iteration and lane, and the Program the
// reader hands back (the images' logical buffers, the gemm, the staging).
#include <algorithm>
#include <cmath>

#include "core/program/tirx_release/release_kernel.h"
#include "core/program/tirx_release/tirx_release_reader.h"

namespace mmacheck {

namespace {

constexpr std::int64_t kMaxCalls = 1 << 14;  // unrolled T.ptx.mma instances

bool is_call(const TokenCursor& in, std::initializer_list<std::string_view> path) {
  std::size_t k = 0;
  for (std::string_view part : path) {
    if (k > 0 && !in.peek(k++).is_op(".")) return false;
    if (!in.peek(k++).is_name(part)) return false;
  }
  return in.peek(k).is_op("(");
}

}  // namespace

// A scalar C as the accumulator holds it: rounded to float32, as TVM's CUDA
// writes the constant (`0x1.8p+0f`); a value no float32 holds is an error at it.
float ReleaseReader::finite_float32(const Value& v) {
  const float held = static_cast<float>(v.scalar);
  if (!std::isfinite(held))
    throw Error(v.loc, "C: " + std::to_string(v.scalar) + " is not a finite float32; mmacheck reads finite scalars");
  return held;
}

// D, A, B as NAME or NAME[:, :, :, :] (the whole image).
// NAME or NAME[region] (`d[:, :, :, :]`, `d[0:1, :, :, :]`, `a[1, :, :, :]`,
// `d[0:1]`): the image, and in `region` the part of it the apply names
// (ImageRegion; absent: whole).  A region off its image TVM's pattern refuses
// (dispatch_release: "region exceeds tensor shape"); an empty one is an error.
ReleaseImage ReleaseReader::image_operand(std::string_view role, ImageRegion* region) {
  const Token& name = in_.expect_name(std::string(role) + " (a register image)");
  const auto it = allocs_.find(name.text);
  if (it == allocs_.end())
    in_.fail(name, std::string(role) + ": '" + name.text + "' is not a register image (T.alloc_local) of this kernel");
  const Shape& shape = it->second.shape;
  ImageRegion read{Shape(shape.size(), 0), shape};
  bool part = false;
  if (const Token& open = in_.peek(); open.is_op("[")) {
    in_.next();
    std::size_t dim = 0;
    while (!in_.peek().is_op("]")) {
      const Token& at = in_.peek();
      if (dim >= shape.size())
        in_.fail(at, std::string(role) + ": '" + name.text + "' has " + std::to_string(shape.size()) + " dimensions");
      std::int64_t lo = 0, hi = shape[dim];
      if (at.kind == TokenKind::integer) {
        lo = small_int("a region start");
        hi = lo + 1;
        if (in_.accept(":")) hi = in_.peek().kind == TokenKind::integer ? small_int("a region end") : shape[dim];
      } else {
        in_.expect(":", "(a region: X[:, :, :, :], X[0:1, :, :, :])");
        if (in_.peek().kind == TokenKind::integer) hi = small_int("a region end");
      }
      if (hi <= lo) in_.fail(at, "an empty region " + std::to_string(lo) + ":" + std::to_string(hi));
      read.begin[dim] = lo;
      read.extent[dim] = hi - lo;
      part = part || lo != 0 || hi != shape[dim];
      ++dim;
      if (!in_.accept(",")) break;
    }
    in_.expect_close("]", "[", open);
  }
  if (part && !region)
    in_.fail(name, std::string(role) + ": mmacheck reads this operand whole, got a region of '" + name.text + "'");
  if (region && part) *region = std::move(read);
  return it->second;
}

// T.cuda.tile.apply("mma.sync...", D, A, B, C, scope="warp")
// (also TVM's print: T.cuda.tile.apply("...", (D, A, B, C), (), scope=T.ThreadScope("cuda.warp")))
void ReleaseReader::tile_apply() {
  const Token& start = in_.peek();
  if (!is_call(in_, {"T", "cuda", "tile", "apply"}))
    in_.fail(start, "expected T.cuda.tile.apply(...), got " + describe(start));
  if (!launched_ || !loops_.empty()) in_.fail(start, "T.cuda.tile.apply sits in the device entry, outside any loop");
  if (mma_ && mma_->lowered) in_.fail(start, "a kernel has T.cuda.tile.apply or its lowered T.ptx.mma, not both");
  for (int i = 0; i < 7; ++i) in_.next();
  const Token& open = in_.next();
  const Token& op = in_.peek();
  if (op.kind != TokenKind::string)
    in_.fail(op, "T.cuda.tile.apply's first argument is the opcode string, got " + describe(op));
  in_.next();
  if (op.text.starts_with("ldmatrix.")) return matrix_apply(start, open, op);
  if (op.text.rfind("mma.sync.", 0) != 0)
    in_.fail(op,
             "mmacheck reads the mma pattern (\"mma.sync.aligned....\") and the ldmatrix pattern "
             "(\"ldmatrix.sync.aligned.m8n8....\"), got \"" +
                 op.text + "\"");
  ReleaseMma mma;
  mma.opcode = op.text;
  mma.loc = start.loc;
  in_.expect(",", "after the opcode");
  const bool tuple = in_.peek().is_op("(");
  const Token* topen = tuple ? &in_.next() : nullptr;
  ReleaseMmaStatement statement{start.loc, ReleaseMmaStatement::C::image};
  mma.d = image_operand("D", &statement.regions.d);
  in_.expect(",", "after D");
  mma.a = image_operand("A", &statement.regions.a);
  in_.expect(",", "after A");
  mma.b = image_operand("B", &statement.regions.b);
  in_.expect(",", "after B");
  const Token& c = in_.peek();
  if (c.kind == TokenKind::identifier && allocs_.contains(c.text)) {
    mma.c = image_operand("C", &statement.regions.c);
  } else {  // a scalar in every accumulator: T.float32(1.5), 1.5 (TVM: float32), 0 (int32)
    const Value v = value_arg(IndexNames{});
    if (v.kind != Value::Kind::scalar)
      in_.fail(c, "C is a register image or a scalar (T.float32(0)), got " + describe(c));
    statement.c = ReleaseMmaStatement::C::scalar;
    statement.scalar = finite_float32(v);
    statement.scalar_dtype = v.dtype;
  }
  mma.statements.push_back(std::move(statement));
  apply_tail(tuple ? topen : nullptr, open, start, "mma");
  if (mma_) return append_apply(*mma_, mma);
  mma_ = std::move(mma);
}

// The end of a T.cuda.tile.apply after its operands: `)` closing the operand
// tuple and the (empty) parameter tuple of TVM's print (`tuple_open`, when
// the operands are a tuple), then `scope="warp"` (or TVM's
// `scope=T.ThreadScope("cuda.warp")`), and the call's `)`.  The pattern runs
// at warp scope alone: anything else is an error naming `pattern`.
void ReleaseReader::apply_tail(const Token* tuple_open, const Token& open, const Token& start,
                               std::string_view pattern) {
  if (tuple_open) {
    in_.expect_close(")", "(", *tuple_open);
    in_.expect(",", "after the operands");
    const Token& p = in_.expect("(", "the (empty) parameter tuple");
    in_.expect_close(")", "(", p);
  }
  bool warp = false;
  while (in_.accept(",")) {
    if (in_.peek().is_op(")")) break;
    const Token& key = in_.expect_name("scope=");
    if (key.text != "scope") in_.fail(key, "T.cuda.tile.apply keyword '" + key.text + "' is not read (scope)");
    in_.expect("=", "after 'scope'");
    const Token& s = in_.peek();
    if (s.kind == TokenKind::string) {
      warp = s.text == "warp";
      in_.next();
    } else if (is_call(in_, {"T", "ThreadScope"})) {
      for (int i = 0; i < 4; ++i) in_.next();
      warp = in_.peek().kind == TokenKind::string && in_.peek().text == "cuda.warp";
      in_.next();
      in_.expect(")", "after the scope name");
    }
    if (!warp) in_.fail(s, "mmacheck reads the " + std::string(pattern) + " pattern at scope=\"warp\"");
  }
  in_.expect_close(")", "T.cuda.tile.apply(", open);
  if (!warp) in_.fail(start, "T.cuda.tile.apply needs scope=\"warp\" for the " + std::string(pattern) + " pattern");
}

// A register element view[i], a scalar (T.float32(0.0), 0.0) or a string.
ReleaseReader::Value ReleaseReader::value_arg(const IndexNames& names) {
  const Token& t = in_.peek();
  Value v;
  v.loc = t.loc;
  if (t.kind == TokenKind::string) {
    v.kind = Value::Kind::string;
    v.text = in_.next().text;
    return v;
  }
  const bool negative = in_.accept("-");
  if (in_.peek().kind == TokenKind::integer || in_.peek().kind == TokenKind::floating) {
    const Token& n = in_.next();
    v.scalar = (n.kind == TokenKind::integer ? static_cast<double>(n.int_value) : n.float_value) * (negative ? -1 : 1);
    v.dtype = n.kind == TokenKind::integer ? "int32" : "float32";  // TVMScript's types for Python literals
    return v;
  }
  if (negative) in_.fail(t, "expected a number after '-'");
  if (t.is_name("T") && in_.peek(1).is_op(".") && in_.peek(3).is_op("(")) {  // T.float32(0.0)
    in_.next();
    in_.next();
    const Token& type = in_.next();
    if (type.text != "float32" && type.text != "float16" && type.text != "bfloat16")
      in_.fail(type, "expected a register element or a scalar (T.float32(0.0)), got T." + type.text);
    const Token& open = in_.next();
    const Value inner = value_arg(names);
    if (inner.kind != Value::Kind::scalar) in_.fail(open, "T." + type.text + "(...) takes a number");
    in_.expect_close(")", "T." + type.text + "(", open);
    v.scalar = inner.scalar;
    v.dtype = type.text;
    return v;
  }
  const Token& view = in_.expect_name("a register element (tile_A[...]) or a scalar");
  if (!views_.contains(view.text))
    in_.fail(view, "'" + view.text + "' is not a register view (T.decl_tensor) of this kernel");
  const Token& open = in_.expect("[", "after the view");
  v.kind = Value::Kind::reg;
  v.view = view.text;
  v.index = index_expr(names);
  in_.expect_close("]", "[", open);
  return v;
}

const ReleaseImage& ReleaseReader::image_of_view(const Value& v, std::string_view role) {
  if (v.kind != Value::Kind::reg) throw Error(v.loc, std::string(role) + " takes a register element");
  const View& view = views_.at(v.view);
  if (view.bits != 32)
    throw Error(v.loc, std::string(role) + ": T.ptx.mma passes 32-bit registers, '" + v.view + "' views " + view.dtype);
  return allocs_.at(view.alloc);
}

// T.ptx.mma(d0..d3, a.., b.., c0..c3, "sync", "aligned", SHAPE, "row", "col", D, A, B, C, "")
void ReleaseReader::ptx_mma() {
  const Token& start = in_.peek();
  if (!is_call(in_, {"T", "ptx", "mma"})) in_.fail(start, "expected T.ptx.mma(...), got " + describe(start));
  if (!launched_) in_.fail(start, "T.ptx.mma sits in the device entry");
  if (mma_ && !mma_->lowered) in_.fail(start, "a kernel has T.cuda.tile.apply or its lowered T.ptx.mma, not both");
  for (int i = 0; i < 5; ++i) in_.next();
  const Token& open = in_.next();
  const IndexNames names = names_for_loops();
  std::vector<MmaArg> args;
  while (!in_.peek().is_op(")")) {
    MmaArg arg;
    if (is_call(in_, {"T", "if_then_else"})) {
      for (int i = 0; i < 3; ++i) in_.next();
      const Token& iopen = in_.next();
      arg.lhs = index_expr(names);
      in_.expect("==", "(mmacheck reads T.if_then_else(a == b, x, y) conditions)");
      arg.rhs = index_expr(names);
      in_.expect(",", "after the condition");
      arg.value = value_arg(names);
      in_.expect(",", "after the first value");
      arg.otherwise = value_arg(names);
      in_.expect_close(")", "T.if_then_else(", iopen);
    } else {
      arg.value = value_arg(names);
    }
    args.push_back(std::move(arg));
    if (args.size() > 64) in_.fail(in_.peek(), "T.ptx.mma has too many arguments");
    if (!in_.accept(",")) break;
  }
  in_.expect_close(")", "T.ptx.mma(", open);
  if (args.size() < 10)
    in_.fail(open, "T.ptx.mma needs its registers and 10 strings (\"sync\", \"aligned\", shape, ...)");
  std::vector<std::string> s;
  for (std::size_t i = args.size() - 10; i < args.size(); ++i) {
    if (args[i].value.kind != Value::Kind::string || args[i].otherwise)
      throw Error(args[i].value.loc, "expected a string (the instruction's fields)");
    s.push_back(args[i].value.text);
  }
  const int k = mma_shape_k(s[2]);
  if (s[0] != "sync" || s[1] != "aligned" || !k || s[3] != "row" || s[4] != "col" || !s[9].empty())
    in_.fail(open,
             "mmacheck reads T.ptx.mma(..., \"sync\", \"aligned\", \"m16n8k16\" or \"m16n8k8\", \"row\", \"col\", "
             "D, A, B, C types, \"\")");
  const std::size_t na = k / 4, nb = k / 8, regs = args.size() - 10;
  if (regs != 8 + na + nb)
    in_.fail(open, s[2] + " passes " + std::to_string(8 + na + nb) + " registers (4 D, " + std::to_string(na) + " A, " +
                       std::to_string(nb) + " B, 4 C), got " + std::to_string(regs));
  const std::string opcode = "mma.sync.aligned." + s[2] + ".row.col." + s[5] + "." + s[6] + "." + s[7] + "." + s[8];
  const ReleaseImage& d = image_of_view(args[0].value, "D");
  const ReleaseImage& a = image_of_view(args[4].value, "A");
  const ReleaseImage& b = image_of_view(args[4 + na].value, "B");
  std::optional<ReleaseImage> c;
  for (std::size_t i = 4 + na + nb; i < regs; ++i)
    for (const Value* v : {&args[i].value, args[i].otherwise ? &*args[i].otherwise : nullptr})
      if (v && v->kind == Value::Kind::reg && views_.at(v->view).alloc != d.buffer) c = image_of_view(*v, "C");
  if (!mma_) {
    ReleaseMma mma;
    mma.lowered = true;
    mma.opcode = opcode;
    mma.loc = start.loc;
    mma.d = d;
    mma.a = a;
    mma.b = b;
    mma.c = c;
    mma_ = std::move(mma);
  } else if (mma_->opcode != opcode || mma_->d.buffer != d.buffer || mma_->a.buffer != a.buffer ||
             mma_->b.buffer != b.buffer || (mma_->c ? mma_->c->buffer : "") != (c ? c->buffer : "")) {
    in_.fail(start, "this T.ptx.mma uses other registers or another instruction than the one at line " +
                        std::to_string(mma_->loc.line) + " (mmacheck reads one mma program per kernel)");
  }

  mma_->statements.push_back(ReleaseMmaStatement{start.loc, ReleaseMmaStatement::C::scalar});
  std::int64_t total = 1;
  for (const Loop& l : loops_) {
    if (l.first != 0)
      in_.fail(start, "a T.ptx.mma repeat loop runs from 0; '" + l.var + "' starts at " + std::to_string(l.first));
    total *= l.extent;
  }
  if (static_cast<std::int64_t>(mma_->calls.size()) + total > kMaxCalls)
    in_.fail(start, "more than " + std::to_string(kMaxCalls) + " unrolled T.ptx.mma");
  const auto reg_of = [&](const Value& v, std::int64_t iter, const std::string& role, const ReleaseImage& image) {
    const View& view = views_.at(v.view);
    if (view.alloc != image.buffer)
      throw Error(v.loc, role + ": '" + v.view + "' views '" + view.alloc + "', the other " + role + " registers '" +
                             image.buffer + "'");
    std::optional<std::int64_t> value;
    for (int lane = 0; lane < 32; ++lane) {
      const std::int64_t r = v.index->eval(IndexEnv{lane, 0, lane, iter});
      if (value && *value != r)
        throw Error(v.loc, role + ": the register index depends on the lane (lane 0 reads " + v.view + "[" +
                               std::to_string(*value) + "], lane " + std::to_string(lane) + " " + v.view + "[" +
                               std::to_string(r) + "])");
      value = r;
    }
    if (*value < 0 || *value >= view.size)
      throw Error(v.loc, role + ": " + v.view + "[" + std::to_string(*value) + "] is outside the view's " +
                             std::to_string(view.size) + " registers");
    return static_cast<int>(*value);
  };
  for (std::int64_t iter = 0; iter < total; ++iter) {
    LoweredMma call;
    call.loc = start.loc;
    call.statement = mma_->statements.size() - 1;
    std::int64_t rest = iter;
    call.repeat.resize(loops_.size());
    for (std::size_t i = loops_.size(); i-- > 0;) {
      call.repeat[i] = static_cast<int>(rest % loops_[i].extent);
      rest /= loops_[i].extent;
    }
    call.origin = "T.ptx.mma at line " + std::to_string(start.loc.line);
    for (std::size_t i = 0; i < loops_.size(); ++i)
      call.origin += (i ? ", " : " (") + loops_[i].var + " = " + std::to_string(call.repeat[i]) +
                     (i + 1 == loops_.size() ? ")" : "");
    for (std::size_t i = 0; i < regs; ++i) {
      const MmaArg& arg = args[i];
      const bool acc = i >= 4 + na + nb;
      const std::string role = i < 4 ? "D" : i < 4 + na ? "A" : !acc ? "B" : "C";
      if (!acc) {
        if (arg.otherwise || arg.value.kind != Value::Kind::reg)
          throw Error(arg.value.loc, role + " takes a register element");
        const ReleaseImage& image = role == "D" ? d : role == "A" ? a : b;
        std::vector<int>& out = role == "D" ? call.d : role == "A" ? call.a : call.b;
        out.push_back(reg_of(arg.value, iter, role, image));
        continue;
      }
      const Value* v = &arg.value;
      if (arg.otherwise) {
        const std::int64_t l = arg.lhs->eval(IndexEnv{0, 0, 0, iter}), r = arg.rhs->eval(IndexEnv{0, 0, 0, iter});
        for (int lane = 1; lane < 32; ++lane)
          if ((arg.lhs->eval(IndexEnv{lane, 0, lane, iter}) == arg.rhs->eval(IndexEnv{lane, 0, lane, iter})) !=
              (l == r))
            throw Error(arg.value.loc, "C: the condition depends on the lane");
        if (l != r) v = &*arg.otherwise;
      }
      LoweredInput in;
      if (v->kind == Value::Kind::scalar) {  // TVM prints a scalar C as T.float32(1.5)
        if (v->dtype != "float32") throw Error(v->loc, "C: T.ptx.mma takes a float32 scalar, got " + v->dtype);
        in.kind = LoweredInput::Kind::scalar;
        in.value = finite_float32(*v);
      } else if (v->kind == Value::Kind::reg && views_.at(v->view).alloc == d.buffer) {
        in.kind = LoweredInput::Kind::d_register;
        in.reg = reg_of(*v, iter, "C", d);
      } else {
        in.kind = LoweredInput::Kind::c_register;
        in.reg = reg_of(*v, iter, "C", *c);
      }
      call.c.push_back(in);
    }
    mma_->calls.push_back(std::move(call));
  }
}

Program ReleaseReader::finish() {
  if (!mma_) in_.fail(in_.peek(), "the kernel has no mma (T.cuda.tile.apply or T.ptx.mma)");
  ReleaseKernel kernel{file_,   *mma_,  {},      views_,         globals_,      transfers_,
                       shared_, fills_, copies_, matrix_copies_, block_threads_};
  for (const auto& [name, value] : layout_names_.layouts) kernel.layouts.emplace(name, layout_of(value));
  return release_program(kernel);
}

}  // namespace mmacheck
