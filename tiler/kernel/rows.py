"""A thread's own row read by index, made a row of its map.

`map(fn (int i) => ... A[i, f] ..., iota(n))` reads row i of A element by
element, as `map(fn ([f32, d] a) => ... a[f] ..., A)` does; written the
second way, the analysis sees a row each thread reads whole and can stage
the block's rows in shared memory so that the reads coalesce
(`analyse/slabs.py`), or have the launch transpose A (`analyse/transposes.py`).
So every such read becomes an element of a new row parameter of the map,
`A[i]` (the map then walks `iota(n)` and `A` together).

A main parameter `A` is rewritten for a map over `iota(n)` with index `i` when
- A is 2-D and its rows are the map's: A's outer size is the map's size;
- every use of A in the kernel is a read `A[i, e]` or the row `A[i]` with
  that `i`, and at least one is a read (a read at another row or a use in
  the prelude keep A as it is: the row would not be the thread's alone; a
  row only passed whole the analysis already sees as a row).
"""
from __future__ import annotations

import dataclasses

from ..check import typed as T
from ..check.types import Array, Binder
from ..tree import descendants, map_children


def own_rows(k: T.Kernel) -> T.Kernel:
    """The kernel with each thread's own rows read by index made map rows."""
    k = row_aliases(k)
    for depth, level in enumerate(k.levels):
        index = _iota_param(level)
        if index is None:
            continue
        for a in k.params:
            if _reads_only_its_row(k, a, index, level.size):
                k = _as_row(k, depth, a, index)
    return k


def row_aliases(k: T.Kernel) -> T.Kernel:
    """`let r = A[i] in ... r[f] ...` as `... A[i, f] ...`: a `let` that
    names a row of an array copies nothing, so the kernel reads the row
    where the let's body reads `r`, as if the program had spelled it out
    (the same computation gets the same plan however it is written)."""
    aliases: dict[Binder, T.Index] = {}

    def rewrite(e):
        if isinstance(e, T.Let):
            value = rewrite(e.value)
            if _names_a_row(e.binders, value):  # (it stays, unused: explain lists its name)
                aliases[e.binders[0]] = value
            return dataclasses.replace(e, value=value, body=rewrite(e.body))
        if isinstance(e, T.Index) and isinstance(e.array, T.Var) and e.array.binder in aliases:
            row = aliases[e.array.binder]
            indices = tuple(rewrite(i) for i in e.indices)
            if isinstance(row, T.Var):  # (another name for the array)
                return dataclasses.replace(e, array=dataclasses.replace(row, span=e.array.span), indices=indices)
            return dataclasses.replace(e, array=row.array, indices=row.indices + indices)
        if isinstance(e, T.Var) and e.binder in aliases:
            return dataclasses.replace(aliases[e.binder], span=e.span)
        return map_children(e, rewrite, T.is_exp)

    levels = []
    for lv in k.levels:
        args = tuple(rewrite(a) for a in lv.args)
        lets = []
        for binders, value in lv.lets:
            value = rewrite(value)
            if _names_a_row(binders, value):  # dropped: a level's lets that mention a row keep it from staging
                aliases[binders[0]] = value
            else:
                lets.append((binders, value))
        levels.append(dataclasses.replace(lv, args=args, lets=tuple(lets)))
    body = rewrite(k.body)
    return dataclasses.replace(k, levels=tuple(levels), body=body) if aliases else k


def _names_a_row(binders, value) -> bool:
    """`let r = A[i]`, or `let a = x` naming an array another name holds (an inlined helper's parameter given a
    row or a chunk: once rewritten, `let c = cs[j]` then `let b = c` name the same row)."""
    return len(binders) == 1 and (_row_read(value) or isinstance(value, T.Var) and isinstance(value.type, Array))


def _row_read(e) -> bool:
    """`A[i]`: one row of a 2-D array named by a variable."""
    return isinstance(e, T.Index) and isinstance(e.array, T.Var) and isinstance(e.array.type, Array) and \
        e.array.type.rank == 2 and len(e.indices) == 1


def _iota_param(level: T.MapLevel) -> Binder | None:
    return next((p for p, arg in zip(level.params, level.args) if isinstance(arg, T.Iota)), None)


def _reads_only_its_row(k: T.Kernel, a: Binder, index: Binder, size) -> bool:
    t = a.type
    if not isinstance(t, Array) or t.rank != 2 or not _same_size(t.shape[0], size):
        return False
    if any(isinstance(p.value, T.Transpose) and p.value.source is a for p in k.prelude):
        return False  # transposed in the prelude (a binder there, not a read `_everything` meets)
    uses, elements, rows = 0, 0, 0
    for e in _everything(k):
        if isinstance(e, T.Var) and e.binder is a:
            uses += 1
        elif _is_row_read(e, a, index):
            elements += len(e.indices) == 2
            rows += len(e.indices) == 1
    return elements > 0 and uses == elements + rows  # each use of A is the array of one such read


def _same_size(x, y) -> bool:
    return x is y or (isinstance(x, int) and x == y)


def _is_row_read(e, a: Binder, index: Binder) -> bool:
    """`A[i, e]` or `A[i]`: an element of the thread's own row, or the row."""
    return (isinstance(e, T.Index) and isinstance(e.array, T.Var) and e.array.binder is a and
            len(e.indices) in (1, 2) and isinstance(e.indices[0], T.Var) and e.indices[0].binder is index)


def _everything(k: T.Kernel):
    """Every expression node of the kernel: the prelude's, the levels' and the body's."""
    roots = [p.value for p in k.prelude] + [x for lv in k.levels for x in lv.args] + \
        [v for lv in k.levels for _, v in lv.lets] + [k.body]
    for r in roots:
        if T.is_exp(r):
            yield from descendants(r, T.is_exp)


def _as_row(k: T.Kernel, depth: int, a: Binder, index: Binder) -> T.Kernel:
    t = a.type
    first = min((e.array.span for e in _everything(k) if _is_row_read(e, a, index)),
                key=lambda s: (s.line, s.col))  # where explain shows the row's array
    row = Binder(f"{a.name}[{index.name}]", Array(t.elem, t.shape[1:]), "lambda", first)

    def rewrite(e):
        if _is_row_read(e, a, index):
            whole = T.Var(row, row.type, e.array.span)
            return dataclasses.replace(e, array=whole, indices=e.indices[1:]) if len(e.indices) == 2 else whole
        return map_children(e, rewrite, T.is_exp)

    levels = []
    for d, lv in enumerate(k.levels):
        lets = tuple((b, rewrite(v)) for b, v in lv.lets)
        params, args = (lv.params + (row,), lv.args + (T.Var(a, t, first),)) if d == depth else (lv.params, lv.args)
        levels.append(dataclasses.replace(lv, params=params, args=args, lets=lets))
    return dataclasses.replace(k, levels=tuple(levels), body=rewrite(k.body))
