"""Loads that do not vary with a loop's trip, made once before the loop.

The march's step ends in a barrier, and nvcc moves no global load across
one: a read of a small array that the body makes at every step (a
stencil's coefficients) is made again each step, 15 loads a thread a step
for the 25-point star (0.67 ms against 0.58 with them made once, 512^3 on
an H200, session25b). `hoisted` makes such loads before the loop: a load of
a read-only input whose index depends on nothing the loop changes, only on
names bound before it, the thread and block, constants, and the indices of
loops of constant count unrolled whole (one register a value then: a
per-thread array that only constants index). Its index is clamped into the
array, since the loop may make the read only under a condition (an edge
test): a value read at a clamped index is one no executed read uses.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from .. import kir, target
from ..kir.build import add, const, mul, rewrite, substitute, trip_count
from ..kir.walkers import statements, walk
from .values import clamped

HOIST_LIMIT = 16  # registers (4-byte words) a thread the values made before the loop may take


@dataclass(frozen=True)
class Input:
    """A read-only array the kernel reads: its element count and type."""

    elements: object
    ctype: str


@dataclass(frozen=True)
class _Loop:
    """An enclosing loop nvcc unrolls whole: its index takes `count` values from `start`."""

    var: str
    start: int
    count: int


def hoisted(loop: kir.For, inputs: dict[str, Input], fresh) -> tuple[tuple, kir.For]:
    """(statements to run before `loop`, `loop` reading their values instead
    of the loads they make); `inputs`: the read-only buffers by name;
    `fresh(base)`: a new variable's name."""
    changed = {loop.var} | {n for s in statements(loop.body) for n in _declared(s)}
    assigned = {s.name for s in statements(loop.body) if isinstance(s, kir.Assign)}
    h = _Hoister(inputs, changed, assigned, fresh)
    body = h.block(loop.body, ())
    return h.prelude(), dataclasses.replace(loop, body=body)


def _declared(s) -> tuple:
    if isinstance(s, (kir.Decl, kir.Assign, kir.ArrayDecl)):
        return (s.name,)
    return (s.var,) if isinstance(s, kir.For) else ()


