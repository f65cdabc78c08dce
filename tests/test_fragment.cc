// Lane registers <-> logical tiles through the PTX frames, and one mma
// executed on lane registers (sim/machine/fragment.h).
#include <catch2/catch.hpp>

#include <random>

#include "core/base/error.h"
#include "core/gemm/mma_inst.h"
#include "sim/machine/fragment.h"

namespace test_fragment {

using namespace mmacheck;
using namespace mmacheck::sim;

namespace {
std::vector<std::uint64_t> random_tile(const Frame& f, std::mt19937_64& rng) {
  std::vector<std::uint64_t> tile(f.rows * f.cols);
  const std::uint64_t mask = f.elem_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << f.elem_bits) - 1;
  for (std::uint64_t& w : tile) w = rng() & mask;
  return tile;
}
}  // namespace

TEST_CASE("scatter then gather gives the tile back, for every frame", "[fragment]") {
  std::mt19937_64 rng(7);
  for (const Frame& f : all_frames()) {
    INFO(f.shape << " " << operand_name(f.operand) << " " << f.elem_bits);
    const std::vector<std::uint64_t> tile = random_tile(f, rng);
    const WarpRegs regs = scatter_tile(f, tile);
    CHECK(regs.words().size() == static_cast<std::size_t>(32 * f.regs));
    CHECK(gather_tile(regs) == tile);
  }
}

TEST_CASE("registers pack elements from the low bits up", "[fragment]") {
  const MmaInst& inst = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const Frame& fa = inst.frame(Operand::A);
  std::vector<std::uint64_t> tile(16 * 16);
  for (int i = 0; i < 256; ++i) tile[i] = 0x1000 + i;  // A[r][c] = 0x1000 + 16 r + c
  const WarpRegs a = scatter_tile(fa, tile);
  // Lane 5 (g = 1, t = 1): a2 = A[9][2], a3 = A[9][3], both in register 1.
  CHECK(a.element(5, 2) == 0x1000 + 16 * 9 + 2);
  CHECK(a.reg(5, 1) == ((0x1000u + 16 * 9 + 3) << 16 | (0x1000u + 16 * 9 + 2)));

  WarpRegs r(fa);
  r.set_reg(3, 0, 0xFFFFFFFFAAAABBBB);  // only the register's 32 bits are kept
  CHECK(r.reg(3, 0) == 0xAAAABBBB);
  r.set_element(3, 1, 0x12345);  // only the element's 16 bits, only its half
  CHECK(r.reg(3, 0) == 0x2345BBBB);

  const Frame& fd = find_frame("m8n8k4", Operand::C, 64);
  WarpRegs d(fd);
  d.set_element(31, 1, 0xFFF8000000000000);
  CHECK(d.reg(31, 1) == 0xFFF8000000000000);
  CHECK(gather_tile(d)[7 * 8 + 7] == 0xFFF8000000000000);  // lane 31: g 7, t 3 -> D[7][7]
}

TEST_CASE("execute_mma on lane registers equals mma_tile on tiles", "[fragment]") {
  std::mt19937_64 rng(11);
  for (const MmaInst& inst : mma_instructions()) {
    INFO(inst.ptx());
    const ArchParams& sm90 = arch_params(inst.min_sm > 90 ? "sm_120" : "sm_90");  // kind::f8f6f4: sm_120
    const auto a = random_tile(inst.frame(Operand::A), rng);
    const auto b = random_tile(inst.frame(Operand::B), rng);
    const auto c = random_tile(inst.frame(Operand::C), rng);
    std::vector<std::uint64_t> d(c.size());
    mma_tile(inst, sm90, a, b, c, d);
    const WarpRegs regs = execute_mma(inst, sm90, scatter_tile(inst.frame(Operand::A), a),
                                      scatter_tile(inst.frame(Operand::B), b), scatter_tile(inst.frame(Operand::C), c));
    CHECK(&regs.frame() == &inst.frame(Operand::C));
    CHECK(gather_tile(regs) == d);
  }
}

TEST_CASE("operands must use the instruction's frames and tile sizes", "[fragment]") {
  const MmaInst& k16 = *find_mma_inst("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const MmaInst& k8 = *find_mma_inst("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
  const WarpRegs a(k8.frame(Operand::A)), b(k16.frame(Operand::B)), c(k16.frame(Operand::C));
  CHECK_THROWS_AS(execute_mma(k16, arch_params("sm_90"), a, b, c), Error);
  CHECK_THROWS_AS(scatter_tile(k16.frame(Operand::A), std::vector<std::uint64_t>(10)), Error);
}

TEST_CASE("m8n8k4 f16: the quad pairs' lanes hold their own product, execute_mma equals mma_tile", "[fragment]") {
  std::mt19937_64 rng(12);
  for (const MmaInst& inst : quad_pair_instructions()) {
    INFO(inst.ptx());
    const auto a = random_tile(inst.frame(Operand::A), rng);
    const auto b = random_tile(inst.frame(Operand::B), rng);
    const auto c = random_tile(inst.frame(Operand::C), rng);
    std::vector<std::uint64_t> d(c.size());
    mma_tile(inst, arch_params("sm_70"), a, b, c, d);
    const WarpRegs regs = execute_mma(inst, arch_params("sm_70"), scatter_tile(inst.frame(Operand::A), a),
                                      scatter_tile(inst.frame(Operand::B), b), scatter_tile(inst.frame(Operand::C), c));
    CHECK(gather_tile(regs) == d);
  }
  // A .row: lane 21 is quad pair 1's high group (lanes 20-23), its row 4 + 21 % 4 = 5,
  // so a1 is product 1's A[5][1], row 8 + 5 of the stacked 32x4 tile.
  const Frame& fa = find_frame("m8n8k4", Operand::A, 16, "row");
  std::vector<std::uint64_t> tile(fa.rows * fa.cols);
  for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = 0x1000 + i;
  const WarpRegs a = scatter_tile(fa, tile);
  CHECK(a.element(21, 1) == 0x1000 + 13 * 4 + 1);
  CHECK(a.reg(21, 0) == ((0x1000u + 13 * 4 + 1) << 16 | (0x1000u + 13 * 4)));
  // f32 C: lane 6 (quad pair 1, low, t = 2), c5: row (t & 1) + (5 & 2) = 0, col 4 + 2 + 1 = 7.
  const Frame& fc = find_frame("m8n8k4", Operand::C, 32);
  WarpRegs d(fc);
  d.set_element(6, 5, 0x3f800000);
  CHECK(gather_tile(d)[8 * 8 + 0 * 8 + 7] == 0x3f800000);
}

}  // namespace test_fragment
