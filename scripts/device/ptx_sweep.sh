#!/bin/bash
# Every PTX kernel of tests/data/ptx/ on the device (docs/ptx.md, "sim and
# gpu"): `mmacheck gpu FILE --cases N --json` for each file with a launch
# file, the sm_90 folders first (the H200's Done-when of issues 35 and 36),
# then sm_80's.  Run from the repository root on the device, with bundle/bin/mmacheck
# and bundle/lib of scripts/bundle.sh carried (the working tree has the data):
#
#   OUT=/tmp/out scripts/device/ptx_sweep.sh
#
#   OUT      where gpu.jsonl goes (required): one JSON object per file, {"file",
#            "rc" (0 match, 1 differ, 2 refused: a planted kernel sim refutes is
#            never run; 3 no GPU), "s", "out" (gpu's JSON), "err"}; nvidia-smi.txt beside it
#   DIRS     the folders under tests/data/ptx/, in order (default below)
#   CASES    cases per kernel (3)
#   BUDGET   seconds after which the remaining files are listed as skipped (500)
set -u
: "${OUT:?set OUT to the output folder}"
B=$PWD/bundle
[ -e "$B/lib/libz3.so.4" ] || xz -dkf "$B/lib/libz3.so.4.xz"
export LD_LIBRARY_PATH=$B/lib
M=$B/bin/mmacheck
mkdir -p "$OUT"
nvidia-smi >"$OUT/nvidia-smi.txt" 2>&1
: >"$OUT/gpu.jsonl"
start=$(date +%s)
dirs=${DIRS:-triton_sm90_tma tilelang_sm90 triton_sm90 wgmma triton_sm90_ws nvcc tilelang cute triton tirx}
for d in $dirs; do
  for f in tests/data/ptx/"$d"/*.ptx; do
    [ -e "${f%.ptx}.launch.json" ] || continue
    if [ $(($(date +%s) - start)) -gt "${BUDGET:-500}" ]; then
      echo "{\"file\": \"$f\", \"skipped\": \"time\"}" >>"$OUT/gpu.jsonl"
      continue
    fi
    t0=$(date +%s.%N)
    timeout 90 "$M" gpu "$f" --cases "${CASES:-3}" --json >"$OUT/one.json" 2>"$OUT/one.err"
    rc=$?
    t1=$(date +%s.%N)
    python3 - "$f" "$rc" "$t0" "$t1" "$OUT/one.json" "$OUT/one.err" >>"$OUT/gpu.jsonl" <<'PY'
import json, sys
f, rc, t0, t1, out, err = sys.argv[1:]
print(json.dumps({"file": f, "rc": int(rc), "s": round(float(t1) - float(t0), 2),
                  "out": open(out).read().strip()[:600], "err": open(err).read().strip()[-400:]}))
PY
  done
done
rm -f "$OUT/one.json" "$OUT/one.err"
