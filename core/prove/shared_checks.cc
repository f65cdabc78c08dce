#include "core/prove/shared_checks.h"

#include <chrono>
#include <set>

namespace mmacheck::prove_detail {

namespace {

using Clock = std::chrono::steady_clock;

Element coord(const SharedLayout& s, std::int64_t f) { return {f / s.cols, f % s.cols}; }

std::string swizzle_text(const Swizzle& s) { return s.identity() ? "no swizzle" : s.str(); }

std::string name_of(const std::string& buffer, std::int64_t r, std::int64_t c) {
  return buffer + "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
}

Counterexample make_cx(const CheckId& check, const std::string& operand, int lane, std::int64_t slot,
                       std::optional<Element> expected, std::optional<Element> actual, std::string message) {
  Counterexample cx;
  cx.check = check;
  cx.operand = operand;
  cx.lane = lane;
  cx.slot = slot;
  cx.expected = std::move(expected);
  cx.actual = std::move(actual);
  cx.message = std::move(message);
  return cx;
}

std::optional<Counterexample> swizzle_check(const CheckId& check, const SharedLayout& s) {
  const std::string& name = s.buffer->name;
  std::vector<std::int64_t> first(s.alloc, -1);
  for (std::int64_t f = 0; f < s.rows * s.cols; ++f) {
    const std::int64_t o = s.offset[f];
    if (o < 0 || o >= s.alloc)
      return make_cx(check, name, 0, o, std::nullopt, coord(s, f),
                     s.element_name(f) + " lands at offset " + std::to_string(o) + " after " + swizzle_text(s.swizzle) +
                         " (offset " + std::to_string(s.unswizzled[f]) + " before it), outside the allocation of " +
                         std::to_string(s.alloc) + " elements");
    if (first[o] >= 0)
      return make_cx(check, name, 0, o, coord(s, first[o]), coord(s, f),
                     s.element_name(first[o]) + " and " + s.element_name(f) + " both land at offset " +
                         std::to_string(o) + " (layout and " + swizzle_text(s.swizzle) + " are not a bijection)");
    first[o] = f;
  }
  if (s.swizzle.identity()) return std::nullopt;
  const std::int64_t period_bytes = s.swizzle.period() * s.width;
  if (s.align % period_bytes == 0) return std::nullopt;
  // A base the alignment allows where the swizzle on the address differs
  // from the swizzle on the offset.
  for (std::int64_t base = s.align; base < period_bytes; base += s.align) {
    if (base % s.width != 0) continue;
    const std::int64_t b = base / s.width;
    for (std::int64_t f = 0; f < s.rows * s.cols; ++f) {
      const std::int64_t by_address = s.swizzle.apply(b + s.unswizzled[f]) - b;
      if (by_address != s.offset[f])
        return make_cx(check, name, 0, s.offset[f], coord(s, f), std::nullopt,
                       s.swizzle.str() + " repeats every " + std::to_string(period_bytes) + " bytes but " + name +
                           " is aligned to " + std::to_string(s.align) + ": placed at byte " + std::to_string(base) +
                           ", " + s.element_name(f) + " goes to offset " + std::to_string(by_address) +
                           " by its address, not " + std::to_string(s.offset[f]) +
                           " (align=" + std::to_string(period_bytes) + " is needed)");
    }
  }
  return std::nullopt;
}

std::optional<Counterexample> agree_check(const CheckId& check, const SharedStage& st) {
  const SharedLayout &w = st.writer, &r = st.reader;
  const std::string verb = st.store ? "drain " + r.buffer->name + " reads " : "fill " + r.buffer->name + " puts ";
  for (std::int64_t f = 0; f < r.rows * r.cols; ++f) {
    if (w.offset[f] == r.offset[f]) continue;
    const std::int64_t o = r.offset[f];
    const std::int64_t there = o >= 0 && o < w.alloc ? w.element_at[o] : -1;
    std::string msg = verb + r.element_name(f) + (st.store ? " from" : " at") + " offset " +
                      std::to_string(w.offset[f]) + " (" + swizzle_text(w.swizzle) + ") but the " +
                      (st.store ? "writers put" : "reader looks for") + " it at offset " + std::to_string(o) + " (" +
                      r.buffer->name + "'s " + swizzle_text(r.swizzle) + ")";
    if (there >= 0)
      msg += ", where " + std::string(st.store ? "the drain takes " : "the fill put ") + r.element_name(there);
    return make_cx(check, r.buffer->name, 0, o, coord(r, f),
                   there >= 0 ? std::optional<Element>(coord(r, there)) : std::nullopt, msg);
  }
  return std::nullopt;
}

// The lane and register slot that receive (ldmatrix) or send (stmatrix)
// element j of the row whose address lane `address_lane` gives: the
// ldmatrix table read backwards.
std::pair<int, std::int64_t> row_element_holder(const SharedAccess& a, int width, int address_lane, int j) {
  const int per_reg = 4 / width;
  for (int lane = 0; lane < 32; ++lane)
    for (int reg = 0; reg < a.copy->num; ++reg)
      for (int byte = 0; byte < 4; byte += width)
        if (matrix_copy_byte(*a.copy, lane, reg, byte) == RowByte{address_lane, j * width})
          return {lane, a.slot + reg * per_reg + byte / width};
  return {address_lane, a.slot};  // unreachable: every row byte of a given address is some lane's
}

// lane/slot: the register that receives (sends) the first wrong element of
// the row; address_lane: the lane that gives the row's address.
std::optional<Counterexample> rows_check(const CheckId& check, const SharedStage& st, const SharedAccess& a) {
  const SharedLayout& s = st.reader;
  const std::string& name = s.buffer->name;
  const auto located = [&](Counterexample cx, int l, int j) {
    const auto [lane, slot] = row_element_holder(a, s.width, l, j);
    cx.lane = lane;
    cx.slot = slot;
    cx.address_lane = l;
    return cx;
  };
  for (std::size_t t = 0; t < a.lane_offset.size(); ++t) {
    const int l = static_cast<int>(t % 32);
    if (l >= a.copy->address_lanes()) continue;
    const std::int64_t r = a.lane_row[t], c = a.lane_col[t];
    const std::string at = (a.lane_offset.size() > 32 ? "warp " + std::to_string(t / 32) + ", " : std::string()) +
                           "lane " + std::to_string(l) + "'s row address " + name_of(name, r, c);
    if (a.lane_offset[t] < 0)
      return located(
          make_cx(check, name, l, 0, Element{r, c}, std::nullopt,
                  at + " is outside " + name + "'s " + std::to_string(s.rows) + " x " + std::to_string(s.cols)),
          l, 0);
    const std::int64_t byte = a.lane_offset[t] * s.width;
    if (byte % 16 != 0 || s.align < 16)
      return located(make_cx(check, name, l, 0, Element{r, c}, std::nullopt,
                             at + " is byte " + std::to_string(byte) + " of " + name +
                                 (s.align < 16 ? ", aligned to only " + std::to_string(s.align) + " bytes" : "") +
                                 ": ldmatrix rows must be 16-byte aligned"),
                     l, 0);
    for (int j = 0; j < 16 / s.width; ++j) {
      const std::int64_t o = a.lane_offset[t] + j;
      const std::int64_t held = o < s.alloc ? s.element_at[o] : -1;
      if (s.inside(r, c + j) && s.offset[s.flat(r, c + j)] == o) continue;
      std::optional<Element> actual;
      if (held >= 0) actual = coord(s, held);
      return located(
          make_cx(check, name, l, j, s.inside(r, c + j) ? std::optional<Element>(Element{r, c + j}) : std::nullopt,
                  actual,
                  at + ": its 16 bytes are not the row " + name_of(name, r, c) + ".." +
                      std::to_string(c + 16 / s.width - 1) + " — byte " + std::to_string(o * s.width) + " holds " +
                      (held >= 0 ? s.element_name(held) : std::string("nothing")) +
                      (s.inside(r, c + j) ? " where " + name_of(name, r, c + j) + " belongs" : ", past the row's end")),
          l, j);
    }
  }
  return std::nullopt;
}

// Which access moves (lane, slot), and through which lane's address.
struct Source {
  const SharedAccess* access = nullptr;
  int address_lane = -1;
  int reg = 0;
};
Source source_of(const SharedStage& st, int lane, std::int64_t slot) {
  Source src;
  for (const SharedAccess& a : st.accesses) {
    if (!a.copy) {
      if (a.slot == slot) src = {&a, lane, 0};
      continue;
    }
    const int per_reg = 4 / st.reader.width;
    const std::int64_t k = slot - a.slot;
    if (k >= 0 && k < a.copy->num * per_reg) {
      const int reg = static_cast<int>(k / per_reg);
      src = {&a, matrix_copy_byte(*a.copy, lane, reg, static_cast<int>(k % per_reg) * st.reader.width).address_lane,
             reg};
    }
  }
  return src;
}

std::string held_text(const std::string& matrix, const SharedStage& st, std::int32_t idx) {
  return idx < 0 ? std::string("nothing") : name_of(matrix, idx / st.reg_cols, idx % st.reg_cols);
}

std::optional<Counterexample> delivered_check(const CheckId& check, const ProofSetup& setup, const SharedStage& st,
                                              const BufferDecl& reg, int slots) {
  const Storage& storage = setup.storage(reg.name);
  const SlotTable table = shared_slot_table(st, reg, slots);
  const std::int64_t span = std::min<std::int64_t>(storage.span(), slots);
  const std::string& matrix = st.fill->matrix;
  const auto element = [&](std::int64_t idx) { return Element{idx / st.reg_cols, idx % st.reg_cols}; };
  std::optional<Counterexample> cx;
  // Every thread the stage gives registers to: one warp, or each warp of a CTA (the released TIRx).
  for (int t = 0; t < table.threads; ++t)
    for (std::int64_t s = 0; s < span; ++s) {
      const int l = t % 32, w = t / 32;
      const std::optional<std::int64_t> want = storage.held({w, l}, s);
      const std::int32_t got = table.at(t, static_cast<int>(s));
      if (want.value_or(-1) == got) continue;
      Mismatch m;
      m.lane = l;
      m.slot = s;
      if (table.threads > 32) m.warp = w;
      if (want) m.expected = element(*want);
      if (got >= 0) m.actual = element(got);
      if (!cx) {
        const Source src = source_of(st, l, s);
        std::string how = src.access ? src.access->label : std::string("no statement");
        std::string msg = (table.threads > 32 ? "warp " + std::to_string(w) + ", " : std::string()) + "lane " +
                          std::to_string(l) + ", slot " + std::to_string(s) + ": " + how;
        if (src.access && src.access->copy) {
          const int al = 32 * w + src.address_lane;  // the access's arrays hold every warp's lanes
          msg += " (register " + std::to_string(src.reg) + ", the row lane " + std::to_string(src.address_lane) +
                 " addresses, " + name_of(st.reader.buffer->name, src.access->lane_row[al], src.access->lane_col[al]) +
                 ")";
        }
        msg += st.store ? " sends it to " + held_text(matrix, st, got) : " delivers " + held_text(matrix, st, got);
        const std::string layout = [&] {
          for (const LayoutBinding& b : setup.program.layouts)
            if (b.layout == reg.layout) return b.name;
          return reg.name + "'s layout";
        }();
        msg += " but " + layout + " places " +
               (want ? name_of(reg.name, *want / st.reg_cols, *want % st.reg_cols) : std::string("nothing")) + " there";
        if (src.access && src.access->copy && src.access->copy->trans && st.reader.width == 1) {
          std::string pairs, needs;
          const int first = static_cast<int>(s - (s - src.access->slot) % 4);
          for (int j = 0; j < 4; ++j) {
            pairs += (j ? ", " : "") + held_text(matrix, st, table.at(t, first + j));
            const auto h = storage.held({w, l}, first + j);
            needs +=
                (j ? ", " : "") + (h ? name_of(reg.name, *h / st.reg_cols, *h % st.reg_cols) : std::string("nothing"));
          }
          msg +=
              "; .trans moves 16-bit units, so on 8-bit data each unit keeps a pair of neighbouring elements: lane " +
              std::to_string(l) + "'s register " + std::to_string(src.reg) + " gets (" + pairs +
              ") where the mma needs (" + needs + ")";
        }
        cx = make_cx(check, reg.name, l, s, m.expected, m.actual, msg);
        if (table.threads > 32) cx->warp = w;
        cx->source = matrix;
        if (src.access && src.access->copy) cx->address_lane = src.address_lane;
      }
      cx->mismatches.push_back(std::move(m));
    }
  if (cx) {
    cx->points = table.threads * span;
    cx->summary =
        std::to_string(cx->mismatches.size()) + " of " + std::to_string(cx->points) + " (lane, slot) pairs wrong";
  }
  return cx;
}

}  // namespace

SharedFindings shared_findings(const ProofSetup& setup) {
  SharedFindings out;
  const Program& program = setup.program;
  std::set<std::string> swizzles;  // shared buffers whose swizzle was checked
  const auto run = [&](const CheckId& id, const auto& check) {
    const auto start = Clock::now();
    std::optional<Counterexample> cx = check(id);
    const std::chrono::duration<double, std::milli> ms = Clock::now() - start;
    SharedCheck c;
    c.report = CheckReport{id,
                           cx ? CheckResult::refuted : CheckResult::proved,
                           ProofMethod::exhaustive,
                           ms.count(),
                           std::string(kEnumerated),
                           true};
    c.counterexample = std::move(cx);
    out.checks.push_back(std::move(c));
  };
  const auto stage_checks = [&](const std::string& buffer, int slots, bool store) {
    using K = CheckKind;
    const BufferDecl& reg = program.buffer(buffer, {});
    const std::optional<SharedStage> st = shared_stage(program, reg, slots, store);
    if (!st) return;
    const std::string& s = st->reader.buffer->name;
    if (swizzles.insert(s).second) {
      run({K::swizzle, s}, [&](const CheckId& id) { return swizzle_check(id, st->reader); });
      if (!(st->writer.swizzle == st->reader.swizzle))
        run({store ? K::swizzle_drain : K::swizzle_fill, s},
            [&](const CheckId& id) { return swizzle_check(id, st->writer); });
    }
    run({store ? K::drain : K::fill, s}, [&](const CheckId& id) { return agree_check(id, *st); });
    for (const SharedAccess& a : st->accesses)
      if (a.copy) run({K::rows, a.label}, [&](const CheckId& id) { return rows_check(id, *st, a); });
    const bool matrix = st->accesses.front().stmt->matrix();
    const K kind = matrix ? (store ? K::stmatrix : K::ldmatrix) : (store ? K::st_shared : K::ld_shared);
    run({kind, buffer}, [&](const CheckId& id) { return delivered_check(id, setup, *st, reg, slots); });
    for (BankCount& b : count_bank_conflicts(*st)) out.banks.push_back(std::move(b));
  };
  const Nest& nest = setup.plan.nest;
  const GemmCall& g = *program.gemm;
  stage_checks(g.a.buffer, nest.a.slots, false);
  stage_checks(g.b.buffer, nest.b.slots, false);
  if (g.c.buffer != g.d.buffer) stage_checks(g.c.buffer, nest.c.slots, false);
  else stage_checks(g.d.buffer, nest.d.slots, false);
  stage_checks(g.d.buffer, nest.d.slots, true);
  return out;
}

}  // namespace mmacheck::prove_detail
