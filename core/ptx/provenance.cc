#include "core/ptx/provenance.h"

#include <algorithm>

#include "core/base/error.h"

namespace mmacheck::ptx {

std::uint64_t Provenance::add_input(int tensor, std::int64_t elements, int element_bytes) {
  if (!entries_.empty()) throw Error("internal: an input added after the run began");
  const std::uint64_t base = next_input_;
  if (elements < 0 || static_cast<std::uint64_t>(elements) > kMaxIds - base)
    throw Error("the provenance run names more than 2^36 values: use a smaller launch");
  inputs_.push_back({base, elements, tensor, element_bytes});
  next_input_ += static_cast<std::uint64_t>(elements);
  return base;
}

std::optional<Provenance::Input> Provenance::input(std::uint64_t id) const {
  if (id < opaque_end_ || id >= next_input_) return std::nullopt;
  const auto it = std::upper_bound(inputs_.begin(), inputs_.end(), id,
                                   [](std::uint64_t v, const InputRange& r) { return v < r.base; });
  if (it == inputs_.begin()) return std::nullopt;
  const InputRange& r = *(it - 1);
  if (id - r.base >= static_cast<std::uint64_t>(r.count)) return std::nullopt;
  return Input{r.tensor, static_cast<std::int64_t>(id - r.base)};
}

std::uint64_t Provenance::add_sum(std::uint64_t parent, std::span<const Product> products, int width, Origin origin,
                                  bool fold) {
  if (next_input_ + entries_.size() + 1 >= kMaxIds)
    throw Error("the provenance run names more than 2^36 values: use a smaller launch");
  constexpr std::uint32_t kFoldRuns = 4;  // a parent of more is kept as a parent (no quadratic copying)
  const std::size_t begin = runs_.size();
  if (const Entry* p = entry(parent);
      fold && p != nullptr && p->kind == Entry::Kind::sum && p->count <= kFoldRuns && note_for(parent) == nullptr) {
    const std::uint64_t from = p->begin;
    const std::uint32_t count = p->count;
    parent = p->parent;  // before runs_ grows (p points into entries_, which does not)
    for (std::uint32_t i = 0; i < count; ++i) {
      const ProductRun r = runs_[from + i];
      runs_.push_back(r);
    }
  }
  for (const Product& p : products) {
    // Runs of inputs only: a sum's id (a product of sums) is a product of its own.
    if (runs_.size() > begin && p.a < next_input_ && p.b < next_input_ && runs_.back().a < next_input_ &&
        runs_.back().b < next_input_) {
      ProductRun& r = runs_.back();
      const auto a_step = static_cast<std::int64_t>(p.a - r.a), b_step = static_cast<std::int64_t>(p.b - r.b);
      if (r.count == 1) {
        r.a_step = a_step;
        r.b_step = b_step;
        r.count = 2;
        continue;
      }
      if (a_step == r.a_step * r.count && b_step == r.b_step * r.count) {
        ++r.count;
        continue;
      }
    }
    if (runs_.size() >= max_runs_)
      throw Error("the provenance run holds more than " + std::to_string(max_runs_) +
                  " runs of products: use a smaller launch");
    // An arena counts against the grid's bound a batch at a time.
    if (budget_ != nullptr && ++unbudgeted_ == 4096) {
      counted_ += unbudgeted_;
      if (budget_->fetch_add(unbudgeted_) + unbudgeted_ > max_runs_)
        throw Error("the provenance run holds more than " + std::to_string(max_runs_) +
                    " runs of products: use a smaller launch");
      unbudgeted_ = 0;
    }
    runs_.push_back({p.a, p.b, 0, 0, 1, origin});
  }
  entries_.push_back(
      Entry{Entry::Kind::sum, parent, begin, static_cast<std::uint32_t>(runs_.size() - begin), width, origin});
  return next_input_ + entries_.size() - 1;
}

const Provenance::Note* Provenance::note_for(std::uint64_t id) const {
  // Notes are added in the order of their ids (an mma's after its sums).
  const auto it =
      std::upper_bound(notes_.begin(), notes_.end(), id, [](std::uint64_t v, const Note& n) { return v < n.first; });
  if (it == notes_.begin()) return nullptr;
  const Note& n = *(it - 1);
  return id <= n.last ? &n : nullptr;
}

void Provenance::compact(std::span<Tag> roots) {
  const std::size_t n = entries_.size();
  std::vector<std::uint8_t> live(n, 0);
  std::vector<std::size_t> stack;
  const auto reach = [&](std::uint64_t id) {
    if (id < next_input_ || id - next_input_ >= n) return;
    const std::size_t i = id - next_input_;
    if (live[i] == 0) {
      live[i] = 1;
      stack.push_back(i);
    }
  };
  for (const Tag t : roots)
    if (t != 0) reach(tag_id(t));
  while (!stack.empty()) {
    const Entry& e = entries_[stack.back()];
    stack.pop_back();
    if (e.kind == Entry::Kind::constant) continue;
    reach(e.parent);
    if (e.kind == Entry::Kind::sum)
      for (std::uint32_t r = 0; r < e.count; ++r) {
        const ProductRun& run = runs_[e.begin + r];
        if (run.count == 1) {  // runs of more are of inputs alone (add_sum)
          reach(run.a);
          reach(run.b);
        }
      }
  }
  std::vector<std::uint64_t> renamed(n, 0);
  std::vector<Entry> entries;
  std::vector<ProductRun> runs;
  for (std::size_t i = 0; i < n; ++i) {
    if (live[i] == 0) continue;
    renamed[i] = next_input_ + entries.size();
    Entry e = entries_[i];
    if (e.kind == Entry::Kind::sum) {
      const std::size_t from = e.begin;
      e.begin = runs.size();
      runs.insert(runs.end(), runs_.begin() + static_cast<std::ptrdiff_t>(from),
                  runs_.begin() + static_cast<std::ptrdiff_t>(from + e.count));
    }
    entries.push_back(e);
  }
  const auto rename = [&](std::uint64_t id) {
    return id < next_input_ || id - next_input_ >= n ? id : renamed[id - next_input_];
  };
  for (Entry& e : entries)
    if (e.kind != Entry::Kind::constant) e.parent = rename(e.parent);
  for (ProductRun& r : runs) {
    r.a = rename(r.a);
    r.b = rename(r.b);
  }
  std::vector<Note> notes;
  for (Note& note : notes_) {
    // The live ids of [first, last] are consecutive when renamed.
    std::uint64_t first = 0, last = 0;
    bool any = false;
    for (std::uint64_t id = note.first; id <= note.last; ++id)
      if (id >= next_input_ && id - next_input_ < n && live[id - next_input_] != 0) {
        if (!any) first = renamed[id - next_input_];
        last = renamed[id - next_input_];
        any = true;
      }
    if (!any) continue;
    note.first = first;
    note.last = last;
    notes.push_back(std::move(note));
  }
  constants_.clear();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].kind == Entry::Kind::constant && constants_.size() < 64)
      constants_.emplace_back((entries[i].parent << 8) | static_cast<std::uint64_t>(entries[i].width), next_input_ + i);
  if (budget_ != nullptr) {
    const std::uint64_t freed = std::min<std::uint64_t>(counted_, runs_.size() - runs.size());
    budget_->fetch_sub(freed);
    counted_ -= freed;
  }
  entries_ = std::move(entries);
  runs_ = std::move(runs);
  notes_ = std::move(notes);
  for (Tag& t : roots)
    if (t != 0) t = (t & ((std::uint64_t{1} << 28) - 1)) | (rename(tag_id(t)) << 28);
}

