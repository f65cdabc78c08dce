#include "sim/tcgen05/tcgen05_machine.h"

#include "core/base/error.h"
#include "core/tcgen05/tcgen05_tmem.h"
#include "sim/wgmma/wgmma_machine.h"
#include "sim/tcgen05/tcgen05_arith.h"

namespace mmacheck::sim {

namespace {

constexpr std::int64_t kOperandAlign = 1024;  // the 128B pattern's boundary: every mode's base offset is 0

std::int64_t round_up(std::int64_t x, std::int64_t to) { return (x + to - 1) / to * to; }

const DataPathLayout& data_path(const Tcgen05Run& run) {
  const DataPathLayout* path = find_data_path(run.instr.cta_group, run.instr.m);
  if (!path) throw Error(tcgen05_name(run.instr) + ": no data-path layout for its M");
  return *path;
}

// The 32-bit D types fill a column; a 16-bit one its low half.
std::uint32_t d_mask(const Tcgen05Instr& instr) { return instr.d->name == "f16" ? 0xFFFFu : 0xFFFFFFFFu; }

}  // namespace

std::size_t Tmem::index(std::int64_t lane, std::int64_t column) const {
  if (lane < 0 || lane >= kLanes || column < 0 || column >= kColumns)
    throw Error("TMEM lane " + std::to_string(lane) + " column " + std::to_string(column) + " is outside its " +
                std::to_string(kLanes) + " x " + std::to_string(kColumns) + " words");
  return std::size_t(lane) * kColumns + std::size_t(column);
}

WgmmaOperand tcgen05_operand(const Tcgen05Instr& instr, char op) {
  const bool is_a = op == 'A';
  return WgmmaOperand{.operand = op,
                      .type = is_a ? &instr.a->operand : &instr.b->operand,
                      .rows = is_a ? instr.m : instr.n,
                      .k = instr.k(),
                      .major = is_a ? instr.a_major : instr.b_major};
}

Tcgen05Run dense_tcgen05_run(const Tcgen05Instr& instr, SwizzleMode a_mode, SwizzleMode b_mode, int d_lane, int d_col) {
  if (const std::string why = tcgen05_sim_problem(instr); !why.empty()) throw Error(tcgen05_name(instr) + ": " + why);
  Tcgen05Run run{.instr = instr, .a = {}, .b = {}, .d_lane = d_lane, .d_col = d_col, .image_bytes = 0};
  if (const std::string why = tmem_address_problem(data_path(run), instr.n, d_lane, d_col); !why.empty())
    throw Error(tcgen05_name(instr) + ": " + why);
  std::int64_t at = 0;
  for (const char op : {'A', 'B'}) {
    const SwizzleMode mode = op == 'A' ? a_mode : b_mode;
    const DenseLayout l = dense_layout(tcgen05_operand(instr, op), mode);
    (op == 'A' ? run.a : run.b) = Tcgen05SmemDescriptor::from_wgmma(
        MatrixDescriptor{.start = at, .lbo = l.lbo, .sbo = l.sbo, .base_offset = 0, .swizzle = mode});
    at = round_up(at + l.bytes, kOperandAlign);
  }
  run.image_bytes = at;
  return run;
}

std::string tcgen05_layout_name(const Tcgen05Run& run) {
  const auto one = [](Major major, const Tcgen05SmemDescriptor& d) {
    return std::string(major_name(major)) + "-major " + std::string(tcgen05_swizzle(d.swizzle).name);
  };
  return "A " + one(run.instr.a_major, run.a) + ", B " + one(run.instr.b_major, run.b) + ", D at lane " +
         std::to_string(run.d_lane) + " column " + std::to_string(run.d_col);
}

void stage_tcgen05_operand(const Tcgen05Run& run, char op, std::span<const std::uint64_t> tile,
                           std::span<std::byte> image) {
  stage_tile(tcgen05_operand(run.instr, op), (op == 'A' ? run.a : run.b).as_wgmma(), tile, image);
}

std::vector<std::uint64_t> read_tcgen05_operand(const Tcgen05Run& run, char op, std::span<const std::byte> image) {
  return read_tile(tcgen05_operand(run.instr, op), (op == 'A' ? run.a : run.b).as_wgmma(), image);
}

void store_accumulator(const Tcgen05Run& run, std::span<const std::uint64_t> tile, Tmem& tmem) {
  const Tcgen05Instr& in = run.instr;
  if (tile.size() != std::size_t(in.m) * in.n)
    throw Error(tcgen05_name(in) + ": accumulator tile has " + std::to_string(tile.size()) + " elements");
  const DataPathLayout& path = data_path(run);
  const std::uint32_t mask = d_mask(in);
  for (int row = 0; row < in.m; ++row)
    for (int col = 0; col < in.n; ++col) {
      const TmemPosition p = tmem_position(path, in.n, run.d_lane, run.d_col, row, col);
      std::uint32_t& word = tmem.at(p.lane, p.column);
      word = (word & ~mask) | (static_cast<std::uint32_t>(tile[std::size_t(row) * in.n + col]) & mask);
    }
}

std::vector<std::uint64_t> load_accumulator(const Tcgen05Run& run, const Tmem& tmem) {
  const Tcgen05Instr& in = run.instr;
  const DataPathLayout& path = data_path(run);
  std::vector<std::uint64_t> tile(std::size_t(in.m) * in.n);
  for (int row = 0; row < in.m; ++row)
    for (int col = 0; col < in.n; ++col) {
      const TmemPosition p = tmem_position(path, in.n, run.d_lane, run.d_col, row, col);
      tile[std::size_t(row) * in.n + col] = tmem.at(p.lane, p.column) & d_mask(in);
    }
  return tile;
}

void run_tcgen05(const Tcgen05Run& run, const ArchParams& arith, std::span<const std::byte> image, Tmem& tmem) {
  const std::vector<std::uint64_t> a = read_tcgen05_operand(run, 'A', image);
  const std::vector<std::uint64_t> b = read_tcgen05_operand(run, 'B', image);
  const std::vector<std::uint64_t> c = load_accumulator(run, tmem);
  std::vector<std::uint64_t> d(c.size());
  tcgen05_tile(run.instr, arith, a, b, c, d);
  store_accumulator(run, d, tmem);
}

}  // namespace mmacheck::sim
