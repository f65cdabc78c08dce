"""Report: what mmacheck.prove returns -- the fields of `mmacheck prove --json`.

A Report is the JSON object the command line prints (file, then the
library's report_json, core/prove/report_json.h: the one shape of
cli/json_shape.h; for a Triton layout one entry of
`mmacheck triton --json`, core/triton/triton_report_json.h; for a kernel
checked as PTX, core/ptx/ptx_report_json.h's), read into Python: every key is an
attribute (report.verdict, report.checks, report.counterexamples, ...),
report.json() is the dict itself, str(report) the verdict with each refuted
check's counterexample.

    r = mmacheck.prove(f)
    r.verdict            # "proved", "refuted", "dispatch_failed" or "unknown"
    r.proved             # r.verdict == "proved"
    r.counterexamples[0]["message"]
"""

from __future__ import annotations

import copy
import json as _json


class Report:
    def __init__(self, fields: dict, name: str = ""):
        self._fields = fields
        self.name = name

    def __getattr__(self, key):
        fields = self.__dict__.get("_fields", {})
        if key in fields:
            return fields[key]
        raise AttributeError(f"Report has no field {key!r} (fields: {', '.join(fields)})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._fields))

    @property
    def verdict(self) -> str:
        """The gemm's verdict; a Triton or CuTe layout's "result" (proved, unchecked, refuted, ill_formed)."""
        return self._fields.get("verdict", self._fields.get("result"))

    @property
    def proved(self) -> bool:
        return self.verdict == "proved"

    def json(self) -> dict:
        """The report as `mmacheck prove --json` prints it (a copy)."""
        return copy.deepcopy(self._fields)

    def dumps(self, **kwargs) -> str:
        return _json.dumps(self._fields, **kwargs)

    def __str__(self):
        head = f"{self.name}: " if self.name else ""
        lines = [head + str(self.verdict)]
        if "message" in self._fields:
            lines.append(f"  {self._fields['message']}")
        if "ptx" in self._fields:  # a PTX launch's check (core/ptx/ptx_report_json.h)
            p = self._fields["ptx"]
            at = f"{self._fields.get('file')}:{p['line']}:{p['column']}: CTA {p['cta']}, thread {p['thread']}: " if (
                "line" in p) else ""
            lines.append(f"  {p['kernel']}, grid {p['grid']} x block {p['block']}, D {p['m']} x {p['n']}, K {p['k']}")
            lines.append(f"  {at}{p['message']}")
        for c in self._fields.get("checks", []):
            lines.append(f"  {c['name']:<16} {c['result']}")
        for cx in self._fields.get("counterexamples", []):
            lines.append(f"  {cx.get('check')}: {cx.get('message')}")
        for r in self._fields.get("reasons", []):
            lines.append(f"  {r}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<mmacheck.Report {self.name + ' ' if self.name else ''}{self.verdict}>"
