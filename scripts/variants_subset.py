#!/usr/bin/env python3
"""Keep a few cases of each capture of scripts/capture_variants.sh for tests/data.

    scripts/variants_subset.py CAPTURE_DIR PER_KIND OUT.mmav

CAPTURE_DIR holds TAG.INPUTS.mmav and TAG.INPUTS.replay.txt (the unpacked
variants.tar.xz).  For every capture, PER_KIND cases of each kind are kept,
first those the replay listed as failing; an edge capture's case numbers
are moved up by 100000 so that they do not repeat its standard capture's.
The captures' header comments (GPU, driver, CUDA, NVRTC, command) are kept
once per instruction block.  Writes one file holding every instruction.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from edge_subset import read_cases  # noqa: E402


def main():
    src, per_kind, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    out = [f"# H200 captures of the instruction variants, {per_kind} case(s) of each kind per capture "
           f"(first those the replay failed): scripts/variants_subset.py {' '.join(sys.argv[1:])}\n"]
    for path in sorted(glob.glob(os.path.join(src, "*.mmav"))):
        failed = set()
        log = path[:-len(".mmav")] + ".replay.txt"
        if os.path.exists(log):
            failed = {int(m.group(1)) for m in re.finditer(r"case (\d+) ", open(log).read())}
        header, cases = read_cases(path)
        shift = 100000 if path.endswith(".edge.mmav") else 0
        keep = set()
        for kind in dict.fromkeys(k for _, k, _ in cases):
            ids = [c for c, k, _ in cases if k == kind]
            keep.update(([c for c in ids if c in failed] + [c for c in ids if c not in failed])[:per_kind])
        out.extend(header)
        for cid, kind, lines in cases:
            if cid in keep:
                out.append(f"case {cid + shift} {kind}\n")
                out.extend(lines[1:])
    with open(out_path, "w") as f:
        f.writelines(out)


if __name__ == "__main__":
    main()
