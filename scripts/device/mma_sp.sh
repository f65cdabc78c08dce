#!/bin/sh
# mma.sp on the H200 (docs/mma-sp.md): run from the repository root on the
# device with the relocatable bundle (scripts/bundle.sh) in ./bundle:
#
#   sh scripts/device/mma_sp.sh            # OUT defaults to ./out
#
# Writes eight files under $OUT:
#   summary.txt     each step's exit status, seconds and last line; env (GPU, driver, version)
#   diff.txt        `mmacheck gpu --inst mma.sp --selector all --cases 1024`: per row and
#                   selector, the cases and outputs where the GPU's D differs from each
#                   arithmetic hypothesis (zeros, kept, kept-packed)
#   k16.mmav        captured vectors, every m16n8k16 row and selector, 64 cases each
#   k32.mmav        captured vectors, every m16n8k32 row and selector, 64 cases each
#   tf32.mmav       captured vectors, the tf32 rows (m16n8k8, m16n8k16) and selectors
#   int.mmav        captured vectors, six of the s8/u8 rows (both shapes, mixed, .satfinite)
#   replay.txt      `mmacheck sparse --vectors k16.mmav k32.mmav --arith all`
#   tests.txt       the [mma-sp] tests of mmacheck_tests ([gpu] ones included)
# The hypothesis whose line in diff.txt reads "0 cases (0 outputs) differ" for
# every row is the one the H200 confirms; make it sim::kDefaultSparseArith
# (sim/numerics/sparse_model.h) and keep a few captured cases as test data.
set -u
export PATH="${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
B=$(cd "${BUNDLE:-bundle}" && pwd)
OUT=${OUT:-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
M="$B/bin/mmacheck"
: >"$OUT/summary.txt"

# NVRTC and the test paths as bundle/run-tests.sh sets them up.
if ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so\.13 ' && [ ! -e /usr/local/cuda/lib64/libnvrtc.so.13 ] &&
  [ ! -e "$B/lib/libnvrtc.so.13" ]; then
  if command -v xz >/dev/null 2>&1; then
    xz -dc "$B/lib/nvrtc.tar.xz" | tar -x -C "$B/lib"
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$B/lib/nvrtc.tar.xz" "$B/lib"
  fi
fi
for f in "$B"/lib/*.xz; do
  [ -e "$f" ] || continue
  case "$f" in */nvrtc.tar.xz) continue ;; esac
  [ -e "${f%.xz}" ] && continue
  if command -v xz >/dev/null 2>&1; then xz -dc "$f" >"${f%.xz}"; else
    python3 -c 'import lzma, sys; open(sys.argv[2], "wb").write(lzma.open(sys.argv[1]).read())' "$f" "${f%.xz}"
  fi
done
src=$(sed -n 's/^source //p' "$B/paths")
bin=$(sed -n 's/^binary //p' "$B/paths")
[ -e "$src" ] || { mkdir -p "$(dirname "$src")" && ln -s "$B/src" "$src"; }
[ -e "$bin" ] || { mkdir -p "$(dirname "$bin")" && ln -s "$M" "$bin"; }

{
  nvidia-smi -L 2>&1 | head -n 1 || echo "(no nvidia-smi)"
  nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1 | head -n 1
  "$M" --version
} | sed 's/^/env: /' >>"$OUT/summary.txt" 2>&1

step() {  # step NAME LOG SECONDS COMMAND...
  name=$1 log=$2 limit=$3
  shift 3
  t0=$(date +%s)
  timeout "$limit" "$@" >"$log" 2>&1
  echo "$? $name $(($(date +%s) - t0))s: $(grep -v "^ *$" "$log" | tail -n 1)" >>"$OUT/summary.txt"
}

step diff "$OUT/diff.txt" 300 "$M" gpu --inst mma.sp --selector all --cases 1024 --seed 1
# The captures' own logs go to summary.txt only (eight files at most).
cap() {  # cap NAME TAGS...
  name=$1
  shift
  : >"$OUT/$name.log"
  for tag in "$@"; do
    "$M" gpu --inst "$tag" --cases 64 --seed 7 --capture "$OUT/$name.$tag.part" >>"$OUT/$name.log" 2>&1
  done
  cat "$OUT"/"$name".*.part >"$OUT/$name.mmav" 2>/dev/null
  rm -f "$OUT"/"$name".*.part
  echo "capture $name: $(grep -c '^case ' "$OUT/$name.mmav") cases; $(tr '\n' ' ' <"$OUT/$name.log")" >>"$OUT/summary.txt"
  rm -f "$OUT/$name.log"
}
cap k16 sp.m16n8k16.f16 sp.m16n8k16.bf16 sp.m16n8k16.f16.f16acc
cap k32 sp.m16n8k32.f16 sp.m16n8k32.bf16 sp.m16n8k32.f16.f16acc
cap tf32 sp.m16n8k8.tf32 sp.m16n8k16.tf32
cap int sp.m16n8k32.s8 sp.m16n8k32.u8.s8 sp.m16n8k32.s8.satfinite sp.m16n8k64.u8 sp.m16n8k64.s8.u8 \
  sp.m16n8k64.s8.satfinite
step replay "$OUT/replay.txt" 300 "$M" sparse --vectors "$OUT/k16.mmav" "$OUT/k32.mmav" "$OUT/tf32.mmav" "$OUT/int.mmav" --arith all
step tests "$OUT/tests.txt" 600 "$B/bin/mmacheck_tests" "[mma-sp]"
cat "$OUT/summary.txt"
