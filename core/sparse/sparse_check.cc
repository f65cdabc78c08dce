#include "core/sparse/sparse_check.h"

#include <algorithm>
#include <map>

namespace mmacheck {

namespace {

std::string lane_name(int lane) {
  return "lane " + std::to_string(lane) + " (g " + std::to_string(lane / 4) + ", t " + std::to_string(lane % 4) + ")";
}

std::string bits_name(int nibble) {
  return "e bits " + std::to_string(4 * nibble + 3) + ":" + std::to_string(4 * nibble);
}

std::string slot_name(const std::optional<MetaSlot>& s) {
  return s ? "A row " + std::to_string(s->row) + " chunk " + std::to_string(s->chunk) : std::string("nothing");
}

std::string nibble_name(std::uint8_t v) {
  return "0b" + std::string{static_cast<char>('0' + (v >> 3 & 1)), static_cast<char>('0' + (v >> 2 & 1)),
                            static_cast<char>('0' + (v >> 1 & 1)), static_cast<char>('0' + (v & 1))};
}

// The six valid ordered nibbles: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3).

struct Failures {
  std::vector<std::string> points;
  void add(std::string s) {
    if (points.size() < 9) points.push_back(std::move(s));
  }
};

// The kernel's placement of nibble `j` of `lane`: nullopt where the lane does
// not write e.
std::optional<MetaSlot> kernel_slot(const SparseCase& c, int lane, int j) {
  if (std::find(c.holders.begin(), c.holders.end(), lane % 4) == c.holders.end()) return std::nullopt;
  return MetaSlot{c.row.at(lane, j), c.chunk.at(lane, j)};
}

// Placement (each point against the ISA) into `f`, the kernel's own coverage
// of A's chunks into `cover`.
void check_layout(const SparseCase& c, Failures& f, Failures& cover) {
  const SparseMmaInst& inst = *c.inst;
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < kMetaNibbles; ++j) {
      const std::optional<MetaSlot> mine = kernel_slot(c, lane, j);
      const std::optional<MetaSlot> isa = isa_meta_slot(inst, c.selector, lane, j);
      if (mine != isa)
        f.add(lane_name(lane) + " " + bits_name(j) + ": the kernel puts " + slot_name(mine) +
              " there, the ISA (selector " + std::to_string(c.selector) + ") reads " + slot_name(isa) + " from it");
    }
  // Coverage of the kernel's own layout: each (row, chunk) once.
  std::map<std::pair<int, int>, std::vector<std::string>> writers;
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < kMetaNibbles; ++j)
      if (const auto s = kernel_slot(c, lane, j))
        writers[{s->row, s->chunk}].push_back(lane_name(lane) + " " + bits_name(j));
  for (int r = 0; r < inst.m; ++r)
    for (int k = 0; k < inst.chunks_per_row(); ++k) {
      const auto it = writers.find({r, k});
      const std::size_t n = it == writers.end() ? 0 : it->second.size();
      if (n == 0)
        cover.add("A row " + std::to_string(r) + " chunk " + std::to_string(k) + ": no lane writes its metadata");
      if (n > 1)
        cover.add("A row " + std::to_string(r) + " chunk " + std::to_string(k) + ": written " + std::to_string(n) +
                  " times (" + it->second[0] + ", " + it->second[1] + ")");
    }
  for (const auto& [slot, who] : writers)
    if (slot.first < 0 || slot.first >= inst.m || slot.second < 0 || slot.second >= inst.chunks_per_row())
      cover.add(who[0] + ": the kernel puts A row " + std::to_string(slot.first) + " chunk " +
                std::to_string(slot.second) + " there, outside the " + std::to_string(inst.m) + " x " +
                std::to_string(inst.chunks_per_row()) + " chunks of A");
}

// Where the ISA reads (row, chunk)'s nibble from.
std::string reader_of(const SparseCase& c, int row, int chunk) {
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < kMetaNibbles; ++j)
      if (isa_meta_slot(*c.inst, c.selector, lane, j) == MetaSlot{row, chunk})
        return lane_name(lane) + " " + bits_name(j);
  return "no lane";
}

void check_pattern(const SparseCase& c, const MetaGrid& grid, Failures& f) {
  const int cpr = c.inst->chunks_per_row();
  for (int r = 0; r < c.inst->m; ++r)
    for (int k = 0; k < cpr; ++k) {
      const std::uint8_t v = grid[r * cpr + k];
      if (meta_valid(*c.inst, v, c.ordered)) continue;
      const int i0 = meta_index(v, 0), i1 = meta_index(v, 1), w = c.inst->chunk_elems();
      f.add("A row " + std::to_string(r) + " chunk " + std::to_string(k) + " (columns " + std::to_string(w * k) + ".." +
            std::to_string(w * k + w - 1) + "): metadata " + nibble_name(v) + " (" + reader_of(c, r, k) + ") " +
            (w == 2     ? std::string("is neither 0b0100 nor 0b1110 (tf32's only values; undefined behaviour)")
             : i0 == i1 ? "names index " + std::to_string(i0) + " twice (undefined behaviour)"
                        : "has indices " + std::to_string(i0) + ", " + std::to_string(i1) +
                              " out of order (::ordered_metadata requires idx0 < idx1)"));
    }
}

