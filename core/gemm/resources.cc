#include "core/gemm/resources.h"

#include "core/base/checked.h"
#include "core/layout/named_axes.h"

namespace mmacheck {

void check_resources(const Program& program, const Limits& limits) {
  for (const BufferDecl& buffer : program.buffers) {
    const std::string subject = "buffer '" + buffer.name + "'";
    std::optional<std::int64_t> replicas = 1;
    for (const Iter& it : buffer.layout.replica()) replicas = replicas ? try_mul(*replicas, it.extent) : std::nullopt;
    limits.check(Resource::replicas, replicas, buffer.loc, subject);
    const std::optional<std::int64_t> elements = try_product(buffer.shape);
    limits.check(Resource::elements, elements && replicas ? try_mul(*elements, *replicas) : std::nullopt, buffer.loc,
                 subject);
    // Every owner coordinate and span of the layout within int64 (TVM's
    // arithmetic overflows past it too), so that no command tabulating the
    // buffer meets an overflow.
    std::int64_t span = 0;
    try {
      for (const Axis& a : named_axes(buffer.layout)) {
        (void)buffer.layout.owner_range(a);
        (void)buffer.layout.span(a);
      }
      span = buffer.layout.span(Axis::m());
    } catch (const Error& e) {
      throw e.located(buffer.loc);
    }
    limits.check(Resource::span, span, buffer.loc, subject);
  }
}

}  // namespace mmacheck
