// cute_report_json() — one CuTe atom's (or TiledMMA's) report as `mmacheck
// cute --json` prints it, for the command line and the Python package alike:
//
//     {"atom": "SM80_16x8x16_F32F16F16F32_TN", "instruction": "mma.sync...",
//      "operands": [{"operand": "A", "result": "proved", "counterexample": null |
//                    {"thread", "value", "lane", "index", "coordinate", "ptx"},
//                    "message": "..."}, ...],
//      "result": "proved"}
#pragma once

#include "core/base/json.h"
#include "core/cute/cute_check.h"

namespace mmacheck {

Json cute_report_json(const CuteAtomReport& report);

}  // namespace mmacheck
