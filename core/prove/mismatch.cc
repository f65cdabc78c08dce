// explain_mismatches(): every failing point, and the causes of
// core/prove/mismatch.h recognised.
#include "core/prove/mismatch.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "core/prove/checks.h"
#include "core/prove/diagnosis.h"

namespace mmacheck::prove_detail {

namespace {

// "2..5", "0, 2, 4..6".
std::string ranges(const std::set<std::int64_t>& values) {
  std::string out;
  for (auto it = values.begin(); it != values.end();) {
    const std::int64_t lo = *it;
    std::int64_t hi = lo;
    for (++it; it != values.end() && *it == hi + 1; ++it) hi = *it;
    out += (out.empty() ? "" : ", ") + std::to_string(lo) + (hi > lo ? ".." + std::to_string(hi) : "");
  }
  return out;
}

// A term of the staging index expressions: a function of lane or slot.
struct Term {
  std::string text;
  bool of_lane;
  std::function<std::int64_t(std::int64_t)> f;
};

const std::vector<Term>& terms() {
  static const std::vector<Term> all = {
      {"lane", true, [](std::int64_t v) { return v; }},
      {"lane // 4", true, [](std::int64_t v) { return v / 4; }},
      {"lane % 4", true, [](std::int64_t v) { return v % 4; }},
      {"lane // 2", true, [](std::int64_t v) { return v / 2; }},
      {"lane % 2", true, [](std::int64_t v) { return v % 2; }},
      {"lane // 8", true, [](std::int64_t v) { return v / 8; }},
      {"lane % 8", true, [](std::int64_t v) { return v % 8; }},
      {"s", false, [](std::int64_t v) { return v; }},
      {"s % 2", false, [](std::int64_t v) { return v % 2; }},
      {"s // 2", false, [](std::int64_t v) { return v / 2; }},
      {"(s // 2) % 2", false, [](std::int64_t v) { return (v / 2) % 2; }},
      {"s % 4", false, [](std::int64_t v) { return v % 4; }},
      {"s // 4", false, [](std::int64_t v) { return v / 4; }},
      {"(s // 4) % 2", false, [](std::int64_t v) { return (v / 4) % 2; }},
      {"s // 8", false, [](std::int64_t v) { return v / 8; }},
      {"(s // 8) % 2", false, [](std::int64_t v) { return (v / 8) % 2; }},
  };
  return all;
}

struct Point {
  Mismatch m;
  bool wrong = false;
  int group = 0;  // frames: the mma (index into ProofSetup::mmas)
};

std::string scaled(std::int64_t k, const std::string& term) {
  return (k == 1 ? "" : k == -1 ? "-" : std::to_string(k) + " * ") + "(" + term + ")";
}

// One index (0 row, 1 col) explained as a wrong stride or modulus.
std::optional<std::string> index_cause(const std::vector<Point>& points, int c) {
  const auto diff = [&](const Point& p) { return (*p.m.actual)[c] - (*p.m.expected)[c]; };
  const auto value = [](const Term& t, const Point& p) { return t.f(t.of_lane ? p.m.lane : p.m.slot); };
  const Point* first = nullptr;
  for (const Point& p : points)
    if (diff(p) != 0) {
      first = &p;
      break;
    }
  if (!first) return std::nullopt;
  const std::string index = c == 0 ? "the row index" : "the column index";
  const auto fits = [&](const std::function<std::int64_t(const Point&)>& shape, std::int64_t& k) {
    const std::int64_t base = shape(*first);
    if (base == 0 || diff(*first) % base != 0) return false;
    k = diff(*first) / base;
    for (const Point& p : points)
      if (diff(p) != k * shape(p)) return false;
    return true;
  };
  std::int64_t k = 0;
  for (const Term& t : terms())
    if (fits([&](const Point& p) { return value(t, p); }, k))
      return "a wrong stride: " + index + " is off by " + scaled(k, t.text);
  for (const Term& t1 : terms())
    for (const Term& t2 : terms()) {
      if (&t1 == &t2 || t1.of_lane != t2.of_lane) continue;
      if (fits([&](const Point& p) { return value(t2, p) - value(t1, p); }, k))
        return "a wrong modulus: " + index + " has " + scaled(k < 0 ? -k : k, (k < 0 ? t1 : t2).text) +
               " where the layout needs " + scaled(k < 0 ? -k : k, (k < 0 ? t2 : t1).text);
    }
  return std::nullopt;
}

// The role of slot bit `bit` in an operand's layout: what changes in the
// element lane 0 holds when the bit is set.
std::string slot_bit_name(const ProofSetup& setup, const std::string& buffer, int bit) {
  for (GemmOperand op : {GemmOperand::A, GemmOperand::B, GemmOperand::C, GemmOperand::D}) {
    if (setup.view(op).buffer() != buffer) continue;
    const Storage& st = setup.storage(op);
    const auto e0 = st.held({0, 0}, 0), e1 = st.held({0, 0}, std::int64_t{1} << bit);
    if (!e0 || !e1) break;
    const auto a = setup.view(op).from_buffer(st.coord(*e0)), b = setup.view(op).from_buffer(st.coord(*e1));
    if (!a || !b) break;
    const std::int64_t di = (*b)[0] - (*a)[0], dj = (*b)[1] - (*a)[1];
    if ((di != 0) == (dj != 0)) break;
    return register_role(op, setup.inst, di, dj);
  }
  return "slot bit " + std::to_string(bit);
}

std::string lane_bit_name(int bit) { return bit < 2 ? "lane % 4" : "lane // 4"; }

// The two bits x differs in, if exactly two.
std::optional<std::pair<int, int>> two_bits(std::int64_t x) {
  if (x <= 0 || __builtin_popcountll(static_cast<unsigned long long>(x)) != 2) return std::nullopt;
  const int a = __builtin_ctzll(static_cast<unsigned long long>(x));
  return std::pair{a, 63 - __builtin_clzll(static_cast<unsigned long long>(x))};
}

// Where each wrong point's content belongs: wrong slot (lane) -> the slot
// (lane) of the same thread (at the same slot) the reference puts it in.
struct Moves {
  std::map<std::int64_t, std::int64_t> map;
  bool by_slot = true;
};

// Staging: where the layout places what the statement moves.
std::optional<Moves> staging_moves(const ProofSetup& setup, const StagingRef& s, const std::vector<Point>& points) {
  const Storage& st = setup.storage(s.buffer);
  const Shape& shape = st.buffer().shape;
  std::vector<std::pair<const Point*, Placement>> moved;
  bool same_lane = true, same_slot = true;
  for (const Point& p : points) {
    if (!p.wrong) continue;
    const Element& y = *p.m.actual;
    if (y[0] < 0 || y[0] >= shape[0] || y[1] < 0 || y[1] >= shape[1]) return std::nullopt;
    const Placement at = placement(setup, st, st.owners(st.flat(y)).front());
    if (at.warp != p.m.warp.value_or(0)) return std::nullopt;
    same_lane = same_lane && at.lane == p.m.lane;
    same_slot = same_slot && at.slot == p.m.slot;
    moved.emplace_back(&p, at);
  }
  if (!same_lane && !same_slot) return std::nullopt;
  Moves m;
  m.by_slot = same_lane;
  for (const auto& [p, at] : moved) {
    const std::int64_t from = same_lane ? p->m.slot : p->m.lane, to = same_lane ? at.slot : at.lane;
    if (const auto [it, fresh] = m.map.emplace(from, to); !fresh && it->second != to) return std::nullopt;
  }
  return m;
}

// Frames: where the frame wants what the register holds, in the same
// statement and thread.
std::optional<Moves> frame_moves(const std::vector<Point>& points) {
  std::map<std::tuple<int, int, int, Element>, std::int64_t> wanted;  // (mma, warp, lane, element) -> slot
  for (const Point& p : points)
    if (p.m.expected) wanted.emplace(std::tuple{p.group, p.m.warp.value_or(0), p.m.lane, *p.m.expected}, p.m.slot);
  Moves m;
  for (const Point& p : points) {
    if (!p.wrong || !p.m.actual) continue;  // a slot holding nothing moves nothing
    const auto it = wanted.find({p.group, p.m.warp.value_or(0), p.m.lane, *p.m.actual});
    if (it == wanted.end()) return std::nullopt;
    if (const auto [at, fresh] = m.map.emplace(p.m.slot, it->second); !fresh && at->second != it->second)
      return std::nullopt;
  }
  return m;
}

// The moves in words: a swap of two index bits (named by the operand's
// iters), an offset of the slots, or the first move.
std::optional<std::string> describe_moves(const ProofSetup& setup, const std::string& buffer, const Moves& m,
                                          const std::string& reference) {
  if (m.map.empty()) return std::nullopt;
  const auto [from, to] = *m.map.begin();
  const std::string unit = m.by_slot ? "slot " : "lane ";
  std::string out = unit + std::to_string(from) + " holds what " + reference + " puts in " + unit + std::to_string(to);
  bool shifted = m.by_slot;
  for (const auto& [f, t] : m.map) shifted = shifted && t - f == to - from;
  if (shifted) return out + " (every wrong slot is off by " + std::to_string(to - from) + ")";
  const auto bits = two_bits(from ^ to);
  if (!bits) return out;
  for (const auto& [f, t] : m.map)
    if ((f ^ t) != (from ^ to) || (((f >> bits->first) ^ (f >> bits->second)) & 1) == 0) return out;
  std::string x = m.by_slot ? slot_bit_name(setup, buffer, bits->first) : lane_bit_name(bits->first);
  std::string y = m.by_slot ? slot_bit_name(setup, buffer, bits->second) : lane_bit_name(bits->second);
  if (x == y) return out;
  const auto lower = [](std::string v) {
    for (char& c : v) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return v;
  };
  if (lower(y) < lower(x)) std::swap(x, y);
  return out + " (" + x + " and " + y + " swapped)";
}

std::string where_summary(const ProofSetup& setup, const std::vector<Point>& points) {
  std::set<std::int64_t> slots, lanes;
  std::map<std::pair<int, int>, std::set<std::int64_t>> per_thread;
  for (const Point& p : points) {
    if (!p.wrong) continue;
    slots.insert(p.m.slot);
    lanes.insert(32 * std::int64_t{p.m.warp.value_or(0)} + p.m.lane);
    per_thread[{p.m.warp.value_or(0), p.m.lane}].insert(p.m.slot);
  }
  bool uniform = static_cast<int>(per_thread.size()) == 32 * setup.warps;
  for (const auto& [thread, s] : per_thread) uniform = uniform && s == slots;
  const std::string slot_text = (slots.size() == 1 ? "slot " : "slots ") + ranges(slots);
  if (uniform) return slot_text + " of every lane";
  return slot_text + " in " + (setup.warps > 1 ? "threads " : "lanes ") + ranges(lanes);
}

}  // namespace

void explain_mismatches(const ProofSetup& setup, const CheckSpec& check, const Limits& limits, Counterexample& cx) {
  std::vector<Point> points;
  const std::int64_t cap = std::max<std::int64_t>(limits.get(Resource::explain_points), 1);
  std::int64_t total = 0;  // the check's points; more than points.size() when capped
  const auto warp_of = [&](int w) { return setup.warps > 1 ? std::optional<int>(w) : std::nullopt; };
  if (check.id.kind == CheckKind::frame) {
    const GemmOperand buffer = setup.frame_buffer(check.operand);
    const Storage& st = setup.storage(buffer);
    const int elems = setup.frame(check.operand).elems();
    const std::int64_t per_mma = std::int64_t{setup.warps} * 32 * elems;
    const int mmas = static_cast<int>(setup.mmas.size());
    total = per_mma * mmas;
    const int examined = static_cast<int>(std::clamp<std::int64_t>(cap / per_mma, 1, mmas));
    for (int q = 0; q < examined; ++q)
      for (int w = 0; w < setup.warps; ++w)
        for (int l = 0; l < 32; ++l)
          for (int e = 0; e < elems; ++e) {
            const FramePoint fp = frame_point(setup, check.operand, q, w, l, e);
            Point p{{warp_of(w), l, fp.slot, fp.expected, std::nullopt}, !fp.holds, q};
            if (const auto f = st.held({w, l}, fp.slot)) {
              if (const auto logical = setup.view(buffer).from_buffer(st.coord(*f))) p.m.actual = *logical;
            }
            points.push_back(std::move(p));
          }
  } else if (is_staging(check.id.kind)) {
    const StagingRef& s = setup.staging[check.staging];
    const Storage& st = setup.storage(s.buffer);
    total = std::int64_t{setup.warps} * 32 * st.span();
    const std::int64_t threads =
        std::clamp<std::int64_t>(cap / std::max<std::int64_t>(st.span(), 1), 1, 32 * setup.warps);
    for (int w = 0; w < setup.warps; ++w)
      for (int l = 0; l < 32 && 32 * std::int64_t{w} + l < threads; ++l)
        for (std::int64_t slot = 0; slot < st.span(); ++slot) {
          Point p{{warp_of(w), l, slot, std::nullopt, staging_element(s, w, l, slot)},
                  !staging_ok(setup, s, w, l, slot)};
          if (const auto f = st.held({w, l}, slot)) p.m.expected = st.coord(*f);
          points.push_back(std::move(p));
        }
  } else {
    return;
  }
  cx.points = static_cast<std::int64_t>(points.size());
  for (const Point& p : points)
    if (p.wrong) cx.mismatches.push_back(p.m);
  const std::string capped =
      cx.points < total ? "explained over the first " + std::to_string(cx.points) + " of " + std::to_string(total) +
                              " points: " + std::string(resource_info(Resource::explain_points).option) + " caps it"
                        : "";
  if (cx.mismatches.empty()) {
    if (!capped.empty()) cx.summary = "no wrong (lane, slot) pair among the points " + capped;
    return;
  }
  cx.summary = std::to_string(cx.mismatches.size()) + " of " + std::to_string(cx.points) +
               " (lane, slot) pairs wrong — " + where_summary(setup, points);
  if (!capped.empty()) cx.summary += " (" + capped + ")";
  if (check.id.kind == CheckKind::frame) {
    const std::string& buffer = setup.view(setup.frame_buffer(check.operand)).buffer();
    if (const auto moves = frame_moves(points))
      if (const auto words = describe_moves(setup, buffer, *moves, "the frame")) cx.summary += "; " + *words;
    return;
  }
  if (!is_staging(check.id.kind)) return;
  bool complete = true;  // every point has both an expected and an actual element
  for (const Point& p : points) complete = complete && p.m.expected && p.m.actual;
  if (!complete) return;
  // A permutation named by the index bits it swaps explains best; one that
  // is not a swap says less than a wrong stride or modulus would.
  const StagingRef& staging = setup.staging[check.staging];
  const std::optional<Moves> moves = staging_moves(setup, staging, points);
  const std::optional<std::string> perm =
      moves ? describe_moves(setup, staging.buffer, *moves, "the layout") : std::nullopt;
  if (perm && perm->find(" swapped)") != std::string::npos) {
    cx.summary += "; " + *perm;
    return;
  }
  const Point& first = *std::find_if(points.begin(), points.end(), [](const Point& p) { return p.wrong; });
  const std::int64_t dr = (*first.m.actual)[0] - (*first.m.expected)[0],
                     dc = (*first.m.actual)[1] - (*first.m.expected)[1];
  bool offset = true;
  for (const Point& p : points)
    offset =
        offset && p.wrong && (*p.m.actual)[0] - (*p.m.expected)[0] == dr && (*p.m.actual)[1] - (*p.m.expected)[1] == dc;
  if (offset) {
    cx.summary += "; an offset: every slot is off by (" + std::to_string(dr) + ", " + std::to_string(dc) + ")";
    return;
  }
  std::vector<std::string> causes;
  for (int c = 0; c < 2; ++c)
    if (auto cause = index_cause(points, c)) causes.push_back(*cause);
  for (const std::string& cause : causes) cx.summary += "; " + cause;
  if (causes.empty() && perm) cx.summary += "; " + *perm;
}

}  // namespace mmacheck::prove_detail
