#!/usr/bin/env python3
"""Print one line per source file, `KEY FILE`: the key under which clang-tidy's
result for the file is cached by scripts/tidy.sh.

The key is a SHA-256 of everything the result depends on: clang-tidy's
version, .clang-tidy, the file's compile command (paths made relative to the
clone, so clones share keys), and the contents of the file and of every
header of this repository it includes (from the compiler's -MM dependency
list).  System headers are covered by the versions of the compiler and of
clang-tidy.  Usage (from the clone's root):

    scripts/tidy_keys.py build/compile_commands.json FILE.cc...
"""

import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys


def main():
    db_path, files = sys.argv[1], sys.argv[2:]
    root = os.getcwd()
    db = {os.path.relpath(e["file"], root): e for e in json.load(open(db_path))}
    base = hashlib.sha256()
    for cmd in (["clang-tidy", "--version"], ["c++", "--version"]):
        base.update(subprocess.run(cmd, capture_output=True, text=True).stdout.encode())
    base.update(open(".clang-tidy", "rb").read())

    def key(rel):
        entry = db[rel]
        args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
        deps_args, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a == "-o":
                skip = True
            elif a != "-c" and os.path.normpath(os.path.join(entry["directory"], a)) != os.path.join(root, rel):
                deps_args.append(a)
        out = subprocess.run(deps_args + ["-MM", "-MG", os.path.join(root, rel)], cwd=entry["directory"],
                             capture_output=True, text=True)
        h = base.copy()
        h.update(" ".join(args).replace(root, ".").encode())
        deps = out.stdout.replace("\\\n", " ").split(":", 1)[-1].split() if out.returncode == 0 else []
        local = sorted({os.path.relpath(os.path.normpath(os.path.join(entry["directory"], d)), root) for d in deps})
        for d in [rel] + [d for d in local if not d.startswith("..") and d != rel]:
            h.update(d.encode())
            try:
                h.update(open(d, "rb").read())
            except OSError:
                h.update(b"missing")
        if out.returncode != 0:  # no dependency list: a key of its own, never shared
            h.update(os.urandom(16))
        return h.hexdigest()

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for rel, k in zip(files, pool.map(key, files)):
            print(k, rel)


if __name__ == "__main__":
    main()
