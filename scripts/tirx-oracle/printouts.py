"""A corpus of what TVM 0.1.0a4 (apache-tvm-tirx) prints for released-TIRx mma
programs, for mmacheck's tests (tests/test_tirx_printouts.cc).

Each variant is a program written here as users write it (NAME.py: the mma
pattern on register images, staged from and stored to global tensors), then
run through TVM as users do: the function in `IRModule({"main": f})`, bound
to the target {"kind": "cuda", "arch": "sm_90"} by TVM's own `_bind_target`
(the first step of `tirx_pipeline`), printed with `mod.script()`
(NAME.script.py), then lowered by `TileDispatch` and printed again
(NAME.lowered.py; only when TVM accepts the pattern).  manifest.jsonl has
one object per variant: name, what it varies, the verdict mmacheck must
give, TVM's decision (and message) and the mma count; the first line is the
command.  Variants cover the tilings and dtypes the tests have (m16n8k16 and
m16n8k8; f16, bf16; scalar and tensor C; tiles up to 2 x 2 x 3), spellings
(T.unroll, T.serial, T.vectorized, range; a function named other than its
key, which prints `T.func_attr({"global_symbol": ...})`; layouts bound through
`grouped, seps = L.group(...)`), planted mistakes that TVM accepts and
compiles (staging in the wrong register order, a store with rN and rM
swapped: mmacheck must refute them) and ones TVM refuses (A's lanes
transposed).  Runs outside the build (CI installs no TVM):

    /work/venvs/printouts/bin/python scripts/tirx-oracle/printouts.py examples/tirx_*.py --out tests/data/tirx/printouts

(the examples, mmacheck's own, are printed too: ex_NAME.script.py, ex_NAME.lowered.py).
"""

import argparse
import json
import os
import runpy
import shutil
import sys
import tempfile

import tvm_tirx as tvm
import tvm_tirx.backend.cuda  # noqa: F401  (registers the CUDA thread axes and patterns)
from tvm_tirx.tirx.compilation_pipeline import _bind_target

TARGET = {"kind": "cuda", "arch": "sm_90"}


def digit(var, div, ext):
    """`var // div % ext`, the mixed-radix digit; None for a digit of extent 1."""
    if ext == 1:
        return None
    return f"{var} % {ext}" if div == 1 else f"{var} // {div} % {ext}"


def affine(*terms):
    """Sum of coef * expr terms (None terms dropped), as Python source."""
    out = []
    for coef, e in terms:
        if e is None:
            continue
        out.append(e if coef == 1 else f"{coef} * ({e})")
    return " + ".join(out) if out else "0"


