"""A stream under an `if` whose test varies with the points (a causal
mask around a dot product: `if j > i then -inf else let q = Q[i] in ...
let d = streamSeq(...) in d * 0.125`) is computed at every point, before
the `if`, which then picks its value or the other branch's.

Under the branch, only the threads whose points take it run the stream, so
no block can stage the stream's chunks for all its points (the copy is
cooperative: every thread of the block must reach its barriers), and the
plan tiles only along the dims the test does not vary with. Computed at
every point, the stream is tiled as an unmasked one is, at the price of the
work of the points the branch would have skipped (what a library computing
the whole product and then masking it pays too).

Only work that is the same whatever the branch picks moves: the branch's
leading lets up to its last stream, each of which reads in range at every
point (an array of main's or a map's element indexed by the maps' own
indices over that axis's extent; a stream's chunks at its loop's index),
divides no integer (no trap, no undefined value at the points that did not
need it), and runs a loop only over the stream's chunk or a count that no
point changes (a point that skipped the branch must not run more). The other branch must be light (no loop or stream): the
choice is between a value and the stream's result.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..check import typed as T
from ..check.binders import bound, used
from ..check.types import Scalar
from ..source import Span
from ..tree import children, descendants


@dataclass(frozen=True)
class Speculation:
    """A branch's leading lets, moved before its `if`."""

    stream: Span  # the (last) stream that moved
    branch: Span  # the `if`
    names: tuple[str, ...]  # the lets that moved
    dims: tuple[int, ...]  # the dims the test varies with
    reason: str


def speculated(k: T.Kernel) -> T.Kernel:
    """`k` with each stream under an `if` whose test varies with the points
    computed before the `if` where that is safe (its records in
    `k.speculated`)."""
    s = _Speculator(k)
    body = s.exp(k.body)
    if not s.records:
        return k
    return dataclasses.replace(k, body=body, speculated=k.speculated + tuple(s.records))


