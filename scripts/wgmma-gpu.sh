#!/bin/sh
# The wgmma differential and captures on an sm_90a GPU (H100/H200), from a
# bundle (scripts/bundle.sh; the bundle's src/ has this script):
#
#   sh bundle/src/scripts/wgmma-gpu.sh bundle OUT_DIR
#
# Writes into OUT_DIR (created), each step's exit status and last line in
# summary.txt (printed at the end):
#   env.txt               GPU, driver, mmacheck version
#   examples/NAME.txt     `mmacheck gpu` on every example of examples/wgmma/ that
#                         `mmacheck wgmma` proves (each operand through its own descriptor
#                         and buffer layout), 256 cases
#   every_n.txt           every type row at every N (8..256), 32 cases, layouts in turn
#   layouts_ROW.txt       m64n64 (m64n32 for s32) of each type row in every layout, 256 cases
#   capture/*.mmav        every type row at N = 8 and 24, 32 cases each, the GPU's D
#                         (wgmma vectors), and replay.txt: `mmacheck wgmma-sim` on them
#   tests.txt             the [wgmma] tests of mmacheck_tests ([gpu] ones included)
# Pack OUT_DIR for the way back (tar -cJf): the captures are some 25 MB of text.
set -u
export PATH="${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}"
B=$(cd "${1:?usage: wgmma-gpu.sh BUNDLE OUT_DIR}" && pwd)
OUT=${2:?usage: wgmma-gpu.sh BUNDLE OUT_DIR}
mkdir -p "$OUT/examples" "$OUT/capture" && OUT=$(cd "$OUT" && pwd)
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
for f in "$B"/lib/*.xz $(find "$B/src" -name '*.mmav.xz'); do
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

step() {  # step NAME LOG SECONDS COMMAND...
  name=$1 log=$2 limit=$3
  shift 3
  t0=$(date +%s)
  timeout "$limit" "$@" >"$log" 2>&1
  echo "$? $name $(($(date +%s) - t0))s: $(grep -v "^ *$" "$log" | tail -n 1)" >>"$OUT/summary.txt"
}

{
  nvidia-smi -L || echo "(no nvidia-smi)"
  nvidia-smi --query-gpu=driver_version --format=csv,noheader
  "$M" --version
} >"$OUT/env.txt" 2>&1

for f in "$B"/src/examples/wgmma/*.txt; do
  name=$(basename "$f" .txt)
  if "$M" prove "$f" >/dev/null 2>&1; then
    step "examples/$name" "$OUT/examples/$name.txt" 300 "$M" gpu "$f" --inputs all --cases 256 --show 20
  fi
done
step every_n "$OUT/every_n.txt" 1200 "$M" gpu --inst wgmma --inputs all --n every --cases 32 --show 20
W=wgmma.mma_async.sync.aligned
for row in m64n64k16.f32.f16.f16 m64n64k16.f16.f16.f16 m64n64k16.f32.bf16.bf16 m64n64k8.f32.tf32.tf32 \
  m64n64k32.f32.e4m3.e4m3 m64n64k32.f32.e5m2.e4m3 m64n64k32.f16.e4m3.e5m2 m64n64k32.f16.e5m2.e5m2 \
  m64n32k32.s32.s8.s8 m64n32k32.s32.u8.s8; do
  step "layouts_$row" "$OUT/layouts_$row.txt" 300 "$M" gpu --inst "$W.$row" --inputs all --cases 256 --show 20
done
step capture "$OUT/capture/capture.txt" 600 "$M" gpu --inst wgmma --inputs all --n 8,24 --cases 32 --show 20 \
  --capture "$OUT/capture"
step replay "$OUT/capture/replay.txt" 600 sh -c "\"$M\" replay --show 50 \"$OUT\"/capture/*.mmav"
step tests "$OUT/tests.txt" 900 "$B/bin/mmacheck_tests" "[wgmma]"
cat "$OUT/summary.txt"
