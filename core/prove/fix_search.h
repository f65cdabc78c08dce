// Fix search: single changes of one buffer's layout, tried in order until
// one makes the program dispatch and prove.  Private to core/prove*.cc.
//
// The changes, in the order tried (cheapest explanation first):
//   swap the strides of two iters      (the two register iters were swapped)
//   swap two iters whole / their extents (tile iters in the wrong order)
//   drop one offset term               (+ 1 @ laneid was not meant)
//   the transpose L.group([c, r]).permute_by_groups([1, 0])
//   change one stride                  (a typo: 4 @ laneid for 8 @ laneid)
// A candidate must first satisfy `fits` (cheap: core/prove/diagnosis.h's
// operand_fit); then the whole program with it is dispatched and proved by
// enumeration.  The first candidate that proves wins; failing that, the
// first that fits (fix_proves false: another operand or the staging is
// wrong too).  Extent changes alter the layout's size, which the parser
// already rejects as bad input, so none is tried.
//
//     D_FRAG = S[(2, 8, 4, 2) : (1, 4 @ laneid, 1 @ laneid, 2)]
//     -> Fix{"S[(2, 8, 4, 2) : (2, 4 @ laneid, 1 @ laneid, 1)]",
//            "D_FRAG = S[...]", "the two register iters were swapped", true}
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "core/base/limits.h"
#include "core/gemm/mma_inst.h"
#include "core/program/program.h"

namespace mmacheck::prove_detail {

struct Fix {
  TileLayout layout;
  std::string text;    // "S[...]" or "B_FRAG.group([16, 8]).permute_by_groups([1, 0])"
  std::string line;    // "D_FRAG = S[...]" (the binding the buffer's layout came from), else "D: S[...]"
  std::string reason;  // "the two register iters were swapped"
  bool proves = false;
};

// `program` with `buffer`'s layout replaced.
Program with_layout(const Program& program, const std::string& buffer, const TileLayout& layout);

// Does `program` dispatch (under `set`) and prove every check?  Staging
// checks count only when `with_staging`.
bool proves(const Program& program, InstSet set, bool with_staging = true);

// The note when `buffer`'s layout has more elements than
// limits.get(Resource::fix_elements): each candidate is evaluated element by
// element and possibly proved, so larger layouts get no fix search.
// nullopt when the search runs.
std::optional<std::string> fix_search_capped(const Program& program, const std::string& buffer, const Limits& limits);

// `name(i)` names shard iter i of the buffer's layout in the reasons ("rM",
// "kHi"; "" for none).  nullopt too when fix_search_capped.
std::optional<Fix> search_fix(const Program& program, const std::string& buffer, InstSet set, const Limits& limits,
                              const std::function<bool(const Program&)>& fits,
                              const std::function<std::string(int)>& name = {});

}  // namespace mmacheck::prove_detail
