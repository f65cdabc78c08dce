#include "core/ptx/ptx_check.h"

#include <algorithm>
#include <array>
#include <bit>
#include <optional>
#include <string>
#include <vector>

#include "core/base/hex.h"

namespace mmacheck::ptx {

namespace {

class DCheck {
 public:
  DCheck(const PtxKernel& k, const PtxLaunch& l, const Provenance& p) : k_(k), l_(l), p_(p) {}

  // What value `id` is, in words: "A[3][4]", "a value computed at line 57", ...
  std::string describe(std::uint64_t id) const {
    if (id == kUnwritten) return "a value never written";
    if (const int inst = p_.opaque_inst(id); inst >= 0)
      return "a value computed by '" + k_.code[static_cast<std::size_t>(inst)].opcode + "' at line " +
             std::to_string(k_.code[static_cast<std::size_t>(inst)].loc.line);
    if (const auto in = p_.input(id)) {
      const TensorArg& t = l_.tensors[static_cast<std::size_t>(in->tensor)];
      if (const auto ij = t.matrix_index(in->element))
        return t.name + "[" + std::to_string(ij->first) + "][" + std::to_string(ij->second) + "]";
      return t.name + " at element offset " + std::to_string(in->element);
    }
    if (const Provenance::Entry* e = p_.entry(id))
      return std::string(e->kind == Provenance::Entry::Kind::sum ? "a sum" : "a conversion") + " made at line " +
             std::to_string(k_.code[static_cast<std::size_t>(e->origin.inst)].loc.line);
    return "value " + std::to_string(id);
  }

  // k0 when `run` is A[i][k0 + t]·B[k0 + t][j] for t < count, each a
  // different element of A and of B (their layouts place no two elements
  // at one offset); nullopt for any other run, which is checked a product
  // at a time.
  std::optional<std::int64_t> diagonal_run(const ProductRun& run, std::int64_t i, std::int64_t j) const {
    const TensorArg& A = l_.tensors[static_cast<std::size_t>(l_.a)];
    const TensorArg& B = l_.tensors[static_cast<std::size_t>(l_.b)];
    if (!one_to_one(A) || !one_to_one(B)) return std::nullopt;
    if (run.count > 1 && (run.a_step != A.strides[1] || run.b_step != B.strides[0])) return std::nullopt;
    const auto a = p_.input(run.a), b = p_.input(run.b);
    if (!a || !b || a->tensor != l_.a || b->tensor != l_.b) return std::nullopt;
    const auto ai = A.matrix_index(a->element), bi = B.matrix_index(b->element);
    if (!ai || !bi || ai->first != i || bi->second != j || ai->second != bi->first ||
        ai->second + run.count > A.shape[1])
      return std::nullopt;
    return ai->second;
  }
  // Whether a 2-D tensor's elements each have their own offset.
  static bool one_to_one(const TensorArg& t) {
    if (t.shape.size() != 2) return false;
    const bool rows_outer = t.strides[0] >= t.strides[1];
    const std::int64_t outer = rows_outer ? t.strides[0] : t.strides[1],
                       inner = rows_outer ? t.strides[1] : t.strides[0];
    const std::int64_t inner_n = rows_outer ? t.shape[1] : t.shape[0];
    return inner >= 1 && outer >= inner * inner_n;
  }
  Finding twice(const std::string& name, std::int64_t i, std::int64_t j, std::int64_t kk,
                const std::vector<Origin>& first_origin, const Origin& at) const {
    return at_origin(
        at, name + " adds A[" + std::to_string(i) + "][" + std::to_string(kk) + "]·B[" + std::to_string(kk) + "][" +
                std::to_string(j) + "] twice (also at line " +
                std::to_string(
                    k_.code[static_cast<std::size_t>(first_origin[static_cast<std::size_t>(kk)].inst)].loc.line) +
                ")");
  }

  // Whether every product of sum `s` (and its parents) is of A's row `row`
  // and B's column `col`, each with one k.
  bool owns_all(const Provenance::Entry& s, std::int64_t row, std::int64_t col) const {
    const Provenance::Entry* e = &s;
    while (e != nullptr && e->kind == Provenance::Entry::Kind::sum) {
      for (const ProductRun& run : p_.runs(*e))
        for (std::uint32_t t = 0; t < run.count; ++t) {
          const Product pr = run.at(t);
          const auto a = p_.input(pr.a), b = p_.input(pr.b);
          if (!a || !b || a->tensor != l_.a || b->tensor != l_.b) return false;
          const auto ai = l_.tensors[static_cast<std::size_t>(l_.a)].matrix_index(a->element);
          const auto bi = l_.tensors[static_cast<std::size_t>(l_.b)].matrix_index(b->element);
          if (!ai || !bi || ai->first != row || bi->second != col || ai->second != bi->first) return false;
        }
      e = e->parent == 0 ? nullptr : p_.entry(e->parent);
    }
    return true;
  }