// The kernel's e registers (its layout applied to the pattern), as the
// instruction reads them; then every A fragment element's logical column.
void check_addressed(const SparseCase& c, const MetaGrid& grid, Failures& f) {
  const SparseMmaInst& inst = *c.inst;
  const int cpr = inst.chunks_per_row();
  std::vector<std::uint32_t> e(32, 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int j = 0; j < kMetaNibbles; ++j)
      if (const auto s = kernel_slot(c, lane, j);
          s && s->row >= 0 && s->row < inst.m && s->chunk >= 0 && s->chunk < cpr)
        e[lane] |= std::uint32_t{grid[s->row * cpr + s->chunk]} << (4 * j);
  const MetaGrid read = meta_grid(inst, c.selector, e);
  const Frame& af = inst.a_frame();
  std::map<std::pair<int, int>, std::vector<std::string>> hits;  // logical (row, col) -> readers
  for (int lane = 0; lane < 32; ++lane)
    for (int el = 0; el < af.elems(); ++el) {
      const TileCoord q = af.at(lane, el);
      const std::span<const std::uint8_t> row_meta(read.data() + q.row * cpr, cpr);
      const int col = logical_col(inst, row_meta, q.col);
      hits[{q.row, col}].push_back(lane_name(lane) + " register a" + std::to_string(el / af.per_reg()) + " element a" +
                                   std::to_string(el) + " (compressed column " + std::to_string(q.col) + ")");
    }
  for (int r = 0; r < inst.m; ++r) {
    const std::span<const std::uint8_t> row_meta(grid.data() + r * cpr, cpr);
    std::vector<bool> kept(inst.k, false);
    for (int q = 0; q < inst.a_cols(); ++q) kept[logical_col(inst, row_meta, q)] = true;
    for (int col = 0; col < inst.k; ++col) {
      const auto it = hits.find({r, col});
      const std::size_t n = it == hits.end() ? 0 : it->second.size();
      const std::string at = "A[" + std::to_string(r) + "][" + std::to_string(col) + "]";
      if (kept[col] && n == 0)
        f.add("kept element " + at + " is read by no lane (chunk " + std::to_string(chunk_of(inst, col)) +
              "'s metadata, " + reader_of(c, r, chunk_of(inst, col)) + ", names other columns)");
      if (kept[col] && n > 1)
        f.add("kept element " + at + " is read " + std::to_string(n) + " times: " + it->second[0] + " and " +
              it->second[1]);
      if (!kept[col] && n > 0) f.add("pruned element " + at + " is read by " + it->second[0]);
    }
  }
}

}  // namespace

SparseReport check_sparse(const SparseCase& c) {
  SparseReport r;
  r.name = c.name;
  r.instruction = c.inst->ptx(c.ordered);
  const auto finish = [&](const char* check, Failures& f) {
    if (f.points.empty()) return false;
    r.result = FrameVerdict::refuted;
    r.check = check;
    r.message = f.points[0];
    r.also.assign(f.points.begin() + 1, f.points.end());
    return true;
  };
  Failures layout, cover;
  check_layout(c, layout, cover);
  if (!layout.points.empty() || !cover.points.empty()) {
    // What the misplaced metadata does: the elements read wrong under the
    // file's pattern, or under a probe pattern whose nibble differs from
    // chunk to chunk (a uniform one would hide a misplaced chunk).
    MetaGrid probe(c.inst->m * c.inst->chunks_per_row());
    const std::span<const std::uint8_t> valid = meta_nibbles(*c.inst, true);
    for (std::size_t i = 0; i < probe.size(); ++i) probe[i] = valid[(i * 5 + i / 7) % valid.size()];
    const MetaGrid& used = c.pattern ? *c.pattern : probe;
    Failures addressed;
    check_addressed(c, used, addressed);
    if (layout.points.size() > 4) layout.points.resize(4);
    for (const std::string& p : cover.points) layout.add(p);
    finish("layout", layout);
    for (std::size_t i = 0; i < addressed.points.size() && i < 3; ++i)
      r.also.push_back(addressed.points[i] + (c.pattern ? "" : " (probe pattern)"));
    return r;
  }
  if (c.pattern) {
    Failures pattern, addressed;
    check_pattern(c, *c.pattern, pattern);
    if (finish("pattern", pattern)) return r;
    check_addressed(c, *c.pattern, addressed);
    if (finish("addressed", addressed)) return r;
    r.message = "metadata layout is the ISA's for selector " + std::to_string(c.selector) +
                "; the pattern is valid and every kept element of A is read exactly once";
    return r;
  }
  const std::span<const std::uint8_t> valid = meta_nibbles(*c.inst, c.ordered);
  for (const std::uint8_t v : valid) {
    const MetaGrid uniform(c.inst->m * c.inst->chunks_per_row(), v);
    Failures addressed;
    check_addressed(c, uniform, addressed);
    if (finish("addressed", addressed)) return r;
  }
  r.message = "metadata layout is the ISA's for selector " + std::to_string(c.selector) +
              "; for every valid pattern (" + std::to_string(valid.size()) +
              " nibbles per chunk) every kept element of A is read exactly once";
  return r;
}

}  // namespace mmacheck
