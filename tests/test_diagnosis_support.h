// Helpers for the diagnosis tests: judging a counterexample by evaluating
// the layouts (not by trusting the prover), and applying a reported fix.
#pragma once

#include <map>
#include <optional>
#include <tuple>
#include <string>

#include "core/gemm/geometry.h"
#include "core/program/program.h"
#include "core/prove/prove.h"

namespace mmacheck::test {

// The view of operand "A", "B", "C" or "D" of the program's gemm.
const OperandPlace& operand_view(const GemmGeometry& g, const std::string& role);

// Does the operand's layout place logical element `e` at (warp, lane, slot)?
bool layout_places(const Program& p, const OperandPlace& v, const Element& e, int warp, int lane, std::int64_t slot);
// The logical element the operand's layout places at (warp, lane, slot), if any.
std::optional<Element> layout_holds(const Program& p, const OperandPlace& v, int warp, int lane, std::int64_t slot);

// Everything the operand's layout places: (warp, lane, slot) -> the lowest
// logical element there (warps 0 .. scope's warps - 1).
using Holdings = std::map<std::tuple<int, int, std::int64_t>, Element>;
Holdings layout_holdings(const Program& p, const OperandPlace& v);

// Whether a diagnosis finding's counterexample is true of the program.
bool diagnosis_true(const Program& p, const Diagnosis& d);
// Whether a refuted check's counterexample is true of the program.
bool counterexample_true(const Program& p, const Counterexample& cx);

// The program with `buffer`'s layout replaced by the fix text (which may
// use the file's layout names); nullopt when the text does not parse.
std::optional<Program> apply_fix(const Program& p, const std::string& buffer, const std::string& text);
// Dispatch and prove (exhaustive): every check proved.
bool fully_proved(const Program& p, InstSet set = InstSet::tvm);

}  // namespace mmacheck::test