  Finding at_origin(const Origin& o, std::string message) const {
    Finding f;
    f.loc = k_.code[static_cast<std::size_t>(o.inst)].loc;
    f.source = k_.code[static_cast<std::size_t>(o.inst)].source;
    const auto& g = l_.shape.grid;
    f.cta = {static_cast<int>(o.cta % g[0]), static_cast<int>((o.cta / g[0]) % g[1]),
             static_cast<int>(o.cta / (std::int64_t{g[0]} * g[1]))};
    f.thread = o.thread;
    f.message = std::move(message);
    return f;
  }

  // The first element of D that does not hold its sum, or nullopt;
  // element() is then that element.
  std::optional<Finding> run(const GlobalMemory& memory) {
    const std::optional<Finding> f = first_wrong(memory);
    if (!f) element_.reset();
    return f;
  }
  const std::optional<std::array<std::int64_t, 2>>& element() const { return element_; }

 private:
  std::optional<Finding> first_wrong(const GlobalMemory& memory) {
    const TensorArg& D = l_.tensors[static_cast<std::size_t>(l_.d)];
    const GlobalMemory::Region& r = memory.regions()[static_cast<std::size_t>(l_.d)];
    const std::int64_t K = l_.tensors[static_cast<std::size_t>(l_.a)].shape[1];
    const int bytes = D.element_bytes();
    std::vector<int> seen(static_cast<std::size_t>(K));
    std::vector<Origin> first_origin(static_cast<std::size_t>(K));  // read only where seen says this element set it
    for (std::int64_t i = 0; i < D.shape[0]; ++i)
      for (std::int64_t j = 0; j < D.shape[1]; ++j) {
        const std::int64_t off = (i * D.strides[0] + j * D.strides[1]) * bytes;
        Value v;
        for (int b = 0; b < bytes && b < 8; ++b) {
          v.bits |= std::uint64_t{r.bytes[static_cast<std::size_t>(off + b)]} << (8 * b);
          v.tags[static_cast<std::size_t>(b)] = r.tags[static_cast<std::size_t>(off + b)];
        }
        element_ = {i, j};
        const std::string name = D.name + "[" + std::to_string(i) + "][" + std::to_string(j) + "]";
        const std::int32_t where = r.where[static_cast<std::size_t>(off)];
        // At the store that wrote the element (its thread and CTA), or at the
        // kernel when nothing wrote it.
        const auto at_store = [&](std::string message) {
          if (where < 0) return Finding{k_.loc, {}, 0, std::move(message)};
          const auto threads = static_cast<std::uint32_t>(l_.shape.block[0] * l_.shape.block[1] * l_.shape.block[2]);
          const std::uint32_t w = r.writer[static_cast<std::size_t>(off)] - 1;
          return at_origin(Origin{where, static_cast<std::int64_t>(w / threads), static_cast<int>(w % threads)},
                           std::move(message));
        };
        const ElementRef e = element_ref(p_, v, 0, bytes);
        switch (e.kind) {
          case ElementRef::Kind::unwritten: return at_store(name + " is never written");
          case ElementRef::Kind::zero:
          case ElementRef::Kind::constant:
            if (K == 0) continue;
            return at_store(name + " holds a constant, not its sum over k (written at line " +
                            std::to_string(where >= 0 ? k_.code[static_cast<std::size_t>(where)].loc.line : 0) + ")");
          case ElementRef::Kind::pieces:
            return at_store(name + " holds pieces of different values (bytes of " + describe(e.id) + " and others)");
          case ElementRef::Kind::value: break;
        }
        std::uint64_t id = e.id;
        if (const Provenance::Entry* c = p_.entry(id); c != nullptr && c->kind == Provenance::Entry::Kind::convert)
          id = c->parent;
        std::fill(seen.begin(), seen.end(), 0);
        int c_terms = 0;
        while (id != 0) {
          const Provenance::Entry* s = p_.entry(id);
          if (s != nullptr && s->kind == Provenance::Entry::Kind::constant) {
            const bool wanted = l_.c_scalar && c_terms == 0 && s->width == 4 &&
                                s->parent == std::bit_cast<std::uint32_t>(static_cast<float>(*l_.c_scalar));
            if (wanted) {
              ++c_terms;
              break;
            }
            const std::uint64_t cbits = s->parent;
            return at_origin(s->origin,
                             name + " starts its sum from the constant " + hex(cbits) +
                                 (l_.c_scalar ? ", not from the launch's C" : ", but the launch names no C"));
          }
          if (s == nullptr || s->kind != Provenance::Entry::Kind::sum) {
            if (l_.c >= 0) {
              if (const auto in = p_.input(id); in && in->tensor == l_.c) {
                const auto ij = l_.tensors[static_cast<std::size_t>(l_.c)].matrix_index(in->element);
                if (ij && ij->first == i && ij->second == j && c_terms == 0) {
                  ++c_terms;
                  break;
                }
              }
            }
            return at_store(name + " holds " + describe(id) + (p_.entry(e.id) != nullptr ? " within its sum" : "") +
                            ", not " + (K > 0 ? "a sum of products of A and B" : "its C"));
          }
          for (const ProductRun& run : p_.runs(*s)) {
            // The common run, A[i][k0 + t]·B[k0 + t][j] for t < count, at once.
            if (const std::optional<std::int64_t> k0 = diagonal_run(run, i, j)) {
              for (std::int64_t kk = *k0; kk < *k0 + run.count; ++kk) {
                if (seen[static_cast<std::size_t>(kk)]++ != 0) return twice(name, i, j, kk, first_origin, run.origin);
                first_origin[static_cast<std::size_t>(kk)] = run.origin;
              }
              continue;
            }
            for (std::uint32_t t = 0; t < run.count; ++t) {
              const Product pr = run.at(t);
              const auto a = p_.input(pr.a);
              const auto b = p_.input(pr.b);
              const auto ai = a && a->tensor == l_.a
                                  ? l_.tensors[static_cast<std::size_t>(l_.a)].matrix_index(a->element)
                                  : std::nullopt;
              const auto bi = b && b->tensor == l_.b
                                  ? l_.tensors[static_cast<std::size_t>(l_.b)].matrix_index(b->element)
                                  : std::nullopt;
              if (!ai || !bi)
                return at_origin(run.origin, name + " includes the product of " + describe(pr.a) + " and " +
                                                 describe(pr.b) + ", not of an element of A and one of B");
              const auto [a_row, a_k] = *ai;
              const auto [b_k, b_col] = *bi;
              if (a_row != i || b_col != j || a_k != b_k) {
                const std::string what = name + " includes " + describe(pr.a) + "·" + describe(pr.b) +
                                         ", which is not A[" + std::to_string(i) + "][k]·B[k][" + std::to_string(j) +
                                         "]";
                if (const Provenance::Note* note = p_.note_for(id))
                  return at_origin(note->origin, what + ": " + note->message);
                if (a_k == b_k && owns_all(*s, a_row, b_col) && (a_row != i || b_col != j))
                  return at_store(name + " holds the sum that belongs to D[" + std::to_string(a_row) + "][" +
                                  std::to_string(b_col) + "] (row " + std::to_string(a_row) + " of A, column " +
                                  std::to_string(b_col) + " of B): the store writes it to the wrong element");
                return at_origin(run.origin, what);
              }
              const auto kk = static_cast<std::size_t>(a_k);
              if (seen[kk]++ != 0) return twice(name, i, j, a_k, first_origin, run.origin);
              first_origin[kk] = run.origin;
            }
          }
          id = s->parent;
        }
        for (std::int64_t kk = 0; kk < K; ++kk)
          if (seen[static_cast<std::size_t>(kk)] == 0) {
            std::int64_t end = kk;
            while (end + 1 < K && seen[static_cast<std::size_t>(end + 1)] == 0) ++end;
            return at_store(name + " lacks the product" +
                            (end > kk ? "s of k = " + std::to_string(kk) + ".." + std::to_string(end)
                                      : " of k = " + std::to_string(kk)) +
                            " (of its " + std::to_string(K) + ")");
          }
        if (l_.c_scalar && c_terms == 0)
          return at_store(name + " lacks the launch's scalar C (" + std::to_string(*l_.c_scalar) + ")");
        if (l_.c >= 0 && c_terms == 0)
          return at_store(name + " lacks C[" + std::to_string(i) + "][" + std::to_string(j) + "]");
      }
    return std::nullopt;
  }

