// TVM main's ldstmatrix copy variant on concrete tables (copy_dispatch.h).
#include "core/gemm/copy_dispatch.h"

#include <optional>

#include "core/base/error.h"
#include "core/gemm/shared_layout.h"
#include "core/gemm/slot_table.h"

namespace mmacheck {

namespace {

using K = IndexExpr::Kind;

// One regrouping that fits: `num` matrices per instruction, plain or .trans,
// rows `row_stride` elements apart.
struct Fit {
  int num = 0;
  bool trans = false;
  std::int64_t row_stride = 0;
};

// The unswizzled S offset of every (lane, slot): off[lane * slots + slot].
struct Tile {
  int slots = 0;
  std::vector<std::int64_t> off;
  std::int64_t at(int lane, int slot) const { return off[lane * slots + slot]; }
};

// Whether matrix (mm, i) of the regrouping by `num` has the plain or .trans
// shape with row stride p; nullopt when neither.
std::optional<Fit> fit_matrix(const Tile& t, int num, int mm, int i) {
  const int s0 = 2 * num * mm + 2 * i;
  const std::int64_t base = t.at(0, s0);
  const auto all = [&](auto expect) {
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 4; ++b)
        for (int j = 0; j < 2; ++j)
          if (t.at(4 * a + b, s0 + j) != base + expect(a, b, j)) return false;
    return true;
  };
  const std::int64_t plain = t.at(4, s0) - base;  // a = 1
  if (plain > 0 && plain % 8 == 0 && all([&](int a, int b, int j) { return a * plain + 2 * b + j; }))
    return Fit{num, false, plain};
  const std::int64_t trans = t.at(0, s0 + 1) - base;  // row 1
  if (trans > 0 && trans % 8 == 0 && all([&](int a, int b, int j) { return a + (2 * b + j) * trans; }))
    return Fit{num, true, trans};
  return std::nullopt;
}

// The whole copy by `num`: every matrix fits alike, every row start is
// 16-byte aligned (TVM: the num and m_outer strides are multiples of 8).
std::optional<Fit> fit_copy(const Tile& t, int num) {
  if (t.slots % (2 * num) != 0) return std::nullopt;
  std::optional<Fit> fit;
  for (int mm = 0; mm < t.slots / (2 * num); ++mm)
    for (int i = 0; i < num; ++i) {
      const std::optional<Fit> f = fit_matrix(t, num, mm, i);
      if (!f || (fit && (f->trans != fit->trans || f->row_stride != fit->row_stride))) return std::nullopt;
      if (t.at(0, 2 * num * mm + 2 * i) % 8 != 0) return std::nullopt;
      fit = f;
    }
  return fit;
}

IndexExpr lit(std::int64_t v) { return IndexExpr::literal(v); }

// An expression over `lane` equal to v[l] for l < v.size() (a power of two):
// bit-linear when it is (runs of bits with doubling weights print as
// `w * (lane // 2^b % 2^n)`), else a sum of lane indicators.
IndexExpr lane_expr(const std::vector<std::int64_t>& v) {
  const IndexExpr lane = IndexExpr::variable(K::lane);
  int bits = 0;
  while ((std::size_t{1} << bits) < v.size()) ++bits;
  std::vector<std::int64_t> w(bits);
  for (int b = 0; b < bits; ++b) w[b] = v[std::size_t{1} << b] - v[0];
  bool linear = true;
  for (std::size_t l = 0; l < v.size(); ++l) {
    std::int64_t x = v[0];
    for (int b = 0; b < bits; ++b) x += ((l >> b) & 1) * w[b];
    linear = linear && x == v[l];
  }
  IndexExpr e = lit(v[0]);
  bool empty = v[0] == 0;
  const auto add = [&](const IndexExpr& term) {
    e = empty ? term : IndexExpr::binary(K::add, e, term);
    empty = false;
  };
  if (linear) {
    for (int b = 0; b < bits;) {
      if (w[b] == 0) {
        ++b;
        continue;
      }
      int n = 1;
      while (b + n < bits && w[b + n] == w[b] * (std::int64_t{1} << n)) ++n;
      IndexExpr x = b == 0 ? lane : IndexExpr::binary(K::floordiv, lane, lit(std::int64_t{1} << b));
      if (b + n < bits) x = IndexExpr::binary(K::floormod, x, lit(std::int64_t{1} << n));
      add(w[b] == 1 ? x : IndexExpr::binary(K::mul, lit(w[b]), x));
      b += n;
    }
  } else {
    // [lane >= l] = (lane - l + 32) // 32 on lanes 0..31.
    const auto at_least = [&](std::int64_t l) {
      return IndexExpr::binary(K::floordiv, IndexExpr::binary(K::add, lane, lit(32 - l)), lit(32));
    };
    for (std::size_t l = 1; l < v.size(); ++l)
      if (v[l] != v[l - 1])
        add(IndexExpr::binary(K::mul, lit(v[l] - v[l - 1]), at_least(static_cast<std::int64_t>(l))));
  }
  return e;
}

}  // namespace

