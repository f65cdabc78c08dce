// Limits — the resource bounds every command checks before doing the work.
//
// A hostile or mistaken input (a gemm with M = 2^36, a register stride of
// 2^24, a million replicas) must end in a located error within a second, not
// in minutes of work, gigabytes of memory or std::bad_alloc.  Each bounded
// resource is a row of kLimits: what it counts, the option that raises it and
// its default.  The defaults admit every real fragment layout with room to
// spare (a 128 x 256 warp tile is 1024 mma; a CTA of 1024 threads holds
// about 2^18 register elements) and keep each command within seconds.
//
//     Limits limits;                       // the defaults
//     limits.set(Resource::mma, 1 << 20);  // what --max-mma 1048576 does
//     limits.check(Resource::mma, try_mul(tiles_m, tiles_n), loc, "the nest");
//     // throws "FILE:L:C: error: the nest needs 2^36 mma statements per warp, over the
//     //         limit of 16384 (raise it with --max-mma)"
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/base/error.h"

namespace mmacheck {

enum class Resource { mma, elements, span, replicas, output_bytes, explain_points, fix_elements, depth };

struct ResourceInfo {
  Resource resource;
  std::string_view option;  // "--max-mma"
  std::string_view unit;    // "mma statements per warp"
  std::int64_t default_limit;
  std::string_view help;  // for --help
};

inline constexpr ResourceInfo kLimits[] = {
    {Resource::mma, "--max-mma", "mma statements per warp", std::int64_t{1} << 14,
     "largest nest (mma statements per warp) to build"},
    {Resource::elements, "--max-elements", "elements (replicas counted)", std::int64_t{1} << 20,
     "largest buffer (elements times replicas) to tabulate"},
    {Resource::span, "--max-span", "register slots per thread", std::int64_t{1} << 16,
     "largest register span (slots per thread) of a buffer"},
    {Resource::replicas, "--max-replicas", "replicas per element", std::int64_t{1} << 10,
     "most replicas of a layout to expand"},
    {Resource::output_bytes, "--max-output-bytes", "bytes of output", std::int64_t{64} << 20,
     "largest output (emitted text, SVG) to write"},
    // The two below cap what explaining a refuted check costs instead of
    // refusing the input: the proof's verdict stands, and the explanation
    // says what it left out (core/prove/mismatch.h, fix_search.h).
    {Resource::explain_points, "--max-explain-points", "(lane, slot) points explained", std::int64_t{1} << 18,
     "most (lane, slot) points of a refuted check to list and explain (the rest are left out, with a note)"},
    {Resource::fix_elements, "--max-fix-elements", "layout elements for a fix search", std::int64_t{1} << 13,
     "largest layout whose fix a refuted or declined program searches (larger ones get a note, no search)"},
    // Readers recurse once per bracket: a bound keeps 100k nested `(` a
    // located error instead of a stack overflow.  Real CuTe layouts nest 3 deep.
    {Resource::depth, "--max-depth", "levels of nesting", 64, "deepest nesting of brackets a reader follows"},
};

const ResourceInfo& resource_info(Resource r);

class Limits {
 public:
  Limits();
  std::int64_t get(Resource r) const { return values_[static_cast<std::size_t>(r)]; }
  void set(Resource r, std::int64_t limit) { values_[static_cast<std::size_t>(r)] = limit; }

  // Throws Error(loc, "<subject> needs <amount> <unit>, over the limit of
  // <limit> (raise it with <option>)") when `amount` exceeds the limit;
  // nullopt stands for an amount that overflows int64.
  void check(Resource r, std::optional<std::int64_t> amount, const SourceLoc& loc, std::string_view subject) const;

 private:
  std::array<std::int64_t, std::size(kLimits)> values_;
};

}  // namespace mmacheck
