// CaseBatch — how a differential run's cases are split into launches and
// spread over the devices.
//
// The cases [0, cases) go in order into batches of at most `batch_cases`
// (the last one shorter); batch b runs on device b mod devices, in that
// device's buffer slot (b / devices) mod slots.  A slot holds one batch at a
// time, so batch b reuses the slot of batch b - devices * slots and must
// wait until that one is compared: host and device memory stay bounded by
// devices * slots * batch_cases cases whatever the number of cases.  Slots
// are reused in batch order, so results come back in case order.
//
//     plan_case_batches(10, 4, 2, 2)
//     // {0, 4, dev 0, slot 0}, {4, 4, dev 1, slot 0}, {8, 2, dev 0, slot 1}
#pragma once

#include <cstdint>
#include <vector>

namespace mmacheck::cuda {

struct CaseBatch {
  std::int64_t first = 0;  // the batch's first case
  std::int64_t count = 0;  // cases in it, 1 <= count <= batch_cases
  int device = 0;          // index into the run's devices
  int slot = 0;            // buffer slot of that device
};

// Throws Error unless cases >= 0 and batch_cases, devices, slots >= 1.
std::vector<CaseBatch> plan_case_batches(std::int64_t cases, std::int64_t batch_cases, int devices, int slots);

// Cases per launch when none is asked for: as many as fit `budget_bytes` of
// host memory at `bytes_per_case`, at least 1, at most `cases`; and no
// more than a share of the run per device slot, so that every device and
// slot gets batches and the pipeline overlaps (a few batches per slot).
std::int64_t default_batch_cases(std::int64_t cases, std::int64_t bytes_per_case, int devices, int slots,
                                 std::int64_t budget_bytes);

}  // namespace mmacheck::cuda
