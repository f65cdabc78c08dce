#include "sim/check/reference.h"

#include <Eigen/Dense>
#include <climits>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "core/base/error.h"
#include "sim/numerics/element_value.h"
#include "sim/check/error_bound.h"
#include "sim/check/operand_index.h"

namespace mmacheck::sim {

namespace {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The logical operands as values: A (M x K), B transposed (N x K, so an
// element's K run is contiguous in both) and C (M x N; the scalar C, zero or GemmCall::c_scalar, when beta = 0).
struct Operands {
  Mat<long double> a, bt, c;
};

Operands logical_operands(const GemmGeometry& g, const GemmInputs& in) {
  check_holds(in.a, g.a, "A");
  check_holds(in.b, g.b, "B");
  if (g.use_c) check_holds(in.c, g.c, "C");
  Operands ops{Mat<long double>(g.m, g.k), Mat<long double>(g.n, g.k), Mat<long double>::Zero(g.m, g.n)};
  const OperandIndex fa(g.a), fb(g.b), fc(g.c);
  for (std::int64_t i = 0; i < g.m; ++i)
    for (std::int64_t k = 0; k < g.k; ++k) ops.a(i, k) = element_value(g.a.dtype(), in.a.bits[fa(i, k)]);
  for (std::int64_t k = 0; k < g.k; ++k)
    for (std::int64_t j = 0; j < g.n; ++j) ops.bt(j, k) = element_value(g.b.dtype(), in.b.bits[fb(k, j)]);
  if (g.use_c)
    for (std::int64_t i = 0; i < g.m; ++i)
      for (std::int64_t j = 0; j < g.n; ++j) ops.c(i, j) = element_value(g.c.dtype(), in.c.bits[fc(i, j)]);
  else if (g.c_bits != 0)  // a scalar C (GemmCall::c_scalar) in every element
    ops.c.setConstant(element_value(g.d.dtype(), g.c_bits));
  return ops;
}

// Integers: exact in int64, compared after wrapping to 32 bits.  b1 values
// are 0 or 1: AND is the product, XOR is a + b - 2ab.  .satfinite clamps
// each instruction's result, so the sum is clamped after every inst.k slice
// of K, in K order (as the nest chains its mma along K).
Reference integer_reference(const Operands& ops, const MmaInst& inst) {
  const Mat<std::int64_t> a = ops.a.cast<std::int64_t>(), bt = ops.bt.cast<std::int64_t>();
  const std::int64_t k = a.cols();
  Mat<std::int64_t> d = ops.c.cast<std::int64_t>();
  for (std::int64_t k0 = 0; k0 < k; k0 += inst.satfinite ? inst.k : k) {
    const std::int64_t len = inst.satfinite ? inst.k : k;
    const Mat<std::int64_t> as = a.middleCols(k0, len), bs = bt.middleCols(k0, len);
    Mat<std::int64_t> step = as * bs.transpose();
    if (inst.bop == BitOp::xor_popc)
      step = (as.rowwise().sum().replicate(1, bs.rows()) + bs.rowwise().sum().transpose().replicate(as.rows(), 1)) -
             2 * step;
    d += step;
    if (inst.satfinite) d = d.cwiseMax(INT32_MIN).cwiseMin(INT32_MAX);
  }
  Reference ref{d.rows(), d.cols(), {}};
  for (std::int64_t i = 0; i < d.rows(); ++i)
    for (std::int64_t j = 0; j < d.cols(); ++j) ref.elems.push_back({static_cast<long double>(d(i, j)), 0, kFinite});
  return ref;
}

// The model's outcomes for every element of D (M x N, row-major), in T:
// double for every input type but f64 (exact products), long double for
// f64.  The fused family goes a row at a time (row_outcomes: the same
// numbers, vectorised over the columns, NaN and Inf included); the other
// families go element by element.
template <class T>
std::vector<Outcomes> bound_outcomes(const Operands& ops, const Mat<T>& a, const Mat<T>& bt, const BoundModel& model) {
  const std::int64_t m = a.rows(), n = bt.rows();
  const auto k = static_cast<std::size_t>(a.cols());
  const auto exps = [&](const Mat<long double>& x) {
    std::vector<int> e(x.size());
    for (std::int64_t i = 0; i < x.size(); ++i) e[i] = align_exp(model, x.data()[i]);
    return e;
  };
  const std::vector<int> a_exp = exps(ops.a), b_exp = exps(ops.bt);
  std::vector<Outcomes> out(static_cast<std::size_t>(m * n));
  const auto one = [&](std::int64_t i, std::int64_t j) {
    out[static_cast<std::size_t>(i * n + j)] = element_outcomes(model, ElementRun<T>{{a.row(i).data(), k},
                                                                                     {bt.row(j).data(), k},
                                                                                     std::span(a_exp).subspan(i * k, k),
                                                                                     std::span(b_exp).subspan(j * k, k),
                                                                                     static_cast<T>(ops.c(i, j))});
  };
  if constexpr (std::is_same_v<T, double>) {
    if (model.family == BoundModel::Family::fused) {
      const BoundColumns cols(model, {bt.data(), static_cast<std::size_t>(bt.size())}, b_exp, n,
                              static_cast<std::int64_t>(k));
      std::vector<double> c(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < m; ++i) {
        for (std::int64_t j = 0; j < n; ++j) c[j] = static_cast<double>(ops.c(i, j));
        row_outcomes(model, cols, {a.row(i).data(), k}, std::span(a_exp).subspan(i * k, k), c,
                     std::span(out).subspan(static_cast<std::size_t>(i * n), static_cast<std::size_t>(n)));
      }
      return out;
    }
  }
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) one(i, j);
  return out;
}

template <class T>
Reference float_reference(const Operands& ops, const BoundModel& model) {
  const Mat<T> a = ops.a.cast<T>(), bt = ops.bt.cast<T>(), c = ops.c.cast<T>();
  const Mat<T> d = a * bt.transpose() + c;
  const Mat<T> magnitude = a.cwiseAbs() * bt.cwiseAbs().transpose() + c.cwiseAbs();
  const long double terms = static_cast<long double>(a.cols()) + 2;
  const long double u = std::numeric_limits<T>::epsilon() / 2;
  const long double tiny = std::numeric_limits<T>::denorm_min();

  const std::vector<Outcomes> outcomes = bound_outcomes(ops, a, bt, model);
  Reference ref{d.rows(), d.cols(), std::vector<Expectation>(static_cast<std::size_t>(d.size()))};
  for (std::int64_t i = 0; i < d.rows(); ++i)
    for (std::int64_t j = 0; j < d.cols(); ++j) {
      const auto x = static_cast<std::size_t>(i * d.cols() + j);
      const long double own = terms * (u * static_cast<long double>(magnitude(i, j)) * 1.01L + tiny);
      ref.elems[x] = {static_cast<long double>(d(i, j)), (outcomes[x].error + own) * (1 + 0x1p-20L),
                      outcomes[x].classes};
    }
  return ref;
}

}  // namespace

Reference eigen_reference(const GemmGeometry& g, const MmaInst& inst, const ArchParams& arch,
                          const GemmInputs& inputs) {
  if (g.m % inst.m || g.n % inst.n || g.k % inst.k)
    throw Error("M x N x K = " + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " + std::to_string(g.k) +
                " does not tile into " + inst.shape());
  const Operands ops = logical_operands(g, inputs);
  if (!dtype_info(inst.a).is_float) return integer_reference(ops, inst);
  const BoundModel model = bound_model(inst, arch);
  return inst.a == DType::f64 ? float_reference<long double>(ops, model) : float_reference<double>(ops, model);
}

bool accepts(const Expectation& e, DType type, std::uint64_t bits) {
  if (!dtype_info(type).is_float)
    return static_cast<std::uint32_t>(bits) ==
           static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(e.value)));
  const long double v = element_value(type, bits);
  if (std::isnan(v)) return e.classes & kNaN;
  if (std::isinf(v)) return e.classes & (v > 0 ? kPosInf : kNegInf);
  return (e.classes & kFinite) && std::fabs(v - e.value) <= e.bound;
}

}  // namespace mmacheck::sim
