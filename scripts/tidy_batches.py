#!/usr/bin/env python3
"""Group .cc files into the batches scripts/tidy.sh hands clang-tidy, and
print one batch source per line.

clang-tidy spends most of a file's time walking the AST of the standard
library and the other system headers (three quarters of it for a file of
core/prove); a batch of files that one source includes is walked once.
The files of a folder that build/ compiles with one command are batched
together, at most BATCH (8) to a batch, each file's batch a hash of its
path, so that adding a file reshuffles its folder at most; a file that
defines main() (a benchmark, the program) stays alone.

Each batch is build/tidy/<folder>_<i>.cc, including its files by their path
from the root (the same text in every clone, so clones share
scripts/tidy_keys.py's cache keys), with build/tidy/compile_commands.json
giving it its files' compile command.  The files of one folder therefore
share a translation unit in clang-tidy's eyes: two files of one folder may
not define the same name in their anonymous namespaces (clang-tidy reports
the redefinition as an error); fold such twins into a header or rename
them.  Usage (from the clone's root):

    scripts/tidy_batches.py build/compile_commands.json FILE.cc...
"""

import collections
import hashlib
import json
import os
import re
import shlex
import sys

BATCH = 8
OUT = os.path.join("build", "tidy")


def command_without_file(entry, root):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    kept, skip = [], False
    target = os.path.normpath(entry["file"])
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a == "-c" or os.path.normpath(os.path.join(entry["directory"], a)) == target:
            continue
        else:
            kept.append(a)
    return kept


def main():
    db_path, files = sys.argv[1], sys.argv[2:]
    root = os.getcwd()
    db = {os.path.relpath(e["file"], root): e for e in json.load(open(db_path))}
    groups = collections.defaultdict(list)
    alone = []
    for rel in sorted(set(files)):
        entry = db[rel]
        with open(rel, encoding="utf-8", errors="replace") as f:
            defines_main = re.search(r"^int main\(", f.read(), re.M) is not None
        if defines_main:
            alone.append(rel)
            continue
        args = command_without_file(entry, root)
        groups[(os.path.dirname(rel), entry["directory"], tuple(args))].append(rel)

    os.makedirs(OUT, exist_ok=True)
    for stale in os.listdir(OUT):
        if stale.endswith(".cc"):
            os.remove(os.path.join(OUT, stale))
    batches = []  # (path, directory, args, members)
    for (folder, directory, args), members in sorted(groups.items()):
        count = -(-len(members) // BATCH)
        parts = collections.defaultdict(list)
        for rel in members:
            parts[int(hashlib.md5(rel.encode()).hexdigest()[:6], 16) % count].append(rel)
        # Several compile commands in one folder each get their own names.
        tag = hashlib.md5(" ".join(args).encode()).hexdigest()[:6]
        for i, part in sorted(parts.items()):
            name = f"{folder.replace('/', '_')}_{tag}_{i}.cc"
            batches.append((os.path.join(OUT, name), directory, list(args), part))
    entries, printed = [], []
    for path, directory, args, members in batches:
        with open(path, "w") as f:
            f.write("// scripts/tidy_batches.py: clang-tidy's batch of these files.\n")
            for rel in members:
                f.write(f'#include "{rel}"  // NOLINT(bugprone-suspicious-include)\n')
        absolute = os.path.join(root, path)
        entries.append({"directory": directory, "file": absolute,
                        "command": " ".join(shlex.quote(a) for a in args + ["-c", absolute])})
        printed.append(path)
    for rel in alone:
        entries.append(db[rel])
        printed.append(rel)
    with open(os.path.join(OUT, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    for p in printed:
        print(p)


if __name__ == "__main__":
    main()
