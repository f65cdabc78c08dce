// The proof report as JSON, written once for every user: `mmacheck prove
// --json`, the Python package, anyone linking the library.  Keys come out
// in the order written (Json is nlohmann::ordered_json); absent optional
// fields are left out, absent elements are null.
//
//     report_json(prove(load_program("examples/seed.txt"), {}))
//     == {"verdict": "refuted", "instruction": "mma.sync.aligned.m16n8k16...",
//         "tiles": {"M": 1, "N": 1, "K": 1}, "mma_count": 1, "reasons": [],
//         "checks": [{"name": "A frame", "result": "proved", ...}, ...],
//         "counterexamples": [{"check": "stage A", "lane": 0, "slot": 2, ...}],
//         "diagnosis": [], "notes": [...]}
#pragma once

#include "core/base/json.h"
#include "core/prove/report.h"

namespace mmacheck {

Json report_json(const ProofReport& report);
Json check_json(const CheckReport& check);
Json counterexample_json(const Counterexample& cx);
Json diagnosis_json(const Diagnosis& diagnosis);
Json bank_json(const BankCount& bank);

}  // namespace mmacheck
