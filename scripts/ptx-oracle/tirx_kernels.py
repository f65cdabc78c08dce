"""The PTX of tests/data/ptx/tirx/: the CUDA source TVM TIRx 0.1.0a4 wrote for
the released-TIRx programs of tests/data/tirx/ (scripts/tirx-oracle/gen.py
recorded it as NAME.cu beside each program), compiled by nvcc for sm_80,
each with a launch file made from the program's signature and launch.

    python3 scripts/ptx-oracle/tirx_kernels.py [NVCC]

The manifest, sources.tsv, pairs each PTX file with the program it came
from: tests/test_ptx.cc proves both, the program with mmacheck's TIRx reader
and the PTX with the CTA machine, and requires the same verdict.  TIRx's B
is given N x K (D = A·Bᵀ): its launch tensor is B viewed K x N (strides
[1, K]).  CI runs none of this.
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "tests", "data", "ptx", "tirx")
NVCC = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
FOLDERS = ["tests/data/tirx", "tests/data/tirx/warps", "tests/data/tirx/ldmatrix", "tests/data/tirx/scalar_c",
           "tests/data/tirx/regions", "tests/data/tirx/helpers", "tests/data/tirx/zero_fill", "tests/data/tirx/macros"]
PARAM = re.compile(r'(\w+): T\.Tensor\(\((\d+), (\d+)\), "(\w+)"\)')


def program_of(folder, stem):
    for candidate in (os.path.join(folder, stem + ".py"), os.path.join("examples", stem + ".py")):
        if os.path.exists(os.path.join(ROOT, candidate)):
            return candidate
    return None


def launch_of(program_text, cu_text):
    sig = re.search(r"def main\((.*?)\):", program_text, re.S)
    params = PARAM.findall(sig.group(1))
    order = re.search(r"main_kernel\((.*?)\)", cu_text).group(1)
    names = [re.search(r"(\w+)_ptr", p).group(1) for p in order.split(",")]
    shapes = {name: (int(a), int(b), dtype) for (name, a, b, dtype) in params}
    block = re.search(r"block=\[([\d, ]+)\]", program_text)
    block = [int(x) for x in block.group(1).split(",")] if block else [32]
    def tensor(name):
        r, c, dtype = shapes[name]
        if name == "B":  # N x K, viewed K x N
            return {"tensor": "B", "dtype": dtype, "shape": [c, r], "strides": [1, c]}
        return {"tensor": name, "dtype": dtype, "shape": [r, c]}
    launch = {"grid": [1], "block": block, "params": [tensor(n) for n in names]}
    # A gemm tensor TVM's kernel does not take (it never reads it).
    unused = [n for n in shapes if n not in names]
    if unused:
        launch["tensors"] = [tensor(n) for n in unused]
    # A scalar C (T.cuda.tile.apply's C, or D's registers set to it): D = A·Bᵀ + C.
    scalars = {float(v) for v in re.findall(r"T\.float32\(([-+0-9.eE]+)\)", program_text)}
    scalars |= {float(v) for v in re.findall(r",\s*([-+]?\d+\.\d*)\s*,\s*scope=", program_text)}
    scalars -= {0.0}
    if len(scalars) == 1:
        launch["gemm"] = {"D": "D", "A": "A", "B": "B", "C": scalars.pop()}
    return launch


def main():
    os.makedirs(OUT, exist_ok=True)
    rows = []
    for folder in FOLDERS:
        for f in sorted(os.listdir(os.path.join(ROOT, folder))):
            if not f.endswith(".cu") or f.startswith("tcgen05"):
                continue
            stem = f[:-3]
            program = program_of(folder, stem)
            if program is None:
                continue
            cu = os.path.join(folder, f)
            cu_text = open(os.path.join(ROOT, cu)).read()
            program_text = open(os.path.join(ROOT, program)).read()
            shapes = {n: (int(a), int(b)) for (n, a, b, _) in PARAM.findall(re.search(r"def main\((.*?)\):", program_text, re.S).group(1))}
            if shapes["A"][1] != shapes["B"][1] or shapes["D"] != (shapes["A"][0], shapes["B"][0]):
                continue  # not a gemm's shapes (a planted tensor mix-up): no launch states it
            name = (os.path.basename(folder) + "_" + stem) if folder != "tests/data/tirx" else stem
            ptx = subprocess.run([NVCC, "-arch=sm_80", "-ptx", "-o", "-", os.path.join(ROOT, cu)], check=True,
                                 capture_output=True, text=True).stdout
            with open(os.path.join(OUT, name + ".ptx"), "w") as o:
                o.write("// made by scripts/ptx-oracle/tirx_kernels.py: nvcc -arch=sm_80 -ptx %s (TVM TIRx 0.1.0a4's CUDA for %s)\n"
                        % (cu, program))
                o.write(ptx)
            with open(os.path.join(OUT, name + ".launch.json"), "w") as o:
                json.dump(launch_of(open(os.path.join(ROOT, program)).read(), cu_text), o, indent=1)
                o.write("\n")
            rows.append((name, program))
    with open(os.path.join(OUT, "sources.tsv"), "w") as o:
        o.write("# PTX file (this folder) and the released-TIRx program TVM compiled it from\n")
        for name, program in rows:
            o.write("%s\t%s\n" % (name, program))
    print("wrote", len(rows), "PTX files to", OUT)


if __name__ == "__main__":
    sys.exit(main())
