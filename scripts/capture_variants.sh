#!/usr/bin/env bash
# On a GPU machine: capture every instruction named in TAGS_FILE (a line:
# a table tag or PTX name, then the input sets, e.g. `m16n8k16.f64 standard
# edge`), replay each capture through the simulator (sm_90), and pack the
# captures for the way back.
#
#   scripts/capture_variants.sh BIN_DIR TAGS_FILE OUT_DIR [CASES] [SEED]
#
# OUT_DIR gets summary.txt (per instruction and input set: the capture's exit
# status and `mmacheck mma`'s last line, or why it failed) and env.txt;
# /tmp/variants holds TAG.INPUTS.mmav and TAG.INPUTS.replay.txt (every
# mismatch listed), to pack for the way back (tar -C /tmp/variants -cJf ...).
# An instruction the GPU refuses fails alone.
set -u
bin=$(cd "$1" && pwd)
tags_file=$2
out=$3
cases=${4:-384}
seed=${5:-2512}
mkdir -p "$out" /tmp/variants
export LD_LIBRARY_PATH="$bin/../lib:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}"
{
  nvidia-smi -L
  nvidia-smi --query-gpu=driver_version --format=csv,noheader
  "$bin/mmacheck" --version
} >"$out/env.txt" 2>&1
: >"$out/summary.txt"
while read -r tag sets; do
  [ -z "$tag" ] && continue
  for inputs in $sets; do
    v=/tmp/variants/$tag.$inputs.mmav
    if ! timeout 120 "$bin/mmacheck" capture --instr "$tag" --cases "$cases" --seed "$seed" --inputs "$inputs" \
      -o "$v" >/tmp/variants/$tag.$inputs.capture.txt 2>&1; then
      echo "$tag $inputs capture failed: $(tail -n 3 /tmp/variants/$tag.$inputs.capture.txt | tr '\n' ' ')" \
        >>"$out/summary.txt"
      continue
    fi
    timeout 120 "$bin/mmacheck" mma --vectors "$v" --arch sm_90 --show 100000 \
      >/tmp/variants/$tag.$inputs.replay.txt 2>&1
    echo "$tag $inputs rc=$? $(tail -n 1 /tmp/variants/$tag.$inputs.replay.txt)" >>"$out/summary.txt"
  done
done <"$tags_file"
