// Diagnosis after a decline and complete mismatch sets: planted single
// mistakes in each operand of several examples must name the operand, give
// a counterexample that is true (judged by evaluating the layouts, not the
// prover's word) and, for a layout mistake, a fix that proves.
#include <catch2/catch.hpp>

#include <functional>
#include <iostream>

#include "core/gemm/dispatch.h"
#include "core/program/read/read_program.h"
#include "tests/support.h"
#include "tests/test_diagnosis_support.h"
#include "tests/test_prove_support.h"

namespace test_diagnosis {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

// One kind of single mistake, applied to a correct layout (nullopt: the
// layout has nothing it applies to).
struct Mistake {
  const char* kind;
  std::function<std::optional<TileLayout>(const TileLayout&, const Shape&)> plant;
};

std::vector<int> iters_on(const TileLayout& l, const Axis& axis) {
  std::vector<int> out;
  for (int i = 0; i < static_cast<int>(l.shard().size()); ++i)
    if (l.shard()[i].axis == axis && l.shard()[i].extent > 1) out.push_back(i);
  return out;
}

std::optional<TileLayout> swap_strides(const TileLayout& l, int i, int j) {
  std::vector<Iter> s = l.shard();
  if (s[i].stride == s[j].stride) return std::nullopt;
  std::swap(s[i].stride, s[j].stride);
  return TileLayout(s, l.replica(), l.offset());
}

const std::vector<Mistake>& mistakes() {
  static const std::vector<Mistake> all = {
      {"swapped register iters",
       [](const TileLayout& l, const Shape&) -> std::optional<TileLayout> {
         const auto m = iters_on(l, Axis::m());
         if (m.size() < 2) return std::nullopt;
         return swap_strides(l, m[m.size() - 2], m.back());  // the innermost two
       }},
      {"swapped lane iters",
       [](const TileLayout& l, const Shape&) -> std::optional<TileLayout> {
         const auto t = iters_on(l, Axis::laneid());
         if (t.size() < 2) return std::nullopt;
         return swap_strides(l, t[0], t[1]);
       }},
      {"lane stride typo",
       [](const TileLayout& l, const Shape&) -> std::optional<TileLayout> {
         const auto t = iters_on(l, Axis::laneid());
         if (t.empty()) return std::nullopt;
         std::vector<Iter> s = l.shard();
         s[t[0]].stride *= 2;
         return TileLayout(s, l.replica(), l.offset());
       }},
      {"register stride typo",
       [](const TileLayout& l, const Shape&) -> std::optional<TileLayout> {
         const auto m = iters_on(l, Axis::m());
         if (m.empty()) return std::nullopt;
         std::vector<Iter> s = l.shard();
         s[m.back()].stride = s[m.back()].stride == 1 ? 2 : 1;
         return TileLayout(s, l.replica(), l.offset());
       }},
      {"wrong offset",
       [](const TileLayout& l, const Shape&) -> std::optional<TileLayout> {
         Offset o = l.offset();
         o[Axis::laneid()] += 1;
         return TileLayout(l.shard(), l.replica(), o);
       }},
      {"missing transpose",
       [](const TileLayout& l, const Shape& shape) -> std::optional<TileLayout> {
         try {
           return l.group(shape).permute_by_groups(std::vector<int>{1, 0});
         } catch (const Error&) {
           return std::nullopt;
         }
       }},
      {"tile iters in the wrong order",
       [](const TileLayout& l, const Shape&) -> std::optional<TileLayout> {
         // The two register iters of largest stride: the outermost tiles.
         auto m = iters_on(l, Axis::m());
         if (m.size() < 3) return std::nullopt;
         std::sort(m.begin(), m.end(), [&](int a, int b) { return l.shard()[a].stride > l.shard()[b].stride; });
         return swap_strides(l, m[0], m[1]);
       }},
  };
  return all;
}

struct Tally {
  int planted = 0, harmless = 0, named = 0, true_cx = 0, fixed = 0;
};

}  // namespace

