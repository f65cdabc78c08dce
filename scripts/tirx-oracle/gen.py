"""Record what TVM 0.1.0a4 (apache-tvm-tirx) does with the released TIRx mma
examples (examples/tirx_*.py), for mmacheck's tests (tests/test_tirx_release*.cc).

For every example: bind a CUDA sm_90 target, run TileDispatch and write the
lowered module (NAME.lowered.py) or TVM's refusal (in oracle.jsonl), and the
CUDA source of tvm_tirx.tirx._compile.compile (NAME.cu).  oracle.jsonl has one
object per example: name, source, accepted, message, mma_count, the register
arguments of every T.ptx.mma (as printed), and the command; tests read only
that and the dumps.  Runs outside the build (CI installs no TVM):

    /work/venv-tvm/bin/python scripts/tirx-oracle/gen.py examples/tirx_*.py --out tests/data/tirx

(examples/tirx_lowered_*.py, copies of the dumps, are skipped.)  A file TVM refuses while Python
runs it (TVMScript parses a kernel at its decorator: a NameError, a parser error) is recorded too, as
accepted false with stage "decoration", the exception's type and message and the file's line TVM
stood at; tests check that mmacheck refuses it at that line.  With --prints
it also writes NAME.script.py, the module bound to the target as mod.script()
prints it (tests/data/tirx/ldmatrix).
"""

import argparse
import json
import os
import re
import runpy
import shutil
import sys
import traceback

import tvm_tirx as tvm
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and patterns)
from tvm_tirx.tirx import _compile
from tvm_tirx.tirx.compilation_pipeline import _bind_target

TARGET = {"kind": "cuda", "arch": "sm_90"}


def mma_calls(text):
    """The argument lists of every T.ptx.mma line, split at top-level commas."""
    calls = []
    for line in text.splitlines():
        at = line.find("T.ptx.mma(")
        if at < 0:
            continue
        args, depth, cur = [], 0, ""
        for ch in line[at + len("T.ptx.mma(") :]:
            if ch in "([":
                depth += 1
            elif ch in ")]":
                if depth == 0:
                    break
                depth -= 1
            if ch == "," and depth == 0:
                args.append(cur.strip())
                cur = ""
            else:
                cur += ch
        args.append(cur.strip())
        calls.append(args)
    return calls


def unrolled_count(text):
    """mma instructions after unrolling: product of the enclosing T.unroll extents."""
    total, stack = 0, []
    for line in text.splitlines():
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        m = re.match(r"\s*for \w+ in T\.unroll\((\d+), (\d+)\):", line)
        if m:
            stack.append((indent, int(m.group(2)) - int(m.group(1))))
        elif "T.ptx.mma(" in line:
            n = 1
            for _, e in stack:
                n *= e
            total += n
    return total


def cuda_source(exe):
    for m in [exe.mod, *exe.mod.imports]:
        try:
            src = m.inspect_source()
        except Exception:  # noqa: BLE001  (a module kind without source)
            continue
        if "__global__" in src:
            return src
    return None


def record(path, out, command, kernel="main", prints=False):
    """One module-level kernel of the file: `main` is recorded under the file's
    name, another kernel as FILE.KERNEL (a factory's several builds)."""
    name = os.path.basename(path)[: -len(".py")] + ("" if kernel == "main" else "." + kernel)
    entry = {"name": name, "source": path, "command": command}
    try:
        func = runpy.run_path(path)[kernel]
    except Exception as e:  # noqa: BLE001  (TVM refused the file as Python ran it: the record)
        # TVMScript parses a kernel at its decorator (@T.function, @T.macro): a NameError for a name the
        # body cannot see, a parser error.  The line is the file's deepest frame, where TVM stood.
        lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if os.path.abspath(f.filename) == os.path.abspath(path)]
        entry.update(accepted=False, stage="decoration", error=type(e).__name__, message=str(e).strip().splitlines()[-1],
                     line=lines[-1] if lines else None)
        return entry
    mod = tvm.IRModule.from_expr(func)
    target = tvm.target.Target(TARGET)
    if prints:  # the module as users print it: bound to the target (TVM's _bind_target), mod.script()
        text = _bind_target(tvm.IRModule({"main": func}), target).script()
        with open(os.path.join(out, name + ".script.py"), "w") as f:
            f.write("# " + command + "\n" + text + ("\n" if not text.endswith("\n") else ""))
    try:
        with target:
            lowered = tvm.tirx.transform.TileDispatch()(mod)
    except Exception as e:  # noqa: BLE001  (TVM's refusal is the record)
        # "Tensor instruction lowering failed: ...", the pattern's message, "call: ...".
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        inner = [l for l in lines if not l.startswith(("Tensor instruction lowering failed", "call:"))]
        entry.update(accepted=False, message="\n".join(inner) if inner else lines[-1], error=lines)
        return entry
    text = lowered.script()
    with open(os.path.join(out, name + ".lowered.py"), "w") as f:
        f.write("# " + command + "\n" + text + ("\n" if not text.endswith("\n") else ""))
    calls = mma_calls(text)
    entry.update(accepted=True, message="", mma_statements=len(calls), mma_count=unrolled_count(text), mma_args=calls)
    try:
        src = cuda_source(_compile.compile(mod, target=target))
    except Exception as e:  # noqa: BLE001
        src, entry["cuda_error"] = None, str(e).splitlines()[-1]
    if src is not None:
        with open(os.path.join(out, name + ".cu"), "w") as f:
            f.write("// " + command + "\n" + src)
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("examples", nargs="+")
    ap.add_argument("--out", default="tests/data/tirx")
    ap.add_argument("--kernel", action="append", help="a module-level kernel to record (repeatable; default main)")
    ap.add_argument("--prints", action="store_true", help="also write NAME.script.py, the module as mod.script() prints it")
    args = ap.parse_args()
    kernels = args.kernel or ["main"]
    # examples/tirx_lowered_*.py are TVM's own dumps (copies of the records), not programs; nor are the prints.
    args.examples = [p for p in args.examples if "lowered" not in os.path.basename(p) and not p.endswith(".script.py")]
    os.makedirs(args.out, exist_ok=True)
    command = ("/work/venv-tvm/bin/python scripts/tirx-oracle/gen.py " + " ".join(args.examples) + " --out " + args.out
               + "".join(" --kernel " + k for k in args.kernel or []))
    command += " --prints" if args.prints else ""
    entries = [record(p, args.out, command, k, args.prints) for p in args.examples for k in kernels]
    with open(os.path.join(args.out, "oracle.jsonl"), "w") as f:
        f.write(json.dumps({"command": command, "tvm": "apache-tvm-tirx 0.1.0a4", "target": TARGET}) + "\n")
        for e in entries:
            f.write(json.dumps(e) + "\n")
    for e in entries:
        print(e["name"], "accepted" if e["accepted"] else "refused: " + e["message"], e.get("mma_count", ""), e.get("cuda_error", ""), file=sys.stderr)


if __name__ == "__main__":
    main()
