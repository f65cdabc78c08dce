"""The pytest plugin: `pytest --mmacheck` proves every gemm a test module builds.

Registered through the pytest11 entry point (pyproject.toml), active only
with --mmacheck:

  * every tvm_tirx Function or IRModule with a gemm (T.cuda.tile.apply) at
    the top level of a test module becomes a test item of its own,
    `test_x.py::mmacheck[main]`, that proves it;
  * every Function or IRModule a test hands to tvm_tirx's compile function
    is proved when the test's body has run: the test fails unless each gemm
    is proved.  apache-tvm-tirx 0.1.0a4 has one, defined in
    tvm_tirx.tirx._compile and re-exported as tvm_tirx.tirx.compile (there
    is no tvm_tirx.compile); both names are hooked, the first for the calls
    that reach it through the FFI global "tirx.compile".

A failure shows the report: the verdict, every check, and the
counterexample of each refuted one.  --mmacheck-method picks the method
(z3, z3-unrolled, exhaustive).
"""

from __future__ import annotations

import sys

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("mmacheck")
    group.addoption("--mmacheck", action="store_true", default=False,
                    help="prove every tensor-core gemm the test modules build (mmacheck)")
    group.addoption("--mmacheck-method", default="z3", help="mmacheck's proof method: z3, z3-unrolled or exhaustive")


class MmacheckFailure(Exception):
    """A gemm that mmacheck did not prove; its text is the report."""


def _active(config) -> bool:
    return bool(config.getoption("--mmacheck", default=False))


def _check(obj, method, where, layouts=None):
    import mmacheck

    reports = mmacheck.prove_all(obj, layouts=layouts, method=method)
    failures = [str(r) for r in reports.values() if not r.proved]
    if failures:
        raise MmacheckFailure(f"mmacheck: {where} is not proved\n" + "\n".join(failures))


class MmacheckItem(pytest.Item):
    """Proves one module-level tvm_tirx kernel."""

    def __init__(self, *, kernel, layouts, **kwargs):
        super().__init__(**kwargs)
        self.kernel = kernel
        self.layouts = layouts  # the module's TileLayout globals, to name layouts in messages

    def runtest(self):
        _check(self.kernel, self.config.getoption("--mmacheck-method"), self.name, self.layouts)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, MmacheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, self.name


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector, name, obj):
    if not _active(collector.config) or not isinstance(collector, pytest.Module):
        return None
    from mmacheck import tirx

    if not tirx.is_tirx_object(obj) or not any(tirx.has_mma(f) for _, f in tirx.functions(obj)):
        return None
    layouts = {k: v for k, v in vars(collector.obj).items() if type(v).__name__ == "TileLayout"}
    return MmacheckItem.from_parent(collector, name=f"mmacheck[{name}]", kernel=obj, layouts=layouts)


def _compile_entry_points():
    """(owner, attribute) of each name of tvm_tirx's compile function: tvm_tirx.tirx.compile and
    the module that defines it; none without tvm_tirx, or in its runtime-only build
    (TVM_TIRX_USE_RUNTIME_LIB=1), which compiles nothing."""
    try:
        import tvm_tirx.tirx
    except ImportError:
        return []
    compile_ = getattr(tvm_tirx.tirx, "compile", None)
    if not callable(compile_):
        return []
    defining = sys.modules.get(getattr(compile_, "__module__", None))
    owners = [tvm_tirx.tirx] + ([defining] if defining not in (None, tvm_tirx.tirx) else [])
    return [(owner, "compile") for owner in owners]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if not _active(item.config) or isinstance(item, MmacheckItem):
        return (yield)
    built = []
    patched = []
    for owner, attr in _compile_entry_points():
        original = getattr(owner, attr)

        def recording(mod, *args, __original=original, **kwargs):
            built.append(mod)
            return __original(mod, *args, **kwargs)

        setattr(owner, attr, recording)
        patched.append((owner, attr, original))
    try:
        result = yield
    finally:
        for owner, attr, original in patched:
            setattr(owner, attr, original)
    from mmacheck import tirx

    method = item.config.getoption("--mmacheck-method")
    for mod in built:
        if tirx.is_tirx_object(mod):
            _check(mod, method, f"the kernel {item.name} compiled")
    return result
