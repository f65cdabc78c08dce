// search_fix(): the candidates of core/prove/fix_search.h, in order.
#include "core/prove/fix_search.h"

#include <algorithm>
#include <set>

#include "core/base/checked.h"
#include "core/gemm/dispatch.h"
#include "core/prove/diagnosis.h"
#include "core/prove/prove.h"

namespace mmacheck::prove_detail {

namespace {

struct Candidate {
  TileLayout layout;
  std::string text;  // empty: user_layout_text(layout)
  std::string reason;
};

std::string kind(const Axis& axis) {
  if (axis == Axis::m()) return "register";
  if (axis == Axis::laneid()) return "lane";
  if (axis == Axis::warpid()) return "warp";
  if (axis.is_thread()) return "thread";
  return axis.name();
}

std::string stride_text(std::int64_t stride, const Axis& axis) {
  return std::to_string(stride) + (axis == Axis::m() ? "" : " @ " + axis.name());
}

std::string iter_text(const Iter& it) {
  return "(" + std::to_string(it.extent) + " : " + stride_text(it.stride, it.axis) + ")";
}

std::vector<Candidate> candidates(const TileLayout& layout, const BufferDecl& buffer, const std::string& name,
                                  const std::function<std::string(int)>& role) {
  const std::vector<Iter>& shard = layout.shard();
  const int n = static_cast<int>(shard.size());
  // "kHi (2 : 4)" where the iter's role is known, else "(2 : 4)".
  const auto iter_name = [&](int i) {
    const std::string r = role ? role(i) : "";
    return (r.empty() ? "" : r + " ") + iter_text(shard[i]);
  };
  std::vector<Candidate> out;
  const auto add = [&](std::vector<Iter> iters, Offset offset, std::string reason, std::string text = {}) {
    try {
      out.push_back(
          {TileLayout(std::move(iters), layout.replica(), std::move(offset)), std::move(text), std::move(reason)});
    } catch (const Error&) {
    }
  };
  const auto same_kind = [&](const Axis& axis) {
    return std::count_if(shard.begin(), shard.end(), [&](const Iter& it) { return kind(it.axis) == kind(axis); });
  };
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const Iter &a = shard[i], &b = shard[j];
      if (a.stride != b.stride || a.axis != b.axis) {
        std::vector<Iter> s = shard;
        std::swap(s[i].stride, s[j].stride);
        std::swap(s[i].axis, s[j].axis);
        std::string reason = kind(a.axis) == kind(b.axis) && same_kind(a.axis) == 2
                                 ? "the two " + kind(a.axis) + " iters were swapped"
                                 : "the strides of " + iter_name(i) + " and " + iter_name(j) + " were swapped";
        add(std::move(s), layout.offset(), std::move(reason));
      }
    }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (shard[i].extent == shard[j].extent) continue;
      std::vector<Iter> s = shard;
      std::swap(s[i], s[j]);
      add(s, layout.offset(), "the iters " + iter_name(i) + " and " + iter_name(j) + " were in the wrong order");
      s = shard;
      std::swap(s[i].extent, s[j].extent);
      add(std::move(s), layout.offset(), "the extents of " + iter_name(i) + " and " + iter_name(j) + " were swapped");
    }
  if (!layout.replica().empty()) {
    try {
      out.push_back({TileLayout(shard, {}, layout.offset()), "", "the replica was not meant"});
    } catch (const Error&) {
    }
  }
  for (const auto& [axis, value] : layout.offset()) {
    if (value == 0) continue;
    Offset o = layout.offset();
    o.erase(axis);
    add(shard, std::move(o), "the offset + " + stride_text(value, axis) + " was not meant");
  }
  if (buffer.shape.size() == 2) {
    const Shape transposed{buffer.shape[1], buffer.shape[0]};
    try {
      const TileLayout t = layout.group(transposed).permute_by_groups(std::vector<int>{1, 0});
      const std::string shape = "[" + std::to_string(transposed[0]) + ", " + std::to_string(transposed[1]) + "]";
      const std::string base = name.empty() ? user_layout_text(layout) : name;
      out.push_back({t, base + ".group(" + shape + ").permute_by_groups([1, 0])",
                     "the layout is written for the " + std::to_string(transposed[0]) + " x " +
                         std::to_string(transposed[1]) + " transpose of " + buffer.name +
                         "; the transpose was missing"});
    } catch (const Error&) {
    }
  }
  std::set<std::int64_t> strides{1, 2, 4, 8, 16, 32, 64, 128};
  for (const Iter& it : shard) strides.insert(it.stride);
  for (int i = 0; i < n; ++i) {
    std::vector<Axis> axes{shard[i].axis};
    for (const Axis& a : {Axis::m(), Axis::laneid()})
      if (std::find(axes.begin(), axes.end(), a) == axes.end()) axes.push_back(a);
    for (const Axis& axis : axes)
      for (std::int64_t stride : strides) {
        if (stride == shard[i].stride && axis == shard[i].axis) continue;
        std::vector<Iter> s = shard;
        s[i].stride = stride;
        s[i].axis = axis;
        add(std::move(s), layout.offset(),
            "a stride typo: " + iter_name(i) + " should be " + iter_text(Iter{shard[i].extent, stride, axis}));
      }
  }
  return out;
}

