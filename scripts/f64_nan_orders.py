#!/usr/bin/env python3
"""Counts, in f64 vector files (.mmav), the fmas of each output's chain whose
operands hold two or more NaNs: the fmas where the NaN payload order decides
the result (docs/numerics.md, "f64").  The chain is PTX's
d = fma(a[K-1], b[K-1], ... fma(a[0], b[0], c)); NaN-ness is followed through
it (a NaN operand, Inf*0, Inf-Inf).  Replaying the same files with
`mmacheck mma --vectors` then says whether the model's order (b, then c,
then a) gave every one of them.

    python3 scripts/f64_nan_orders.py FILE.mmav... [--subset N OUT.mmav]

--subset keeps, per instruction, the N cases with the most such fmas
(tests/data/capture.f64_nan.mmav: 24 each of the H200 capture in
docs/numerics.md, "f64").
"""
import math
import struct
import sys
from collections import Counter


def f64(word):
    return struct.unpack("<d", struct.pack("<Q", int(word, 16)))[0]


def shape(instr):
    for part in instr.split("."):
        if part.startswith("m") and "n" in part and "k" in part:
            m, rest = part[1:].split("n")
            n, k = rest.split("k")
            return int(m), int(n), int(k)
    raise ValueError(instr)


def count(path, totals, kept=None):
    instr = None
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line.startswith("instr "):
            instr = line.split()[1]
        if not line.startswith("case ") or instr is None or ".f64." not in instr:
            continue
        mats = {}
        block = [line]
        while i < len(lines) and lines[i].strip()[:2] in ("A ", "B ", "C ", "D "):
            block.append(lines[i].strip())
            name, *words = lines[i].split()
            mats[name] = [f64(w) for w in words]
            i += 1
        m, n, k = shape(instr)
        t = totals.setdefault(instr, Counter())
        t["cases"] += 1
        before = t["multi_nan_fmas"]
        for r in range(m):
            for c in range(n):
                acc = mats["C"][r * n + c]
                t["outputs"] += 1
                for kk in range(k):
                    a, b = mats["A"][r * k + kk], mats["B"][kk * n + c]
                    nans = "".join(x for x, v in (("a", a), ("b", b), ("c", acc)) if math.isnan(v))
                    t["fmas"] += 1
                    if len(nans) >= 2:
                        t["multi_nan_fmas"] += 1
                        t["multi_nan_" + nans] += 1
                    if nans:
                        acc = math.nan
                    else:
                        p = a * b
                        acc = math.nan if (math.isinf(a) and b == 0) or (math.isinf(b) and a == 0) else p + acc
                        if isinstance(acc, float) and math.isnan(acc):
                            acc = math.nan
        if kept is not None:
            kept.setdefault(instr, []).append((t["multi_nan_fmas"] - before, block))


def main():
    args = sys.argv[1:]
    subset = None
    if "--subset" in args:
        at = args.index("--subset")
        subset = (int(args[at + 1]), args[at + 2])
        del args[at:at + 3]
    totals, kept = {}, {}
    for path in args:
        count(path, totals, kept)
    if subset:
        with open(args[0]) as first:
            header = [line for line in first.read().split("\n")[:8] if line.startswith("#")]
        with open(subset[1], "w") as out:
            out.write("\n".join(header) + "\n")
            out.write(f"# the {subset[0]} cases per instruction with the most multi-NaN fmas: scripts/f64_nan_orders.py --subset\n")
            for instr, cases in kept.items():
                out.write(f"instr {instr}\n")
                for _, block in sorted(cases, key=lambda c: -c[0])[:subset[0]]:
                    out.write("\n".join(block) + "\n")
    for instr, t in totals.items():
        kinds = ", ".join(f"{key[10:]} {v}" for key, v in sorted(t.items()) if key.startswith("multi_nan_") and key != "multi_nan_fmas")
        print(f"{instr}: {t['cases']} cases, {t['outputs']} outputs, {t['fmas']} fmas, "
              f"{t['multi_nan_fmas']} with two or more NaN operands ({kinds})")


if __name__ == "__main__":
    main()