def program(v):
    """The source of one variant: dict with Mt, Nt, Kt, k, dtype, c_tensor,
    loop, name, group, plant ("", "a_order", "b_order", "d_store", "a_lanes")."""
    Mt, Nt, Kt, k = v["Mt"], v["Nt"], v["Kt"], v["k"]
    kh = k // 8
    dt = v["dtype"]
    ab = "f16" if dt == "float16" else "bf16"
    opcode = f"mma.sync.aligned.m16n8k{k}.row.col.f32.{ab}.{ab}.f32"
    plant = v.get("plant", "")
    a_words, b_words, d_regs = Mt * Kt * 2 * kh, Nt * Kt * kh, Mt * Nt * 4
    if plant == "a_lanes":  # the lanes of g and t exchanged: TVM's owner check refuses it
        a_img = f"S[({Mt}, {Kt}, 2, 4, {kh}, 8) : ({Kt * 2 * kh}, {2 * kh}, 1, 1 @ laneid, 2, 4 @ laneid)]"
    else:
        a_img = f"S[({Mt}, {Kt}, 2, 8, {kh}, 4) : ({Kt * 2 * kh}, {2 * kh}, 1, 4 @ laneid, 2, 1 @ laneid)]"
    b_img = f"S[({Nt}, {Kt}, 8, {kh}, 4) : ({Kt * kh}, {kh}, 4 @ laneid, 1, 1 @ laneid)]"
    d_img = f"S[({Mt}, {Nt}, 2, 8, 4, 2) : ({Nt * 4}, 4, 2, 4 @ laneid, 1 @ laneid, 1)]"
    s = "s"
    # A: slot s holds half s % 2 of word s // 2 = m, kk, kHi, rM (rM innermost).
    rM, kHi = digit(s, 2, 2), digit(s, 4, kh)
    if plant == "a_order":  # the seed erratum's order: kHi before rM
        rM, kHi = digit(s, 2 * kh, 2), digit(s, 2, kh)
    a_row = affine((16, digit(s, 4 * kh * Kt, Mt)), (1, "lane // 4"), (8, rM))
    a_col = affine((k, digit(s, 4 * kh, Kt)), (2, "lane % 4"), (1, "s % 2"), (8, kHi))
    # B (given N x K): word s // 2 = n, kk, kHi.
    b_half, b_hi = "s % 2", digit(s, 2, kh)
    if plant == "b_order":  # the half and the high K word exchanged
        b_half, b_hi = digit(s, 2, kh), "s % 2"
    b_row = affine((8, digit(s, 2 * kh * Kt, Nt)), (1, "lane // 4"))
    b_col = affine((k, digit(s, 2 * kh, Kt)), (2, "lane % 4"), (1, b_half), (8, b_hi))
    # D, C: slot s = m, n, rM, rN.
    d_rN, d_rM = "s % 2", digit(s, 2, 2)
    if plant == "d_store":
        d_rN, d_rM = digit(s, 2, 2), "s % 2"
    d_row = affine((16, digit(s, 4 * Nt, Mt)), (1, "lane // 4"), (8, d_rM))
    d_col = affine((8, digit(s, 4, Nt)), (2, "lane % 4"), (1, d_rN))
    c_row = affine((16, digit(s, 4 * Nt, Mt)), (1, "lane // 4"), (8, digit(s, 2, 2)))
    c_col = affine((8, digit(s, 4, Nt)), (2, "lane % 4"), (1, "s % 2"))

    def loop(n):
        return {"unroll": f"T.unroll({n})", "serial": f"T.serial({n})", "vectorized": f"T.vectorized({n})",
                "range": f"range({n})"}[v.get("loop", "unroll")]

    M, N, K = 16 * Mt, 8 * Nt, k * Kt
    name = v.get("func", "main")
    c_param = f', C: T.Tensor(({M}, {N}), "float32")' if v.get("c_tensor") else ""
    lines = [
        f"# {v['name']}: {v['what']}",
        f"# Expected verdict: {v['verdict']}",
        "# Made by scripts/tirx-oracle/printouts.py (TVM 0.1.0a4 prints it as NAME.script.py, NAME.lowered.py).",
        "from tvm_tirx.script import tirx as T",
        "import tvm_tirx.backend.cuda  # noqa: F401",
        "from tvm_tirx.tirx.layout import S, Axis, TileLayout",
        "",
        'laneid = Axis.get("laneid")',
        "",
        f"A_IMG = TileLayout({a_img})",
    ]
    if v.get("group"):  # B bound through TVM's group / permute_by_groups (the identity order)
        lines += [f"B_ATOM = TileLayout({b_img})", "_g, _seps = B_ATOM.group([" + f"{Nt}, {Kt}, 8, {4 * kh}" + "])",
                  "B_IMG = _g.permute_by_groups(_seps, [0, 1, 2, 3])"]
    else:
        lines += [f"B_IMG = TileLayout({b_img})"]
    lines += [
        f"D_IMG = TileLayout({d_img})",
        "",
        "",
        "@T.function",
        f'def {name}(A: T.Tensor(({M}, {K}), "{dt}"), B: T.Tensor(({N}, {K}), "{dt}"){c_param}, D: T.Tensor(({M}, {N}), "float32")):',
        "    with T.device_entry(launch=T.cuda.LaunchConfig(grid=[1], block=[32])):",
        "        lane = T.cuda.lane_id()",
        f'        a = T.alloc_local(({Mt}, {Kt}, 16, {k // 2}), "uint32", layout=A_IMG)',
        f'        b = T.alloc_local(({Nt}, {Kt}, 8, {k // 2}), "uint32", layout=B_IMG)',
        f'        d = T.alloc_local(({Mt}, {Nt}, 16, 8), "float32", layout=D_IMG)',
    ]
    if v.get("c_tensor"):
        lines.append(f'        c = T.alloc_local(({Mt}, {Nt}, 16, 8), "float32", layout=D_IMG)')
    for view, src, n, t in [("a_h", "a", 2 * a_words, dt), ("b_h", "b", 2 * b_words, dt), ("d_r", "d", d_regs, "float32")] + (
        [("c_r", "c", d_regs, "float32")] if v.get("c_tensor") else []
    ):
        lines.append(
            f'        {view} = T.decl_tensor({src}.data, ty_args=[T.Tensor(({n},), "{t}", scope="local", layout=TileLayout(S[{n}:1]))])'
        )
    lines += [
        f"        for s in {loop(2 * a_words)}:",
        f"            a_h[s] = A[{a_row}, {a_col}]",
        f"        for s in {loop(2 * b_words)}:",
        f"            b_h[s] = B[{b_row}, {b_col}]",
    ]
    if v.get("c_tensor"):
        lines += [f"        for s in {loop(d_regs)}:", f"            c_r[s] = C[{c_row}, {c_col}]"]
    c_arg = "c[:, :, :, :]" if v.get("c_tensor") else "T.float32(0)"
    lines += [
        f'        T.cuda.tile.apply("{opcode}", d[:, :, :, :], a[:, :, :, :], b[:, :, :, :], {c_arg}, scope="warp")',
        f"        for s in {loop(d_regs)}:",
        f"            D[{d_row}, {d_col}] = d_r[s]",
    ]
    return "\n".join(lines) + "\n", name


