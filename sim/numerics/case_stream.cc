#include "sim/numerics/case_stream.h"

#include "sim/numerics/philox_blocks.h"

namespace mmacheck::sim {

CaseStream::CaseStream(std::uint64_t seed, std::uint64_t case_index, std::uint32_t stream)
    : key_{{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)}},
      stream_(stream),
      case_lo_(static_cast<std::uint32_t>(case_index)),
      case_hi_(static_cast<std::uint32_t>(case_index >> 32)) {}

// kBlocks blocks at once on the widest path the processor has
// (sim/numerics/philox_blocks.h): the same words on every path.
void CaseStream::refill() {
  philox_blocks({key_, stream_, case_lo_, case_hi_}, block_, kBlocks, words_);
  block_ += kBlocks;
  at_ = 0;
}

}  // namespace mmacheck::sim