// The (thread, slot) points a layout's spans allow: at least its size when
// it is injective, exactly its size when it is also tight.  Saturates at
// INT64_MAX (a stride of 10^18 is a mistake the search may be asked to fix).
std::int64_t room(const TileLayout& layout) {
  std::int64_t r = 1;
  // layout.span throws where one axis's span alone leaves int64.
  for (const Axis& a : {Axis::laneid(), Axis::warpid(), Axis::tx(), Axis::m()})
    r = try_mul(r, std::max<std::int64_t>(1, layout.span(a))).value_or(INT64_MAX);
  return r;
}

// How much looser than tight a candidate fix may be, per element it places:
// a register layout's padding (a replica, an unused slot) is a small factor.
constexpr std::int64_t kRoomPerElement = 64;

// The name the file bound the buffer's layout to, if any.
std::string binding_name(const Program& program, const BufferDecl& buffer) {
  for (const LayoutBinding& b : program.layouts)
    if (b.layout == buffer.layout) return b.name;
  return {};
}

}  // namespace

Program with_layout(const Program& program, const std::string& buffer, const TileLayout& layout) {
  Program p = program;
  for (BufferDecl& b : p.buffers)
    if (b.name == buffer) b.layout = layout;
  return p;
}

bool proves(const Program& program, InstSet set, bool with_staging) {
  try {
    const Plan plan = dispatch(program, set);
    if (!plan.ok) return false;
    ProveOptions options;
    options.method = ProofMethod::exhaustive;
    options.inst_set = set;
    options.explain = false;
    const ProofReport report = prove(program, plan, options);
    for (const CheckReport& c : report.checks) {
      if (c.result != CheckResult::proved && (with_staging || !is_staging(c.check.kind))) return false;
    }
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::optional<std::string> fix_search_capped(const Program& program, const std::string& buffer, const Limits& limits) {
  const std::int64_t size = program.buffer(buffer, {}).layout.size();
  const std::int64_t cap = limits.get(Resource::fix_elements);
  if (size <= cap) return std::nullopt;
  return "no layout fix searched: " + buffer + "'s layout has " + std::to_string(size) + " elements, over " +
         std::string(resource_info(Resource::fix_elements).option) + " " + std::to_string(cap);
}

std::optional<Fix> search_fix(const Program& program, const std::string& buffer, InstSet set, const Limits& limits,
                              const std::function<bool(const Program&)>& fits,
                              const std::function<std::string(int)>& role) {
  if (fix_search_capped(program, buffer, limits)) return std::nullopt;
  const std::int64_t cap = limits.get(Resource::fix_elements);
  const BufferDecl& decl = program.buffer(buffer, {});
  const std::string name = binding_name(program, decl);
  std::optional<Fix> fallback;
  for (Candidate& c : candidates(decl.layout, decl, name, role)) {
    if (c.layout == decl.layout || c.layout.size() != decl.layout.size()) continue;
    // Cheap necessary conditions before evaluating the candidate: a warp's
    // lanes, and room for every element on the axes it uses.
    // A fix is never looser than the mistake: no more room than it had; and
    // it is checked by tabulating it, so its room is bounded as its size is
    // (--max-fix-elements), whatever room the mistake had.
    const auto tight_enough = [&] {
      if (c.layout.span(Axis::laneid()) > 32) return false;
      const std::int64_t r = room(c.layout);
      return r >= c.layout.size() && r <= std::max(room(decl.layout), decl.layout.size()) && r / kRoomPerElement <= cap;
    };
    try {
      if (!tight_enough()) continue;
    } catch (const Error&) {  // a span past int64: no fix
      continue;
    }
    const Program p = with_layout(program, buffer, c.layout);
    bool ok = false;
    try {
      ok = fits(p);
    } catch (const Error&) {
    }
    if (!ok) continue;
    const std::string text = c.text.empty() ? user_layout_text(c.layout) : c.text;
    // A fix spelled with the binding's name (the transpose) is the buffer's
    // new layout, not a new value of the binding.
    const bool uses_name = !name.empty() && text.rfind(name, 0) == 0;
    Fix fix{c.layout, text, (name.empty() || uses_name ? buffer + "'s layout" : name) + " = " + text, c.reason, false};
    if (proves(p, set)) {
      fix.proves = true;
      return fix;
    }
    if (!fallback) fallback = std::move(fix);
  }
  return fallback;
}

}  // namespace mmacheck::prove_detail
