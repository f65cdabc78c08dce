// The exhaustive method: every point of every check, in the order of
// core/prove/witness.h, evaluated with the concrete predicates of
// core/prove/checks.h.
#include <map>

#include "core/prove/checks.h"
#include "core/prove/engines.h"

namespace mmacheck::prove_detail {

namespace {

Outcome refuted(Witness w) { return {CheckResult::refuted, w, {}}; }
const Outcome kProved{CheckResult::proved, std::nullopt, {}};

Outcome frames(const ProofSetup& setup, GemmOperand op) {
  const int elems = setup.frame(op).elems();
  for (int q = 0; q < static_cast<int>(setup.mmas.size()); ++q)
    for (int w = 0; w < setup.warps; ++w)
      for (int l = 0; l < 32; ++l)
        for (int e = 0; e < elems; ++e)
          if (!frame_point(setup, op, q, w, l, e).holds) return refuted(FrameWitness{q, w, l, e});
  return kProved;
}

Outcome fragment(const ProofSetup& setup, GemmOperand op) {
  const OperandPlace& v = setup.view(op);
  const Storage& st = setup.storage(op);
  const std::int64_t n = v.rows() * v.cols();
  const auto owners = [&](std::int64_t x) -> const std::vector<Key>& {
    return st.owners(st.flat(v.to_buffer(x / v.cols(), x % v.cols())));
  };
  for (std::int64_t x = 0; x < n; ++x)
    for (const Key& o : owners(x))
      if (!placement(setup, st, o).inside) return refuted(FragmentWitness{false, x, 0});
  std::map<Key, std::int64_t> first;  // owner -> lowest element placed there
  for (std::int64_t y = 0; y < n; ++y) {
    std::optional<std::int64_t> x;
    for (const Key& o : owners(y))
      if (const auto it = first.find(o); it != first.end() && (!x || it->second < *x)) x = it->second;
    if (x) return refuted(FragmentWitness{true, *x, y});
    for (const Key& o : owners(y)) first.emplace(o, y);
  }
  return kProved;
}

Outcome accumulation(const ProofSetup& setup) {
  const OperandPlace& d = setup.view(GemmOperand::D);
  const std::int64_t K = setup.view(GemmOperand::A).cols();
  // The lowest lane of `w` holding D[i][j], if any.  D has one owner (no
  // replicas); when it names its lane (laneid, tx), only that lane need be asked.
  const Storage& st = setup.storage(GemmOperand::D);
  const bool lane_named = st.axis_index(Axis::laneid()) >= 0 || st.axis_index(Axis::tx()) >= 0;
  const auto holder = [&](int w, std::int64_t i, std::int64_t j) -> std::optional<int> {
    if (!lane_named) {
      for (int l = 0; l < 32; ++l)
        if (d_slot(setup, w, l, i, j)) return l;
      return std::nullopt;
    }
    const Placement p = placement(setup, st, st.owners(st.flat(d.to_buffer(i, j))).front());
    if (p.lane < 0 || p.lane >= 32 || !d_slot(setup, w, p.lane, i, j)) return std::nullopt;
    return p.lane;
  };
  for (int w = 0; w < setup.warps; ++w) {
    // Products formed per D element and k, tile by tile.
    std::vector<int> count(static_cast<std::size_t>(d.rows() * d.cols() * K), 0);
    for (const MmaRef& ref : setup.mmas) {
      const Origin& o = ref.origin[w];
      if (!o.m0 || !o.n0 || !o.k0) continue;
      for (std::int64_t i = std::max<std::int64_t>(*o.m0, 0); i < std::min(*o.m0 + setup.inst.m, d.rows()); ++i)
        for (std::int64_t j = std::max<std::int64_t>(*o.n0, 0); j < std::min(*o.n0 + setup.inst.n, d.cols()); ++j)
          for (std::int64_t k = std::max<std::int64_t>(*o.k0, 0); k < std::min(*o.k0 + setup.inst.k, K); ++k)
            ++count[(i * d.cols() + j) * K + k];
    }
    for (std::int64_t i = 0; i < d.rows(); ++i)
      for (std::int64_t j = 0; j < d.cols(); ++j) {
        const auto l = holder(w, i, j);
        if (!l) continue;
        for (std::int64_t k = 0; k < K; ++k)
          if (count[(i * d.cols() + j) * K + k] != 1) return refuted(AccumulationWitness{false, w, *l, i, j, k});
      }
  }
  for (int w = 0; w < setup.warps; ++w)
    for (std::int64_t i = 0; i < d.rows(); ++i)
      for (std::int64_t j = 0; j < d.cols(); ++j)
        for (int l = lane_named ? holder(w, i, j).value_or(32) : 0; l < 32; l = lane_named ? 32 : l + 1)
          if (const auto s = d_slot(setup, w, l, i, j);
              s && init_verdict(setup, w, l, i, j, *s).fault != InitFault::none)
            return refuted(AccumulationWitness{true, w, l, i, j, 0});
  return kProved;
}

Outcome staging(const ProofSetup& setup, const StagingRef& s) {
  const std::int64_t span = setup.storage(s.buffer).span();
  for (int w = 0; w < setup.warps; ++w)
    for (int l = 0; l < 32; ++l)
      for (std::int64_t slot = 0; slot < span; ++slot)
        if (!staging_ok(setup, s, w, l, slot)) return refuted(StagingWitness{w, l, slot});
  return kProved;
}

}  // namespace

Outcome check_exhaustive(const ProofSetup& setup, const CheckSpec& check) {
  switch (check.id.kind) {
    case CheckKind::frame: return frames(setup, check.operand);
    case CheckKind::fragment: return fragment(setup, check.operand);
    case CheckKind::accumulation: return accumulation(setup);
    case CheckKind::stage:
    case CheckKind::store: return staging(setup, setup.staging[check.staging]);
    default: break;  // the shared-memory kinds are no CheckSpec
  }
  return {};
}

}  // namespace mmacheck::prove_detail
