"""Launch tests on the rows' count or their length, a split's
(reductions.Split) and a scan's (versions/scan.py), as the launch
evaluates them (versions/records.RowTest) and explain words them, and
which tests make another hold."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Test:
    """A launch test on the rows' count or their length: `rows >= 32 an SM`."""

    what: str  # "rows", "length", or a size of the program's
    op: str  # ">=", "<=" or "<"
    value: int
    per_sm: bool = False  # `value` is per SM of the GPU

    def text(self, length) -> str:
        name = {"rows": "rows", "length": f"the row's length ({length})",
                "work": f"rows x the row's length ({length})"}.get(self.what, self.what)
        if self.per_sm and self.value == 1:
            return f"{name} {self.op} the GPU's SM count"
        return f"{name} {self.op} {self.value}" + (" an SM" if self.per_sm else "")


def tests_text(when: tuple[tuple[Test, ...], ...], length) -> str:
    """Alternatives of tests in words: `a and b or c`."""
    return " or ".join(" and ".join(t.text(length) for t in alts) for alts in when)


def implies(tests: tuple[Test, ...], test: Test) -> bool:
    """Some of `tests` makes `test` hold (`rows < 32 an SM` makes `rows < 64 an SM` hold): a lane choice's
    alternative that needs no few-or-long test of its own (reductions.Split._own_long)."""
    return any(t.what == test.what and t.op == test.op and t.per_sm == test.per_sm and
               (t.value <= test.value if t.op == "<" else t.value >= test.value if t.op == ">=" else t == test)
               for t in tests)
