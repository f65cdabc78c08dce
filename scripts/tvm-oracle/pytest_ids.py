#!/usr/bin/env python3
"""The test ids pytest collects from a TVM-style test module, with TVM
stubbed out (collection imports the module; only its module-level layout
code runs, on stand-in objects), one id per line:

    pip install pytest   (numpy and TVM are stubbed too)
    python3 scripts/tvm-oracle/pytest_ids.py tests/data/tvm/test_files/test_gemm_factories.py \
        > tests/data/tvm/test_files/test_gemm_factories.ids

tests/test_python_test_files.cc requires mmacheck's kernel names to be these
ids (each test that builds a kernel, every id of it).  Nothing here is needed
by the build or CI.
"""
import os
import subprocess
import sys
import tempfile

STUB = r'''
import sys, types

class Anything:
    """Stands for every TVM object at collection: any attribute, call,
    subscript or operator gives another; unpacking gives two."""
    def __getattr__(self, name): return Anything()
    def __call__(self, *a, **k):
        if a and callable(a[0]) and not isinstance(a[0], Anything) and not k:
            return a[0]  # a decorator: keep the function (pytest must see tests)
        return Anything()
    def __getitem__(self, key): return Anything()
    def __iter__(self): return iter([Anything(), Anything()])
    def __matmul__(self, other): return Anything()
    __rmatmul__ = __add__ = __radd__ = __mul__ = __rmul__ = __matmul__

def module(name):
    m = types.ModuleType(name)
    m.__getattr__ = lambda attr: Anything()
    m.__path__ = []
    sys.modules[name] = m
    return m

for name in ["numpy", "tvm", "tvm.testing", "tvm.script", "tvm.script.tirx", "tvm.tirx", "tvm.tirx.layout",
             "tvm.tirx.operator", "tvm.tirx.operator.tile_primitive", "tvm.script.tirx.tile"]:
    module(name)
sys.modules["tvm.testing"].requires_cuda = lambda f: f
sys.modules["tvm.testing"].main = lambda: None
'''


def main():
    path = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "conftest.py"), "w") as f:
            f.write(STUB)
        target = os.path.join(tmp, os.path.basename(path))
        with open(path) as src, open(target, "w") as dst:
            dst.write(src.read())
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", target],
                             cwd=tmp, capture_output=True, text=True)
        ids = [line.split("::", 1)[1] for line in out.stdout.splitlines() if "::" in line]
        if out.returncode != 0 or not ids:
            sys.stderr.write(out.stdout + out.stderr)
            sys.exit(1)
        print("\n".join(ids))


if __name__ == "__main__":
    main()
