#include "sim/wgmma/wgmma_machine.h"

#include <algorithm>
#include <tuple>

#include "core/base/error.h"
#include "core/wgmma/wgmma_frame.h"

namespace mmacheck::sim {

namespace {

constexpr std::int64_t kOperandAlign = 1024;  // the 128B pattern's boundary: every mode's base offset is 0

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

const WgmmaFrame& accumulator_frame(const WgmmaInst& inst) {
  const std::string shape = "m64nNk" + std::to_string(inst.k());
  const WgmmaFrame* f = find_wgmma_frame(shape, WgmmaFragment::D, dtype_bits(inst.d) == 16 ? 16 : 32);
  if (!f) throw Error("no accumulator frame for " + inst.ptx());
  return *f;
}

void check_address(std::int64_t addr, int width, std::size_t size, char op, int i, int k) {
  if (addr < 0 || addr + width > static_cast<std::int64_t>(size))
    throw Error(std::string(1, op) + "(" + std::to_string(i) + ", " + std::to_string(k) + ") is read at byte " +
                std::to_string(addr) + ", outside the " + std::to_string(size) + "-byte shared memory");
}

}  // namespace

DenseLayout dense_layout(const WgmmaOperand& op, SwizzleMode mode) {
  const int width = op.type->bytes;
  const int row = swizzle_mode(mode).row_bytes;
  const std::int64_t k_bytes = std::int64_t{op.k} * width;  // 32
  if (op.major == Major::k) {
    // none: 8 x 16-byte core matrices, the K chunks LBO = 128 apart, 8 rows SBO on.
    if (mode == SwizzleMode::none) return {128, 128 * (k_bytes / 16), (op.rows / 8) * 128 * (k_bytes / 16)};
    return {16, 8 * row, (op.rows / 8) * 8 * row};  // one W-byte row per i, 8 rows an atom
  }
  if (mode == SwizzleMode::none) {
    const int t = 16 / width;                                   // MN elements in 16 bytes
    const std::int64_t column = ((op.rows + t - 1) / t) * 128;  // 8 k of every MN (8-bit N = 8: half a core matrix)
    return {column, 128, column * ((op.k + 7) / 8)};
  }
  const int per_row = row / width;
  const std::int64_t atoms_mn = (op.rows + per_row - 1) / per_row;
  const std::int64_t atom = 8 * row;  // 8 k rows of W bytes
  const std::int64_t k_atoms = (op.k + 7) / 8;
  return {atom * k_atoms, atom, atoms_mn * atom * k_atoms};
}

WgmmaOperand wgmma_operand(const WgmmaInst& inst, char op, Major major) {
  const DType t = op == 'A' ? inst.a : inst.b;
  const WgmmaType* type = find_wgmma_type(dtype_info(t).ptx);
  if (!type) throw Error("no wgmma operand type " + std::string(dtype_info(t).ptx));
  return WgmmaOperand{
      .operand = op, .type = type, .rows = op == 'A' ? WgmmaInst::kM : inst.n, .k = inst.k(), .major = major};
}

WgmmaRun dense_wgmma_run(const WgmmaInst& inst, Major a_major, SwizzleMode a_mode, Major b_major, SwizzleMode b_mode) {
  if (const std::string why = inst.problem(); !why.empty()) throw Error(inst.ptx() + ": " + why);
  WgmmaRun run{.inst = inst, .a = {}, .b = {}, .image_bytes = 0};
  std::int64_t at = 0;
  for (const auto& [op, major, mode] : {std::tuple{'A', a_major, a_mode}, std::tuple{'B', b_major, b_mode}}) {
    const WgmmaOperand operand = wgmma_operand(inst, op, major);
    if (const std::string why = operand.problem(); !why.empty()) throw Error(operand.instruction() + ": " + why);
    const DenseLayout l = dense_layout(operand, mode);
    WgmmaSmemOperand& s = op == 'A' ? run.a : run.b;
    s.major = major;
    s.descriptor = MatrixDescriptor{.start = at, .lbo = l.lbo, .sbo = l.sbo, .base_offset = 0, .swizzle = mode};
    at = round_up(at + l.bytes, kOperandAlign);
  }
  run.image_bytes = at;
  return run;
}

WgmmaRun partnered_wgmma_run(const WgmmaInst& inst, char given, const WgmmaSmemOperand& operand,
                             std::int64_t used_bytes, SwizzleMode partner_mode) {
  if (const std::string why = inst.problem(); !why.empty()) throw Error(inst.ptx() + ": " + why);
  const char other = given == 'A' ? 'B' : 'A';
  const WgmmaOperand partner = wgmma_operand(inst, other, Major::k);
  const DenseLayout l = dense_layout(partner, partner_mode);
  const std::int64_t at = round_up(used_bytes, kOperandAlign);
  const WgmmaSmemOperand dense{
      MatrixDescriptor{.start = at, .lbo = l.lbo, .sbo = l.sbo, .base_offset = 0, .swizzle = partner_mode}, Major::k};
  WgmmaRun run{.inst = inst,
               .a = given == 'A' ? operand : dense,
               .b = given == 'A' ? dense : operand,
               .image_bytes = round_up(at + l.bytes, kOperandAlign)};
  return run;
}

std::string layout_name(const WgmmaRun& run) {
  const auto one = [](const WgmmaSmemOperand& s) {
    return std::string(major_name(s.major)) + "-major " + std::string(swizzle_mode(s.descriptor.swizzle).name);
  };
  return "A " + one(run.a) + ", B " + one(run.b);
}

void stage_tile(const WgmmaOperand& operand, const MatrixDescriptor& d, std::span<const std::uint64_t> tile,
                std::span<std::byte> image) {
  const int width = operand.type->bytes;
  for (int i = 0; i < operand.rows; ++i)
    for (int k = 0; k < operand.k; ++k) {
      // A is rows x K; B is K x N: element (n = i, k) at k * N + i.
      const std::uint64_t bits =
          operand.operand == 'A' ? tile[std::size_t(i) * operand.k + k] : tile[std::size_t(k) * operand.rows + i];
      const std::int64_t addr = canonical_address(operand, d, i, k);
      check_address(addr, width, image.size(), operand.operand, i, k);
      for (int byte = 0; byte < width; ++byte)
        image[std::size_t(addr + byte)] = static_cast<std::byte>((bits >> (8 * byte)) & 0xFF);
    }
}

std::vector<std::uint64_t> read_tile(const WgmmaOperand& operand, const MatrixDescriptor& d,
                                     std::span<const std::byte> image) {
  const int width = operand.type->bytes;
  std::vector<std::uint64_t> tile(std::size_t(operand.rows) * operand.k);
  for (int i = 0; i < operand.rows; ++i)
    for (int k = 0; k < operand.k; ++k) {
      const std::int64_t addr = canonical_address(operand, d, i, k);
      check_address(addr, width, image.size(), operand.operand, i, k);
      std::uint64_t bits = 0;
      for (int byte = 0; byte < width; ++byte)
        bits |= std::uint64_t{std::to_integer<std::uint8_t>(image[std::size_t(addr + byte)])} << (8 * byte);
      tile[operand.operand == 'A' ? std::size_t(i) * operand.k + k : std::size_t(k) * operand.rows + i] = bits;
    }
  return tile;
}

void stage_operand(const WgmmaRun& run, char op, std::span<const std::uint64_t> tile, std::span<std::byte> image) {
  const WgmmaSmemOperand& s = op == 'A' ? run.a : run.b;
  stage_tile(wgmma_operand(run.inst, op, s.major), s.descriptor, tile, image);
}

std::vector<std::uint64_t> read_operand(const WgmmaRun& run, char op, std::span<const std::byte> image) {
  const WgmmaSmemOperand& s = op == 'A' ? run.a : run.b;
  return read_tile(wgmma_operand(run.inst, op, s.major), s.descriptor, image);
}

int accumulator_regs(const WgmmaInst& inst) { return accumulator_frame(inst).regs(inst.n); }

std::vector<std::uint32_t> accumulator_words(const WgmmaInst& inst, std::span<const std::uint64_t> tile) {
  const WgmmaFrame& f = accumulator_frame(inst);
  const int regs = f.regs(inst.n), elems = f.elems(inst.n);
  const std::uint64_t mask = dtype_mask(inst.d);
  if (tile.size() != std::size_t(WgmmaInst::kM) * inst.n)
    throw Error(inst.ptx() + ": accumulator tile has " + std::to_string(tile.size()) + " elements");
  std::vector<std::uint32_t> words(std::size_t(WgmmaFrame::kThreads) * regs, 0);
  for (int t = 0; t < WgmmaFrame::kThreads; ++t)
    for (int e = 0; e < elems; ++e) {
      const auto [row, col] = f.at(t, e);
      const int shift = (e % f.per_reg()) * f.elem_bits;
      words[std::size_t(t) * regs + e / f.per_reg()] |=
          static_cast<std::uint32_t>((tile[std::size_t(row) * inst.n + col] & mask) << shift);
    }
  return words;
}

std::vector<std::uint64_t> accumulator_tile(const WgmmaInst& inst, std::span<const std::uint32_t> words) {
  const WgmmaFrame& f = accumulator_frame(inst);
  const int regs = f.regs(inst.n), elems = f.elems(inst.n);
  if (words.size() != std::size_t(WgmmaFrame::kThreads) * regs)
    throw Error(inst.ptx() + ": " + std::to_string(words.size()) + " accumulator words, expected " +
                std::to_string(WgmmaFrame::kThreads * regs));
  std::vector<std::uint64_t> tile(std::size_t(WgmmaInst::kM) * inst.n, 0);
  for (int t = 0; t < WgmmaFrame::kThreads; ++t)
    for (int e = 0; e < elems; ++e) {
      const auto [row, col] = f.at(t, e);
      const int shift = (e % f.per_reg()) * f.elem_bits;
      tile[std::size_t(row) * inst.n + col] =
          (words[std::size_t(t) * regs + e / f.per_reg()] >> shift) & dtype_mask(inst.d);
    }
  return tile;
}

std::vector<std::uint32_t> run_wgmma(const WgmmaRun& run, const ArchParams& arith, std::span<const std::byte> image,
                                     std::span<const std::uint32_t> c_words) {
  const std::vector<std::uint64_t> a = read_operand(run, 'A', image);
  const std::vector<std::uint64_t> b = read_operand(run, 'B', image);
  const std::vector<std::uint64_t> c = accumulator_tile(run.inst, c_words);
  std::vector<std::uint64_t> d(c.size());
  wgmma_tile(run.inst, arith, a, b, c, d);
  return accumulator_words(run.inst, d);
}

}  // namespace mmacheck::sim
