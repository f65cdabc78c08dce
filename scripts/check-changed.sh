#!/usr/bin/env bash
# scripts/check-changed.sh [--sanitize] [--fuzz] [BASE] — CI's checks on what
# changed since BASE (default: where this branch left main), in minutes: the
# format check on the changed C/C++ files, the cited-files check, the
# README's test command with warnings as errors, and clang-tidy (the whole
# tree, answered from its cache for every file whose inputs did not change:
# scripts/tidy.sh).  --sanitize adds the sanitizer build and its suite,
# --fuzz each fuzz harness for 10 s; `.ci/run` is the whole of CI.  Builds
# go through ccache (scripts/build-env.sh), so an unchanged object is not
# compiled again.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitize=0 fuzz=0 base=""
for a in "$@"; do
  case "$a" in
    --sanitize) sanitize=1 ;;
    --fuzz) fuzz=1 ;;
    -*) echo "usage: scripts/check-changed.sh [--sanitize] [--fuzz] [BASE]" >&2; exit 2 ;;
    *) base=$a ;;
  esac
done
[ -n "$base" ] || base=$(git merge-base HEAD main 2>/dev/null || git rev-list --max-parents=0 HEAD)

mapfile -t changed < <({ git diff --name-only --diff-filter=ACMR "$base" --; git ls-files --others --exclude-standard; } |
  sort -u)
mapfile -t sources < <(printf '%s\n' "${changed[@]}" | grep -E '\.(cc|h|cu)$' | grep -v '^tests/data/' || true)
echo "check-changed: ${#changed[@]} files changed since $(git rev-parse --short "$base"), ${#sources[@]} of them C/C++"

start=$SECONDS
if ((${#sources[@]})); then scripts/format.sh --check "${sources[@]}"; fi
scripts/check_references.sh
MMACHECK_WERROR=ON scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
scripts/tidy.sh
if ((sanitize)); then MMACHECK_WERROR=ON scripts/sanitize.sh -DMMACHECK_CUDA=OFF; fi
if ((fuzz)); then scripts/fuzz.sh 10; fi
echo "check-changed: clean in $((SECONDS - start)) s"
