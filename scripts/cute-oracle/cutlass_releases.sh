#!/usr/bin/env bash
# scripts/cute-oracle/cutlass_releases.sh CUTLASS_GIT_DIR [MMACHECK] > tests/data/cute/cutlass_releases.tsv
#
# Every CUTLASS release's own CuTe trait headers through `mmacheck prove`:
# for each release tag v3.0.0 and later of a CUTLASS clone (a bare or full
# git directory; nothing is checked out or kept), each of
# include/cute/atom/mma_traits_sm{61,70,75,80,90,90_gmma}.hpp the release
# has, read with `git show TAG:PATH` into a temporary file.  One line per
# header: the release, the header, the exit status, and the atoms by
# verdict; then one line per atom that is not proved (its verdict and the
# first operand's message).  No CUTLASS code is written anywhere but the
# temporary file, removed at the end.
# tests/test_cute_check.cc holds the recorded table to what is known of
# these releases (every header read; the refuted atoms are the layouts
# CUTLASS PRs #1856 and #3140 fixed, tests/data/cute/pr*_*.txt).
set -euo pipefail
repo=${1:?usage: cutlass_releases.sh CUTLASS_GIT_DIR [MMACHECK]}
mmacheck=$(realpath "${2:-build/bin/mmacheck}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# made by: scripts/cute-oracle/cutlass_releases.sh CUTLASS_GIT_DIR (NVIDIA/cutlass at $(git -C "$repo" rev-parse --short=12 HEAD)), mmacheck $("$mmacheck" --version | head -n 1)"
echo "# release	header	exit	atoms: proved refuted ill_formed unchecked	| or: release	header	atom	verdict	message"
for tag in $(git -C "$repo" tag --list 'v[34].*' | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$' | sort -V); do
  for h in sm61 sm70 sm75 sm80 sm90 sm90_gmma; do
    path=include/cute/atom/mma_traits_$h.hpp
    git -C "$repo" show "$tag:$path" >"$tmp/mma_traits_$h.hpp" 2>/dev/null || continue
    status=0
    (cd "$tmp" && "$mmacheck" prove --json "mma_traits_$h.hpp") >"$tmp/out.json" 2>"$tmp/err.txt" || status=$?
    python3 - "$tag" "$h" "$status" "$tmp/out.json" "$tmp/err.txt" <<'PY'
import json, sys
tag, header, status, out, err = sys.argv[1:]
try:
    report = json.load(open(out))
except ValueError:
    print(f"{tag}\t{header}\t{status}\terror: {open(err).read().strip()[:200]}")
    sys.exit(0)
atoms = report.get("atoms", [])
count = {v: sum(a["result"] == v for a in atoms) for v in ("proved", "refuted", "ill_formed", "unchecked")}
print(f"{tag}\t{header}\t{status}\t{count['proved']} {count['refuted']} {count['ill_formed']} {count['unchecked']}"
      f"\t{len(report.get('unchecked', []))} unchecked reason(s)")
for a in atoms:
    if a["result"] != "proved":
        bad = next((o for o in a.get("operands", []) if o["result"] != "proved"), {"message": a.get("message", "")})
        print(f"{tag}\t{header}\t{a['atom']}\t{a['result']}\t{bad.get('operand', '')}: {bad['message'][:160]}")
PY
  done
done
