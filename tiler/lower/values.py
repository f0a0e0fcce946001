"""Values while lowering: scalars are kernel-IR expressions, arrays are views.

A `View` is an array in memory without a copy: a buffer, the flat offset of
its first element, and a stride and size per dimension (row-major for
parameters; a prelude transpose swaps two strides; a row fixes the outer
index; a chunk shifts the offset). An iota is a view with no buffer whose
elements are their own flat offsets.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import kir, target


@dataclass(frozen=True)
class View:
    buffer: str | None  # None: an iota
    offset: object
    strides: tuple
    sizes: tuple
    ctype: str
    space: str = "global"

    def index(self, indices):
        flat = self.offset
        for i, s in zip(indices, self.strides):
            flat = add(flat, mul(i, s))
        if len(indices) < len(self.strides):
            return View(self.buffer, flat, self.strides[len(indices):], self.sizes[len(indices):], self.ctype,
                        self.space)
        return flat if self.buffer is None else kir.Load(self.buffer, flat, self.space)

    def shifted(self, start):
        """The view starting at element `start` of the outer dimension."""
        return dataclasses.replace(self, offset=add(self.offset, mul(start, self.strides[0])))

    def at(self, i):
        """The flat offset of element `i` of the outer dimension."""
        return add(self.offset, mul(i, self.strides[0]))


@dataclass(frozen=True)
class Joined:
    """The rows a loop picks, laid end to end (analyse/joins.py): element q
    is element q % length of `row` as the loop's iteration q / length picks
    it (`row`'s offset is written in the loop's index, `index`)."""

    row: View
    index: str
    length: object

    @property
    def buffer(self) -> str:
        return self.row.buffer

    @property
    def ctype(self) -> str:
        return self.row.ctype

    def at(self, q):
        which = substitute(self.row.offset, {self.index: kir.Bin("/", q, self.length)})
        return add(which, mul(kir.Bin("%", q, self.length), self.row.strides[0]))


def const(v, ctype: str = "int") -> kir.Const:
    return kir.Const(v, ctype)


def all_of(conds):
    """The conditions joined by `&&` (true where there are none)."""
    out = None
    for c in conds:
        out = c if out is None else kir.Bin("&&", out, c)
    return out if out is not None else const(True, "bool")


def any_of(conds):
    """The conditions joined by `||` (None where there are none)."""
    out = None
    for c in conds:
        out = c if out is None else kir.Bin("||", out, c)
    return out


def both(a, b):
    """`a && b`, either of which may be None (no condition)."""
    return b if a is None else a if b is None else kir.Bin("&&", a, b)


def product(sizes: tuple, wide: bool = False):
    """Sizes (names or numbers) multiplied (64-bit where there are several, or where `wide`)."""
    terms = [const(s) if isinstance(s, int) else kir.Ref(s) for s in sizes]
    out = terms[0] if len(terms) == 1 and not wide else kir.Cast(target.INDEX, terms[0])
    for t in terms[1:]:
        out = kir.Bin("*", out, t)
    return out


def joined(*parts: str) -> str:
    """A version's reasons, the empty ones left out."""
    return "; ".join(p for p in parts if p)


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


def narrow(e) -> bool:
    """Whether `e` is int arithmetic (no 64-bit flat-offset factor in it)."""
    return not any(isinstance(x, kir.Cast) and x.ctype == target.INDEX for x in kir.walk(e))


def mul(a, b):
    if _is(a, 1):
        return b
    if _is(b, 1):
        return a
    if _is(a, 0) or _is(b, 0):
        return const(0)
    if isinstance(a, kir.Const) and isinstance(b, kir.Const):
        return const(a.value * b.value, a.ctype)
    if (_widened(b) and _int(a)) or (_widened(a) and _int(b)):  # int times int made 64-bit: one widening multiply
        return kir.Bin("*", a, b, widen=True)
    return kir.Bin("*", a, b)


def _widened(e) -> bool:
    return isinstance(e, kir.Cast) and e.ctype == target.INDEX and _int(e.a)


def _int(e) -> bool:
    """Int arithmetic: no 64-bit cast and no 64-bit constant in it (kernels declare no 64-bit variables)."""
    return narrow(e) and not any(isinstance(x, kir.Const) and x.ctype != "int" for x in kir.walk(e))


def minimum(a, b):
    """A clamp tiler adds (a thread or a copied row past the end stands in for
    the last): one the CUDA front end cannot rewrite (tiler.cuh says why)."""
    return kir.Call(kir.CLAMP, (a, b))


def unclamped(stmts: tuple, guard) -> tuple:
    """`stmts` as a block inside every dim runs them: each clamp tiler adds
    (a thread's index, a copied row: never past the block's own tile) is the
    value it clamps, and the store guard `guard` holds."""
    out = []
    for s in stmts:
        if isinstance(s, kir.If) and s.cond == guard and not s.else_:
            out += unclamped(s.then, guard)
            continue
        if isinstance(s, kir.For):
            s = dataclasses.replace(s, body=unclamped(s.body, guard))
        elif isinstance(s, kir.If):
            s = dataclasses.replace(s, then=unclamped(s.then, guard), else_=unclamped(s.else_, guard))
        out.append(rewrite(s, _clamped_value))
    return tuple(out)


def _clamped_value(e):
    if isinstance(e, kir.Call) and e.fn == kir.CLAMP:
        return rewrite(e.args[0], _clamped_value)
    return None


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
