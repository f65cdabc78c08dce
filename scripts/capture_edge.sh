#!/usr/bin/env bash
# On a GPU machine: capture edge-heavy vectors of the eight fused
# f16/bf16/tf32 instructions and replay them through two simulators.
#
#   [TAGS="m16n8k16.bf16 ..."] scripts/capture_edge.sh BIN_DIR OUT_DIR [CASES] [SEED]
#
# BIN_DIR holds `mmacheck` (this revision) and, optionally, `mmacheck-main`
# (the model before, for the before/after counts); their libraries are
# found through LD_LIBRARY_PATH (BIN_DIR/../lib is added).  The captures
# (`--inputs edge`, tens of MB each) stay in /tmp; OUT_DIR gets
# summary.txt, one line per instruction,
#   TAG cases=N after: P passed, F failed before: P passed, F failed
# and edge.tar.xz: env.txt, per instruction the `mmacheck mma` logs
# (TAG.after.txt, TAG.before.txt: every mismatch listed) and TAG.subset.mmav,
# the cases either model fails plus the first 240 (40 of each edge kind).
set -u
bin=$(cd "$1" && pwd)
out=$2
cases=${3:-12000}
seed=${4:-2026}
mkdir -p "$out"
export LD_LIBRARY_PATH="$bin/../lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
{
  nvidia-smi -L
  "$bin/mmacheck" --version
  [ -x "$bin/mmacheck-main" ] && "$bin/mmacheck-main" --version
} >"$out/env.txt" 2>&1
: >"$out/summary.txt"
tags=${TAGS:-"m16n8k16.f16 m16n8k8.f16 m16n8k16.f16.f16acc m16n8k8.f16.f16acc m16n8k16.bf16 m16n8k8.bf16 m16n8k8.tf32 m16n8k4.tf32"}
for tag in $tags; do
  v=/tmp/$tag.mmav
  if ! timeout 120 "$bin/mmacheck" capture --instr "$tag" --cases "$cases" --seed "$seed" --inputs edge -o "$v" \
    >"$out/$tag.capture.txt" 2>&1; then
    echo "$tag capture failed: $(tail -n 2 "$out/$tag.capture.txt" | tr '\n' ' ')" >>"$out/summary.txt"
    continue
  fi
  timeout 120 "$bin/mmacheck" mma --vectors "$v" --show 100000 >"$out/$tag.after.txt" 2>&1
  line="$tag cases=$cases after: $(tail -n 1 "$out/$tag.after.txt")"
  if [ -x "$bin/mmacheck-main" ]; then
    timeout 120 "$bin/mmacheck-main" mma --vectors "$v" --show 100000 >"$out/$tag.before.txt" 2>&1
    line="$line before: $(tail -n 1 "$out/$tag.before.txt")"
  fi
  echo "$line" >>"$out/summary.txt"
  python3 - "$v" "$out/$tag.subset.mmav" "$out/$tag.after.txt" "$out/$tag.before.txt" <<'PY'
import re, sys
src, dst, logs = sys.argv[1], sys.argv[2], sys.argv[3:]
keep = set(range(240))
for log in logs:
    try:
        for line in open(log):
            m = re.search(r"case (\d+) .*expected", line)
            if m:
                keep.add(int(m.group(1)))
    except FileNotFoundError:
        pass
with open(src) as f, open(dst, "w") as o:
    on = True
    for line in f:
        if line.startswith("case "):
            on = int(line.split()[1]) in keep
        if on or line.startswith("#") or line.startswith("instr"):
            o.write(line)
PY
done
mv "$out/summary.txt" /tmp/summary.txt
cp /tmp/summary.txt "$out/summary.txt"
(cd "$out" && tar -cJf /tmp/edge.tar.xz --exclude=edge.tar.xz . && mv /tmp/edge.tar.xz . &&
  find . -type f ! -name edge.tar.xz ! -name summary.txt -delete)
cat "$out/summary.txt"
ls -la "$out"
