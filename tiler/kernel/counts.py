"""A loop's index used as a count, carried as one.

Welford's update written with the loop's index as its count,

    loop (mean = 0f64, m2 = 0f64) = for i < n do
      let x = X[i, j] in let d = x - mean in let mean2 = mean + d / f64(i + 1) in
      (mean2, m2 + d * (x - mean2))

reads `i` twice: to pick the element and to count the elements folded so
far. Split among threads, each share must count its own elements from 0,
while its reads still follow `i`. So the count is carried:

    loop (i_count = 0, mean = 0f64, m2 = 0f64) = for i < n do
      ... mean + d / f64(i_count + 1) ... in (i_count + 1, mean2, ...)

`i_count` equals `i` at every iteration of the loop as written, so the
rewrite computes the same values bit for bit; every use of `i` outside an
array's subscripts reads `i_count` instead. It is kept only where the
carried loop is a reduction (analyse/folds.py: Welford's, here) and the
loop as written is not: a reduction's element reads no carried value, so
a share's count reads nothing but its own elements, and the loop splits as
the reduction does.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..check import typed as T
from ..check.types import Binder, Tuple
from ..source import Span
from ..tree import descendants, map_children
from .names import fresh, kernel_names


@dataclass(frozen=True)
class Counted:
    """A loop that carries its index's count (for explain)."""

    span: Span  # the loop's
    index: str
    count: str  # the carried count's name


def counted(k: T.Kernel) -> T.Kernel:
    """`k` with each loop whose index counts its elements carrying that count
    where that makes it a reduction (`k.counted` lists them)."""
    roots = (k.body, *(v for lv in k.levels for _, v in lv.lets))
    uses: set = set()  # the binders read outside subscripts, from one walk (not one a loop: nested loops)
    for root in roots:
        _uses(root, uses)
    if not any(isinstance(n, T.Loop) and n.index in uses for root in roots for n in descendants(root, T.is_exp)):
        return k
    names, found = kernel_names(k), []
    body = _walk(k.body, uses, names, found)
    levels = tuple(dataclasses.replace(lv, lets=tuple((bs, _walk(v, uses, names, found)) for bs, v in lv.lets))
                   for lv in k.levels)
    return dataclasses.replace(k, body=body, levels=levels, counted=tuple(found)) if found else k


def _walk(e, uses: set, names: set, found: list):
    e = map_children(e, lambda c: _walk(c, uses, names, found), T.is_exp)
    if isinstance(e, T.Loop) and e.index in uses:  # (rewriting a loop leaves the other indices' uses as they were)
        carried = carried_count(e, names)
        if carried is not None:
            found.append(Counted(e.span, e.index.name, carried.params[0].name))
            return carried
    return e


def carried_count(loop: T.Loop, names: set) -> T.Loop | None:
    """The loop, whose index its body reads outside subscripts, with those
    uses reading a carried count, where that loop is a reduction and `loop`
    is not; else None."""
    from ..analyse.folds import operators

    if not isinstance(operators(loop), str):
        return None
    index = loop.index
    count = Binder(fresh(f"{index.name}_count", names), index.type, "loop", index.span)
    body = _with_tail(_counting(loop.body, index, count), count)
    if body is None:
        return None
    result = Binder(fresh(f"{index.name}_counted", names), index.type, "result", index.span)
    out = dataclasses.replace(loop, params=(count, *loop.params), inits=(T.Lit(0, index.type, index.span),
                                                                         *loop.inits),
                              body=body, results=(result, *loop.results))
    return None if isinstance(operators(out), str) else out


def _uses(e, out: set):
    """`out` gains every binder `e` reads outside an array's subscripts."""
    if isinstance(e, T.Var):
        out.add(e.binder)
    elif isinstance(e, T.Index):
        _uses(e.array, out)
    else:
        map_children(e, lambda c: _uses(c, out) or c, T.is_exp)
    return e


def _counting(e, index: Binder, count: Binder):
    """`e` reading `count` wherever it read `index` outside a subscript."""
    if isinstance(e, T.Var) and e.binder is index:
        return T.Var(count, e.type, e.span)
    if isinstance(e, T.Index):
        return dataclasses.replace(e, array=_counting(e.array, index, count))
    return map_children(e, lambda c: _counting(c, index, count), T.is_exp)


def _with_tail(body, count: Binder):
    """The loop body giving `count + 1` first, then what it gave (its lets
    kept); None where its last value is not a tuple or a scalar to extend."""
    if isinstance(body, T.Let):
        tail = _with_tail(body.body, count)
        return None if tail is None else dataclasses.replace(body, body=tail, type=tail.type)
    step = T.BinOp("+", T.Var(count, count.type, body.span), T.Lit(1, count.type, body.span), count.type,
                   body.span)
    if isinstance(body, T.TupleE):
        items = (step, *body.items)
    elif not isinstance(body.type, Tuple):
        items = (step, body)
    else:
        return None
    return T.TupleE(items, Tuple(tuple(i.type for i in items)), body.span)
