"""Running values that read each other: a chain of scans.

A loop is no reduction when a carried value's update reads another's: a
running balance and its running peak,

    let nb = bal + x[j] in let np = max(peak, nb) in (nb, np, max(dd, np - nb))

But each value is still combined with one operator (`+`, `-`, `*`, `min`,
`max`) and a term, and the terms read only the values before them in an
order (`bal`'s reads none; `peak`'s reads `bal`'s new value; `dd`'s reads
both). Where a point folds the positions up to its own, the values at a
position are then scans one after another: `bal`'s terms scanned first,
whose running values at each position give `peak`'s terms, and so on.
`chain_of` finds each value's operator and level (0: its terms read no
carried value; else one more than the greatest of those they read,
through `let`s and the conditions it is updated under), or says why the
update is no such chain. Values at one level are scanned together.
"""
from __future__ import annotations

from ..check import typed as T
from ..tree import descendants
from .folds import Operator, combined_with

MAX_LETS = 16  # `let`s followed from a carried value's new value to its update, one through another


def chain_of(loop: T.Loop, update) -> tuple[tuple[Operator, ...], tuple[int, ...], frozenset[int]] | str:
    """Each carried value's operator and level in the chain `update` (the
    loop's body with the position's test taken away) computes, and the
    values whose running values other terms read; or why it is not one."""
    walk = _Walk(loop)
    why = walk.visit(update, frozenset())
    if why:
        return why
    ops = tuple(op or Operator.ADD for op in walk.ops)  # (a value never changed: any operator keeps it)
    levels = _levels(loop, walk.deps)
    return levels if isinstance(levels, str) else (ops, levels, frozenset(m for d in walk.deps for m in d))


class _Walk:
    """The update's paths: each carried value's operator and the carried
    values its terms read, through lets and the conditions above them."""

    def __init__(self, loop: T.Loop):
        self.loop = loop
        self.index = {p: n for n, p in enumerate(loop.params)}
        self.reads: dict = {}  # a let's binder: the carried values (their positions) its value reads
        self.values: dict = {}  # a let of one name: its value
        self.ops: list = [None] * len(loop.params)
        self.deps: list[set] = [set() for _ in loop.params]

    def read(self, e) -> frozenset:
        """The carried values `e` reads, itself or through the lets it names."""
        out = set()
        for n in descendants(e, T.is_exp):
            if isinstance(n, T.Var):
                out |= {self.index[n.binder]} if n.binder in self.index else self.reads.get(n.binder, set())
        return frozenset(out)

    def visit(self, e, guard: frozenset) -> str:
        while isinstance(e, T.Let):
            for b in e.binders:
                self.reads[b] = self.read(e.value)
            if len(e.binders) == 1:
                self.values[e.binders[0]] = e.value
            e = e.body
        if isinstance(e, T.If):
            under = guard | self.read(e.cond)
            return self.visit(e.then, under) or self.visit(e.else_, under)
        items = e.items if isinstance(e, T.TupleE) and len(self.loop.params) > 1 else (e,)
        if len(items) != len(self.loop.params):
            return "its update does not give each carried value one by one"
        for n, (param, item) in enumerate(zip(self.loop.params, items)):
            why = self.update(n, param, item, guard)
            if why:
                return why
        return ""

    def update(self, n: int, param, item, guard: frozenset) -> str:
        """One path's new value of carried value `n`: kept, or it combined with a term."""
        for _ in range(MAX_LETS):
            if isinstance(item, T.Var) and item.binder is param:
                return ""  # kept on this path
            if not (isinstance(item, T.Var) and item.binder in self.values):
                break
            item = self.values[item.binder]
        if isinstance(item, T.If):  # (this value's own `if`: each branch kept or combined, under its test)
            under = guard | self.read(item.cond)
            return self.update(n, param, item.then, under) or self.update(n, param, item.else_, under)
        found = combined_with(param, item)
        if isinstance(found, str):
            return found
        op, term = found
        if self.ops[n] not in (None, op):
            return f"`{param.name}` is combined with {self.ops[n].value} and {op.value} on different paths"
        self.ops[n] = op
        self.deps[n] |= self.read(term) | guard
        return ""


def _levels(loop: T.Loop, deps: list[set]) -> tuple[int, ...] | str:
    """Each value's level: one more than the greatest of those its terms read."""
    names = [p.name for p in loop.params]
    for n, d in enumerate(deps):
        if n in d:
            return f"the term combined with `{names[n]}` reads `{names[n]}` itself (or the test above it does)"
    levels = [0] * len(deps)
    for _ in range(len(deps)):
        levels = [max((levels[m] + 1 for m in d), default=0) for d in deps]
    if any(level >= len(deps) for level in levels):
        cycle = [names[n] for n, level in enumerate(levels) if level >= len(deps)]
        return f"the terms of {', '.join(f'`{c}`' for c in cycle)} read each other's running values"
    return tuple(levels)
