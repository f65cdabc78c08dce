#include "core/gemm/geometry.h"

#include <string>
#include <tuple>
#include <vector>

#include "core/base/error.h"

namespace mmacheck {

OperandPlace::OperandPlace(const Program& program, const OperandRef& ref, bool transposed) : buffer_(ref.buffer) {
  const BufferDecl& b = program.buffer(ref.buffer, ref.loc);
  dtype_ = b.dtype;
  buffer_shape_ = b.shape;
  if (ref.region && ref.region->size() != b.shape.size())
    throw Error(ref.loc, "the region of '" + b.name + "' has " + std::to_string(ref.region->size()) +
                             " dimensions, the buffer " + std::to_string(b.shape.size()));
  std::vector<int> long_dims;
  for (std::size_t d = 0; d < b.shape.size(); ++d) {
    const auto [begin, end] = ref.region ? (*ref.region)[d] : std::pair<std::int64_t, std::int64_t>{0, b.shape[d]};
    if (begin < 0 || end > b.shape[d] || begin >= end)
      throw Error(ref.loc,
                  "the region of '" + b.name + "' is empty or leaves the buffer in dimension " + std::to_string(d));
    origin_.push_back(begin);
    extent_.push_back(end - begin);
    if (end - begin != 1) long_dims.push_back(static_cast<int>(d));
  }
  if (long_dims.size() != 2)
    throw Error(ref.loc, "gemm operand '" + b.name + "' is not 2-D: " + std::to_string(long_dims.size()) +
                             " of its region's dimensions are longer than 1");
  row_dim_ = long_dims[transposed ? 1 : 0];
  col_dim_ = long_dims[transposed ? 0 : 1];
  rows_ = extent_[static_cast<std::size_t>(row_dim_)];
  cols_ = extent_[static_cast<std::size_t>(col_dim_)];
}

OperandPlace OperandPlace::whole(std::int64_t rows, std::int64_t cols, DType dtype) {
  OperandPlace p;
  p.dtype_ = dtype;
  p.buffer_shape_ = p.extent_ = {rows, cols};
  p.origin_ = {0, 0};
  p.rows_ = rows;
  p.cols_ = cols;
  return p;
}

Shape OperandPlace::to_buffer(std::int64_t i, std::int64_t j) const {
  Shape c = origin_;
  c[static_cast<std::size_t>(row_dim_)] += i;
  c[static_cast<std::size_t>(col_dim_)] += j;
  return c;
}

std::int64_t OperandPlace::at(std::int64_t i, std::int64_t j) const {
  const Shape c = to_buffer(i, j);
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < c.size(); ++d) flat = flat * buffer_shape_[d] + c[d];
  return flat;
}

std::optional<Shape> OperandPlace::from_buffer(std::span<const std::int64_t> coord) const {
  for (std::size_t d = 0; d < coord.size(); ++d)
    if (coord[d] < origin_[d] || coord[d] >= origin_[d] + extent_[d]) return std::nullopt;
  const auto r = static_cast<std::size_t>(row_dim_), c = static_cast<std::size_t>(col_dim_);
  return Shape{coord[r] - origin_[r], coord[c] - origin_[c]};
}

namespace {
std::string extent_text(const OperandPlace& p) { return std::to_string(p.rows()) + " x " + std::to_string(p.cols()); }
}  // namespace

GemmGeometry gemm_geometry(const Program& program) {
  (void)program.gemm_call();
  const GemmCall& call = *program.gemm;
  GemmGeometry g{0,
                 0,
                 0,
                 OperandPlace(program, call.a, call.transpose_a),
                 OperandPlace(program, call.b, call.transpose_b),
                 OperandPlace(program, call.c, false),
                 OperandPlace(program, call.d, false),
                 call.beta == 1.0};
  if (!g.use_c) {
    try {
      g.c_bits = scalar_bits(call.c_scalar, g.d.dtype());
    } catch (const Error& e) {
      throw e.located(call.loc);
    }
  }
  g.m = g.a.rows();
  g.k = g.a.cols();
  g.n = g.b.cols();
  if (g.b.rows() != g.k)
    throw Error(call.b.loc, "B is " + extent_text(g.b) + " but A is " + extent_text(g.a) + ": their K differ");
  for (const auto& [p, ref, name] : {std::tuple{&g.c, &call.c, "C"}, std::tuple{&g.d, &call.d, "D"}})
    if (p->rows() != g.m || p->cols() != g.n)
      throw Error(ref->loc, std::string(name) + " is " + extent_text(*p) + ", not M x N = " + std::to_string(g.m) +
                                " x " + std::to_string(g.n));
  return g;
}

}  // namespace mmacheck