TEST_CASE("planted single mistakes: the operand named, a true counterexample, a fix that proves", "[diagnosis]") {
  Tally tally;
  for (const char* file : {"examples/seed_corrected.txt", "examples/k8.txt", "examples/tiled_2x2x2.txt",
                           "examples/transpose_b.txt", "examples/cta_threads128.txt", "examples/m64.txt"}) {
    const Program good = load_program(source_path(file));
    REQUIRE(fully_proved(good));
    for (const char* role : {"A", "B", "D"}) {
      const std::string buffer = role == std::string("A")   ? good.gemm->a.buffer
                                 : role == std::string("B") ? good.gemm->b.buffer
                                                            : good.gemm->d.buffer;
      const BufferDecl& decl = good.buffer(buffer, {});
      for (const Mistake& m : mistakes()) {
        const std::optional<TileLayout> bad_layout = m.plant(decl.layout, decl.shape);
        if (!bad_layout || *bad_layout == decl.layout) continue;
        Program bad = good;
        for (BufferDecl& b : bad.buffers)
          if (b.name == buffer) b.layout = *bad_layout;
        INFO(file << ", " << role << ": " << m.kind << ": " << bad_layout->str());
        ProveOptions options;
        options.method = ProofMethod::exhaustive;
        const ProofReport report = prove(bad, options);
        if (report.verdict == Verdict::proved) {
          ++tally.harmless;  // e.g. register iters TVM may order freely, no staging to pin them
          continue;
        }
        ++tally.planted;
        bool named = false, is_true = false, fixed = false;
        if (report.verdict == Verdict::dispatch_failed) {
          for (const Diagnosis& d : report.diagnosis) {
            if (d.operand != role) continue;
            named = true;
            INFO(diagnosis_property_name(d.property) << ": " << d.message);
            const bool t = diagnosis_true(bad, d);
            CHECK(t);
            is_true = is_true || t;
            if (d.fix && d.fix_proves) {
              const std::optional<Program> repaired = apply_fix(bad, buffer, *d.fix);
              REQUIRE(repaired);
              const bool proved = fully_proved(*repaired);
              CHECK(proved);
              fixed = fixed || proved;
            }
          }
        } else {
          for (const Counterexample& cx : report.counterexamples) {
            if (cx.check.kind == CheckKind::program) continue;  // the whole program's: tests/test_program_run.cc
            const bool names =
                cx.operand == role || cx.operand == buffer || (role == std::string("D") && cx.operand == "C");
            if (!names) continue;
            named = true;
            INFO(cx.check.name() << ": " << cx.message);
            const bool t = counterexample_true(bad, cx);
            CHECK(t);
            is_true = is_true || t;
            if (cx.fix) {
              const std::optional<Program> repaired = apply_fix(bad, buffer, cx.fix->substr(cx.fix->find(" = ") + 3));
              REQUIRE(repaired);
              const bool proved = fully_proved(*repaired);
              CHECK(proved);
              fixed = fixed || proved;
            }
          }
        }
        CHECK(named);
        tally.named += named;
        tally.true_cx += is_true;
        tally.fixed += fixed;
        // Every planted mistake is one change of one layout, so a fix exists
        // (the inverse change, at least); the search must find one.
        CHECK(fixed);
      }
    }
  }
  std::cout << "planted layout mistakes: " << tally.planted << " (plus " << tally.harmless
            << " harmless changes), operand named " << tally.named << ", true counterexample " << tally.true_cx
            << ", correct fix " << tally.fixed << "\n";
  CHECK(tally.planted >= 40);
  CHECK(tally.named == tally.planted);
  CHECK(tally.true_cx == tally.planted);
  CHECK(tally.fixed == tally.planted);
}

