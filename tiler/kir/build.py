"""Building kernel-IR expressions: constants, sums and products folded where
trivial, substitution and rewriting, fresh names. Lower builds with them, and
the transforms that rewrite a lowered kernel (tiler/transform/) too.
"""
from __future__ import annotations

import dataclasses

from .. import target
from . import nodes as kir
from .walkers import walk


def const(v, ctype: str = "int") -> kir.Const:
    return kir.Const(v, ctype)


def _is(e, v) -> bool:
    return isinstance(e, kir.Const) and e.value == v


def add(a, b):
    if _is(a, 0):
        return b
    if _is(b, 0):
        return a
    if isinstance(a, kir.Const) and isinstance(b, kir.Const):
        return const(a.value + b.value, a.ctype)
    if isinstance(a, kir.Bin) and a.op == "+" and narrow(a.b) and narrow(b) and not narrow(a.a):
        return kir.Bin("+", a.a, add(a.b, b))  # (row + kk) + k as row + (kk + k): one 64-bit add, not two
    return kir.Bin("+", a, b)


def ceil_div(a, n: int):
    """ceil(a / n) for a non-negative `a` and a constant n >= 1, as C's integer division computes it."""
    return a if n == 1 else kir.Bin("/", add(a, const(n - 1)), const(n))


def trip_count(s: kir.For) -> int | None:
    """The iterations of a loop whose start, stop and step are constants (a positive step), else None."""
    if all(isinstance(e, kir.Const) for e in (s.start, s.stop, s.step)) and s.step.value > 0:
        return max(0, -(-(s.stop.value - s.start.value) // s.step.value))
    return None


def narrow(e) -> bool:
    """Whether `e` is int arithmetic (no 64-bit flat-offset factor in it)."""
    return not any(isinstance(x, kir.Cast) and x.ctype == target.INDEX for x in walk(e))


def mul(a, b):
    if _is(a, 1):
        return b
    if _is(b, 1):
        return a
    if _is(a, 0) or _is(b, 0):
        return const(0)
    if isinstance(a, kir.Const) and isinstance(b, kir.Const):
        return const(a.value * b.value, a.ctype)
    return kir.Bin("*", a, b)


def ref_names(e) -> set[str]:
    """The names `e` reads (its `Ref`s)."""
    return {x.name for x in walk(e) if isinstance(x, kir.Ref)}


def substitute(e, mapping: dict):
    """`e` with every `Ref` in `mapping` replaced (and the sums and products
    a constant replacement makes trivial folded)."""
    def one(x):
        if isinstance(x, kir.Ref):
            return mapping.get(x.name, x)
        if isinstance(x, kir.Bin) and x.op in ("+", "*") and not x.wrap:  # (a program's wraps: C folds it)
            return (add if x.op == "+" else mul)(substitute(x.a, mapping), substitute(x.b, mapping))
        return None
    return rewrite(e, one)


def rewrite(e, fn):
    """`e` rebuilt top-down: where `fn` gives a node it replaces the subtree,
    where it gives None the children are rewritten."""
    out = fn(e)
    if out is not None:
        return out
    if not dataclasses.is_dataclass(e):
        return e
    changes = {}
    for f in dataclasses.fields(e):
        v = getattr(e, f.name)
        if dataclasses.is_dataclass(v):
            changes[f.name] = rewrite(v, fn)
        elif isinstance(v, tuple):
            changes[f.name] = tuple(rewrite(x, fn) for x in v)
    return dataclasses.replace(e, **changes)


class Names(set):
    """The names a kernel has taken, and for each base the last suffix
    fresh_name gave it: names are never given back, so the next search starts
    there (a base made 10,000 times costs 10,000 steps, not 50 million)."""

    def __init__(self, names=()):
        super().__init__(names)
        self.last: dict[str, int] = {}


def fresh_name(base: str, used: Names) -> str:
    """`base`, or `base_2`, `base_3`, ...: the first not in `used` (which it joins)."""
    n = used.last.get(base, 1)
    name = base if n == 1 else f"{base}_{n}"
    while name in used:
        n += 1
        name = f"{base}_{n}"
    used.add(name)
    used.last[base] = n
    return name


def swizzled_index(line, across, lines: int, line_elems: int, unpermuted: bool = False):
    """The element at `across` along line `line` of a swizzled tile of
    `lines` lines (target.WGMMA_*): where the lines are wider than
    `line_elems`, blocks of `line_elems` across, each `lines` lines of
    `line_elems`; in each, the 16-byte units of line l XOR-ed with l %
    WGMMA_ATOM_LINES. `unpermuted`: the caller knows `line` a multiple of
    WGMMA_ATOM_LINES and `across` of `line_elems` (a block's first element,
    which the permutation leaves in place)."""
    unit = line_elems * target.WGMMA_UNIT_BYTES // target.WGMMA_LINE_BYTES  # elements a 16-byte unit holds
    block = kir.Bin("/", across, const(line_elems))
    start = add(mul(block, const(line_elems * lines)), mul(line, const(line_elems)))
    if unpermuted:
        return start
    within = kir.Bin("%", across, const(line_elems))
    return add(start, kir.Bin("^", within, mul(kir.Bin("%", line, const(target.WGMMA_ATOM_LINES)), const(unit))))