std::uint64_t Provenance::add_convert(std::uint64_t source, int width, Origin origin) {
  if (next_input_ + entries_.size() + 1 >= kMaxIds)
    throw Error("the provenance run names more than 2^36 values: use a smaller launch");
  entries_.push_back({Entry::Kind::convert, source, 0, 0, width, origin});
  return next_input_ + entries_.size() - 1;
}

std::uint64_t Provenance::constant(std::uint64_t bits, int width, Origin origin) {
  const std::uint64_t key = (bits << 8) | static_cast<std::uint64_t>(width);
  for (const auto& [k, id] : constants_)
    if (k == key) return id;
  if (next_input_ + entries_.size() + 1 >= kMaxIds)
    throw Error("the provenance run names more than 2^36 values: use a smaller launch");
  entries_.push_back({Entry::Kind::constant, bits, 0, 0, width, origin});
  const std::uint64_t id = next_input_ + entries_.size() - 1;
  if (constants_.size() < 64) constants_.emplace_back(key, id);
  return id;
}

Provenance Provenance::arena(std::atomic<std::uint64_t>& budget) const {
  Provenance a(0);
  a.opaque_end_ = opaque_end_;
  a.next_input_ = next_input_;
  a.inputs_ = inputs_;
  a.max_runs_ = max_runs_;
  a.budget_ = &budget;
  return a;
}

