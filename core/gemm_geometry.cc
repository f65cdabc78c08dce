#include "core/gemm_geometry.h"

#include <string>
#include <tuple>

#include "core/error.h"

namespace mmacheck {

namespace {

const GemmCall& gemm_call(const Program& program) {
  if (!program.gemm) throw Error(SourceLoc{program.file, 0, 0}, "the program has no gemm call");
  return *program.gemm;
}

const BufferDecl& matrix_buffer(const Program& program, const OperandRef& ref) {
  const BufferDecl& b = program.buffer(ref.buffer, ref.loc);
  if (b.shape.size() != 2)
    throw Error(ref.loc, "a gemm operand must be a 2-D buffer; '" + b.name + "' has " +
                             std::to_string(b.shape.size()) + " dimensions");
  return b;
}

OperandPlace place(const Program& program, const OperandRef& ref, bool transposed) {
  const BufferDecl& b = matrix_buffer(program, ref);
  OperandPlace p;
  p.buffer_cols = b.shape[1];
  p.dtype = b.dtype;
  p.transposed = transposed;
  std::int64_t rows = b.shape[0], cols = b.shape[1];
  if (ref.region) {
    const Region& r = *ref.region;
    if (r.size() != 2 || r[0].first < 0 || r[0].second > rows || r[0].first >= r[0].second ||
        r[1].first < 0 || r[1].second > cols || r[1].first >= r[1].second)
      throw Error(ref.loc, "the region of '" + b.name + "' is not a non-empty 2-D region inside its " +
                               std::to_string(rows) + " x " + std::to_string(cols) + " buffer");
    p.row0 = r[0].first;
    p.col0 = r[1].first;
    rows = r[0].second - r[0].first;
    cols = r[1].second - r[1].first;
  }
  p.rows = transposed ? cols : rows;
  p.cols = transposed ? rows : cols;
  return p;
}

std::string extent_text(const OperandPlace& p) {
  return std::to_string(p.rows) + " x " + std::to_string(p.cols);
}

}  // namespace

GemmGeometry gemm_geometry(const Program& program) {
  const GemmCall& call = gemm_call(program);
  GemmGeometry g;
  g.a = place(program, call.a, call.transpose_a);
  g.b = place(program, call.b, call.transpose_b);
  g.c = place(program, call.c, false);
  g.d = place(program, call.d, false);
  g.m = g.a.rows;
  g.k = g.a.cols;
  g.n = g.b.cols;
  g.use_c = call.beta == 1.0;
  if (g.b.rows != g.k)
    throw Error(call.b.loc,
                "B is " + extent_text(g.b) + " but A is " + extent_text(g.a) + ": their K differ");
  for (const auto& [p, ref, name] : {std::tuple{&g.c, &call.c, "C"}, std::tuple{&g.d, &call.d, "D"}})
    if (p->rows != g.m || p->cols != g.n)
      throw Error(ref->loc, std::string(name) + " is " + extent_text(*p) +
                                ", not M x N = " + std::to_string(g.m) + " x " + std::to_string(g.n));
  return g;
}

}  // namespace mmacheck