TEST_CASE("the issue's decline: a lane stride typo in k8's B", "[diagnosis]") {
  std::string text = read_file(source_path("examples/k8.txt"));
  text = replace_once(text, "(1 @ laneid, 1, 4 @ laneid)", "(1 @ laneid, 1, 8 @ laneid)");
  const Program p = program_from(text);
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  // TVM's verdict and reasons stand, word for word.
  CHECK(r.reasons == std::vector<std::string>{"declined — no mma instruction fits M=16, N=8, K=8, dtypes=('float16', "
                                              "'float16', 'float32', 'float32')"});
  REQUIRE(r.diagnosis.size() == 1);
  const Diagnosis& d = r.diagnosis[0];
  CHECK(d.instruction == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
  CHECK(d.operand == "B");
  CHECK(d.property == DiagnosisProperty::lane_range);
  CHECK(d.message.rfind("lanes 32..59 do not exist (laneid span 60 > 32)", 0) == 0);
  CHECK(diagnosis_true(p, d));
  CHECK(d.fix == "S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)]");
  CHECK(d.fix_line == "B_FRAG_K8 = S[(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)]");
  CHECK(d.fix_proves);
}

TEST_CASE("a lane stride of 10^18: the fix search stays in int64 and bounded, and still finds the typo",
          "[diagnosis][hardening]") {
  // fuzz_program's finding: room() multiplied spans past int64, and with the
  // product saturated the search tabulated candidates of astronomical spans.
  std::string text = read_file(source_path("examples/reject_beta.txt"));
  text = replace_once(text, "(4, 2, 8) : (1 @ laneid, 1, 4 @ laneid)",
                      "(4, 2, 8) : (1000000000000000000 @ laneid, 1, 4 @ laneid)");
  const Program p = program_from(text);
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  bool lane_range = false, typo = false;
  for (const Diagnosis& d : r.diagnosis) {
    lane_range = lane_range || (d.operand == "B" && d.property == DiagnosisProperty::lane_range);
    typo = typo || (d.fix && d.fix->find("(2, 1 @ laneid, 1, 4 @ laneid)") != std::string::npos);
  }
  CHECK(lane_range);
  CHECK(typo);
}

TEST_CASE("the issue's decline: D's two register strides swapped", "[diagnosis]") {
  const Program p =
      program_from(replace_once(kSeedCorrected, "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])",
                                "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (1, 4 @ laneid, 1 @ laneid, 2)])"));
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  REQUIRE(!r.diagnosis.empty());
  const Diagnosis& d = r.diagnosis[0];
  CHECK(d.operand == "D");
  CHECK(d.property == DiagnosisProperty::frame);
  CHECK(d.message == "lane 0, slot 1 holds D[8][0]; the m16n8k16 frame puts D[0][1] there");
  CHECK(diagnosis_true(p, d));
  CHECK(d.fix_line == "D_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]");
  CHECK(d.fix_reason == "the two register iters were swapped");
  CHECK(d.fix_proves);
}

TEST_CASE("a transposed B whose layout was not permuted gets the transpose as its fix", "[diagnosis]") {
  std::string text = read_file(source_path("examples/transpose_b.txt"));
  text = replace_once(text, "B = buffer((8, 16), \"float16\", \"local\", B_NK_FRAG)",
                      "B = buffer((8, 16), \"float16\", \"local\", B_FRAG)");
  const Program p = program_from(text);
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  const auto d =
      std::find_if(r.diagnosis.begin(), r.diagnosis.end(), [](const Diagnosis& x) { return x.operand == "B"; });
  REQUIRE(d != r.diagnosis.end());
  CHECK(diagnosis_true(p, *d));
  CHECK(d->fix == "B_FRAG.group([16, 8]).permute_by_groups([1, 0])");
  CHECK(d->fix_proves);
}

TEST_CASE("no single change: the diagnosis says so", "[diagnosis]") {
  // Two of D's iters broken at once (rows and columns on one lane stride).
  const Program p =
      program_from(replace_once(kSeedCorrected, "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])",
                                "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (0, 0 @ laneid, 1 @ laneid, 0)])"));
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  REQUIRE(!r.diagnosis.empty());
  CHECK(r.diagnosis[0].operand == "D");
  CHECK(r.diagnosis[0].property == DiagnosisProperty::injectivity);
  CHECK(diagnosis_true(p, r.diagnosis[0]));
  CHECK_FALSE(r.diagnosis[0].fix.has_value());
  CHECK(r.diagnosis[0].fix_reason == "no single change of D's layout makes it fit the m16n8k16 frame");
}

TEST_CASE("dtypes that need --inst-set extended say so", "[diagnosis]") {
  const Program p = load_program(source_path("examples/ext_f64.txt"));
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  REQUIRE(r.diagnosis.size() == 2);
  CHECK(r.diagnosis[0].property == DiagnosisProperty::instruction_set);
  CHECK(r.diagnosis[0].message.find("need --inst-set extended") != std::string::npos);
  CHECK(r.diagnosis[1].property == DiagnosisProperty::fits);
  CHECK(r.diagnosis[1].message.find("with --inst-set extended the program dispatches and proves") != std::string::npos);
}

TEST_CASE("planted staging and store typos: the buffer and source named, every mismatch true, the cause said",
          "[diagnosis]") {
  // Typos a hand writes into an index expression: the first occurrence of
  // `from` in each stage/store line becomes `to`.
  const std::pair<const char*, const char*> typos[] = {
      {"lane // 4", "lane % 4"}, {"lane % 4", "lane // 4"}, {"s % 2", "s // 2"}, {"8 * ", "4 * "}, {"]", " + 1]"}};
  int planted = 0, named = 0, true_cx = 0, cause = 0;
  for (const char* file : {"examples/seed_corrected.txt", "examples/k8.txt", "examples/tiled_2x2x2.txt",
                           "examples/transpose_b.txt", "examples/cta_threads128.txt", "examples/m64.txt"}) {
    const std::string text = read_file(source_path(file));
    std::size_t line_start = 0;
    while (true) {
      const std::size_t at = std::min(text.find("\nstage ", line_start), text.find("\nstore ", line_start));
      if (at == std::string::npos) break;
      const std::size_t end = text.find('\n', at + 1);
      line_start = end;
      const std::string line = text.substr(at + 1, end - at - 1);
      const std::string check = line.substr(0, line.find('['));  // "stage A"
      for (const auto& [from, to] : typos) {
        const std::size_t where = line.find(from, line.find('='));
        if (where == std::string::npos) continue;
        std::string bad_line = line;
        bad_line.replace(where, std::string(from).size(), to);
        std::string bad_text = text;
        bad_text.replace(at + 1, line.size(), bad_line);
        const Program bad = program_from(bad_text);
        INFO(file << ": " << bad_line);
        ProveOptions options;
        options.method = ProofMethod::exhaustive;
        const ProofReport r = prove(bad, options);
        if (r.verdict == Verdict::proved) continue;  // e.g. a typo on a term that is always 0
        ++planted;
        const Counterexample* cx = counterexample(r, check);
        REQUIRE(cx != nullptr);
        CHECK(cx->operand == check.substr(6));
        named += cx->operand == check.substr(6);
        const bool t = counterexample_true(bad, *cx);
        CHECK(t);
        true_cx += t;
        // Every listed mismatch: the statement moves `actual` where the layout keeps `expected`.
        const OperandPlace whole(bad, OperandRef{cx->operand, std::nullopt, {}}, false);
        const Holdings held = layout_holdings(bad, whole);
        const auto statement = [&](const Mismatch& m) {
          const IndexEnv env{m.lane, m.warp.value_or(0), 32 * std::int64_t{m.warp.value_or(0)} + m.lane, m.slot};
          for (const StageStmt& s : bad.stages)
            if (check == "stage " + s.buffer) return Element{s.row.eval(env), s.col.eval(env)};
          for (const StoreStmt& s : bad.stores)
            if (check == "store " + s.buffer) return Element{s.row.eval(env), s.col.eval(env)};
          return Element{};
        };
        bool all_true = true;
        for (const Mismatch& m : cx->mismatches) {
          const auto h = held.find({m.warp.value_or(0), m.lane, m.slot});
          const std::optional<Element> keeps = h == held.end() ? std::nullopt : std::optional(h->second);
          all_true = all_true && m.actual == statement(m) && m.expected == keeps && m.expected != m.actual;
        }
        CHECK(all_true);
        CHECK(cx->message.find(cx->source + "[") != std::string::npos);  // A_g[..], not A[..]
        const bool said = cx->summary.find("swapped") != std::string::npos ||
                          cx->summary.find("offset") != std::string::npos ||
                          cx->summary.find("wrong stride") != std::string::npos ||
                          cx->summary.find("wrong modulus") != std::string::npos;
        cause += said;
      }
    }
  }
  std::cout << "planted staging typos: " << planted << ", buffer named " << named << ", true counterexample " << true_cx
            << ", cause recognised " << cause << "\n";
  CHECK(planted >= 30);
  CHECK(named == planted);
  CHECK(true_cx == planted);
}

TEST_CASE("a layout using half the warp fails coverage, with its lanes counted", "[diagnosis]") {
  // Injective and inside lanes 0..15, but lanes 16..31 hold nothing: each
  // lane of the first half holds 8 of D's elements, the frame gives each of 32 lanes 4.
  const Program p =
      program_from(replace_once(kSeedCorrected, "D_FRAG = TileLayout(S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)])",
                                "D_FRAG = TileLayout(S[(2, 4, 2, 4, 2) : (2, 4 @ laneid, 8, 1 @ laneid, 1)])"));
  const ProofReport r = prove(p, {});
  REQUIRE(r.verdict == Verdict::dispatch_failed);
  REQUIRE(!r.diagnosis.empty());
  const Diagnosis& d = r.diagnosis[0];
  CHECK(d.operand == "D");
  CHECK(d.property == DiagnosisProperty::coverage);
  CHECK(d.message == "lane 0 holds 8 of D's 128 elements; each of the 32 lanes holding D must hold 4");
  CHECK(d.counterexample->slot == 8);  // the first slot beyond the 4 a lane may hold
  CHECK(diagnosis_true(p, d));
}

}  // namespace test_diagnosis
