#include "core/cute/cute_tv_compare.h"

#include <vector>

namespace mmacheck {

namespace {

constexpr double kEnumerable = 1 << 22;  // (thread, value) points worth listing

std::string point(const std::array<std::string_view, 2>& axes, std::int64_t a, std::int64_t b) {
  return "(" + std::string(axes[0]) + "=" + std::to_string(a) + ", " + std::string(axes[1]) + "=" + std::to_string(b) +
         ")";
}

std::string group_name(int threads) {
  return threads == 32 ? "the warp" : threads == 128 ? "the warpgroup" : "the instruction";
}

// The comparison proper, on a layout whose leaves can be read in order.
CuteOperandReport compare(Operand op, const CuteLayout& tv, const TvFrame& f) {
  const std::int64_t threads = tv.mode(0).size();
  const std::int64_t values = tv.mode(1).size();
  const std::int64_t tile = std::int64_t{f.dims[0]} * f.dims[1];
  CuteOperandReport r{op, FrameVerdict::proved, std::nullopt, ""};
  std::vector<std::string> problems;
  if (threads != f.threads)
    problems.push_back("thread mode has " + std::to_string(threads) + " threads, " + group_name(f.threads) + " " +
                       std::to_string(f.threads));
  if (values != f.values)
    problems.push_back("value mode has " + std::to_string(values) + " values, " + std::string(f.by) + " gives each " +
                       (f.threads == 32 ? "lane " : "thread ") + std::to_string(f.values));
  if (threads * 1.0 * values > kEnumerable) {  // too large to list: the sizes alone refute it
    r.result = FrameVerdict::refuted;
    r.message = problems.empty() ? "more than 2^22 (thread, value) points" : problems.front();
    if (problems.size() > 1) r.message += "; " + problems.back();
    return r;
  }

  const std::vector<std::int64_t> index_of = tv.indices();
  std::vector<std::int64_t> first(static_cast<std::size_t>(tile), -1);  // t + threads * v of the first holder
  std::vector<int> held(static_cast<std::size_t>(tile), 0);
  std::int64_t reached = 0;
  std::optional<std::array<std::int64_t, 3>> clash;  // first holder, one too many, index
  std::optional<CuteCounterexample> outside;
  for (std::int64_t v = 0; v < values; ++v)
    for (std::int64_t t = 0; t < threads; ++t) {
      const std::int64_t idx = index_of[static_cast<std::size_t>(t + threads * v)];
      const bool inside = idx >= 0 && idx < tile;
      CuteCounterexample cex;
      cex.thread = static_cast<int>(t);
      cex.value = static_cast<int>(v);
      cex.lane = static_cast<int>(t);
      cex.index = idx;
      cex.axes = f.axes;
      cex.coordinate = {idx % f.dims[0], idx / f.dims[0]};
      cex.in_tile = inside;
      cex.by = f.by;
      if (inside) {
        const auto k = static_cast<std::size_t>(idx);
        if (held[k]++ == 0) {
          first[k] = t + threads * v;
          ++reached;
        } else if (held[k] > f.holders && !clash) {
          clash = std::array<std::int64_t, 3>{first[k], t + threads * v, idx};
        }
      } else if (!outside) {
        outside = cex;
      }
      if (t < f.threads && v < f.values) {
        cex.lane = f.lane(static_cast<int>(t));
        cex.ptx = f.at(static_cast<int>(t), static_cast<int>(v));
        const bool better = !r.counterexample || (r.counterexample->thread > cex.thread) ||
                            (r.counterexample->thread == cex.thread && r.counterexample->value > cex.value);
        if ((!inside || cex.ptx != cex.coordinate) && better) r.counterexample = cex;
      }
    }
  if (r.counterexample) problems.insert(problems.begin(), describe(*r.counterexample));
  if (outside && (!r.counterexample || r.counterexample->in_tile))
    problems.push_back("thread " + std::to_string(outside->thread) + " value " + std::to_string(outside->value) +
                       " holds index " + std::to_string(outside->index) + ", outside the " + std::to_string(f.dims[0]) +
                       "x" + std::to_string(f.dims[1]) + " tile");
  const std::string tile_text = std::to_string(f.dims[0]) + "x" + std::to_string(f.dims[1]);
  if (clash) {
    const auto who = [&](std::int64_t tv_index) {
      return "thread " + std::to_string(tv_index % threads) + " value " + std::to_string(tv_index / threads);
    };
    const std::string where = point(f.axes, (*clash)[2] % f.dims[0], (*clash)[2] / f.dims[0]);
    problems.push_back(f.holders == 1
                           ? "not injective: " + std::to_string(reached) + " of " + std::to_string(tile) +
                                 " elements reached; " + who((*clash)[0]) + " and " + who((*clash)[1]) + " both hold " +
                                 where
                           : std::to_string(reached) + " of " + std::to_string(tile) + " elements reached; " + where +
                                 " is held more than " + std::to_string(f.holders) + " times (" + who((*clash)[0]) +
                                 ", " + who((*clash)[1]) + ")");
  } else if (reached < tile) {
    problems.push_back((f.holders == 1 ? "injective, " : "") + std::to_string(reached) + " of " + std::to_string(tile) +
                       " elements reached");
  } else if (!problems.empty()) {
    problems.push_back(f.holders == 1 ? "a bijection onto the " + tile_text + " tile, but not PTX's"
                                      : "onto the " + tile_text + " tile, but not in the frame's order");
  }
  if (problems.empty()) {
    r.message = "equals " + std::string(f.what) + ": " + std::to_string(threads) + " threads x " +
                std::to_string(values) + " values, " +
                (f.holders == 1 ? "one to one onto the " + tile_text + " tile"
                                : "each thread the whole " + tile_text + " tile in (" + std::string(f.axes[0]) + ", " +
                                      std::string(f.axes[1]) + ") order");
    return r;
  }
  r.result = FrameVerdict::refuted;
  for (std::size_t i = 0; i < problems.size(); ++i) r.message += (i ? "; " : "") + problems[i];
  return r;
}

bool modes_readable(const CuteLayout& tv) {
  if (tv.shape.leaf || tv.stride.leaf || tv.shape.items.size() != 2 || tv.stride.items.size() != 2) return false;
  for (int i = 0; i < 2; ++i)
    if (tv.mode(i).shape.flatten().size() != tv.mode(i).stride.flatten().size()) return false;
  return true;
}

}  // namespace

CuteOperandReport compare_tv(Operand op, const CuteLayout& tv, const TvFrame& frame) {
  if (tv.rank() != 2)
    return {op, FrameVerdict::ill_formed, std::nullopt,
            layout_member(op) + " " + tv.str() + " has rank " + std::to_string(tv.rank()) +
                "; a TV layout has two modes (thread, value)"};
  if (!tv.congruent()) {
    std::string m = layout_member(op) + ": shape " + tv.shape.str() + " and stride " + tv.stride.str() +
                    " are not congruent (CuTe requires it and the CuTe DSL's make_layout refuses such a"
                    " layout; layout.hpp's static_assert is commented out, so the header compiles)";
    if (modes_readable(tv)) {
      const CuteOperandReport as_read = compare(op, tv, frame);
      m += as_read.result == FrameVerdict::proved
               ? "; read with its strides in order it would prove"
               : "; read with its strides in order it would be refuted: " + as_read.message;
    }
    return {op, FrameVerdict::ill_formed, std::nullopt, m};
  }
  return compare(op, tv, frame);
}

std::string describe(const CuteCounterexample& cex) {
  std::string text = "thread " + std::to_string(cex.thread) + " value " + std::to_string(cex.value);
  if (!cex.in_tile)
    return text + " holds index " + std::to_string(cex.index) + ", outside the tile; " + std::string(cex.by) +
           " puts " + point(cex.axes, cex.ptx[0], cex.ptx[1]) + " there";
  text += " holds " + point(cex.axes, cex.coordinate[0], cex.coordinate[1]) + ", " + std::string(cex.by) + " puts " +
          point(cex.axes, cex.ptx[0], cex.ptx[1]) + " there";
  if (cex.lane != cex.thread) text += " (lane " + std::to_string(cex.lane) + ")";
  return text;
}

std::array<std::string_view, 2> operand_axes(Operand op) {
  return op == Operand::A   ? std::array<std::string_view, 2>{"m", "k"}
         : op == Operand::B ? std::array<std::string_view, 2>{"n", "k"}
                            : std::array<std::string_view, 2>{"m", "n"};
}

std::string layout_member(Operand op) { return std::string(operand_name(op)) + "Layout"; }

}  // namespace mmacheck
