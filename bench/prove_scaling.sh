#!/usr/bin/env bash
# Proof cost against the tile count (docs/performance.md, "Proof cost and the
# tile count"): one process per tiling and method, so that /usr/bin/time -v's
# peak resident set is that proof's.  Prints one line per run: tiling, method,
# verdict, best and median wall time, CPU time of the best run, peak RSS.
#
#     bench/prove_scaling.sh [BUILD_DIR] [--quick]
#
# --quick leaves out the slow cross-checks (z3-unrolled beyond 128^3, where
# it ends `unknown` under the default 10 s limit, and exhaustive at 512^3,
# about two minutes).
set -euo pipefail
build=build
quick=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    *) build="$arg" ;;
  esac
done
bench="$build/bin/prove_bench"

run() {  # method tiling repeat
  local out
  out=$(/usr/bin/time -v "$bench" --no-examples --method "$1" --tiling "$2" --repeat "$3" --max-mma 524288 2>&1)
  local line rss
  line=$(grep '^tiled' <<<"$out" | sed 's/  peak rss.*//')
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f MiB", $2 / 1024}' <<<"$out")
  echo "$line  peak rss $rss"
}

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
for s in 16 64 128 256 512 1024; do run z3 "$s" 5; done
for s in 16 64 128; do run z3-unrolled "$s" 3; done
if [[ $quick == 0 ]]; then for s in 192 256; do run z3-unrolled "$s" 1; done; fi
for s in 16 64 128 256; do run exhaustive "$s" 1; done
if [[ $quick == 0 ]]; then run exhaustive 512 1; fi
