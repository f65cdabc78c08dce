// triton_report_json() — one Triton layout's report as `mmacheck triton
// --json` prints it, for the command line and the Python package alike:
//
//     {"name": "f16 k2 A", "operand": "a", "instruction": "mma.sync...",
//      "result": "proved", "counterexample": null | {"register", "lane",
//      "warp", "coordinate", "ptx"}, "zero_bases": [{"dim", "basis"}],
//      "k_permutation": null | [...], "message": "..."}
#pragma once

#include <string_view>

#include "core/base/json.h"
#include "core/triton/triton_check.h"

namespace mmacheck {

std::string_view triton_role_name(TritonRole role);  // "acc", "a", "b"
Json triton_report_json(const TritonReport& report);

}  // namespace mmacheck
