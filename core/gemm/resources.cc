#include "core/gemm/resources.h"

#include "core/base/checked.h"

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
    std::int64_t span = 0;
    try {
      span = buffer.layout.span(Axis::m());
    } catch (const Error& e) {
      throw e.located(buffer.loc);
    }
    limits.check(Resource::span, span, buffer.loc, subject);
  }
}

}  // namespace mmacheck