class _Speculator:
    def __init__(self, k: T.Kernel):
        self.dims = {p: lv.dim for lv in k.levels for p in lv.params}
        # a map's own index over its extent: `i` of `map(fn (int i) => ..., iota(n))` ranges over [0, n)
        self.ranges = {p: lv.size for lv in k.levels for p, a in zip(lv.params, lv.args) if isinstance(a, T.Iota)}
        self.whole = set(k.params) | {p for lv in k.levels for p, a in zip(lv.params, lv.args)
                                      if not isinstance(a, T.Iota)}
        # what no point changes: main's parameters and sizes, the host prelude's names
        self.fixed = set(k.params) | set(k.sizes) | {pl.binder for pl in k.prelude}
        self.records: list[Speculation] = []

    def exp(self, e):
        """The kernel's body: its let chain, each let's value and its end."""
        if isinstance(e, T.Let):
            moved, value = self.branch(e.value)
            out = dataclasses.replace(e, value=value, body=self.exp(e.body))
            return _wrapped(moved, out)
        moved, end = self.branch(e)
        return _wrapped(moved, end)

    def branch(self, e):
        """(lets moved before it, `e` without them) for an `if` whose branch
        starts with a stream's work; ((), e) otherwise."""
        if not isinstance(e, T.If):
            return (), e
        dims = tuple(sorted({self.dims[b] for b in used(e.cond) if b in self.dims}))
        if not dims:
            return (), e  # every point of a block takes the same branch: nothing blocks the tile
        for side, other in (("else_", e.then), ("then", e.else_)):
            lets, rest = self.leading(getattr(e, side))
            if lets and _light(other) and not _names(lets) & (_all_names(other) | _all_names(e.cond)):
                last = [n for let in lets for n in _nodes(let.value) if isinstance(n, T.Stream)][-1]
                names = tuple(b.name for let in lets for b in let.binders)
                self.records.append(Speculation(
                    last.span, e.span, names, dims,
                    f"the test varies with {_dims_text(dims)}, so under the branch a block's "
                    f"threads would not all reach the stream's barriers; its reads are in range at every point, "
                    f"so it runs at every point and the `if` picks its value"))
                return lets, dataclasses.replace(e, **{side: rest})
        return (), e

    def leading(self, e) -> tuple[list[T.Let], object]:
        """The lets at the head of `e` up to its last stream, where each is
        safe at every point and the rest holds no stream; ([], e) else."""
        chain, end = [], e
        while isinstance(end, T.Let):
            chain.append(end)
            end = end.body
        last = max((n for n, let in enumerate(chain) if _has_stream(let.value)), default=None)
        if last is None:
            return [], e
        lets = chain[:last + 1]
        rest = chain[last].body
        inside = set()
        for let in lets:
            if not self.safe(let.value, inside):
                return [], e
            inside.update(let.binders)
        if _has_stream(rest):
            return [], e
        return [dataclasses.replace(let, body=None) for let in lets], rest

    def safe(self, e, rows: set, loops: frozenset = frozenset(), chunk=None) -> bool:
        """`e` computes a value at every point without a trap or a read out
        of range: `rows` are the lets moved before it (whole rows), `loops`
        the indices of loops over the enclosing stream's chunk (`chunk`)."""
        if isinstance(e, T.Index):
            return self.in_range(e, rows, loops, chunk)
        if isinstance(e, T.BinOp) and e.op in ("/", "%") and isinstance(e.type, Scalar) and \
                not e.type.kind.startswith(("f", "bf")):
            return False  # an integer division by zero at a point that did not need it
        if isinstance(e, T.Stream):
            if e.combine is not None or not all(self.whole_row(a, rows, loops, chunk) for a in e.arrays):
                return False
            inner = rows | set(e.chunk_params)
            return all(self.safe(i, rows, loops, chunk) for i in e.inits) and \
                self.safe(e.body, inner, frozenset(), e)
        if isinstance(e, T.Loop):
            over = chunk is not None and isinstance(e.bound, T.Var) and e.bound.binder is chunk.chunk
            if not over and not self.invariant(e.bound):
                return False  # a count that varies by point: a point that skipped the branch could run any number
            inner = loops | {e.index} if over else loops
            return all(self.safe(i, rows, loops, chunk) for i in e.inits) and self.safe(e.bound, rows, loops, chunk) \
                and self.safe(e.body, rows, inner, chunk) and self.safe(e.rest, rows, loops, chunk)
        if isinstance(e, (T.Var, T.Lit, T.BinOp, T.UnOp, T.Builtin, T.TupleE, T.Let, T.If)):
            return all(self.safe(c, rows, loops, chunk) for c in children(e, T.is_exp))
        return False

    def whole_row(self, a, rows: set, loops: frozenset, chunk) -> bool:
        """A stream's array: a moved row, an array of main's or a map's
        element, or a row of one read in range (`Q[i]`)."""
        if isinstance(a, T.Var):
            return a.binder in rows or a.binder in self.whole
        return isinstance(a, T.Index) and self.in_range(a, rows, loops, chunk)

    def invariant(self, e) -> bool:
        """The same at every point: literals and arithmetic of main's scalars
        and sizes (no read of an array)."""
        return not any(isinstance(n, T.Index) for n in _nodes(e)) and used(e) <= self.fixed

    def in_range(self, e: T.Index, rows: set, loops: frozenset, chunk) -> bool:
        """A chunk read at its loop's index, or an array of main's (a map's
        element, a moved row) read at the maps' own indices over its extents."""
        if not isinstance(e.array, T.Var):
            return False
        array = e.array.binder
        if chunk is not None and array in chunk.chunk_params:
            return len(e.indices) == 1 and isinstance(e.indices[0], T.Var) and e.indices[0].binder in loops
        if array not in self.whole and array not in rows:
            return False
        shape = array.type.shape
        return all(isinstance(i, T.Var) and i.binder in self.ranges and self.ranges[i.binder] == shape[n]
                   for n, i in enumerate(e.indices))


def _wrapped(lets: list[T.Let], e):
    for let in reversed(lets):
        e = dataclasses.replace(let, body=e, type=e.type)
    return e


def _nodes(e) -> list:
    """`e` and every expression in it."""
    return [e, *descendants(e, T.is_exp)]


def _has_stream(e) -> bool:
    return any(isinstance(n, T.Stream) for n in _nodes(e))


def _light(e) -> bool:
    """No loop or stream: the other branch is a value, not work of its own."""
    return not any(isinstance(n, (T.Loop, T.Stream)) for n in _nodes(e))


def _names(lets: list[T.Let]) -> set[str]:
    return {b.name for let in lets for b in let.binders}


def _all_names(e) -> set[str]:
    return {b.name for b in used(e) | bound(e)}


def _dims_text(dims: tuple[int, ...]) -> str:
    return f"dimension {dims[0]}" if len(dims) == 1 else "dimensions " + ", ".join(map(str, dims))
