// wgmma_report_json() — one operand's report as `mmacheck wgmma --json`
// prints it (docs/report.schema.json, "wgmma_operands"):
//
//     {"name": "A (line 3)", "operand": "A", "instruction": "m64nNk16.f16 A, K-major",
//      "dtype": "f16", "major": "K", "descriptor": {"bits": "0x...", "start", "lbo",
//      "sbo", "base_offset", "swizzle"}, "result": "refuted", "counterexample":
//      null | {"i", "k", "read", "placed"}, "mismatches": 3,
//      "fixes": [{"fields": ["swizzle"], "major": "K", "descriptor": {...}}], "message": "..."}
#pragma once

#include "core/base/json.h"
#include "core/wgmma/wgmma_check.h"

namespace mmacheck {

Json descriptor_json(const MatrixDescriptor& d);
Json wgmma_report_json(const WgmmaReport& report);

}  // namespace mmacheck