class _Hoister:
    def __init__(self, inputs: dict[str, Input], changed: set, assigned: set, fresh):
        self.inputs, self.changed, self.assigned, self.fresh = inputs, changed, assigned, fresh
        self.decls: dict[str, tuple] = {}  # an invariant name declared in the loop: (its value, inlined; its loops)
        self.found: dict[tuple, tuple] = {}  # (buffer, index over loop placeholders, loops' ranges) -> (name, loops)
        self.used = 0

    def block(self, stmts: tuple, loops: tuple) -> tuple:
        return tuple(self.stmt(s, loops) for s in stmts)

    def stmt(self, s, loops: tuple):
        if isinstance(s, kir.For):
            count = trip_count(s)
            unit = isinstance(s.step, kir.Const) and s.step.value == 1  # (a slot an index from the start)
            inner = loops + (_Loop(s.var, s.start.value, count),) if s.unroll == kir.FULL and count and unit \
                else loops
            return dataclasses.replace(s, body=self.block(s.body, inner))
        if isinstance(s, kir.If):
            return dataclasses.replace(s, cond=self.expr(s.cond, loops), then=self.block(s.then, loops),
                                       else_=self.block(s.else_, loops))
        if isinstance(s, kir.Decl):
            init = self.expr(s.init, loops)
            deps = self.deps(init, loops)
            if s.name not in self.assigned and deps is not None:
                self.decls[s.name] = (self.inlined(init), deps)
            else:  # (a name declared again, in another block, is no longer the invariant one)
                self.decls.pop(s.name, None)
            return dataclasses.replace(s, init=init)
        if isinstance(s, kir.Assign):
            return dataclasses.replace(s, value=self.expr(s.value, loops))
        if isinstance(s, kir.Store):
            return dataclasses.replace(s, index=self.expr(s.index, loops), value=self.expr(s.value, loops))
        return s

    def deps(self, e, loops: tuple) -> tuple | None:
        """The enclosing loops whose indices `e` depends on (in nesting
        order), or None where it reads memory or a name the loop changes."""
        mine, within = set(), {lp.var for lp in loops}
        for x in walk(e):
            if isinstance(x, (kir.Load, kir.VecLoad)):
                return None
            if isinstance(x, kir.Ref):
                if x.name in within:
                    mine.add(x.name)
                elif x.name in self.decls:
                    mine |= {lp.var for lp in self.decls[x.name][1]}
                elif x.name in self.changed:
                    return None
        return tuple(lp for lp in loops if lp.var in mine)

    def inlined(self, e):
        return substitute(e, {n: v for n, (v, _) in self.decls.items()})

    def expr(self, e, loops: tuple):
        def one(x):
            if isinstance(x, kir.Load) and x.space == kir.GLOBAL and x.buffer in self.inputs:
                deps = self.deps(x.index, loops)
                return None if deps is None else self.take(x, deps)
            return None
        return rewrite(e, one)

    def take(self, load: kir.Load, loops: tuple):
        """The read that stands for `load` (its value made before the loop),
        or None past HOIST_LIMIT."""
        places = {lp.var: kir.Ref(f"@{i}") for i, lp in enumerate(loops)}
        key = (load.buffer, substitute(self.inlined(load.index), places), tuple((lp.start, lp.count) for lp in loops))
        if key not in self.found:
            words = (target.SIZEOF[self.inputs[load.buffer].ctype] // 4 or 1) * _elements(loops)  # (registers)
            if self.used + words > HOIST_LIMIT:
                return None
            self.used += words
            self.found[key] = (self.fresh(f"{load.buffer}_held"), loops)
        name = self.found[key][0]
        return kir.Ref(name) if not loops else kir.Load(name, _flat(loops, [kir.Ref(lp.var) for lp in loops]), kir.LOCAL)

    def prelude(self) -> tuple:
        out = []
        for (buffer, index, _), (name, loops) in self.found.items():
            source = self.inputs[buffer]
            if not loops:
                out.append(kir.Decl(name, source.ctype, _read(buffer, index, source), True))
                continue
            vars_ = [self.fresh("held") for _ in loops]
            at = substitute(index, {f"@{i}": kir.Ref(v) for i, v in enumerate(vars_)})
            nest = (kir.Store(name, _flat(loops, [kir.Ref(v) for v in vars_]), _read(buffer, at, source), kir.LOCAL),)
            for v, lp in reversed(list(zip(vars_, loops))):
                nest = (kir.For(v, const(lp.start), const(lp.start + lp.count), const(1), nest, unroll=kir.FULL),)
            out += [kir.ArrayDecl(name, source.ctype, _elements(loops)), *nest]
        return tuple(out)


def _elements(loops: tuple) -> int:
    """The values a load makes across the loops: one a combination of their indices."""
    return math.prod(lp.count for lp in loops)


def _flat(loops: tuple, indices: list):
    """The place of the loops' indices in a per-thread array, the last loop's fastest."""
    flat, stride = const(0), 1
    for lp, i in reversed(list(zip(loops, indices))):
        flat = add(flat, mul(add(i, const(-lp.start)), const(stride)))
        stride *= lp.count
    return flat


def _read(buffer: str, index, source: Input):
    """The element at `index` clamped into the array (none where it is empty)."""
    n = source.elements.value if isinstance(source.elements, kir.Const) else None
    if n is not None and isinstance(index, kir.Const) and 0 <= index.value < n:
        return kir.Load(buffer, index)
    load = kir.Load(buffer, clamped(index, add(source.elements, const(-1))))
    if n is not None and n > 0:
        return load
    return kir.Select(kir.Bin(">", source.elements, const(0)), load, const(0, source.ctype))
