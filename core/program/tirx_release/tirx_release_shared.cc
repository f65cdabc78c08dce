// ReleaseReader, shared memory: the copy loops that fill a shared tensor
// from a global one (`A_s[ROW, COL] = A[ROW2, COL2]` over the block's
// threads), the barriers that show them to the other threads
// (`T.cuda.cta_sync()`), and the ldmatrix pattern that reads registers out
// of them: `T.cuda.tile.apply("ldmatrix.sync.aligned.m8n8.x4.shared.b16",
// a_ld[:, :, :], A_w[:, :, :], scope="warp")` on 32-bit views
// (core/program/release_ldmatrix.h), or the `T.ptx.ldmatrix` TVM lowers it
// to.  Both become the same Program statements: a fill (SharedFillStmt, per
// element the global element it receives) and an ldmatrix (SharedCopyStmt,
// per address lane the element its row address names).
#include <algorithm>

#include "core/layout/shape_text.h"
#include "core/program/tirx_release/tirx_release_reader.h"

namespace mmacheck {

namespace {

constexpr std::int64_t kMaxCopyPoints = std::int64_t{1} << 22;  // threads x iterations of one copy loop

bool at_call(const TokenCursor& in, std::string_view ns, std::string_view fn) {
  return names_tirx(in.peek()) && in.peek(1).is_op(".") && in.peek(2).is_name(ns) && in.peek(3).is_op(".") &&
         in.peek(4).is_name(fn) && in.peek(5).is_op("(");
}

}  // namespace

// S[ROW, COL] = G[ROW2, COL2], in the loops around it, by every thread of
// the block: per element of S, the element of G it receives.  Two threads
// writing one element of S different elements race: it holds nothing known.
void ReleaseReader::shared_copy() {
  const Token& first = in_.next();
  if (!launched_) in_.fail(first, "a copy outside the device entry is not read");
  const ReleaseShared& sh = shared_.at(first.text);
  const IndexNames names = names_for_loops();
  const auto element = [&](const Token& name, const Shape& shape) {
    if (shape.size() != 2) in_.fail(name, "mmacheck reads copies between tensors of two dimensions");
    return element_index(names);
  };
  const auto [row, col] = element(first, sh.shape);
  in_.expect("=", "after the shared element");
  const Token& g = in_.expect_name("a tensor parameter");
  const auto global = globals_.find(g.text);
  if (global == globals_.end())
    in_.fail(g, "'" + g.text +
                    "' is not a tensor parameter of the function (mmacheck reads copies from a global "
                    "tensor into shared memory)");
  const Shape& gs = global->second.shape;
  const auto [grow, gcol] = element(g, gs);
  for (const SharedFillStmt& f : fills_)
    if (f.shared == first.text)
      in_.fail(first, "a second copy into '" + first.text + "' (the first is seen after the barrier at line " +
                          std::to_string(f.visible->line) + "): mmacheck reads one fill per shared tensor");
  std::int64_t lo = 0, hi = 1;
  if (loops_.size() == 1) {
    lo = loops_.front().first;
    hi = loops_.front().extent;
  } else if (loops_.size() > 1) {
    for (const Loop& l : loops_) {
      if (l.first != 0)
        in_.fail(first, "nested copy loops run from 0; '" + l.var + "' starts at " + std::to_string(l.first));
      hi *= l.extent;
    }
  }
  if (block_threads_ * (hi - lo) > kMaxCopyPoints)
    in_.fail(first, "a copy of more than " + std::to_string(kMaxCopyPoints) + " thread iterations is not read");
  PendingCopy& p = pending_[first.text];
  if (p.global.empty()) {
    p.global = g.text;
    p.loc = first.loc;
    p.sources.assign(static_cast<std::size_t>(sh.shape[0] * sh.shape[1]), {-1, -1});
    p.writer.assign(p.sources.size(), -1);
  } else if (p.global != g.text) {
    in_.fail(g, "'" + first.text + "' is filled from '" + p.global + "' (line " + std::to_string(p.loc.line) +
                    ") and from '" + g.text + "': mmacheck reads a shared tensor filled from one tensor");
  }
  std::vector<bool> raced(p.sources.size(), false);
  for (int t = 0; t < block_threads_; ++t)
    for (std::int64_t s = lo; s < hi; ++s) {
      const IndexEnv env{t % 32, t / 32, t, s};
      const std::int64_t r = row.eval(env), c = col.eval(env), gr = grow.eval(env), gc = gcol.eval(env);
      const auto who = [&] {
        return "thread " + std::to_string(t) +
               (loops_.size() == 1 ? ", " + loops_.front().var + " = " + std::to_string(s) : std::string());
      };
      if (r < 0 || r >= sh.shape[0] || c < 0 || c >= sh.shape[1])
        in_.fail(first, who() + " writes " + first.text + "[" + std::to_string(r) + "][" + std::to_string(c) +
                            "], outside its " + tuple_text(sh.shape));
      if (gr < 0 || gr >= gs[0] || gc < 0 || gc >= gs[1])
        in_.fail(g, who() + " reads " + g.text + "[" + std::to_string(gr) + "][" + std::to_string(gc) +
                        "], outside its " + tuple_text(gs));
      const auto f = static_cast<std::size_t>(r * sh.shape[1] + c);
      const std::pair<std::int64_t, std::int64_t> value{gr, gc};
      if (p.writer[f] >= 0 && p.writer[f] != t && p.sources[f] != value) raced[f] = true;
      p.sources[f] = value;
      p.writer[f] = t;
    }
  for (std::size_t f = 0; f < raced.size(); ++f)
    if (raced[f]) p.sources[f] = {-1, -1};
}

// T.cuda.cta_sync() (__syncthreads) or T.cuda.warp_sync() (__syncwarp, read
// in a block of one warp only): the copies so far are seen.
void ReleaseReader::barrier() {
  const Token& start = in_.peek();
  if (!launched_ || !loops_.empty()) in_.fail(start, "a barrier sits in the device entry, outside any loop");
  // __syncwarp orders one warp's threads: the other warps' copies stay unseen.
  if (block_threads_ > 32 && in_.peek(4).is_name("warp_sync"))
    in_.fail(start, "T.cuda.warp_sync() orders one warp; in a block of " + std::to_string(block_threads_ / 32) +
                        " warps mmacheck reads the copies into shared memory seen after T.cuda.cta_sync()");
  for (int i = 0; i < 5; ++i) in_.next();
  const Token& open = in_.expect("(", "after the barrier");
  in_.expect_close(")", "(", open);
  flush_copies(start.loc, true);
}

void ReleaseReader::flush_copies(const SourceLoc& at, bool synced) {
  for (auto& [shared, p] : pending_) {
    SharedFillStmt f;
    f.shared = shared;
    f.matrix = p.global;
    f.loc = p.loc;
    f.sources = std::move(p.sources);
    f.visible = at;
    f.synced = synced;
    fills_.push_back(std::move(f));
  }
  pending_.clear();
}

// NAME or NAME[region]: a view (or an allocation) and the region of it the
// apply names, `:`, `lo:hi` or an index (extent 1) per dimension.
ReleaseMatrixOperand ReleaseReader::matrix_operand(std::string_view role,
                                                   std::vector<std::optional<IndexExpr>>* starts) {
  const Token& name = in_.expect_name(std::string(role) + " (a view, T.decl_tensor)");
  ReleaseMatrixOperand op;
  if (const auto m = matrix_views_.find(name.text); m != matrix_views_.end()) {
    op = m->second;
  } else if (const auto v = views_.find(name.text); v != views_.end()) {
    const ReleaseImage& img = allocs_.at(v->second.alloc);
    op = ReleaseMatrixOperand{name.text,
                              img.buffer,
                              Shape{v->second.size},
                              v->second.bits,
                              img.scope,
                              TileLayout(std::vector<Iter>{Iter{v->second.size, 1, Axis::m()}}),
                              {},
                              {},
                              name.loc};
  } else if (const auto a = allocs_.find(name.text); a != allocs_.end()) {
    op = ReleaseMatrixOperand{name.text, name.text, a->second.shape, a->second.bits, a->second.scope, a->second.layout,
                              {},        {},        name.loc};
  } else if (const auto s = shared_.find(name.text); s != shared_.end()) {
    op = ReleaseMatrixOperand{name.text,
                              name.text,
                              s->second.shape,
                              release_dtype_bits(s->second.dtype).value_or(0),
                              MemScope::shared,
                              TileLayout::row_major(s->second.shape),
                              {},
                              {},
                              name.loc};
  } else {
    in_.fail(name, std::string(role) + ": '" + name.text + "' is not a view or an allocation of this kernel");
  }
  op.loc = name.loc;
  op.begin.assign(op.shape.size(), 0);
  op.extent = op.shape;
  if (starts) starts->assign(op.shape.size(), std::nullopt);
  if (const Token& open = in_.peek(); open.is_op("[")) {
    in_.next();
    std::size_t dim = 0;
    while (!in_.peek().is_op("]")) {
      const Token& at = in_.peek();
      if (dim >= op.shape.size())
        in_.fail(at,
                 std::string(role) + ": '" + name.text + "' has " + std::to_string(op.shape.size()) + " dimensions");
      std::int64_t lo = 0, hi = op.shape[dim];
      const bool literal =
          at.kind == TokenKind::integer && (in_.peek(1).is_op(":") || in_.peek(1).is_op(",") || in_.peek(1).is_op("]"));
      if (starts && !literal && !at.is_op(":")) {
        // A start that names the warp (`warp:warp + 1`, TVM's print `warp`: extent 1): lo:hi of one extent in
        // every warp.
        const IndexExpr l = index_expr(index_names_);
        const IndexExpr h = in_.accept(":")
                                ? index_expr(index_names_)
                                : IndexExpr::binary(IndexExpr::Kind::add, l, IndexExpr::literal(1, at.loc), at.loc);
        std::optional<std::int64_t> extent;
        for (std::int64_t w = 0; w < std::max(1, block_threads_ / 32); ++w) {
          const IndexEnv env{0, w, 32 * w, 0};
          for (int lane = 1; lane < 32; ++lane)
            if (l.eval(IndexEnv{lane, w, 32 * w + lane, 0}) != l.eval(env))
              in_.fail(at, "the region's start depends on the lane; mmacheck reads one region per warp");
          const std::int64_t e = h.eval(env) - l.eval(env);
          if (extent && *extent != e)
            in_.fail(at, "the region's extent is " + std::to_string(*extent) + " in warp 0 but " + std::to_string(e) +
                             " in warp " + std::to_string(w));
          extent = e;
        }
        if (*extent <= 0) in_.fail(at, "an empty region of extent " + std::to_string(*extent));
        (*starts)[dim] = l;
        op.begin[dim] = l.eval(IndexEnv{});
        op.extent[dim] = *extent;
        ++dim;
        if (!in_.accept(",")) break;
        continue;
      }
      if (at.kind == TokenKind::integer) {
        lo = small_int("a region start");
        hi = lo + 1;
        if (in_.accept(":")) hi = in_.peek().kind == TokenKind::integer ? small_int("a region end") : op.shape[dim];
      } else {
        in_.expect(":", "(a region: X[:, 0:2, :])");
        if (in_.peek().kind == TokenKind::integer) hi = small_int("a region end");
      }
      if (hi <= lo) in_.fail(at, "an empty region " + std::to_string(lo) + ":" + std::to_string(hi));
      op.begin[dim] = lo;
      op.extent[dim] = hi - lo;
      ++dim;
      if (!in_.accept(",")) break;
    }
    in_.expect_close("]", "[", open);
    if (dim != op.shape.size())
      in_.fail(open, std::string(role) + ": the region has " + std::to_string(dim) + " dimensions, '" + name.text +
                         "' has " + std::to_string(op.shape.size()));
  }
  return op;
}

// T.cuda.tile.apply("ldmatrix...", dst, src, scope="warp")
// (TVM's print: T.cuda.tile.apply("...", (dst, src), (), scope=T.ThreadScope("cuda.warp")))
void ReleaseReader::matrix_apply(const Token& start, const Token& open, const Token& opcode) {
  const std::optional<std::pair<int, bool>> form = ldmatrix_opcode(opcode.text);
  if (!form)
    in_.fail(opcode,
             "mmacheck reads ldmatrix.sync.aligned.m8n8.{x1,x2,x4}[.trans][.shared].b16 (the pattern's "
             "16-bit loads), got \"" +
                 opcode.text + "\"");
  if (!launched_ || !loops_.empty()) in_.fail(start, "T.cuda.tile.apply sits in the device entry, outside any loop");
  if (block_threads_ < 32) in_.fail(start, "mmacheck reads ldmatrix staging in blocks of whole warps");
  in_.expect(",", "after the opcode");
  const bool tuple = in_.peek().is_op("(");
  const Token* topen = tuple ? &in_.next() : nullptr;
  ReleaseMatrixCopy copy{opcode.text, form->first, form->second, start.loc, {}, {}};
  std::vector<std::optional<IndexExpr>> dst_starts, src_starts;
  copy.dst = matrix_operand("dst", &dst_starts);
  in_.expect(",", "after dst");
  copy.src = matrix_operand("src", &src_starts);
  apply_tail(tuple ? topen : nullptr, open, start, "ldmatrix");
  // Each warp runs the pattern on its own regions (a start that names the
  // warp): the dispatch checks each warp's, and declines the kernel in TVM's
  // words where any is refused; a refused apply moves nothing.
  std::vector<ReleaseMatrixCopy> warps;
  for (std::int64_t w = 0; w < block_threads_ / 32; ++w) {
    ReleaseMatrixCopy c = copy;
    for (auto [op, starts] : {std::pair{&c.dst, &dst_starts}, std::pair{&c.src, &src_starts}})
      for (std::size_t d = 0; d < starts->size(); ++d)
        if ((*starts)[d]) op->begin[d] = (*starts)[d]->eval(IndexEnv{0, w, 32 * w, 0});
    warps.push_back(std::move(c));
  }
  bool refused = false;
  for (const ReleaseMatrixCopy& c : warps) {
    refused = refused || ldmatrix_refusal(c).has_value();
    matrix_copies_.push_back(c);
  }
  if (refused) return;
  std::vector<std::int64_t> words;
  std::vector<std::vector<std::int64_t>> lane_words;
  for (const ReleaseMatrixCopy& c : warps) {
    const LdmatrixLowering lowered = ldmatrix_lowering(c);
    if (!words.empty() && lowered.words != words)
      throw Error(start.loc, "the ldmatrix's registers are other words of '" + copy.dst.alloc + "' in warp " +
                                 std::to_string(lane_words.size()) + " than in warp 0");
    words = lowered.words;
    lane_words.push_back(lowered.lane_words);
  }
  add_ldmatrix(start.loc, copy.num, copy.trans, copy.dst.alloc, words, copy.src, lane_words);
}

// T.ptx.ldmatrix(r0, .., T.cuda.cvta_generic_to_shared(T.address_of(A_w[i, j, k])),
//                "sync", "aligned", "m8n8", "x4", TRANS, SPACE, "b16", "")
void ReleaseReader::ptx_ldmatrix() {
  const Token& start = in_.peek();
  // The pattern's repeat loops of one iteration (`for repeat_0 in T.unroll(0, 1)`: a region of extent 1 on a
  // repeat axis, a warp's own slice) run it once.
  if (!launched_ ||
      std::any_of(loops_.begin(), loops_.end(), [](const Loop& l) { return l.first != 0 || l.extent != 1; }))
    in_.fail(start, "mmacheck reads T.ptx.ldmatrix in the device entry, outside loops (or in loops of one iteration)");
  if (block_threads_ < 32) in_.fail(start, "mmacheck reads ldmatrix staging in blocks of whole warps");
  for (int i = 0; i < 5; ++i) in_.next();
  const Token& open = in_.next();
  const IndexNames names = names_for_loops();
  std::vector<Value> regs;
  while (!at_call(in_, "cuda", "cvta_generic_to_shared")) {
    if (regs.size() == 4) in_.fail(in_.peek(), "T.ptx.ldmatrix passes at most 4 registers before its address");
    regs.push_back(value_arg(names));
    in_.expect(",", "after a register");
  }
  for (int i = 0; i < 5; ++i) in_.next();
  const Token& cvta = in_.next();
  if (!(names_tirx(in_.peek()) && in_.peek(1).is_op(".") && in_.peek(2).is_name("address_of")))
    in_.fail(in_.peek(), "expected T.address_of(VIEW[...]), got " + describe(in_.peek()));
  for (int i = 0; i < 3; ++i) in_.next();
  const Token& aopen = in_.expect("(", "after T.address_of");
  const Token& view = in_.expect_name("a shared view");
  const auto mv = matrix_views_.find(view.text);
  if (mv == matrix_views_.end())
    in_.fail(view, "'" + view.text + "' is not a view (T.decl_tensor) of a shared tensor of this kernel");
  const Token& iopen = in_.expect("[", "after the view");
  std::vector<IndexExpr> index;
  while (!in_.peek().is_op("]")) {
    index.push_back(index_expr(names));
    if (!in_.accept(",")) break;
  }
  in_.expect_close("]", "[", iopen);
  in_.expect_close(")", "T.address_of(", aopen);
  in_.expect_close(")", "T.cuda.cvta_generic_to_shared(", cvta);
  std::vector<std::string> fields;
  while (in_.accept(",")) {
    if (in_.peek().is_op(")")) break;
    const Value v = value_arg(names);
    if (v.kind != Value::Kind::string) throw Error(v.loc, "expected a string (the instruction's fields)");
    fields.push_back(v.text);
  }
  in_.expect_close(")", "T.ptx.ldmatrix(", open);
  const auto field = [&](std::size_t i) { return i < fields.size() ? fields[i] : std::string(); };
  const std::string opcode = "ldmatrix." + field(0) + "." + field(1) + "." + field(2) + "." + field(3) +
                             (field(4).empty() ? "" : "." + field(4)) + (field(5).empty() ? "" : "." + field(5)) + "." +
                             field(6);
  const std::optional<std::pair<int, bool>> form = ldmatrix_opcode(opcode);
  if (!form || fields.size() != 8 || !fields[7].empty())
    in_.fail(open,
             "mmacheck reads T.ptx.ldmatrix(..., \"sync\", \"aligned\", \"m8n8\", \"x1\"|\"x2\"|\"x4\", \"\"|"
             "\"trans\", \"shared\", \"b16\", \"\"), got " +
                 opcode);
  const auto [num, trans] = *form;
  if (static_cast<int>(regs.size()) != num)
    in_.fail(open, "ldmatrix ." + field(3) + " passes " + std::to_string(num) + " registers, got " +
                       std::to_string(regs.size()));
  std::string image;
  std::vector<std::int64_t> words;
  for (const Value& r : regs) {
    if (r.kind != Value::Kind::reg) throw Error(r.loc, "T.ptx.ldmatrix takes register elements");
    const View& v = views_.at(r.view);
    if (v.bits != 32) throw Error(r.loc, "T.ptx.ldmatrix passes 32-bit registers, '" + r.view + "' views " + v.dtype);
    if (!image.empty() && v.alloc != image)
      throw Error(r.loc, "this register views '" + v.alloc + "', the others '" + image + "'");
    image = v.alloc;
    const std::int64_t w = r.index->eval(IndexEnv{0, 0, 0, 0});
    for (std::int64_t warp = 0; warp < std::max(1, block_threads_ / 32); ++warp)
      for (std::int64_t lane = 0; lane < 32; ++lane)
        if (r.index->eval(IndexEnv{lane, warp, 32 * warp + lane, 0}) != w)
          throw Error(r.loc,
                      "the register index depends on the lane or the warp; mmacheck reads one register per "
                      "matrix");
    if (w < 0 || w >= v.size)
      throw Error(r.loc, r.view + "[" + std::to_string(w) + "] is outside the view's " + std::to_string(v.size) +
                             " registers");
    words.push_back(w);
  }
  const ReleaseMatrixOperand& shared = mv->second;
  if (index.size() != shared.shape.size())
    in_.fail(view, "'" + view.text + "' has " + std::to_string(shared.shape.size()) +
                       " dimensions, the address names " + std::to_string(index.size()));
  std::vector<std::vector<std::int64_t>> lane_words;
  for (std::int64_t w = 0; w < block_threads_ / 32; ++w) {
    lane_words.emplace_back();
    for (std::int64_t lane = 0; lane < 8 * num; ++lane) {
      const IndexEnv env{lane, w, 32 * w + lane, 0};
      std::vector<std::int64_t> at;
      for (std::size_t d = 0; d < index.size(); ++d) {
        at.push_back(index[d].eval(env));
        if (at.back() < 0 || at.back() >= shared.shape[d])
          in_.fail(view, (block_threads_ > 32 ? "warp " + std::to_string(w) + ", " : std::string()) + "lane " +
                             std::to_string(lane) + "'s address " + view.text + tuple_text(at) + " is outside its " +
                             tuple_text(shared.shape));
      }
      lane_words.back().push_back(view_word(shared, at));
    }
  }
  add_ldmatrix(start.loc, num, trans, image, words, shared, lane_words);
}

void ReleaseReader::add_ldmatrix(const SourceLoc& loc, int num, bool trans, const std::string& image,
                                 const std::vector<std::int64_t>& words, const ReleaseMatrixOperand& view,
                                 const std::vector<std::vector<std::int64_t>>& lane_words) {
  const auto img = allocs_.find(image);
  if (img == allocs_.end() || img->second.scope != MemScope::local)
    throw Error(loc, "the ldmatrix's registers are '" + image + "', which is no register image (T.alloc_local)");
  const auto sh = shared_.find(view.alloc);
  if (sh == shared_.end())
    throw Error(loc, "the ldmatrix reads '" + view.view + "', a view of '" + view.alloc +
                         "', which is no shared tensor (T.alloc_shared) of this kernel");
  for (std::size_t i = 0; i < words.size(); ++i)
    if (words[i] != words[0] + static_cast<std::int64_t>(i))
      throw Error(loc, "register " + std::to_string(i) + " of the ldmatrix is word " + std::to_string(words[i]) +
                           " of '" + image + "', not " + std::to_string(words[0] + static_cast<std::int64_t>(i)) +
                           ": mmacheck reads an ldmatrix into consecutive words of its image");
  const int bits = release_dtype_bits(sh->second.dtype).value_or(0);
  if (bits != 16 || view.bits % bits != 0)
    throw Error(loc, "ldmatrix moves 16-bit units; '" + view.alloc + "' holds " + sh->second.dtype);
  SharedCopyStmt c;
  c.op = SharedOp::ldmatrix;
  c.num = num;
  c.trans = trans;
  c.reg = image;
  c.shared = view.alloc;
  c.first_slot = static_cast<int>(words.front() * (img->second.bits / bits));
  c.loc = loc;
  // One warp: its address lanes' elements.  Several: warp w's at 32·w + lane
  // (lanes past the address lanes unused), SharedCopyStmt::lane_elements.
  const std::int64_t cols = sh->second.shape.back();
  for (const std::vector<std::int64_t>& warp : lane_words) {
    for (const std::int64_t w : warp) {
      const std::int64_t e = w * (view.bits / bits);  // the view's word as an element of the shared tensor
      c.lane_elements.emplace_back(e / cols, e % cols);
    }
    if (lane_words.size() > 1) c.lane_elements.resize(32 * (&warp - lane_words.data() + 1), {-1, -1});
  }
  copies_.push_back(std::move(c));
}

}  // namespace mmacheck
