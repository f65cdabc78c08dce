// Slot tables: from layouts, from stage/store statements and from PTX
// frames; the seed program's staging (pure CPU).
#include <catch2/catch.hpp>

#include "core/base/error.h"
#include "core/gemm/slot_table.h"
#include "core/gemm/staging.h"
#include "core/program/read/read_program.h"
#include "tests/test_cuda_support.h"

namespace test_cuda_staging {

using namespace mmacheck;

namespace {

const char* kCorrectStage = "stage A[s] = A_g[lane // 4 + 8 * ((s // 2) % 2), 2 * (lane % 4) + s % 2 + 8 * (s // 4)]\n";
const char* kSeedStage = "stage A[s] = A_g[lane // 4 + 8 * (s // 4), 2 * (lane % 4) + s % 2 + 8 * ((s // 2) % 2)]\n";

Program seed(const std::string& extra = "") {
  return parse_program(std::string(test::kSeedProgram) + extra, "seed.txt");
}

const MmaInst& k16() { return test::inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"); }

}  // namespace

TEST_CASE("the seed layouts stage exactly the PTX frames", "[cuda][staging]") {
  const Program p = seed();
  CHECK(slots_from_layout(*p.find_buffer("A"), 8, 32, SlotUse::load).index ==
        slots_from_frame(k16().frame(Operand::A), DType::f16).index);
  CHECK(slots_from_layout(*p.find_buffer("B"), 4, 32, SlotUse::load).index ==
        slots_from_frame(k16().frame(Operand::B), DType::f16).index);
  const SlotTable d = slots_from_layout(*p.find_buffer("D"), 4, 32, SlotUse::store);
  CHECK(d.index == slots_from_frame(k16().frame(Operand::C), DType::f32).index);
  CHECK(d.at(5, 3) == 9 * 8 + 3);
}

TEST_CASE("stage statements: the corrected staging is the layout's, the seed's is not", "[cuda][staging]") {
  const Program good = seed(kCorrectStage);
  const Program bad = seed(kSeedStage);
  const BufferDecl& a = *good.find_buffer("A");
  const SlotTable layout = slots_from_layout(a, 8, 32, SlotUse::load);
  const StageStmt& gs = good.stages.at(0);
  CHECK(slots_from_statements(a, {SlotStatement{gs.row, gs.col, gs.loc}}, 8, 32, SlotUse::load).index == layout.index);
  const StageStmt& bs = bad.stages.at(0);
  const SlotTable wrong = slots_from_statements(a, {SlotStatement{bs.row, bs.col, bs.loc}}, 8, 32, SlotUse::load);
  for (int lane = 0; lane < 32; ++lane)
    for (int s = 0; s < 8; ++s) {
      INFO("lane " << lane << " slot " << s);
      CHECK((wrong.at(lane, s) == layout.at(lane, s)) == (s < 2 || s > 5));
    }
  // Lane 0, slot 2: the seed loads A[0][8], the fragment holds A[8][0].
  CHECK(wrong.at(0, 2) == 0 * 16 + 8);
  CHECK(layout.at(0, 2) == 8 * 16 + 0);
}

TEST_CASE("build_staging follows statements where present, layouts elsewhere", "[cuda][staging]") {
  const Program p =
      seed(std::string(kSeedStage) + "store D[s] -> D_g[lane // 4 + 8 * (s // 2), 2 * (lane % 4) + s % 2]\n");
  const Staging st = build_staging(p, test::seed_nest());
  CHECK(st.threads == 32);
  CHECK(st.c_in_d);
  CHECK(st.a.at(0, 2) == 8);  // the seed's own (wrong) staging
  CHECK(st.b.index == slots_from_frame(k16().frame(Operand::B), DType::f16).index);
  CHECK(st.c.index == st.d.index);  // C is D: loaded through D's layout
  CHECK(st.d.index == slots_from_frame(k16().frame(Operand::C), DType::f32).index);
}

TEST_CASE("a store statement writes each element once, from its first thread and slot", "[cuda][staging]") {
  const Program p = seed("store D[s] -> D_g[lane // 4, 0]\n");
  const StoreStmt& st = p.stores.at(0);
  const SlotTable t =
      slots_from_statements(*p.find_buffer("D"), {SlotStatement{st.row, st.col, st.loc}}, 4, 32, SlotUse::store);
  CHECK(t.at(0, 0) == 0);
  CHECK(t.at(0, 1) == -1);
  CHECK(t.at(4, 0) == 8);
  CHECK(t.at(5, 0) == -1);
  const std::vector<std::uint64_t> values(t.index.size(), 7);
  const std::vector<std::uint64_t> m = store_slots(t, values);
  CHECK(m[8] == 7);
  CHECK(m[1] == 0);
}

TEST_CASE("multi-warp layouts number threads 32 * warpid + laneid", "[cuda][staging]") {
  const BufferDecl d{"D",
                     {32, 8},
                     DType::f32,
                     MemScope::local,
                     TileLayout({{2, 1, Axis::warpid()},
                                 {2, 2, Axis::m()},
                                 {8, 4, Axis::laneid()},
                                 {4, 1, Axis::laneid()},
                                 {2, 1, Axis::m()}}),
                     {}};
  const SlotTable t = slots_from_layout(d, 4, 64, SlotUse::store);
  CHECK(t.at(32 + 5, 3) == (16 + 9) * 8 + 3);
  CHECK(t.at(5, 3) == 9 * 8 + 3);
  const std::vector<std::uint64_t> m = [&] {
    std::vector<std::uint64_t> v(256);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i * 3 + 1;
    return v;
  }();
  CHECK(store_slots(t, load_slots(t, m)) == m);
  CHECK_THROWS_WITH(slots_from_layout(d, 4, 32, SlotUse::load), Catch::Contains("outside the scope's 32 threads"));
}

TEST_CASE("a laneid-only layout in a CTA is loaded by every warp and stored by warp 0", "[cuda][staging]") {
  const Program p = seed();
  const BufferDecl& b = *p.find_buffer("B");
  const SlotTable load = slots_from_layout(b, 4, 96, SlotUse::load);
  const SlotTable store = slots_from_layout(b, 4, 96, SlotUse::store);
  for (int lane = 0; lane < 32; ++lane)
    for (int s = 0; s < 4; ++s) {
      CHECK(load.at(lane + 32, s) == load.at(lane, s));
      CHECK(load.at(lane + 64, s) == load.at(lane, s));
      CHECK(store.at(lane, s) == load.at(lane, s));
      CHECK(store.at(lane + 64, s) == -1);
    }
  // Without thread axes, every thread holds everything.
  const BufferDecl all{"X", {2, 4}, DType::f32, MemScope::local, TileLayout({{8, 1, Axis::m()}}), {}};
  const SlotTable every = slots_from_layout(all, 8, 64, SlotUse::load);
  CHECK(every.at(63, 5) == 5);
  CHECK(slots_from_layout(all, 8, 64, SlotUse::store).at(1, 5) == -1);
}

TEST_CASE("staging errors name the buffer and the place", "[cuda][staging]") {
  // Two elements in one register slot.
  const BufferDecl clash{"X",
                         {2, 32},
                         DType::f32,
                         MemScope::local,
                         TileLayout({{2, 0, Axis::m()}, {32, 1, Axis::laneid()}}),
                         {"f.txt", 4, 1}};
  CHECK_THROWS_WITH(slots_from_layout(clash, 1, 32, SlotUse::load),
                    Catch::Contains("f.txt:4:1") && Catch::Contains("share thread 0 slot 0"));
  // A statement addressing outside its buffer.
  const Program p = seed("stage A[s] = A_g[lane, s]\n");
  const StageStmt& s = p.stages.at(0);
  CHECK_THROWS_WITH(
      slots_from_statements(*p.find_buffer("A"), {SlotStatement{s.row, s.col, s.loc}}, 8, 32, SlotUse::load),
      Catch::Contains("seed.txt:11") && Catch::Contains("thread 16 slot 0 addresses [16, 0]"));
  // Not 2-D.
  const BufferDecl flat{
      "F", {256}, DType::f32, MemScope::local, TileLayout({{8, 1, Axis::m()}, {32, 1, Axis::laneid()}}), {}};
  CHECK_THROWS_WITH(slots_from_layout(flat, 8, 32, SlotUse::load), Catch::Contains("needs 2-D buffers"));
  // A and B in one buffer.
  std::string text = test::kSeedProgram;
  text.replace(text.find("gemm(D, A, B"), 12, "gemm(D, A, A");
  const Program same = parse_program(text, "same.txt");
  CHECK_THROWS_WITH(build_staging(same, test::seed_nest()), Catch::Contains("A and B in different buffers"));
}

TEST_CASE("frame staging and the single-instruction nest agree for every instruction", "[cuda][staging]") {
  for (const MmaInst& instr : mma_instructions()) {
    INFO(instr.ptx());
    const Staging st = frame_staging(instr);
    const Nest n = frame_nest(instr);
    CHECK(st.a.slots == n.a.slots);
    CHECK(st.b.slots == n.b.slots);
    CHECK(st.d.slots == n.d.slots);
    CHECK_FALSE(st.c_in_d);
    CHECK(st.a.rows * st.a.cols == 32 * st.a.slots);
  }
}

}  // namespace test_cuda_staging
