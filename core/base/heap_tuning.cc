#include "core/base/heap_tuning.h"

#include <malloc.h>

namespace mmacheck {

void keep_large_blocks_in_heap() {
  constexpr int kBytes = 256 << 20;
  mallopt(M_MMAP_THRESHOLD, kBytes);
  mallopt(M_TRIM_THRESHOLD, kBytes);
}

}  // namespace mmacheck
