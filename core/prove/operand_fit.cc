// operand_fit(): the properties of core/prove/diagnosis.h, checked on one
// operand's layout by evaluating it, in their order.
#include <algorithm>
#include <map>
#include <tuple>

#include "core/base/checked.h"
#include "core/prove/diagnosis.h"

namespace mmacheck::prove_detail {

namespace {

std::string el(const std::string& name, std::int64_t i, std::int64_t j) {
  return name + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
}

// Where one owner puts an element: thread, slot, and a memory axis other
// than m that it names with a nonzero coordinate.
struct Place {
  std::int64_t warp = 0, lane = 0, slot = 0;
  std::optional<std::pair<Axis, std::int64_t>> other;
};

Place decode(const Storage& st, const Key& key) {
  Place p;
  for (std::size_t a = 0; a < st.axes().size(); ++a) {
    const Axis& axis = st.axes()[a];
    const std::int64_t v = key[a];
    if (axis == Axis::laneid()) p.lane = v;
    else if (axis == Axis::warpid()) p.warp = v;
    else if (axis == Axis::tx()) {
      p.warp = floor_div(v, 32);
      p.lane = v - 32 * p.warp;
    } else if (axis == Axis::m()) p.slot = v;
    else if (axis.is_memory() && v != 0 && !p.other) p.other = std::pair{axis, v};
  }
  return p;
}

int clamp_int(std::int64_t v) { return static_cast<int>(std::clamp<std::int64_t>(v, -(1 << 30), 1 << 30)); }

class Fit {
 public:
  Fit(const Program& program, const OperandPlace& view, GemmOperand op, const MmaInst& inst)
      : view_(view),
        st_(program.buffer(view.buffer(), {})),
        op_(op),
        inst_(inst),
        name_(gemm_operand_name(op)),
        warps_(program.scope.warps()) {}

  std::optional<Finding> run() {
    if (auto f = replica()) return f;
    if (auto f = lanes()) return f;
    if (auto f = span()) return f;
    if (auto f = injective()) return f;
    if (auto f = coverage()) return f;
    return frame();
  }

 private:
  const OperandPlace& view_;
  Storage st_;
  GemmOperand op_;
  const MmaInst& inst_;
  std::string name_;
  int warps_;

  std::int64_t flat(std::int64_t i, std::int64_t j) const { return st_.flat(view_.to_buffer(i, j)); }
  Place place(std::int64_t i, std::int64_t j) const { return decode(st_, st_.owners(flat(i, j)).front()); }
  std::string where(std::int64_t warp, std::int64_t lane, std::int64_t slot) const {
    return (warps_ > 1 ? "warp " + std::to_string(warp) + ", " : "") + "lane " + std::to_string(lane) + ", slot " +
           std::to_string(slot);
  }
  // What (warp, lane, slot) holds, in the operand's coordinates.
  std::pair<std::optional<Element>, std::string> held(std::int64_t warp, std::int64_t lane, std::int64_t slot) const {
    const auto f = st_.held({clamp_int(warp), clamp_int(lane)}, slot);
    if (!f) return {std::nullopt, "nothing"};
    const auto logical = view_.from_buffer(st_.coord(*f));
    if (!logical) return {std::nullopt, st_.buffer().name + " element outside the gemm's region"};
    return {*logical, el(name_, (*logical)[0], (*logical)[1])};
  }
  Finding finding(DiagnosisProperty property, std::int64_t warp, std::int64_t lane, std::int64_t slot,
                  std::optional<Element> expected, std::optional<Element> actual, std::string message) const {
    Counterexample cx;
    cx.check = {CheckKind::diagnosis, ""};
    cx.operand = name_;
    if (warps_ > 1) cx.warp = clamp_int(warp);
    cx.lane = clamp_int(lane);
    cx.slot = slot;
    cx.expected = std::move(expected);
    cx.actual = std::move(actual);
    cx.message = std::move(message);
    return {property, std::move(cx)};
  }

  // TVM's no_replica: an element in several places has no one register.
  std::optional<Finding> replica() const {
    const TileLayout& layout = st_.buffer().layout;
    if (layout.replica().empty()) return std::nullopt;
    const std::vector<Key>& owners = st_.owners(flat(0, 0));
    const Place a = decode(st_, owners.front()), b = decode(st_, owners.back());
    const std::string r = layout.str().substr(layout.str().find("R["));
    const auto at = [](const Place& p) {
      return "warp " + std::to_string(p.warp) + ", lane " + std::to_string(p.lane) + ", slot " + std::to_string(p.slot);
    };
    return finding(DiagnosisProperty::replica, b.warp, b.lane, b.slot, std::nullopt, Element{0, 0},
                   el(name_, 0, 0) + " is placed at " + at(a) + " and at " + at(b) + " (replica " +
                       r.substr(0, r.find(']') + 1) + "); an mma operand keeps each element in one (lane, slot)");
  }