  const PtxKernel& k_;
  const PtxLaunch& l_;
  const Provenance& p_;
  std::optional<std::array<std::int64_t, 2>> element_;
};

std::vector<DWrite> d_writes_of(const PtxKernel& kernel, const PtxLaunch& launch, const GlobalMemory& memory) {
  const TensorArg& D = launch.tensors[static_cast<std::size_t>(launch.d)];
  const GlobalMemory::Region& r = memory.regions()[static_cast<std::size_t>(launch.d)];
  const auto threads =
      static_cast<std::uint32_t>(launch.shape.block[0] * launch.shape.block[1] * launch.shape.block[2]);
  std::vector<DWrite> out;
  out.reserve(static_cast<std::size_t>(D.shape[0] * D.shape[1]));
  for (std::int64_t i = 0; i < D.shape[0]; ++i)
    for (std::int64_t j = 0; j < D.shape[1]; ++j) {
      const auto off = static_cast<std::size_t>((i * D.strides[0] + j * D.strides[1]) * D.element_bytes());
      DWrite w;
      if (const std::int32_t inst = r.where[off]; inst >= 0 && r.writer[off] != 0) {
        w.inst = inst;
        w.line = kernel.code[static_cast<std::size_t>(inst)].loc.line;
        w.cta = (r.writer[off] - 1) / threads;
        w.thread = static_cast<int>((r.writer[off] - 1) % threads);
      }
      out.push_back(w);
    }
  return out;
}

}  // namespace

PlacedLaunch place_launch(const PtxLaunch& launch, GlobalMemory& memory, Provenance& provenance,
                          const TensorFill& fill) {
  PlacedLaunch placed;
  placed.input_base.assign(launch.tensors.size(), 0);
  std::vector<std::uint64_t> bases;
  for (std::size_t t = 0; t < launch.tensors.size(); ++t) {
    const TensorArg& arg = launch.tensors[t];
    bases.push_back(memory.add(arg));
    GlobalMemory::Region& r = memory.regions().back();
    if (static_cast<int>(t) == launch.d) continue;
    const int eb = arg.element_bytes();
    const std::int64_t n = arg.storage_elements();
    const std::uint64_t base = provenance.add_input(static_cast<int>(t), n, eb);
    placed.input_base[t] = base;
    for (std::int64_t e = 0; e < n; ++e)
      for (int b = 0; b < eb; ++b)
        r.tags[static_cast<std::size_t>(e * eb + b)] = make_tag(base + static_cast<std::uint64_t>(e), b);
    if (fill) fill(static_cast<int>(t), arg, r.bytes);
  }
  for (std::size_t p = 0; p < launch.params.size(); ++p) {
    const ParamBinding& b = launch.params[p];
    placed.params.push_back(b.tensor >= 0 ? bases[static_cast<std::size_t>(b.tensor)] : b.bits);
    if (b.tensor_map < 0) continue;
    const TensorMapSpec& spec = launch.tensor_maps[static_cast<std::size_t>(b.tensor_map)];
    placed.tensor_maps.push_back({static_cast<int>(p),
                                  tensor_map_of(launch, spec, bases[static_cast<std::size_t>(spec.tensor_index)]),
                                  spec.tensor});
  }
  return placed;
}

PtxReport check_ptx_launch(const PtxModule& module, PtxLaunch launch, const RunOptions& options,
                           std::vector<DWrite>* d_writes) {
  const PtxKernel& kernel = bind_launch(launch, module);
  PtxReport report;
  report.kernel = kernel.name;
  report.shape = launch.shape;
  report.m = launch.tensors[static_cast<std::size_t>(launch.d)].shape[0];
  report.n = launch.tensors[static_cast<std::size_t>(launch.d)].shape[1];
  report.k = launch.tensors[static_cast<std::size_t>(launch.a)].shape[1];
  GlobalMemory memory;
  Provenance provenance(kernel.code.size());
  const PlacedLaunch placed = place_launch(launch, memory, provenance, {});
  RunOptions with_maps = options;
  with_maps.tensor_maps = placed.tensor_maps;
  const RunResult run = run_grid(kernel, launch.shape, placed.params, memory, provenance, with_maps);
  report.steps = run.steps;
  if (d_writes != nullptr) *d_writes = d_writes_of(kernel, launch, memory);
  if (run.refutation) {
    report.verdict = FrameVerdict::refuted;
    report.finding = run.refutation;
    report.message = run.refutation->message;
    return report;
  }
  if (run.unfollowed) {
    report.verdict = FrameVerdict::unchecked;
    report.finding = run.unfollowed;
    report.message = run.unfollowed->message;
    return report;
  }
  DCheck check(kernel, launch, provenance);
  if (auto f = check.run(memory)) {
    report.verdict = FrameVerdict::refuted;
    report.message = f->message;
    report.finding = std::move(f);
    report.element = check.element();
    return report;
  }
  report.verdict = FrameVerdict::proved;
  const std::string c = launch.c >= 0 ? " + C[i][j]" : launch.c_scalar ? " + " + std::to_string(*launch.c_scalar) : "";
  report.message = "every element of D (" + std::to_string(report.m) + " x " + std::to_string(report.n) +
                   ") holds the sum over k < " + std::to_string(report.k) + " of A[i][k]·B[k][j]" + c +
                   ", each product once (this launch's problem size and grid only)";
  return report;
}

}  // namespace mmacheck::ptx
