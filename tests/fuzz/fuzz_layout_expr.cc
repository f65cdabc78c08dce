// libFuzzer harness: one layout expression (`mmacheck layout EXPR`).
// A parsed layout is printed, measured (spans, the range of its owners on m)
// and, when small, applied to every element: the algebra's own invariants
// must hold or throw Error.
#include <algorithm>

#include "core/base/checked.h"
#include "core/layout/tile_layout.h"
#include "core/program/layout_parser.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mmacheck;
  return fuzz::run_one([&] {
    const TileLayout layout = layout_of(parse_layout(fuzz::as_text(data, size), "<expr>"));
    (void)layout.str();
    (void)layout.span();
    (void)layout.span(Axis::m());
    (void)layout.owner_range(Axis::m());
    const std::int64_t n = layout.size();
    if (n > 4096) return;
    // apply() expands every replica for every element (the commands bound the
    // replicas with --max-replicas first): the harness bounds the product, as
    // R[(4, 992)] + S[(4, 992)] made 16 M owners and a 13 s "hang".
    std::int64_t replicas = 1;
    // (Replica extents reach 2^63 - 1: the product is checked.)
    for (const Iter& r : layout.replica())
      replicas = std::min<std::int64_t>(try_mul(replicas, r.extent).value_or(1 << 20), 1 << 20);
    if (n * replicas > (1 << 16)) return;
    const Shape shape{n};
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t coord[1] = {i};
      (void)layout.apply(coord, shape);
    }
  });
}