  std::optional<Finding> lanes() const {
    std::optional<Finding> first;
    std::int64_t max_lane = 31, first_warp = 0;
    for (std::int64_t i = 0; i < view_.rows(); ++i)
      for (std::int64_t j = 0; j < view_.cols(); ++j)
        for (const Key& key : st_.owners(flat(i, j))) {
          const Place p = decode(st_, key);
          max_lane = std::max(max_lane, p.lane);
          if (first || (p.lane >= 0 && p.lane < 32 && p.warp >= 0 && p.warp < warps_)) continue;
          first = finding(DiagnosisProperty::lane_range, p.warp, p.lane, p.slot, std::nullopt, Element{i, j}, "");
          first_warp = p.warp;
          first->cx.message = el(name_, i, j) + " is placed at " + where(p.warp, p.lane, p.slot);
        }
    if (!first) return first;
    const Counterexample& cx = first->cx;
    const TileLayout& layout = st_.buffer().layout;
    std::string why;
    if (cx.lane < 0) why = "lane " + std::to_string(cx.lane) + " does not exist";
    else if (cx.lane >= 32 && st_.axis_index(Axis::laneid()) >= 0)
      why = "lanes 32.." + std::to_string(max_lane) + " do not exist (laneid span " +
            std::to_string(layout.span(Axis::laneid())) + " > 32)";
    else if (cx.lane >= 32) why = "lanes 32.." + std::to_string(max_lane) + " do not exist";
    else
      why = "warp " + std::to_string(first_warp) + " does not exist (the scope has " + std::to_string(warps_) +
            " warp" + (warps_ > 1 ? "s" : "") + ")";
    first->cx.message = why + ": " + cx.message;
    return first;
  }

  std::optional<Finding> span() const {
    for (std::int64_t i = 0; i < view_.rows(); ++i)
      for (std::int64_t j = 0; j < view_.cols(); ++j) {
        const Place p = place(i, j);
        if (p.slot < 0)
          return finding(DiagnosisProperty::register_span, p.warp, p.lane, p.slot, std::nullopt, Element{i, j},
                         el(name_, i, j) + " is placed at " + where(p.warp, p.lane, p.slot) +
                             "; register slots start at 0");
        if (p.other)
          return finding(DiagnosisProperty::register_span, p.warp, p.lane, p.slot, std::nullopt, Element{i, j},
                         el(name_, i, j) + " is placed on memory axis " + p.other->first.name() + " = " +
                             std::to_string(p.other->second) + "; registers have only the slot axis m");
      }
    return std::nullopt;
  }

  std::optional<Finding> injective() const {
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Element> first;
    for (std::int64_t i = 0; i < view_.rows(); ++i)
      for (std::int64_t j = 0; j < view_.cols(); ++j) {
        const Place p = place(i, j);
        const auto [it, fresh] = first.emplace(std::tuple{p.warp, p.lane, p.slot}, Element{i, j});
        if (fresh) continue;
        const Element& x = it->second;
        return finding(DiagnosisProperty::injectivity, p.warp, p.lane, p.slot, x, Element{i, j},
                       where(p.warp, p.lane, p.slot) + " holds both " + el(name_, x[0], x[1]) + " and " +
                           el(name_, i, j));
      }
    return std::nullopt;
  }

  std::optional<Finding> coverage() const {
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> count;
    std::map<std::int64_t, bool> warps;
    for (std::int64_t i = 0; i < view_.rows(); ++i)
      for (std::int64_t j = 0; j < view_.cols(); ++j) {
        const Place p = place(i, j);
        ++count[{p.warp, p.lane}];
        warps[p.warp] = true;
      }
    const std::int64_t total = view_.rows() * view_.cols();
    const std::int64_t threads = 32 * static_cast<std::int64_t>(warps.size());
    const std::int64_t need = total / threads;
    for (const auto& [w, used] : warps)
      for (std::int64_t l = 0; l < 32; ++l) {
        const auto it = count.find({w, l});
        const std::int64_t has = it == count.end() ? 0 : it->second;
        if (has == need && total % threads == 0) continue;
        // The slot to show: the lowest one below `need` the lane leaves
        // empty, else (a lane holding too many) the lowest one past it.
        std::int64_t slot = 0;
        while (slot < need && held(w, l, slot).first) ++slot;
        if (slot == need)
          while (!held(w, l, slot).first) ++slot;
        return finding(DiagnosisProperty::coverage, w, l, slot, std::nullopt, held(w, l, slot).first,
                       (warps_ > 1 ? "warp " + std::to_string(w) + ", " : "") + "lane " + std::to_string(l) +
                           " holds " + std::to_string(has) + " of " + name_ + "'s " + std::to_string(total) +
                           " elements; each of the " + std::to_string(threads) + " lanes holding " + name_ +
                           " must hold " + std::to_string(need));
      }
    return std::nullopt;
  }