def variants():
    out = []

    def add(name, what, verdict, **kw):
        base = dict(Mt=1, Nt=1, Kt=1, k=16, dtype="float16")
        base.update(kw)
        out.append(dict(base, name=name, what=what, verdict=verdict))

    for Mt, Nt, Kt, k in [(1, 1, 1, 16), (2, 1, 1, 16), (1, 2, 1, 16), (1, 1, 2, 16), (2, 2, 2, 16), (1, 1, 1, 8),
                          (1, 1, 3, 8), (2, 2, 3, 8)]:
        for dtype in ["float16", "bfloat16"]:
            tag = f"m{Mt}n{Nt}k{Kt}_k{k}_{'f16' if dtype == 'float16' else 'bf16'}"
            add(tag, f"{Mt} x {Nt} x {Kt} m16n8k{k}, {dtype}", "proved", Mt=Mt, Nt=Nt, Kt=Kt, k=k, dtype=dtype)
    add("c_tensor", "C as a register image", "proved", c_tensor=True)
    add("c_tensor_m2n2k2", "C as a register image, 2 x 2 x 2", "proved", Mt=2, Nt=2, Kt=2, c_tensor=True)
    for loop in ["serial", "vectorized", "range"]:
        add(f"loop_{loop}", f"staging loops over {loop}", "proved", loop=loop)
    add("named_gemm", "the function named gemm under the key main (prints global_symbol)", "proved", func="gemm")
    add("grouped_b", "B's layout bound through group / permute_by_groups", "proved", group=True, Nt=2, Kt=2)
    add("wrong_a_order", "A staged in the seed erratum's register order (TVM accepts it)", "refuted", plant="a_order")
    add("wrong_a_order_m2n1k2", "the same, 2 x 1 x 2", "refuted", plant="a_order", Mt=2, Kt=2)
    add("wrong_b_order", "B's half and high K word exchanged in the staging (TVM accepts it)", "refuted", plant="b_order")
    add("wrong_d_store", "D stored with rM and rN exchanged (TVM accepts it)", "refuted", plant="d_store", Nt=2)
    add("wrong_a_lanes", "A's lanes transposed (TVM refuses it)", "dispatch_failed", plant="a_lanes")
    return out


def example(path):
    """A variant from one of mmacheck's examples (examples/tirx_*.py), its
    verdict from its "# Expected verdict:" line."""
    text = open(path).read()
    verdict = text.split("# Expected verdict: ", 1)[1].split()[0]
    name = "ex_" + os.path.basename(path)[: -len(".py")]
    return dict(name=name, what="TVM's print of " + path, verdict=verdict, path=path)


def record(v, out, command):
    name = v["name"]
    if "path" in v:
        source, fname = v["path"], "main"
    else:
        src, fname = program(v)
        source = os.path.join(out, name + ".py")
        with open(source, "w") as f:
            f.write(src)
    entry = {k: v[k] for k in ("name", "what", "verdict")}
    entry.update(source=source)
    func = runpy.run_path(source)[fname]
    target = tvm.target.Target(TARGET)
    mod = _bind_target(tvm.IRModule({"main": func}), target)
    head = "# " + command + "\n"
    with open(os.path.join(out, name + ".script.py"), "w") as f:
        f.write(head + mod.script().rstrip("\n") + "\n")
    entry["script"] = os.path.join(out, name + ".script.py")
    try:
        with target:
            lowered = tvm.tirx.transform.TileDispatch()(mod)
    except Exception as e:  # noqa: BLE001  (TVM's refusal is the record)
        lines = [l for l in str(e).strip().splitlines() if l.strip()]
        inner = [l for l in lines if not l.startswith(("Tensor instruction lowering failed", "call:"))]
        entry.update(accepted=False, message="\n".join(inner) if inner else lines[-1])
        return entry
    text = lowered.script()
    with open(os.path.join(out, name + ".lowered.py"), "w") as f:
        f.write(head + text.rstrip("\n") + "\n")
    entry.update(accepted=True, message="", lowered=os.path.join(out, name + ".lowered.py"), mma_statements=text.count("T.ptx.mma("))
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/tirx/printouts")
    ap.add_argument("examples", nargs="*", help="examples/tirx_*.py to print as well (tirx_lowered_* skipped)")
    args = ap.parse_args()
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    args.examples = [p for p in args.examples if "lowered" not in os.path.basename(p)]
    command = " ".join(["/work/venvs/printouts/bin/python scripts/tirx-oracle/printouts.py", *args.examples, "--out", args.out])
    entries = [record(v, args.out, command) for v in variants() + [example(p) for p in args.examples]]
    with open(os.path.join(args.out, "manifest.jsonl"), "w") as f:
        f.write(json.dumps({"command": command, "tvm": "apache-tvm-tirx 0.1.0a4", "target": TARGET}) + "\n")
        for e in entries:
            f.write(json.dumps(e) + "\n")
    for e in entries:
        print(e["name"], "accepted" if e["accepted"] else "refused: " + e["message"], file=sys.stderr)
    bad = [e["name"] for e in entries if e["accepted"] != (e["verdict"] != "dispatch_failed")]
    if bad:
        sys.exit("TVM decided otherwise than planned: " + ", ".join(bad))


if __name__ == "__main__":
    main()