std::uint64_t Provenance::absorb(Provenance&& arena) {
  if (arena.next_input_ != next_input_) throw Error("internal: an arena of another provenance");
  const std::uint64_t delta = entries_.size();
  if (runs_.size() + arena.runs_.size() > max_runs_)
    throw Error("the provenance run holds more than " + std::to_string(max_runs_) +
                " runs of products: use a smaller launch");
  if (next_input_ + entries_.size() + arena.entries_.size() + 1 >= kMaxIds)
    throw Error("the provenance run names more than 2^36 values: use a smaller launch");
  const std::uint64_t run_base = runs_.size();
  for (ProductRun r : arena.runs_) {
    r.a = moved(r.a, delta);
    r.b = moved(r.b, delta);
    runs_.push_back(r);
  }
  for (Entry e : arena.entries_) {
    if (e.kind != Entry::Kind::constant) e.parent = moved(e.parent, delta);  // a constant's parent is its bits
    if (e.kind == Entry::Kind::sum) e.begin += run_base;
    entries_.push_back(e);
  }
  for (Note n : arena.notes_) {
    n.first = moved(n.first, delta);
    n.last = moved(n.last, delta);
    notes_.push_back(std::move(n));
  }
  return delta;
}

const Provenance::Entry* Provenance::entry(std::uint64_t id) const {
  if (id < next_input_ || id - next_input_ >= entries_.size()) return nullptr;
  return &entries_[id - next_input_];
}

int Provenance::width(std::uint64_t id) const {
  if (const Entry* e = entry(id)) return e->width;
  if (id < opaque_end_ || id >= next_input_) return 0;
  const auto it = std::upper_bound(inputs_.begin(), inputs_.end(), id,
                                   [](std::uint64_t v, const InputRange& r) { return v < r.base; });
  return it == inputs_.begin() ? 0 : (it - 1)->element_bytes;
}

ElementRef element_ref(const Provenance& p, const Value& v, int byte, int bytes) {
  bool any = false;
  for (int i = 0; i < bytes; ++i) any = any || v.tags[static_cast<std::size_t>(byte + i)] != 0;
  if (!any) {
    const std::uint64_t mask = bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1;
    return {((v.bits >> (8 * byte)) & mask) == 0 ? ElementRef::Kind::zero : ElementRef::Kind::constant, 0};
  }
  const Tag first = v.tags[static_cast<std::size_t>(byte)];
  for (int i = 0; i < bytes; ++i)
    if (tag_id(v.tags[static_cast<std::size_t>(byte + i)]) == kUnwritten) return {ElementRef::Kind::unwritten, 0};
  for (int i = 0; i < bytes; ++i) {
    const Tag t = v.tags[static_cast<std::size_t>(byte + i)];
    if (tag_id(t) != tag_id(first) || tag_byte(t) != i) return {ElementRef::Kind::pieces, tag_id(first)};
  }
  if (p.opaque_inst(tag_id(first)) < 0 && p.width(tag_id(first)) != bytes)
    return {ElementRef::Kind::pieces, tag_id(first)};
  return {ElementRef::Kind::value, tag_id(first)};
}

}  // namespace mmacheck::ptx