  std::optional<Finding> frame() const {
    const Frame& f = inst_.frame(op_ == GemmOperand::A ? Operand::A : op_ == GemmOperand::B ? Operand::B : Operand::C);
    const int pack = op_ == GemmOperand::A || op_ == GemmOperand::B ? inst_.k_pack : inst_.n_regs();
    const int per = f.per_reg();
    const std::string frame_name = "the " + std::string(f.shape) + " frame";
    const int elems = f.elems();
    for (std::int64_t ti = 0; ti < view_.rows() / f.rows; ++ti)
      for (std::int64_t tj = 0; tj < view_.cols() / f.cols; ++tj) {
        const auto x = [&](int lane, int e) {
          return Element{ti * f.rows + f.row.at(lane, e), tj * f.cols + f.col.at(lane, e)};
        };
        const std::string tile = "tile (" + std::to_string(ti) + ", " + std::to_string(tj) + ")";
        const std::int64_t w = place(x(0, 0)[0], x(0, 0)[1]).warp;
        std::vector<std::int64_t> sigma(static_cast<std::size_t>(elems));
        for (int e = 0; e < elems; ++e) {
          const Element xe = x(0, e);
          const Place p = place(xe[0], xe[1]);
          sigma[e] = p.slot;
          if (p.warp == w && p.lane == 0) continue;
          const auto [h, text] = held(w, 0, p.slot);
          return finding(DiagnosisProperty::frame, w, 0, p.slot, xe, h,
                         where(w, 0, p.slot) + " holds " + text + "; " + frame_name + " gives lane 0 " +
                             el(name_, xe[0], xe[1]) + " (element " + std::to_string(e) + " of " + tile +
                             "), which the layout places at " + where(p.warp, p.lane, p.slot));
        }
        for (int e = 0; e < elems; ++e) {
          const Element xe = x(0, e);
          const int within = e % pack;
          if (within == 0) {
            if (sigma[e] % per == 0) continue;
            return finding(DiagnosisProperty::frame, w, 0, sigma[e], xe, xe,
                           where(w, 0, sigma[e]) + " holds " + el(name_, xe[0], xe[1]) + ", element " +
                               std::to_string(e) + " of " + frame_name +
                               ", which must start a register (a slot divisible by " + std::to_string(per) + ")");
          }
          const std::int64_t want = sigma[e - within] + within;
          if (sigma[e] == want) continue;
          const auto [h, text] = held(w, 0, want);
          return finding(DiagnosisProperty::frame, w, 0, want, xe, h,
                         where(w, 0, want) + " holds " + text + "; " + frame_name + " puts " + el(name_, xe[0], xe[1]) +
                             " there");
        }
        for (int l = 1; l < 32; ++l)
          for (int e = 0; e < elems; ++e) {
            const Element xe = x(l, e);
            if (st_.places(flat(xe[0], xe[1]), {clamp_int(w), l}, sigma[e])) continue;
            const auto [h, text] = held(w, l, sigma[e]);
            return finding(DiagnosisProperty::frame, w, l, sigma[e], xe, h,
                           where(w, l, sigma[e]) + " holds " + text + "; " + frame_name + " puts " +
                               el(name_, xe[0], xe[1]) + " there");
          }
      }
    return std::nullopt;
  }
};

}  // namespace

std::optional<Finding> operand_fit(const Program& program, const GemmGeometry& geometry, GemmOperand op,
                                   const MmaInst& inst) {
  const OperandPlace& view = op == GemmOperand::A   ? geometry.a
                             : op == GemmOperand::B ? geometry.b
                             : op == GemmOperand::C ? geometry.c
                                                    : geometry.d;
  return Fit(program, view, op, inst).run();
}

}  // namespace mmacheck::prove_detail
