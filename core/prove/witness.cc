// describe(): a witness in words and fields.
#include "core/prove/witness.h"

#include "core/layout/shape_text.h"
#include "core/prove/checks.h"

namespace mmacheck::prove_detail {

namespace {

std::string element_str(const std::string& buffer, const Element& e) {
  std::string s = buffer;
  for (std::int64_t v : e) s += "[" + std::to_string(v) + "]";
  return s;
}

// "lane 3, slot 2" with the warp first at CTA scope.
std::string where(const ProofSetup& setup, int warp, int lane, std::int64_t slot) {
  const std::string w = setup.warps > 1 ? "warp " + std::to_string(warp) + ", " : "";
  return w + "lane " + std::to_string(lane) + ", slot " + std::to_string(slot);
}

// The name a layout was bound to in the file (A_FRAG), else "B's layout".
std::string layout_name(const ProofSetup& setup, const BufferDecl& buffer) {
  for (const LayoutBinding& b : setup.program.layouts)
    if (b.layout == buffer.layout) return b.name;
  return buffer.name + "'s layout";
}

// What (thread, slot) of `op`'s buffer holds, in the operand's logical
// coordinates; `text` says it in words.
struct Held {
  std::optional<Element> logical;
  std::string text;
};
Held held(const ProofSetup& setup, GemmOperand op, Thread t, std::int64_t slot) {
  const Storage& st = setup.storage(op);
  const auto flat = st.held(t, slot);
  if (!flat) return {std::nullopt, "nothing"};
  const Shape c = st.coord(*flat);
  const auto logical = setup.view(op).from_buffer(c);
  if (!logical) return {std::nullopt, st.buffer().name + coord_text(c) + ", outside the gemm's region"};
  return {logical, element_str(std::string(gemm_operand_name(op)), *logical)};
}

// " (A[0][0] is at lane 0, slot 1)": where the layout does put an element.
std::string located(const ProofSetup& setup, GemmOperand op, const Element& e) {
  const OperandPlace& v = setup.view(op);
  if (e[0] < 0 || e[0] >= v.rows() || e[1] < 0 || e[1] >= v.cols()) return ", outside the gemm's region";
  const Storage& st = setup.storage(op);
  const Placement p = placement(setup, st, st.owners(st.flat(v.to_buffer(e[0], e[1]))).front());
  return " (" + element_str(std::string(gemm_operand_name(op)), e) + " is at " + where(setup, p.warp, p.lane, p.slot) +
         ")";
}

void frame(const ProofSetup& setup, const CheckSpec& check, const FrameWitness& w, Counterexample& cx) {
  const MmaRef& ref = setup.mmas[w.mma];
  const FramePoint p = frame_point(setup, check.operand, w.mma, w.warp, w.lane, w.elem);
  const GemmOperand buffer = setup.frame_buffer(check.operand);
  const Held h = held(setup, buffer, {w.warp, w.lane}, p.slot);
  const Frame& f = setup.frame(check.operand);
  cx.operand = gemm_operand_name(check.operand);
  cx.slot = p.slot;
  cx.stmt = ref.stmt;
  cx.tile = std::vector<int>{ref.mma->tile_m, ref.mma->tile_n, ref.mma->tile_k};
  cx.element = w.elem;
  cx.expected = p.expected;
  cx.actual = h.logical;
  const std::string name(gemm_operand_name(buffer));
  const std::string stmt = !ref.mma->origin.empty()
                               ? ref.mma->origin
                               : "mma (" + std::to_string(ref.mma->tile_m) + ", " + std::to_string(ref.mma->tile_n) +
                                     ", " + std::to_string(ref.mma->tile_k) + ")";
  const std::string at = where(setup, w.warp, w.lane, p.slot) + ": " + stmt + " passes " +
                         std::string(gemm_operand_name(check.operand)) + " element " + std::to_string(w.elem) +
                         " (register " + std::to_string(w.elem / f.per_reg()) + ")";
  if (!p.expected)
    cx.message = at +
                 ", but the statement has no tile here: lane 0's first D, A and B slots hold "
                 "no element of the gemm";
  else
    cx.message = at + " holding " + h.text + ", but the " + std::string(f.shape) + " frame needs " +
                 element_str(name, *p.expected) + located(setup, buffer, *p.expected);
}

void fragment(const ProofSetup& setup, const CheckSpec& check, const FragmentWitness& w, Counterexample& cx) {
  const OperandPlace& v = setup.view(check.operand);
  const Storage& st = setup.storage(check.operand);
  const std::string name(gemm_operand_name(check.operand));
  const Element x{w.x / v.cols(), w.x % v.cols()};
  const Key& owner = st.owners(st.flat(v.to_buffer(x[0], x[1]))).front();
  const Placement p = placement(setup, st, owner);
  cx.operand = name;
  cx.lane = p.lane;
  cx.slot = p.slot;
  cx.expected = x;
  if (!w.doubled) {
    std::string why;
    if (p.lane < 0 || p.lane >= 32 || p.warp < 0 || p.warp >= setup.warps)
      why = "outside the scope's " + std::to_string(setup.warps) + " warp(s) of 32 lanes";
    else if (p.slot < 0 || p.slot >= st.span())
      why = "outside " + st.buffer().name + "'s storage span of " + std::to_string(st.span()) + " slots";
    else why = "on a thread or memory coordinate no (lane, slot) of the scope has";
    cx.message = element_str(name, x) + " is placed at " + where(setup, p.warp, p.lane, p.slot) + ", " + why;
  } else {
    const Element y{w.y / v.cols(), w.y % v.cols()};
    cx.actual = y;
    cx.message =
        where(setup, p.warp, p.lane, p.slot) + " holds both " + element_str(name, x) + " and " + element_str(name, y);
  }
  if (setup.warps > 1) cx.warp = p.warp;
}

// " (the C input of T.ptx.mma at line 27 (repeat_2 = 1))": where a program
// that states its nest (a lowered dump) wrote nest statement `index`; "" otherwise.
std::string stmt_origin(const ProofSetup& setup, int index) {
  const std::vector<NestStmt>& stmts = setup.plan.nest.stmts;
  for (std::size_t i = static_cast<std::size_t>(index); i < stmts.size(); ++i)
    if (const auto* mma = std::get_if<MmaStmt>(&stmts[i]))
      return mma->origin.empty() ? ""
                                 : " (" + std::string(i == static_cast<std::size_t>(index) ? "" : "the C input of ") +
                                       mma->origin + ")";
  return "";
}

void accumulation(const ProofSetup& setup, const AccumulationWitness& w, Counterexample& cx) {
  cx.operand = "D";
  cx.slot = d_slot(setup, w.warp, w.lane, w.i, w.j).value_or(0);
  cx.expected = Element{w.i, w.j};
  const std::string d = element_str("D", {w.i, w.j});
  const std::string at = where(setup, w.warp, w.lane, cx.slot) + ": " + d;
  if (!w.init) {
    cx.k = w.k;
    const int count = product_count(setup, w.warp, w.i, w.j, w.k);
    const std::string product = "A[" + std::to_string(w.i) + "][" + std::to_string(w.k) + "]·B[" + std::to_string(w.k) +
                                "][" + std::to_string(w.j) + "]";
    cx.message = count == 0 ? at + " never receives " + product
                            : at + " receives " + product + " " + std::to_string(count) + " times";
    int elsewhere = 0;
    for (int other = 0; other < setup.warps; ++other)
      if (other != w.warp) elsewhere += product_count(setup, other, w.i, w.j, w.k);
    if (count == 0 && elsewhere > 0)
      cx.message += "; another warp forms it into its own copy of " + d +
                    " (the warps split K, D's layout cannot hold both partial sums)";
    return;
  }
  const InitVerdict v = init_verdict(setup, w.warp, w.lane, w.i, w.j, cx.slot);
  cx.stmt = v.stmt;
  const std::string stmt = "statement " + std::to_string(v.stmt) + stmt_origin(setup, v.stmt);
  switch (v.fault) {
    case InitFault::accumulated_before_init:
      cx.message = at + " is accumulated by " + stmt + " before any init sets it";
      break;
    case InitFault::reinitialised:
      cx.message = at + " is initialised again by " + stmt + ", after an mma accumulated into it";
      break;
    case InitFault::wrong_source: {
      const auto& init = std::get<InitStmt>(setup.plan.nest.stmts[v.stmt]);
      if (!setup.beta_one) {
        cx.message = at + ": beta = 0 but " + stmt + " copies C into it";
        break;
      }
      if (v.index >= static_cast<int>(init.c_slots.size())) {
        cx.message = at + ": beta = 1 but " + stmt + " zeroes it instead of copying C";
        break;
      }
      const Held h = held(setup, GemmOperand::C, {w.warp, w.lane}, init.c_slots[v.index]);
      cx.actual = h.logical;
      cx.message = at + " is initialised by " + stmt + " from C slot " + std::to_string(init.c_slots[v.index]) +
                   " holding " + h.text + ", not " + element_str("C", {w.i, w.j});
      break;
    }
    case InitFault::none: cx.message = at + " is initialised correctly"; break;
  }
}

void staging(const ProofSetup& setup, const CheckSpec& check, const StagingWitness& w, Counterexample& cx) {
  const StagingRef& s = setup.staging[check.staging];
  const Storage& st = setup.storage(s.buffer);
  const Element y = staging_element(s, w.warp, w.lane, w.slot);
  const auto flat = st.held({w.warp, w.lane}, w.slot);
  cx.operand = s.buffer;
  cx.source = s.matrix;
  cx.slot = w.slot;
  cx.actual = y;
  if (flat) cx.expected = st.coord(*flat);
  const Shape& shape = st.buffer().shape;
  const std::string at = where(setup, w.warp, w.lane, w.slot) + ": " + check.id.name();
  if (y[0] < 0 || y[0] >= shape[0] || y[1] < 0 || y[1] >= shape[1]) {
    cx.message = at + (s.store ? " writes " : " reads ") + element_str(s.matrix, y) + ", outside " + s.matrix + "'s " +
                 std::to_string(shape[0]) + " x " + std::to_string(shape[1]);
    return;
  }
  const std::string placed = flat ? element_str(s.buffer, *cx.expected) : "nothing there";
  const std::string what =
      s.store ? " writes the slot to " + element_str(s.matrix, y) : " loads " + element_str(s.matrix, y);
  cx.message = at + what + " but " + layout_name(setup, st.buffer()) + " places " + placed;
}

}  // namespace

Counterexample describe(const ProofSetup& setup, const CheckSpec& check, const Witness& witness) {
  Counterexample cx;
  cx.check = check.id;
  std::visit(
      [&](const auto& w) {
        using W = std::decay_t<decltype(w)>;
        if constexpr (!std::is_same_v<W, FragmentWitness>) {
          cx.lane = w.lane;
          if (setup.warps > 1) cx.warp = w.warp;
        }
        if constexpr (std::is_same_v<W, FrameWitness>) frame(setup, check, w, cx);
        if constexpr (std::is_same_v<W, FragmentWitness>) fragment(setup, check, w, cx);
        if constexpr (std::is_same_v<W, AccumulationWitness>) accumulation(setup, w, cx);
        if constexpr (std::is_same_v<W, StagingWitness>) staging(setup, check, w, cx);
      },
      witness);
  return cx;
}

}  // namespace mmacheck::prove_detail
