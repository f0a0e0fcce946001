"""Reductions that stream the point's own elements: each step reads an
element of an array that no other point reads (a mat-vec's row of the
matrix, a vector-matrix product's column), so the work is the bytes of
that stream and the tiled kernel, one thread a point, can share only the
other reads (the vector) among its block. Such a kernel is bound by the
bytes in flight, and one thread a point has too few of them until the
points are many: reductions.Split lets a split run for more points where
its reductions stream their own elements and are long (OWN_FEW_POINTS_AN_SM,
OWN_LONG_ROW).
"""
from __future__ import annotations

from ..check import typed as T
from ..tree import descendants
from .records import Variance

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
    rows = frozenset(range(len(kernel.levels)))
    points = {p: lv.dim for lv in kernel.levels for p, a in zip(lv.params, lv.args) if isinstance(a, T.Iota)}
    return any(not any(isinstance(n, (T.Loop, T.Stream)) for n in descendants(loop.body, T.is_exp))
               and streams_own(loop, var, rows, points) for loop in loops)


def streams_own(loop: T.Loop, var: Variance, rows: frozenset, points: dict) -> bool:
    """Whether some array `loop` reads takes, at each step, an element no
    other point of `rows` reads: the array varies with those dims or is
    read there at the point's own index (`points`: each map level's index
    binder over its iota, by dim), the loop's index is one of its indices,
    and every other index reads nothing that moves with the rows or the
    step (a window's `x[i + k]` or a gather's `x[c[k]]` may read what
    another point reads)."""
    return any(_own(n, loop, var, rows, points) for n in descendants(loop.body, T.is_exp) if isinstance(n, T.Index))


def _own(read: T.Index, loop: T.Loop, var: Variance, rows: frozenset, points: dict) -> bool:
    covered = set(var.of(read.array.binder)) if isinstance(read.array, T.Var) else set()
    steps = False
    for index in read.indices:
        if isinstance(index, T.Var) and index.binder == loop.index:
            steps = True
        elif isinstance(index, T.Var) and index.binder in points:
            covered.add(points[index.binder])
        elif any(isinstance(v, T.Var) and (v.binder == loop.index or var.of(v.binder) & rows)
                 for v in descendants(index, T.is_exp)):
            return False
    return steps and rows <= covered
