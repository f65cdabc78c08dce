// Provenance — where the CTA machine's values come from, carried beside
// their bits: every byte of a register or of memory has a Tag naming the
// value it is a byte of.  Copies (mov, ld, st, cp.async, ldmatrix, shuffles,
// byte permutes and whole-byte shifts and masks) move tags with the bytes;
// mma.sync reads its operands' elements through them and makes a sum; other
// arithmetic on tagged bytes makes an opaque value naming its instruction.
// The check of a launch (core/ptx/ptx_check.h) reads D's tags at the end.
//
// A tag is byte b of value `id`, and the instruction that last loaded the
// byte into a register (ld, ldmatrix; copies keep it), for the diagnosis of
// an mma's operands: bits 0-7 the byte, 8-27 that instruction + 1 (0: none),
// 28-63 the id (so at most 2^36 ids).  Ids:
//
//   0             no provenance: a constant, an index, an address
//   1             never written (a register or shared byte before any write)
//   2 .. 2+n      opaque: computed from tagged values by instruction i - 2
//   inputs        one id per element of each input tensor (A, B, C)
//   dynamic       sums (an mma's result: a parent plus its products) and
//                 conversions of a value to a narrower float (cvt)
//
//     Provenance p(kernel.code.size());
//     const std::uint64_t a0 = p.add_input(0, 16 * 16);   // A's elements
//     p.input(a0 + 17) == Provenance::Input{0, 17};
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mmacheck::ptx {

using Tag = std::uint64_t;
constexpr std::uint64_t kMaxIds = std::uint64_t{1} << 36;
constexpr Tag make_tag(std::uint64_t id, int byte) { return (id << 28) | static_cast<std::uint64_t>(byte); }
constexpr std::uint64_t tag_id(Tag t) { return t >> 28; }
constexpr int tag_byte(Tag t) { return static_cast<int>(t & 0xFF); }
// The instruction that loaded the byte into a register, or -1.
constexpr int tag_loaded_by(Tag t) { return static_cast<int>((t >> 8) & 0xFFFFF) - 1; }
constexpr Tag loaded_by(Tag t, int inst) {
  return t == 0 ? 0 : (t & ~(std::uint64_t{0xFFFFF} << 8)) | (static_cast<std::uint64_t>(inst + 1) << 8);
}
constexpr std::uint64_t kUnwritten = 1;

// A register's or a loaded value: up to 64 bits and one tag per byte.
struct Value {
  std::uint64_t bits = 0;
  std::array<Tag, 8> tags{};
  bool tagged(int bytes) const {
    for (int i = 0; i < bytes && i < 8; ++i)
      if (tags[static_cast<std::size_t>(i)] != 0) return true;
    return false;
  }
};

// Where the machine made a value: instruction index, CTA (linear), thread.
struct Origin {
  int inst = -1;
  std::int64_t cta = 0;
  int thread = 0;
};

// One product of an mma: the ids of its A and its B element.
struct Product {
  std::uint64_t a;
  std::uint64_t b;
};

// Products (a + t·a_step, b + t·b_step) for t < count: a sum's products as
// runs, so that an mma's products for one element of D, its A row and B
// column read in k order, take one run, not k products (and the check of D
// takes a run at a time).  `origin`: the mma that added the run's first
// product (a run goes on through later mmas that continue it).
struct ProductRun {
  std::uint64_t a, b;
  std::int64_t a_step, b_step;
  std::uint32_t count;
  Origin origin;
  Product at(std::uint32_t t) const {
    return {a + static_cast<std::uint64_t>(a_step * t), b + static_cast<std::uint64_t>(b_step * t)};
  }
};

class Provenance {
 public:
  // `instructions`: the kernel's, one opaque id each.
  explicit Provenance(std::size_t instructions) : opaque_end_(2 + instructions), next_input_(opaque_end_) {}

  // Ids for `elements` elements of input tensor `tensor` (consecutive from
  // the returned base); before any dynamic id.
  std::uint64_t add_input(int tensor, std::int64_t elements, int element_bytes);

  struct Input {
    int tensor;
    std::int64_t element;  // storage index (offset / element size)
    bool operator==(const Input&) const = default;
  };
  std::optional<Input> input(std::uint64_t id) const;
  std::uint64_t opaque(int inst) const { return 2 + static_cast<std::uint64_t>(inst); }
  // The instruction an opaque id names, or -1.
  int opaque_inst(std::uint64_t id) const { return id >= 2 && id < opaque_end_ ? static_cast<int>(id - 2) : -1; }

  struct Entry {
    enum class Kind : std::uint8_t { sum, convert, constant } kind;
    std::uint64_t parent;  // sum: the accumulator's id before (0: zero); convert: the source; constant: its bits
    std::uint64_t begin;   // sum: its runs in runs()
    std::uint32_t count;
    int width;  // bytes
    Origin origin;
  };
  // A new sum: `parent` plus `products` (kept as runs).  With `fold`, a
  // parent sum of this arena without a note is folded in (its runs copied,
  // its parent taken) where the result stays a few runs: an accumulator's
  // chain over K then is one entry of one run, and the entries it passed
  // through are garbage for compact().  Throws Error past `max_runs` runs
  // in all (the run's memory bound).
  std::uint64_t add_sum(std::uint64_t parent, std::span<const Product> products, int width, Origin origin,
                        bool fold = false);
  std::uint64_t add_convert(std::uint64_t source, int width, Origin origin);
  // A constant an mma starts an accumulator from (a scalar C), one id per
  // (bits, width).
  std::uint64_t constant(std::uint64_t bits, int width, Origin origin);
  // The bytes of the value `id` names (an input element's, a sum's, a
  // conversion's); 0 for the others.
  int width(std::uint64_t id) const;
  const Entry* entry(std::uint64_t id) const;
  std::span<const ProductRun> runs(const Entry& e) const { return {runs_.data() + e.begin, e.count}; }

  void set_max_runs(std::uint64_t n) { max_runs_ = n; }

  // Arenas: the CTAs of a grid run at once, each making its sums in an
  // arena of its own — the same inputs and opaque ids, dynamic ids from the
  // same first one — absorbed in the grid's order when they are done.  The
  // runs of every arena of one `budget` count against max_runs together.
  //
  //     std::atomic<std::uint64_t> budget{0};
  //     Provenance cta = grid.arena(budget);   ... the CTA runs ...
  //     const std::uint64_t delta = grid.absorb(std::move(cta));
  //     grid.moved(id_in_cta, delta)            // the same value's id in grid
  Provenance arena(std::atomic<std::uint64_t>& budget) const;
  // Appends the arena's values after this one's; the delta moved() takes.
  std::uint64_t absorb(Provenance&& arena);
  std::uint64_t moved(std::uint64_t id, std::uint64_t delta) const { return id >= next_input_ ? id + delta : id; }
  // Drops every value of this arena that no tag of `roots` reaches (through
  // parents, conversions and products) and numbers the rest anew, in order;
  // rewrites `roots` to the new ids.  A CTA's arena, when it is done: what
  // its global writes hold is all that outlives it.
  void compact(std::span<Tag> roots);

  // What an mma's operands look like when they do not form one row of A and
  // one column of B per row and column of its tile (exec_mma's diagnosis):
  // the statement to blame (the mma, or the load that filled a register)
  // and why, for the sums [first, last] that mma made.  The check of D
  // cites it when one of those sums is wrong.
  struct Note {
    std::uint64_t first, last;
    int inst;  // the instruction to blame
    Origin origin;
    std::string message;
  };
  void add_note(Note note) { notes_.push_back(std::move(note)); }
  const Note* note_for(std::uint64_t id) const;
  // The id the next sum will get.
  std::uint64_t next_id() const { return next_input_ + entries_.size(); }

 private:
  std::uint64_t opaque_end_;
  std::uint64_t next_input_;
  struct InputRange {
    std::uint64_t base;
    std::int64_t count;
    int tensor;
    int element_bytes;
  };
  std::vector<InputRange> inputs_;
  std::vector<Entry> entries_;
  std::vector<ProductRun> runs_;
  std::vector<Note> notes_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> constants_;  // (bits << 8 | width, id)
  std::uint64_t max_runs_ = std::uint64_t{1} << 26;
  std::atomic<std::uint64_t>* budget_ = nullptr;  // an arena's: the grid's runs in all
  std::uint64_t unbudgeted_ = 0;                  // runs not yet counted in *budget_
  std::uint64_t counted_ = 0;                     // runs this arena counted in *budget_
};

// The value `bytes` bytes at `byte` of `v` hold, read through its tags:
// zero (untagged zero bits), a constant (untagged, nonzero), the id of one
// whole value (the bytes 0..n-1 of one id, in order, and the value `bytes`
// wide), never written, or pieces of values.
struct ElementRef {
  enum class Kind : std::uint8_t { zero, constant, value, unwritten, pieces } kind;
  std::uint64_t id = 0;
};
ElementRef element_ref(const Provenance& p, const Value& v, int byte, int bytes);

}  // namespace mmacheck::ptx
