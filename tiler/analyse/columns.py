"""Rows side by side (reductions.Split.columns): whether a row split's
reductions read memory consecutive from one row to the next, as a map over
a matrix's columns with a loop down its rows does."""
from __future__ import annotations

from ..check import typed as T
from ..tree import descendants
from .records import Variance
from .views import Stride, Views


def side_by_side(kernel: T.Kernel, var: Variance, loops: set) -> bool:
    """Every split reduction is a stream's loop over arrays whose elements
    for consecutive points of the innermost level lie next to each other (a
    column's elements, a map over columns), or that do not vary with it (one
    element for the warp), one at least of the first kind: a warp of
    consecutive rows then reads one run a step, where a warp of one row's
    lanes reads one element a row apart each."""
    views = Views(kernel, var)
    row = len(kernel.levels) - 1
    roots = [kernel.body] + [e for lv in kernel.levels for e in list(lv.args) + [v for _, v in lv.lets]]
    seen = set()
    for e in (n for root in roots for n in descendants(root, T.is_exp)):
        if not isinstance(e, T.Stream):
            continue
        body = e.body
        while isinstance(body, T.Let):
            body = body.body
        if isinstance(body, T.Loop) and T.point(body) in loops:
            runs = [runs_along(views, a, row) for a in e.arrays]
            if None in runs or not any(runs):
                return False
            seen.add(T.point(body))
    return bool(loops) and seen == loops


def runs_along(views: Views, array, row: int) -> bool | None:
    """True: the array's elements for consecutive points of dimension `row`
    lie next to each other (a warp of rows side by side reads one run);
    False: it does not vary with `row` (the warp reads one element); None:
    neither."""
    stride = views.unit_stride(array)
    if stride is not None and stride.along is Stride.DIM and stride.dim == row:
        return True
    return False if row not in views.exp_variance(array) else None
