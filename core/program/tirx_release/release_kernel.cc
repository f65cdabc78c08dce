// release_program(): the Program of a released-TIRx kernel (release_kernel.h).
#include "core/program/tirx_release/release_kernel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <tuple>

#include "core/base/checked.h"
#include "core/layout/shape_text.h"

namespace mmacheck {

namespace {

// TVM's scalar dtype names and widths that a register image or view may have.
constexpr std::array<std::pair<std::string_view, int>, 12> kDTypeBits{{{"float16", 16},
                                                                       {"bfloat16", 16},
                                                                       {"float32", 32},
                                                                       {"float64", 64},
                                                                       {"uint8", 8},
                                                                       {"int8", 8},
                                                                       {"uint16", 16},
                                                                       {"int16", 16},
                                                                       {"uint32", 32},
                                                                       {"int32", 32},
                                                                       {"uint64", 64},
                                                                       {"int64", 64}}};

// The opcode's dot-separated fields.
std::vector<std::string> fields(std::string_view opcode) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = opcode.find('.', start);
    out.emplace_back(opcode.substr(start, dot - start));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

std::int64_t elements(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

// The apply's own statement: the reader's, else (a kernel built without one)
// its C image or the scalar 0.
ReleaseMmaStatement first_statement(const ReleaseMma& mma) {
  if (!mma.statements.empty()) return mma.statements.front();
  return ReleaseMmaStatement{mma.loc, mma.c ? ReleaseMmaStatement::C::image : ReleaseMmaStatement::C::scalar};
}

// The scalar C of the kernel (GemmCall::c_scalar): the one nonzero constant
// its mma statements, dump calls and D's constant registers name, in the
// order they are written; 0 when none does.  A second, other nonzero
// constant is an error at it: mmacheck's gemm has one scalar C.
float kernel_scalar_c(const ReleaseMma& mma, const std::vector<ReleaseTransfer>& transfers,
                      const std::map<std::string, ReleaseView, std::less<>>& views) {
  std::vector<std::pair<SourceLoc, float>> named;
  for (const ReleaseMmaStatement& st : mma.statements)
    if (st.c == ReleaseMmaStatement::C::scalar) named.emplace_back(st.loc, st.scalar);
  for (const LoweredMma& call : mma.calls)
    for (const LoweredInput& in : call.c)
      if (in.kind == LoweredInput::Kind::scalar) named.emplace_back(call.loc, in.value);
  for (const ReleaseTransfer& t : transfers)
    if (const auto v = views.find(t.view); t.constant && v != views.end() && v->second.alloc == mma.d.buffer)
      named.emplace_back(t.loc, *t.constant);
  std::stable_sort(named.begin(), named.end(), [](const auto& x, const auto& y) {
    return std::pair{x.first.line, x.first.col} < std::pair{y.first.line, y.first.col};
  });
  std::optional<std::pair<SourceLoc, float>> first;
  for (const auto& [loc, value] : named) {
    if (value == 0.0f && !std::signbit(value)) continue;
    if (!first) first.emplace(loc, value);
    else if (std::bit_cast<std::uint32_t>(value) != std::bit_cast<std::uint32_t>(first->second))
      throw Error(loc, "C is the constant " + scalar_text(value) + " here and " + scalar_text(first->second) +
                           " at line " + std::to_string(first->first.line) +
                           "; mmacheck reads one scalar C per kernel (and 0)");
  }
  return first ? first->second : 0.0f;
}

// The warps of a CTA split the gemm into their own tiles: warp w's image of
// an operand holds tile at[w] = (p_w, q_w) of the tensor its statements move.
// The operand's CTA-wide logical buffer has the tensor's shape; its layout is
// the warp's tile layout tiled by the warp grid: tile row p at stride a over
// warpid, tile column q at stride b, and the warp digits neither names
// replicas (every warp of an M split holds the same B).  nullopt when no such
// grid gives every warp its tile: then the operand keeps its warp-sized
// buffer, and the program run judges the kernel as it executes.
//
//     two warps, A (32, 16), warp tiles (16, 16) at rows 0 and 16:
//     outer S[(2, 1) : (1@warpid, 1)], tiled over A_IMG's tile
std::optional<TileLayout> warp_grid(const TileLayout& tile, const Shape& tile_shape, const Shape& tensor,
                                    const std::vector<std::pair<std::int64_t, std::int64_t>>& at) {
  const auto warps = static_cast<std::int64_t>(at.size());
  if (tensor.size() != 2 || tile_shape.size() != 2 || tensor[0] % tile_shape[0] || tensor[1] % tile_shape[1])
    return std::nullopt;
  const std::int64_t gr = tensor[0] / tile_shape[0], gc = tensor[1] / tile_shape[1];
  const auto fits = [&](std::int64_t stride, std::int64_t extent, bool row) {
    if (extent == 1 ? stride != 1 : extent * stride > warps) return false;
    for (std::int64_t w = 0; w < warps; ++w)
      if ((row ? at[w].first : at[w].second) != (w / stride) % extent) return false;
    return true;
  };
  for (std::int64_t a = 1; a <= warps; ++a)
    for (std::int64_t b = 1; b <= warps; ++b) {
      if (!fits(a, gr, true) || !fits(b, gc, false)) continue;
      // The warp digits in stride order; the gaps between them are replicas.
      std::vector<Iter> digits, replica;
      if (gr > 1) digits.push_back(Iter{gr, a, Axis::warpid()});
      if (gc > 1) digits.push_back(Iter{gc, b, Axis::warpid()});
      std::sort(digits.begin(), digits.end(), [](const Iter& x, const Iter& y) { return x.stride < y.stride; });
      std::int64_t covered = 1;
      bool ok = true;
      for (const Iter& d : digits) {
        if (d.stride < covered || d.stride % covered) ok = false;
        else if (d.stride > covered) replica.push_back(Iter{d.stride / covered, covered, Axis::warpid()});
        covered = d.stride * d.extent;
      }
      if (!ok || warps % covered) continue;
      if (warps > covered) replica.push_back(Iter{warps / covered, covered, Axis::warpid()});
      const TileLayout outer({Iter{gr, a, Axis::warpid()}, Iter{gc, b, Axis::warpid()}}, replica);
      try {
        return tile.tile(outer, {gr, gc}, tile_shape);
      } catch (const Error&) {
        return std::nullopt;
      }
    }
  return std::nullopt;
}

// Several warps: each operand's logical buffer becomes the CTA's, the tensor
// its statements move, where the warps' tiles grid it (warp_grid).  Warp w's
// tile is where its lane 0 moves its first register.  An operand whose warps
// do not grid its tensor (every warp staging A's first rows) is given the
// tiles the others imply (D's tile (m, n) of a warp: A's (m, 0), B's (n, 0)),
// so that its staging check names the statement that strays; one that fits
// neither keeps its warp-sized buffer.  Where the CTA's extents then disagree
// every operand keeps its warp-sized buffer, and the program run refutes the
// kernel as it executes.
void spread_over_warps(Program& program, int warps) {
  using Tiles = std::vector<std::pair<std::int64_t, std::int64_t>>;
  struct Operand {
    BufferDecl* buf = nullptr;
    const BufferDecl* tensor = nullptr;
    Tiles at;  // each warp's tile, as its statements move it
    bool fits = false;
  };
  Program cta = program;
  const GemmCall& call = *cta.gemm;
  enum Role { d, a, b, c };
  std::array<Operand, 4> ops;
  const std::array<std::string, 4> names{call.d.buffer, call.a.buffer, call.b.buffer, call.c.buffer};
  for (std::size_t r = 0; r < ops.size(); ++r) {
    Operand& op = ops[r];
    const auto it = std::find_if(cta.buffers.begin(), cta.buffers.end(),
                                 [&](const BufferDecl& buf) { return buf.name == names[r]; });
    if (it == cta.buffers.end() || it->scope != MemScope::local || it->shape.size() != 2) return;
    op.buf = &*it;
    std::vector<std::tuple<std::string, IndexExpr, IndexExpr, std::int64_t>> moves;  // tensor, row, col, first s
    for (const StageStmt& st : program.stages)
      if (st.buffer == op.buf->name && !st.constant)
        moves.emplace_back(st.source, st.row, st.col, st.slots ? st.slots->first : 0);
    for (const StoreStmt& st : program.stores)
      if (st.buffer == op.buf->name) moves.emplace_back(st.target, st.row, st.col, st.slots ? st.slots->first : 0);
    if (moves.empty()) {
      // Staged from shared memory by ldmatrix, each warp from its own
      // addresses (SharedCopyStmt::lane_elements, 32 per warp): warp w's tile
      // holds the global element its lane 0's first register receives, the
      // element of the fill's tensor at the row address lane 0 gives.
      const auto copy = std::find_if(program.copies.begin(), program.copies.end(), [&](const SharedCopyStmt& c) {
        return c.reg == op.buf->name && !c.store() && c.matrix() &&
               c.lane_elements.size() == static_cast<std::size_t>(32) * warps;
      });
      if (copy == program.copies.end()) return;
      const auto fill = std::find_if(program.fills.begin(), program.fills.end(), [&](const SharedFillStmt& f) {
        return f.shared == copy->shared && !f.drain && !f.sources.empty();
      });
      const BufferDecl* shared = program.find_buffer(copy->shared);
      if (fill == program.fills.end() || !shared || shared->shape.size() != 2) return;
      op.tensor = program.find_buffer(fill->matrix);
      if (!op.tensor) return;
      for (int w = 0; w < warps; ++w) {
        const auto [r, c] = copy->lane_elements[static_cast<std::size_t>(32) * w];
        const std::int64_t f = r * shared->shape[1] + c;
        const auto [gr, gc] = r >= 0 && r < shared->shape[0] && c >= 0 && c < shared->shape[1] &&
                                      f < static_cast<std::int64_t>(fill->sources.size())
                                  ? fill->sources[static_cast<std::size_t>(f)]
                                  : std::pair<std::int64_t, std::int64_t>{-1, -1};
        op.at.emplace_back(gr < 0 ? -1 : floor_div(gr, op.buf->shape[0]),
                           gc < 0 ? -1 : floor_div(gc, op.buf->shape[1]));
      }
      op.fits = warp_grid(op.buf->layout, op.buf->shape, op.tensor->shape, op.at).has_value();
      continue;
    }
    op.tensor = program.find_buffer(std::get<0>(moves.front()));
    if (!op.tensor || std::any_of(moves.begin(), moves.end(), [&](const auto& m) {
          const BufferDecl* t = program.find_buffer(std::get<0>(m));
          return !t || t->shape != op.tensor->shape;
        }))
      return;
    const auto& [name, row, col, first] = moves.front();
    for (int w = 0; w < warps; ++w) {
      const IndexEnv env{0, w, 32 * std::int64_t{w}, first};
      op.at.emplace_back(floor_div(row.eval(env), op.buf->shape[0]), floor_div(col.eval(env), op.buf->shape[1]));
    }
    op.fits = warp_grid(op.buf->layout, op.buf->shape, op.tensor->shape, op.at).has_value();
  }
  // Each warp's (m, n) tile: D's, else A's rows and B's rows.
  Tiles mn;
  for (int w = 0; w < warps; ++w) {
    if (ops[d].fits) mn.push_back(ops[d].at[w]);
    else if (ops[a].fits && ops[b].fits) mn.emplace_back(ops[a].at[w].first, ops[b].at[w].first);
    else return;
  }
  for (std::size_t r = 0; r < ops.size(); ++r) {
    Operand& op = ops[r];
    if (r == c && names[c] == names[d]) continue;  // C is D's own registers
    if (!op.fits)
      for (int w = 0; w < warps; ++w)
        op.at[w] = r == a   ? std::pair{mn[w].first, std::int64_t{0}}
                   : r == b ? std::pair{mn[w].second, std::int64_t{0}}
                            : mn[w];
    std::optional<TileLayout> grid = warp_grid(op.buf->layout, op.buf->shape, op.tensor->shape, op.at);
    if (!grid) continue;  // B staged from A's tensor: the run says so, if the extents still agree
    std::erase_if(cta.layouts, [&](const LayoutBinding& l) { return l.layout == op.buf->layout; });
    op.buf->layout = std::move(*grid);
    op.buf->shape = op.tensor->shape;
  }
  // The operands' CTA extents agree: D (M, N), A (M, K), B (N, K), C (M, N).
  const Shape& ds = ops[d].buf->shape;
  const Shape& as = ops[a].buf->shape;
  const Shape& bs = ops[b].buf->shape;
  if (as[0] == ds[0] && bs[0] == ds[1] && as[1] == bs[1] && ops[c].buf->shape == ds) program = std::move(cta);
}

// The shared tensors, their fills and the ldmatrix copies into the images'
// registers; each names what it moves by the types the staging needs: a
// fill's tensor has the shared tensor's type, an ldmatrix's registers are a
// register image of 16-bit elements of that type.
void shared_staging(const ReleaseKernel& kernel, Program& program) {
  for (const auto& [name, s] : kernel.shared) {
    const std::optional<DType> t = parse_dtype(s.dtype);
    if (!t || s.shape.size() != 2)
      throw Error(s.loc, "'" + name + "': mmacheck reads shared tensors of two dimensions and a scalar type, got " +
                             tuple_text(s.shape) + " " + s.dtype);
    BufferDecl buf{name, s.shape, *t, MemScope::shared, TileLayout::row_major(s.shape), s.loc, std::nullopt};
    buf.align = 64;  // TVM's default data_alignment, which its CUDA declares (alignas(64))
    program.buffers.push_back(std::move(buf));
  }
  for (const SharedFillStmt& f : kernel.fills) {
    const BufferDecl& s = program.buffer(f.shared, f.loc);
    const BufferDecl& g = program.buffer(f.matrix, f.loc);
    if (g.dtype != s.dtype)
      throw Error(f.loc, "the copy into '" + s.name + "' (" + std::string(dtype_info(s.dtype).tvm) + ") reads '" +
                             g.name + "' (" + std::string(dtype_info(g.dtype).tvm) +
                             "): mmacheck reads copies that keep the type");
    program.fills.push_back(f);
  }
  for (const SharedCopyStmt& c : kernel.copies) {
    const BufferDecl& s = program.buffer(c.shared, c.loc);
    const BufferDecl* reg = program.find_buffer(c.reg);
    if (!reg || reg->scope != MemScope::local || c.reg == program.gemm->d.buffer || (program.gemm->c.buffer == c.reg))
      throw Error(c.loc, c.label() + ": '" + c.reg + "' is not the A or B image of the mma");
    if (reg->dtype != s.dtype)
      throw Error(c.loc, c.label() + " reads '" + s.name + "' (" + std::string(dtype_info(s.dtype).tvm) + ") into '" +
                             reg->name + "' (" + std::string(dtype_info(reg->dtype).tvm) +
                             "): mmacheck reads an ldmatrix between tensors of one 16-bit type");
    program.copies.push_back(c);
  }
}

}  // namespace

std::optional<int> release_dtype_bits(std::string_view tvm_name) {
  for (const auto& [name, bits] : kDTypeBits)
    if (tvm_name == name) return bits;
  return std::nullopt;
}

int mma_shape_k(std::string_view shape) {
  if (shape == "m16n8k16") return 16;
  if (shape == "m16n8k8") return 8;
  return 0;
}

void check_release_image(const ReleaseImage& image) {
  if (image.layout.size() != elements(image.shape))
    throw Error(image.loc, "'" + image.buffer + "': its layout has " + std::to_string(image.layout.size()) +
                               " elements but its shape " + tuple_text(image.shape) + " has " +
                               std::to_string(elements(image.shape)));
  // An image in shared memory is read: TVM's pattern refuses it, and
  // dispatch_release says so in its words ("expected storage scope").
}

void check_release_view(const std::string& name, const Shape& shape, const TileLayout& layout, const SourceLoc& loc) {
  const std::int64_t n = layout.size();
  if (shape.size() != 1 || shape[0] != n || layout != TileLayout(std::vector<Iter>{Iter{n, 1, Axis::m()}}))
    throw Error(loc,
                "'" + name + "': mmacheck reads register views of one dimension with the default layout (S[n : 1])");
}

void append_apply(ReleaseMma& mma, const ReleaseMma& apply) {
  using C = ReleaseMmaStatement::C;
  const std::string first = " (the apply at line " + std::to_string(mma.loc.line) + ")";
  if (mma.lowered) throw Error(apply.loc, "a kernel has T.cuda.tile.apply or its lowered T.ptx.mma, not both");
  if (apply.opcode != mma.opcode)
    throw Error(apply.loc, "this apply runs " + apply.opcode + ", another " + mma.opcode + first +
                               "; mmacheck reads one mma instruction per kernel");
  for (const auto& [role, mine, theirs] :
       {std::tuple{"D", &apply.d, &mma.d}, std::tuple{"A", &apply.a, &mma.a}, std::tuple{"B", &apply.b, &mma.b}})
    if (mine->buffer != theirs->buffer)
      throw Error(apply.loc, std::string(role) + ": this apply reads '" + mine->buffer + "', another '" +
                                 theirs->buffer + "'" + first + "; mmacheck reads every apply over the same images");
  if (mma.statements.empty()) mma.statements.push_back(first_statement(mma));
  ReleaseMmaStatement st = first_statement(apply);
  st.loc = apply.loc;
  if (apply.c && apply.c->buffer == mma.d.buffer && !(mma.c && mma.c->buffer == mma.d.buffer)) {
    st.c = C::accumulate;
  } else if (apply.c) {
    if (mma.c && apply.c->buffer != mma.c->buffer)
      throw Error(apply.loc, "C: this apply reads '" + apply.c->buffer + "', another '" + mma.c->buffer + "'" + first +
                                 "; mmacheck reads one C image per kernel (or a scalar, or D's own registers)");
    if (!mma.c) mma.c = apply.c;
    st.c = C::image;
  } else {
    st.c = C::scalar;
  }
  mma.statements.push_back(std::move(st));
}

Program release_program(const ReleaseKernel& kernel) {
  const ReleaseMma& mma = kernel.mma;
  for (const ReleaseImage* img : {&mma.d, &mma.a, &mma.b, mma.c ? &*mma.c : nullptr})
    if (img) check_release_image(*img);
  const std::vector<std::string> f = fields(mma.opcode);
  const int k = f.size() > 3 ? mma_shape_k(f[3]) : 0;
  const auto ptx_type = [&](std::size_t i, DType fallback) {
    const std::optional<DType> t = f.size() > i ? parse_dtype(f[i]) : std::nullopt;
    return t ? *t : fallback;
  };
  Program program;
  program.file = kernel.file;
  program.release = mma;
  if (program.release->statements.empty()) program.release->statements.push_back(first_statement(mma));
  program.written_order = true;

  // One logical buffer per image (core/program/release_mma.h): the image's
  // layout unpacked to elements, its repeat axes beside the atom's.
  const auto logical = [&](const ReleaseImage& img, DType type, std::int64_t atom_rows, std::int64_t atom_cols) {
    const int pack = std::max(1, img.bits / dtype_bits(type));
    const bool shaped = img.shape.size() == 4 && img.shape[2] == atom_rows && img.shape[3] == atom_cols &&
                        img.bits % dtype_bits(type) == 0;
    BufferDecl buf{img.buffer, {}, type, MemScope::local, TileLayout(std::vector<Iter>{}), img.loc, std::nullopt};
    if (!shaped) {  // the pattern refuses it (dispatch_release); a row-major stand-in
      std::int64_t n = 1;
      for (std::int64_t d : img.shape) n *= d;
      buf.shape = {n / img.shape.back(), img.shape.back()};
      buf.layout = img.layout;
      return buf;
    }
    try {
      const TileLayout unpacked = pack > 1 ? img.layout.unpack(pack) : img.layout;
      Shape s4 = img.shape;
      s4[3] *= pack;
      const int perm[] = {0, 2, 1, 3};
      buf.layout = unpacked.group(s4).permute_by_groups(perm);
      buf.shape = {s4[0] * s4[2], s4[1] * s4[3]};
    } catch (const Error& e) {
      throw Error(img.loc, "'" + img.buffer + "': its layout does not split over the image " + tuple_text(img.shape) +
                               ": " + e.what());
    }
    for (const auto& [name, layout] : kernel.layouts)
      if (layout == img.layout) program.layouts.push_back(LayoutBinding{name, buf.layout, img.loc});
    return buf;
  };
  const DType acc = DType::f32, ta = ptx_type(7, DType::f16), tb = ptx_type(8, DType::f16);
  const std::int64_t kw = k ? k / 2 : 8;
  program.buffers.push_back(logical(mma.d, acc, 16, 8));
  program.buffers.push_back(logical(mma.a, ta, 16, kw));
  program.buffers.push_back(logical(mma.b, tb, 8, kw));
  if (mma.c) program.buffers.push_back(logical(*mma.c, DType::f32, 16, 8));
  for (const auto& [name, g] : kernel.globals)
    if (const std::optional<DType> t = parse_dtype(g.dtype); t && g.shape.size() == 2)
      program.buffers.push_back(
          BufferDecl{name, g.shape, *t, MemScope::global, TileLayout::row_major(g.shape), g.loc, std::nullopt});

  GemmCall call;
  call.d = OperandRef{mma.d.buffer, std::nullopt, mma.loc};
  call.a = OperandRef{mma.a.buffer, std::nullopt, mma.loc};
  call.b = OperandRef{mma.b.buffer, std::nullopt, mma.loc};
  call.c = OperandRef{mma.c ? mma.c->buffer : mma.d.buffer, std::nullopt, mma.loc};
  call.transpose_b = true;  // B's image is N x K
  call.beta = mma.c ? 1.0 : 0.0;
  call.loc = mma.loc;
  program.gemm = call;
  program.scope.loc = mma.loc;
  if (kernel.threads > 32) {  // whole warps, each running the pattern on its own images
    program.scope.kind = ExecScope::Kind::cta;
    program.scope.threads = kernel.threads;
  } else {
    program.scope.lane_hi = kernel.threads - 1;
  }

  // The ldmatrix applies the dispatch checks, in order with the mma's own checks.
  program.release->matrix_copies = kernel.matrix_copies;
  // A kernel TVM's pattern does not lower: its staging is never run (the
  // dispatch declines it in TVM's words), so the views need not fit its types.
  if (!release_pattern_opcode(mma.opcode)) return program;
  for (const ReleaseTransfer& t : kernel.transfers) {
    const auto v = kernel.views.find(t.view);
    if (v == kernel.views.end())
      throw Error(t.loc, "'" + t.view + "' is not a register view (T.decl_tensor) of this kernel");
    if (!t.constant && !kernel.globals.contains(t.global))
      throw Error(t.loc, "'" + t.global + "' is not a tensor parameter of the function");
    const ReleaseView& view = v->second;
    const BufferDecl* buf = program.find_buffer(view.alloc);
    if (!buf) throw Error(t.loc, "'" + t.view + "' views '" + view.alloc + "', which is no operand of the mma");
    // Moves into an image outside the registers: the dispatch declines the
    // kernel (dispatch_release), so they are never run.
    if (buf->scope != MemScope::local) continue;
    const std::string_view want = dtype_info(buf->dtype).tvm;
    if (view.dtype != want || view.size != buf->layout.span(Axis::m()))
      throw Error(view.loc, "'" + t.view + "' views '" + view.alloc + "' as " + std::to_string(view.size) + " " +
                                view.dtype + "; its staging moves the " + std::to_string(buf->layout.span(Axis::m())) +
                                " " + std::string(want) + " elements of each lane");
    if (t.constant && std::bit_cast<std::uint32_t>(*t.constant) != 0 && view.alloc != mma.d.buffer)
      throw Error(t.loc, "'" + t.view + "' views '" + view.alloc + "', not D's accumulators '" + mma.d.buffer +
                             "': mmacheck reads D's registers set to a nonzero constant (C), others set to 0");
    if (t.store) program.stores.push_back(StoreStmt{view.alloc, t.global, t.row, t.col, t.loc, t.slots});
    else program.stages.push_back(StageStmt{view.alloc, t.global, t.row, t.col, t.loc, t.slots, t.constant});
  }
  // The first apply accumulating onto D's own registers, which the kernel
  // only ever sets to constants (`d_r[s] = T.float32(0)`, `T.float32(1.5)`):
  // its gemm is D = A·B + that constant.  (Registers it never sets, or sets
  // from a tensor, are C: the run judges.)
  if (mma.c && mma.c->buffer == mma.d.buffer &&
      std::any_of(program.stages.begin(), program.stages.end(),
                  [&](const StageStmt& s) { return s.buffer == mma.d.buffer; }) &&
      std::none_of(program.stages.begin(), program.stages.end(),
                   [&](const StageStmt& s) { return s.buffer == mma.d.buffer && !s.constant; }))
    program.gemm->beta = 0.0;
  // A gemm without a C tensor: C is the kernel's scalar (0, or the one
  // constant its applies or D's registers name), which the run checks every
  // element of D starts from.
  if (program.gemm->beta == 0.0) program.gemm->c_scalar = kernel_scalar_c(mma, kernel.transfers, kernel.views);
  shared_staging(kernel, program);
  if (kernel.threads > 32) spread_over_warps(program, kernel.threads / 32);
  return program;
}

}  // namespace mmacheck
