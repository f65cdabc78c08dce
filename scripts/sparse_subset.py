#!/usr/bin/env python3
"""Keep the first N cases of each instruction and selector of mma.sp vector files.

    python3 scripts/sparse_subset.py --per 8 OUT.mmav IN.mmav...

The H200's captures (scripts/device/mma_sp.sh: k16.mmav, k32.mmav, int.mmav,
64 cases per instruction and selector) are megabytes; tests/data/mma_sp/
keeps a few cases of each, with every comment line of the files (the
recording's machine, driver and command).  A case is its `case` line and the
lines up to the next `case` or `instr`; ids are kept as recorded.
"""
import argparse
import os
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per", type=int, default=8)
    ap.add_argument("out")
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    lines, kept = [], {}
    for path in args.inputs:
        instr, case = None, None
        with open(path) as f:
            for raw in f:
                t = raw.split()
                if not t or raw.startswith("#"):
                    lines.append(raw)
                    continue
                if t[0] == "instr":
                    instr, case = raw, None
                    lines.append(raw)
                    continue
                if t[0] == "case":
                    case = [raw]
                    continue
                if case is None:
                    sys.exit(f"{path}: '{t[0]}' outside a case")
                case.append(raw)
                if t[0] == "D":  # a case's last line
                    sel = next(l.split()[1] for l in case if l.startswith("F "))
                    key = (instr, sel)
                    if kept.get(key, 0) < args.per:
                        kept[key] = kept.get(key, 0) + 1
                        lines.extend(case)
                    case = None
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(args.out)))
    with os.fdopen(fd, "w") as f:
        f.writelines(lines)
    os.chmod(tmp, 0o644)
    os.replace(tmp, args.out)
    print(f"{args.out}: {sum(kept.values())} cases, {len(kept)} instruction x selector pairs")


if __name__ == "__main__":
    main()
