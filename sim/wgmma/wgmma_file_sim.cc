#include "sim/wgmma/wgmma_file_sim.h"

#include <algorithm>
#include <cstring>

#include "core/base/error.h"
#include "core/program/dtype.h"

namespace mmacheck::sim {

WgmmaInst wgmma_inst_of(const WgmmaCase& c) {
  const std::optional<DType> t = parse_dtype(c.operand.type->name);
  if (!t) throw Error(c.loc, "no arithmetic model of wgmma on " + std::string(c.operand.type->name));
  const bool integer = *t == DType::s8 || *t == DType::u8;
  return WgmmaInst{.n = c.operand.operand == 'B' ? c.operand.rows : 64,
                   .d = integer ? DType::s32 : DType::f32,
                   .a = *t,
                   .b = *t,
                   .satfinite = false};
}

namespace {

// The logical tile's element (i, k) of the operand (A: 64 x K row-major; B:
// K x N row-major, i its N index).
std::size_t tile_index(const WgmmaCase& c, int i, int k) {
  const int kk = c.operand.k;
  return c.operand.operand == 'A' ? static_cast<std::size_t>(i) * kk + k
                                  : static_cast<std::size_t>(k) * c.operand.rows + i;
}

void put(std::vector<std::byte>& image, std::int64_t address, std::uint64_t bits, int bytes) {
  for (int b = 0; b < bytes; ++b)
    image[static_cast<std::size_t>(address + b)] = static_cast<std::byte>((bits >> (8 * b)) & 0xff);
}

}  // namespace

WgmmaOperandSim simulate_wgmma_operand(const WgmmaCase& c, const ArchParams& arith, const FileSimOptions& options) {
  const WgmmaInst inst = wgmma_inst_of(c);
  const int bytes = c.operand.type->bytes;
  const char given = c.operand.operand;
  std::int64_t end = 0;
  for (const std::int64_t a : c.placed) end = std::max(end, a + bytes);
  WgmmaOperandSim out;
  out.run = partnered_wgmma_run(inst, given, WgmmaSmemOperand{c.descriptor, c.operand.major}, end, SwizzleMode::b128);
  // The image must hold whatever the descriptor reads, right or wrong.
  std::int64_t size = out.run.image_bytes;
  for (int i = 0; i < c.operand.rows; ++i)
    for (int k = 0; k < c.operand.k; ++k) {
      const std::int64_t a = canonical_address(c.operand, c.descriptor, i, k);
      if (a < 0) throw Error(c.loc, "the descriptor reads below shared address 0");
      size = std::max(size, a + bytes);
    }
  size = (size + 15) / 16 * 16;
  const WgmmaRun dense = dense_wgmma_run(inst, Major::k, SwizzleMode::b128, Major::k, SwizzleMode::b128);
  for (int n = 0; n < options.cases; ++n) {
    const Distribution dist = case_distribution(n, options.inputs);
    const int k = inst.k();
    const GemmInputs g = random_gemm_inputs({WgmmaInst::kM, k, inst.a, 1}, {k, inst.n, inst.b, 0},
                                            {WgmmaInst::kM, inst.n, inst.d}, dist, options.seed, n);
    const std::vector<std::uint32_t> c_words = accumulator_words(inst, g.c.bits);
    std::vector<std::byte> reference_image(static_cast<std::size_t>(dense.image_bytes), std::byte{0});
    stage_operand(dense, 'A', g.a.bits, reference_image);
    stage_operand(dense, 'B', g.b.bits, reference_image);
    const std::vector<std::uint64_t> expected =
        accumulator_tile(inst, run_wgmma(dense, arith, reference_image, c_words));
    // The program's image: its operand where its buffer placed each element.
    std::vector<std::byte> image(static_cast<std::size_t>(size), std::byte{0});
    const std::vector<std::uint64_t>& tile = given == 'A' ? g.a.bits : g.b.bits;
    for (int i = 0; i < c.operand.rows; ++i)
      for (int kk = 0; kk < c.operand.k; ++kk)
        put(image, c.placed[static_cast<std::size_t>(i) * c.operand.k + kk], tile[tile_index(c, i, kk)], bytes);
    stage_operand(out.run, given == 'A' ? 'B' : 'A', given == 'A' ? g.b.bits : g.a.bits, image);
    WgmmaRun sized = out.run;
    sized.image_bytes = size;
    const std::vector<std::uint64_t> got = accumulator_tile(inst, run_wgmma(sized, arith, image, c_words));
    out.add_case(n, dist, inst.n, expected, got, options.show);
  }
  return out;
}

}  // namespace mmacheck::sim
