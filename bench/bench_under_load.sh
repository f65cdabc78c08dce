#!/usr/bin/env bash
# bench_under_load.sh — is `mmacheck bench`'s ratio stable when another
# process loads the machine?  Runs `mmacheck bench` RUNS times as the
# machine is, then RUNS times with a competing load that comes and goes
# (LOADERS busy-loop processes, 1.5 s on, 1.5 s off: the case that moved the
# old bench's ratio, whose phases ran one after another), and prints every
# ratio, their median and their spread (max / min - 1) per condition.
# Several binaries (comma-separated) take turns run by run, so an old and a
# new build see the same load.
#
#     bench/bench_under_load.sh [MMACHECK[,MMACHECK...]] [RUNS] [LOADERS] [-- BENCH ARGS...]
#     bench/bench_under_load.sh build/bin/mmacheck,/work/main/build/bin/mmacheck 5 2 -- --seconds 1 --threads 2
set -euo pipefail
IFS=, read -r -a binaries <<< "${1:-build/bin/mmacheck}"
runs=${2:-5}
loaders=${3:-2}
shift $(( $# < 3 ? $# : 3 ))
[ "${1:-}" = -- ] && shift
bench_args=("$@")
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--seconds 1 --threads 2)

summary() {  # label, then the ratios
  local label=$1
  shift
  printf '%s\n' "$@" | sort -g | awk -v label="$label" '
    { v[NR] = $1; line = line " " $1 }
    END { med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
          printf "%-60s ratios%s  median %.3f  spread %.1f%%\n", label, line, med, 100 * (v[NR] / v[1] - 1) }'
}

measure() {  # condition
  declare -A got
  for ((i = 0; i < runs; ++i)); do
    for b in "${binaries[@]}"; do
      got[$b]+=" $("$b" bench "${bench_args[@]}" | awk '/^ratio [0-9]/ {print $2}')"
    done
  done
  for b in "${binaries[@]}"; do
    # shellcheck disable=SC2086
    summary "$1: $b" ${got[$b]}
  done
}

pids=()
stop_load() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; pids=(); }
trap stop_load EXIT

echo "bench ${bench_args[*]}; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
measure "as the machine is"
for ((l = 0; l < loaders; ++l)); do
  # A load that comes and goes: busy 1.5 s, idle 1.5 s.
  bash -c 'while :; do timeout 1.5 bash -c "while :; do :; done" || true; sleep 1.5; done' &
  pids+=($!)
done
measure "with $loaders on/off loaders"
stop_load
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
