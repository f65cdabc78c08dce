"""The PTX of tests/data/ptx/tirx_sm100/: TVM TIRx 0.1.0a4's tcgen05.mma
programs (scripts/tirx-oracle/tcgen05_programs.py, the same PROGRAMS whose
kernels tests/data/tirx/tcgen05_*.cu record) compiled by TIRx to CUDA, the
whole source this time (TVM's helpers included), then by nvcc for sm_100a:

    /work/venv-tvm/bin/python scripts/ptx-oracle/tirx_sm100_kernels.py [NVCC]
    # per program: nvcc -arch=sm_100a -ptx NAME.cu (the .cu is not kept: TVM's helpers are TVM's)

Each program is one thread-scope tcgen05.mma over shared buffers and a TMEM
buffer TIRx places at column 0 (allocated_addr=0), with no global tensor, no
tcgen05.alloc and no tcgen05.ld: a layout program, not a gemm.  Its launch
file (grid 1, block 128, the program's) names gemm tensors the kernel is not
given, so the CTA machine runs it; what it answers is in expected.tsv.  CI
runs none of this.
"""

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "tirx-oracle"))

import tcgen05_programs as P  # noqa: E402
import tvm_tirx as tvm  # noqa: E402
from tvm_tirx.tirx import _compile  # noqa: E402

OUT = os.path.join(ROOT, "tests", "data", "ptx", "tirx_sm100")
NVCC = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
COMMAND = "scripts/ptx-oracle/tirx_sm100_kernels.py (apache-tvm-tirx 0.1.0a4, nvcc -arch=sm_100a -ptx)"


def whole_source(exe):
    for m in [exe.mod, *exe.mod.imports]:
        try:
            src = m.inspect_source()
        except Exception:  # noqa: BLE001  (a module kind without source)
            continue
        if "__global__" in src:
            return src
    raise RuntimeError("no CUDA source")


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, func in P.PROGRAMS.items():
        mod = tvm.IRModule({"main": func})
        with tvm.target.Target(P.TARGET):
            source = whole_source(_compile.compile(mod))
        with tempfile.TemporaryDirectory() as tmp:
            cu = os.path.join(tmp, name + ".cu")
            with open(cu, "w") as f:
                f.write(source)
            ptx = subprocess.run([NVCC, "-arch=sm_100a", "-ptx", "-o", "-", cu], check=True, capture_output=True,
                                 text=True).stdout
        with open(os.path.join(OUT, name + ".ptx"), "w") as f:
            f.write(f"// made by {COMMAND}: nvcc -arch=sm_100a -ptx {name}.cu\n{ptx}")
        launch = {"kernel": "main_kernel", "grid": [1], "block": [128], "params": [],
                  "tensors": [{"tensor": "A", "dtype": "float16", "shape": [128, 16]},
                              {"tensor": "B", "dtype": "float16", "shape": [16, 128]},
                              {"tensor": "D", "dtype": "float32", "shape": [128, 128]}]}
        with open(os.path.join(OUT, name + ".launch.json"), "w") as f:
            json.dump(launch, f, indent=1)
            f.write("\n")
        print(name)


if __name__ == "__main__":
    main()
