"""Reductions that stream the point's own elements: each step reads an
element of an array that no other point reads (a mat-vec's row of the
matrix, a vector-matrix product's column), so the work is the bytes of
that stream and the tiled kernel, one thread a point, can share only the
other reads (the vector) among its block. Such a kernel is bound by the
bytes in flight, and one thread a point has too few of them until the
points are many: reductions.Split lets a split run for more points where
its reductions stream their own elements and are long (OWN_FEW_POINTS_AN_SM,
OWN_LONG_ROW).

An array is a point's own along the dims it is taken by: a map level's
row of an array (`map(fn (row) => ..., A)`), a row read at a map level's
own index (`A[i]`, `i` the level's index over `iota`), a stream's chunk of
such a row, followed through `let`s. A row read at any other index (`A[c[i]]`,
`A[i / 2]`) may be another point's too.
"""
from __future__ import annotations

from ..check import typed as T
from ..tree import descendants
from .records import Variance
from .views import Views

# H200 (benchmarks/RESULTS.md, experiments/verify/few_points.py): the split against one thread a point, for the
# corpus's mat-vecs, vector-matrix products and a residual: 1.2x-2.6x faster at 124 to 303 points an SM and
# 8,192 to 16,384 steps (a vector-matrix product at 30,000 x 12,000 0.58 -> 0.40 ms, a mat-vec with rows of
# 10,007 0.65 -> 0.37); even at 454 points and 4,000 steps; slower from 909 points an SM or 2,000 steps down.
OWN_FEW_POINTS_AN_SM = 512
OWN_LONG_ROW = 4096


def own_streams(kernel: T.Kernel, var: Variance, loops) -> bool:
    """Whether some of `loops` (a kernel's split reductions) streams its
    points' own elements, its steps light: no loop or stream nested in its
    body (a step running an inner product over shared rows is the tiled
    kernel's work to share)."""
    owners = _Owners(Views(kernel, var))
    return any(not any(isinstance(n, (T.Loop, T.Stream)) for n in descendants(loop.body, T.is_exp))
               and streams_own(loop, owners) for loop in loops)


def streams_own(loop: T.Loop, owners: "_Owners") -> bool:
    """Whether some array `loop` reads takes, at each step, an element no
    other point reads: the array is a point's own along some dims and read
    there at the point's own index along the others (a level's index over
    `iota`), the loop's index is one of its indices, and every other index
    reads nothing that moves with the points or the step (a window's `x[i +
    k]` or a gather's `x[c[k]]` may read what another point reads)."""
    return any(_own(n, loop, owners) for n in descendants(loop.body, T.is_exp) if isinstance(n, T.Index))


class _Owners:
    """Where each array binder of a kernel comes from (the definitions
    Views collects: a map level's row, a let's value, a stream's chunk), and
    the dims along which it is a point's own (`dims`: frozenset, empty where
    it is none's)."""

    def __init__(self, views: Views):
        self.var = views.var
        self.rows = frozenset(range(len(views.kernel.levels)))
        # each level's index over iota, by its dim; the array each other name is a row, a let or a chunk of, and
        # a map level's row's own dim
        self.points = {b: d[2] for b, d in views.defs.items() if d[0] == "row" and isinstance(d[1], T.Iota)}
        self.bound = {b: d[1] for b, d in views.defs.items() if d[0] in ("row", "let", "chunk") and b not in self.points}
        self.taken = {b: d[2] for b, d in views.defs.items() if d[0] == "row" and b not in self.points}

    def dims(self, array, seen: frozenset = frozenset()) -> frozenset:
        """The dims along which `array` (an expression) is one point's own."""
        if isinstance(array, T.Var):
            b = array.binder
            if b in seen or b not in self.bound:
                return frozenset()  # (a kernel's input: none's own)
            own = self.dims(self.bound[b], seen | {b})
            return own | {self.taken[b]} if b in self.taken else own
        if isinstance(array, T.Index):  # a row of an array at a point's own index, or none's
            own = set(self.dims(array.array, seen))
            for index in array.indices:
                if isinstance(index, T.Var) and index.binder in self.points:
                    own.add(self.points[index.binder])
                elif self.moves(index):
                    return frozenset()
            return frozenset(own)
        return frozenset()

    def moves(self, index, step: T.Binder | None = None) -> bool:
        """Whether an index reads something that varies with the points (or
        is the step `step`)."""
        return any(isinstance(v, T.Var) and (v.binder == step or self.var.of(v.binder) & self.rows)
                   for v in descendants(index, T.is_exp))


def _own(read: T.Index, loop: T.Loop, owners: _Owners) -> bool:
    covered = set(owners.dims(read.array))
    steps = False
    for index in read.indices:
        if isinstance(index, T.Var) and index.binder == loop.index:
            steps = True
        elif isinstance(index, T.Var) and index.binder in owners.points:
            covered.add(owners.points[index.binder])
        elif owners.moves(index, loop.index):
            return False
    return steps and owners.rows <= covered
