// tma_report_json() — one TmaReport (core/tma/tma_check.h) as JSON, the
// "tma_operands" items of `mmacheck tma --json`:
//   {name, instruction, tensor_map, descriptor (core/wgmma/wgmma_report_json.h),
//    result, fields: [..], counterexample: null | {i, k, read, written (null:
//    not in the box), box: [..], global: [..], found (null: no element)},
//    mismatches, fixes: [{fields, major, descriptor}], message, notes: [..]}
#pragma once

#include "core/base/json.h"
#include "core/tma/tma_check.h"

namespace mmacheck {

Json tma_report_json(const TmaReport& r);

}  // namespace mmacheck
