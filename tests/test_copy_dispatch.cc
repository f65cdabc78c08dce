// TIRx's copy tile primitive dispatched into ldmatrix/stmatrix (core/gemm/
// copy_dispatch.h, docs/shared-memory.md "copy"): the dispatched statements
// give the hand-written ones' accesses and verdicts, num falls back 4 -> 2 -> 1,
// .trans follows S's strides, and tiles TVM's variant refuses are refused
// with its reason.
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/gemm/copy_dispatch.h"
#include "core/gemm/dispatch.h"
#include "core/gemm/staging.h"
#include "core/program/read/read_program.h"
#include "core/prove/prove.h"
#include "tests/support.h"
#include "tests/test_prove_support.h"

namespace test_copy_dispatch {

using namespace mmacheck;
using namespace mmacheck::test;

namespace {

std::string example(const std::string& name) { return read_file(source_path("examples/" + name)); }

Staging staging_of(const std::string& text, InstSet set = InstSet::tvm) {
  const Program p = parse_program(text, "f.txt");
  return build_staging(p, dispatch(p, set).nest);
}

// The accesses a stage makes, as comparable values: statement label, and per
// lane the element and offset it addresses.
struct Access {
  std::string label;
  int slot;
  std::vector<std::int64_t> row, col, offset;
  bool operator==(const Access&) const = default;
};
std::vector<Access> accesses(const std::optional<SharedStage>& st) {
  REQUIRE(st.has_value());
  std::vector<Access> out;
  for (const SharedAccess& a : st->accesses) out.push_back({a.label, a.slot, a.lane_row, a.lane_col, a.lane_offset});
  return out;
}

// dispatch_copy on a file without gemm: the labels and (ROW, COL) it writes.
std::vector<std::string> dispatched(const std::string& text, int slots) {
  const Program p = parse_program(text, "f.txt");
  REQUIRE(p.tile_copies.size() == 1);
  std::vector<std::string> out;
  for (const SharedCopyStmt& c : dispatch_copy(p, p.tile_copies[0], slots))
    out.push_back(c.label() + " = " + c.shared + "[" + c.row.str() + ", " + c.col.str() + "]");
  return out;
}

std::string refusal(const std::string& text, int slots) {
  try {
    dispatched(text, slots);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const std::string kA16 =
    "A_FRAG = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([16, 16], [16, 8])\n"
    "A = buffer((16, 16), \"float16\", \"local\", A_FRAG)\nscope warp\n";

}  // namespace

TEST_CASE("copy A = A_s dispatches to the hand-written ldmatrix.x4: same accesses, same verdict", "[copy][shared]") {
  const std::string hand = example("smem_swizzle128.txt");
  const std::string a_line = "ldmatrix.x4 A[0] = A_s[lane % 16, 8 * (lane // 16)]";
  const std::string b_line = "ldmatrix.x2 B[0] = B_s[lane % 8, 8 * ((lane // 8) % 2)]";
  // B_s is N x K there: B = B_s.T, plain ldmatrix (consecutive k contiguous).
  const std::string copied = replace_once(replace_once(hand, a_line, "copy A = A_s"), b_line, "copy B = B_s.T");
  const Staging h = staging_of(hand), c = staging_of(copied);
  CHECK(accesses(c.shared_a) == accesses(h.shared_a));
  CHECK(accesses(c.shared_b) == accesses(h.shared_b));
  CHECK(accesses(c.shared_a).front().label == "ldmatrix.x4 A[0]");
  CHECK(accesses(c.shared_b).front().label == "ldmatrix.x2 B[0]");

  const ProofReport rh = prove_both(parse_program(hand, "hand.txt"));
  const ProofReport rc = prove_both(parse_program(copied, "copy.txt"));
  CHECK(rc.verdict == Verdict::proved);
  CHECK(rc.verdict == rh.verdict);
  CHECK(result_of(rc, "rows ldmatrix.x4 A[0]") == CheckResult::proved);
  CHECK(result_of(rc, "ldmatrix A") == CheckResult::proved);
  CHECK(result_of(rc, "ldmatrix B") == CheckResult::proved);
  REQUIRE(rc.bank_conflicts.size() == rh.bank_conflicts.size());
  for (std::size_t i = 0; i < rc.bank_conflicts.size(); ++i) {
    CHECK(rc.bank_conflicts[i].statement == rh.bank_conflicts[i].statement);
    CHECK(rc.bank_conflicts[i].wavefronts == rh.bank_conflicts[i].wavefronts);
  }
  CHECK(rc.extra_wavefronts() == 0);
}

TEST_CASE("a K x N B tile dispatches to ldmatrix.trans (examples/smem_copy.txt)", "[copy][shared]") {
  const std::string text = example("smem_copy.txt");
  const Staging c = staging_of(text), h = staging_of(example("smem_swizzle128_trans.txt"));
  CHECK(accesses(c.shared_a) == accesses(h.shared_a));
  CHECK(accesses(c.shared_b) == accesses(h.shared_b));
  CHECK(accesses(c.shared_b).front().label == "ldmatrix.x2.trans B[0]");
  const ProofReport r = prove_both(parse_program(text, "smem_copy.txt"));
  CHECK(r.verdict == Verdict::proved);
  CHECK(r.extra_wavefronts() == 0);
}

TEST_CASE("num falls back 4 -> 2 -> 1 as the tile gets smaller", "[copy]") {
  CHECK(dispatched(kA16 + "A_s = buffer((16, 16), \"float16\", \"shared\", S[(16, 16) : (16, 1)])\ncopy A = A_s\n",
                   8) == std::vector<std::string>{"ldmatrix.x4 A[0] = A_s[lane % 16, 8 * (lane // 16)]"});
  // 16 x 8 (four slots): two matrices, rows 0-7 and 8-15 (only lanes 0..15
  // give addresses, so `lane` needs no `% 16`).
  CHECK(dispatched("F = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]\n"
                   "C = buffer((16, 8), \"float16\", \"local\", F)\nscope warp\n"
                   "C_s = buffer((16, 8), \"float16\", \"shared\", S[(16, 8) : (8, 1)])\ncopy C = C_s\n",
                   4) == std::vector<std::string>{"ldmatrix.x2 C[0] = C_s[lane, 0]"});
  // 8 x 8 (two slots): one matrix.
  CHECK(dispatched("F = S[(8, 4, 2) : (4 @ laneid, 1 @ laneid, 1)]\n"
                   "C = buffer((8, 8), \"float16\", \"local\", F)\nscope warp\n"
                   "C_s = buffer((8, 8), \"float16\", \"shared\", S[(8, 8) : (8, 1)])\ncopy C = C_s\n",
                   2) == std::vector<std::string>{"ldmatrix.x1 C[0] = C_s[lane, 0]"});
  // 32 x 16 (sixteen slots): two ldmatrix.x4, one per 16 x 16 half... of the slots.
  CHECK(dispatched("F = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)].tile_to([32, 16], [16, 8])\n"
                   "C = buffer((32, 16), \"float16\", \"local\", F)\nscope warp\n"
                   "C_s = buffer((32, 16), \"float16\", \"shared\", S[(32, 16) : (16, 1)])\ncopy C = C_s\n",
                   16)
            .size() == 2);
}

TEST_CASE("the shared strides choose plain or .trans; stmatrix the same way", "[copy]") {
  // Column-major A_s: consecutive k are 16 apart -> .trans.
  CHECK(
      dispatched(kA16 + "A_s = buffer((16, 16), \"float16\", \"shared\", S[(16, 16) : (1, 16)])\ncopy A = A_s\n", 8) ==
      std::vector<std::string>{"ldmatrix.x4.trans A[0] = A_s[8 * (lane // 8 % 2), lane % 8 + 8 * (lane // 16)]"});
  CHECK(dispatched(kA16 + "A_s = buffer((16, 16), \"float16\", \"shared\", S[(16, 16) : (16, 1)])\ncopy A_s = A\n",
                   8) == std::vector<std::string>{"stmatrix.x4 A[0] = A_s[lane % 16, 8 * (lane // 16)]"});
}

TEST_CASE("tiles TVM's ldstmatrix variant refuses are refused at the copy with its reason", "[copy][errors]") {
  const auto with = [](const std::string& layout, const std::string& extra = "") {
    return kA16 + "A_s = buffer((16, 16), \"float16\", \"shared\", " + layout + extra + ")\ncopy A = A_s\n";
  };
  // Rows 20 elements (40 bytes) apart: not 16-byte aligned.
  const std::string misaligned = refusal(with("S[(16, 16) : (20, 1)]"), 8);
  CHECK(misaligned.find(
            "f.txt:5:1: error: copy A = A_s: ldstmatrix: ldstmatrix layout doesn't fit any num in {4,2,1}") == 0);
  // k two apart: no 8 contiguous elements per row.
  CHECK(refusal(with("S[(16, 16) : (32, 2)]"), 8).find("doesn't fit any num") != std::string::npos);
  CHECK(refusal(with("S[(16, 16) : (16, 1)]", ", swizzle=Swizzle(3, 2, 3)"), 8)
            .find("swizzle per_element=2 < 3 incompatible with .b16 ldmatrix/stmatrix") != std::string::npos);
  CHECK(refusal("F = S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]\nC = buffer((16, 8), \"float32\", \"local\", F)\n"
                "scope warp\nC_s = buffer((16, 8), \"float32\", \"shared\", S[(16, 8) : (8, 1)])\ncopy C = C_s\n",
                4)
            .find("moves 16-bit elements") != std::string::npos);
  // The parser: both sides local, shapes that differ.
  CHECK(refusal(kA16 + "B = buffer((16, 16), \"float16\", \"local\", A_FRAG)\ncopy A = B\n", 8)
            .find("copy moves between a register (local) and a shared buffer") != std::string::npos);
  CHECK(refusal(kA16 + "A_s = buffer((16, 8), \"float16\", \"shared\", S[(16, 8) : (8, 1)])\ncopy A = A_s\n", 8)
            .find("the shapes differ") != std::string::npos);
}

TEST_CASE("copy D_s = D dispatches to smem_stmatrix_d.txt's stmatrix.x2: same accesses, proved", "[copy][shared]") {
  const std::string hand = example("smem_stmatrix_d.txt");
  const std::string copied = replace_once(hand, "stmatrix.x2 D[0] -> D_s[lane % 16, 0]", "copy D_s = D");
  // f16 accumulation: the extended instruction set (the example says so).
  const Staging h = staging_of(hand, InstSet::extended), c = staging_of(copied, InstSet::extended);
  CHECK(accesses(c.shared_d) == accesses(h.shared_d));
  CHECK(accesses(c.shared_d).front().label == "stmatrix.x2 D[0]");
  const ProofReport r = prove_both(parse_program(copied, "copy.txt"), InstSet::extended);
  CHECK(r.verdict == Verdict::proved);
  CHECK(r.verdict == prove_both(parse_program(hand, "hand.txt"), InstSet::extended).verdict);
}

}  // namespace test_copy_dispatch