std::vector<SharedCopyStmt> dispatch_copy(const Program& program, const TileCopyStmt& copy, int slots) {
  const std::string what = copy.label() + ": ldstmatrix: ";
  if (program.scope.kind != ExecScope::Kind::warp || !program.scope.full_warp())
    throw Error(copy.loc, what + "needs `scope warp` with all 32 lanes active");
  const BufferDecl& reg = program.buffer(copy.reg, copy.loc);
  const BufferDecl& shared = program.buffer(copy.shared, copy.loc);
  if (dtype_info(reg.dtype).bits != 16)
    throw Error(copy.loc, what + "ldmatrix/stmatrix .b16 moves 16-bit elements; '" + reg.name + "' holds " +
                              std::string(dtype_info(reg.dtype).tvm));
  const SharedLayout s = shared_layout(shared, std::nullopt);
  if (!s.swizzle.identity() && s.swizzle.base < 3)
    throw Error(copy.loc, what + "swizzle per_element=" + std::to_string(s.swizzle.base) +
                              " < 3 incompatible with .b16 ldmatrix/stmatrix (need 8-fp16 chunk integrity)");
  const SlotTable r = slots_from_layout(reg, slots, 32, SlotUse::load);
  Tile t{slots, std::vector<std::int64_t>(r.index.size())};
  std::vector<bool> seen(r.elements());
  for (std::size_t k = 0; k < r.index.size(); ++k) {
    const std::int32_t e = r.index[k];
    if (e < 0)
      throw Error(copy.loc, what + "'" + reg.name + "' leaves lane " + std::to_string(k / slots) + " slot " +
                                std::to_string(k % slots) + " empty; ldstmatrix moves whole fragments");
    if (seen[e]) throw Error(copy.loc, what + "R layout has a replica; ldstmatrix requires no replica");
    seen[e] = true;
    const std::int64_t row = e / r.cols, col = e % r.cols;
    t.off[k] = s.unswizzled[copy.transposed ? s.flat(col, row) : s.flat(row, col)];
  }
  std::optional<Fit> fit;
  for (int num : {4, 2, 1})
    if ((fit = fit_copy(t, num))) break;
  if (!fit)
    throw Error(copy.loc, what +
                              "ldstmatrix layout doesn't fit any num in {4,2,1} (each 8 x 8 matrix needs rows of "
                              "8 contiguous elements, or columns for .trans, 16-byte aligned)");

  std::vector<SharedCopyStmt> out;
  const int lanes = 8 * fit->num;
  for (int mm = 0; mm < slots / (2 * fit->num); ++mm) {
    SharedCopyStmt c;
    c.op = copy.store ? SharedOp::stmatrix : SharedOp::ldmatrix;
    c.num = fit->num;
    c.trans = fit->trans;
    c.reg = reg.name;
    c.shared = shared.name;
    c.first_slot = 2 * fit->num * mm;
    c.loc = copy.loc;
    // Lane l gives row k = l % 8 of matrix l / 8: the element that (lane,
    // slot) holds at unit 0 of that row.
    std::vector<std::int64_t> rows(lanes), cols(lanes);
    for (int l = 0; l < lanes; ++l) {
      const int k = l % 8, slot = c.first_slot + 2 * (l / 8);
      const std::int32_t e = fit->trans ? r.at(k / 2, slot + k % 2) : r.at(4 * k, slot);
      const std::int64_t row = e / r.cols, col = e % r.cols;
      rows[l] = copy.transposed ? col : row;
      cols[l] = copy.transposed ? row : col;
    }
    c.row = lane_expr(rows);
    c.col = lane_expr(cols);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace mmacheck
