#!/usr/bin/env python3
"""Keep a few cases of a captured .mmav file for tests/data.

    scripts/edge_subset.py CAPTURE.mmav PER_KIND [MMACHECK_MMA_LOG] > SUBSET.mmav

Keeps PER_KIND cases of every kind (the word after the case number),
preferring the cases that MMACHECK_MMA_LOG (`mmacheck mma --show N` output
of an older model on the same file) lists as failing, those with a
mismatch other than +0 against -0 first; the header comments are kept and a
line naming this selection is added.
"""
import re
import sys


def read_cases(path):
    """(header lines, [[case id, kind, lines]]) of a .mmav file."""
    header, cases, current = [], [], None
    for line in open(path):
        if line.startswith("case "):
            _, cid, kind = line.split()[:3]
            current = [int(cid), kind, [line]]
            cases.append(current)
        elif current is None:
            header.append(line)
        else:
            current[2].append(line)
    return header, cases


def main():
    src, per_kind = sys.argv[1], int(sys.argv[2])
    failed, other = set(), set()
    if len(sys.argv) > 3:
        for line in open(sys.argv[3]):
            m = re.search(r"case (\d+) .*expected (0x[0-9a-f]+).*got (0x[0-9a-f]+)", line)
            if m:
                failed.add(int(m.group(1)))
                want, got = int(m.group(2), 16), int(m.group(3), 16)
                if not (want == 0 and got in (0x8000, 0x80000000)):
                    other.add(int(m.group(1)))
    header, cases = read_cases(src)
    keep = set()
    for kind in dict.fromkeys(k for _, k, _ in cases):
        ids = [c for c, k, _ in cases if k == kind]
        ranked = ([c for c in ids if c in other] + [c for c in ids if c in failed and c not in other] +
                  [c for c in ids if c not in failed])
        keep.update(ranked[:per_kind])
    out = sys.stdout
    out.writelines(header[:-1] if header and header[-1].startswith("instr") else header)
    out.write(f"# subset: {per_kind} cases of each kind, first those the older model failed "
              f"({len(failed & keep)} of them): scripts/edge_subset.py {' '.join(sys.argv[1:])}\n")
    if header and header[-1].startswith("instr"):
        out.write(header[-1])
    for cid, _, lines in cases:
        if cid in keep:
            out.writelines(lines)


if __name__ == "__main__":
    main()
