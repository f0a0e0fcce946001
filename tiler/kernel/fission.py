"""Loop fission of a value computed for every (point, row) pair.

In a 1-D kernel of the shape

    map(fn (x) => ... streamSeq(fn (kk, [[t, d], c] cc, acc...) =>
                                  loop (acc...) = for j < c do
                                    let v = E(x, cc[j]) in F(v, acc..., kk + j)
                                  in (acc...), C, inits...) ..., X)

`E` reads the thread's row and row `j` of `C` but none of the accumulators:
its value for every pair (i, j) can be computed first, by a 2-D kernel whose
second dimension walks the rows of `C`, into an n x k array `V`; the fold
then reads `V[i, kk + j]` where it computed `E`. The first kernel has two
parallel dimensions that read each other's rows (register tiling, as a
matrix product's), where the thread's loop over `C` had one; the second is a
row reduction (split among a row's threads). Both are kernel programs of
their own (`Fission.values`, `Fission.fold`), planned like any other.

In a kernel of several map levels the same holds where `E` reads nothing
of the innermost level (an attention block's score, the same for each of
a query's output features): the pairs' kernel walks the outer levels `E`
reads and the rows (V[h, i, j]), each level of the fold passes on its row
of V, and `E` is computed once for all the points of the levels inside.

Only the shape is found here; whether it pays is the analysis's
(versions/fission.py). `E` keeps its operations in their order, and the fold
visits the pairs in the same order, so results are the same bit for bit.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import target
from ..check import typed as T
from ..check.binders import free, used
from ..check.types import Array, Binder, Scalar
from ..tree import children, descendants, map_children
from .names import fresh, kernel_names


@dataclass(frozen=True)
class Candidate:
    """A fold over the rows of arrays invariant to the kernel's dimension,
    whose first let computes a value from the thread's data and one row:
    a `loop for j < c` over a stream's chunk of rows, or a plain `loop for
    j < k` reading `R[j, ...]`."""

    stream: T.Stream | None  # the stream whose chunks the loop walks (None: a plain loop over the rows)
    loop: T.Loop  # the fold over the rows
    let: T.Let  # `let v = E in F`, the loop's body
    loops: tuple  # E's outermost loops and streams: the work a pair costs
    rows: tuple[Binder, ...]  # what E reads row j of: the chunks' parameters, or main's arrays
    arrays: tuple  # the arrays whose rows the second dimension walks
    length: object  # how many rows: a number or a size's binder
    depth: int = 0  # the innermost map level E reads: the pairs' kernel walks levels 0..depth and the rows


@dataclass(frozen=True)
class Fission:
    candidate: Candidate
    values: T.Kernel  # the 2-D kernel: V[i, j] = E
    fold: T.Kernel  # the original kernel reading V where it computed E
    scratch: str  # V's name: the values kernel's output and the fold's input
    companions: tuple = ()  # the arrays the fold's stream zips with V's row (a bias, output weights)


def candidate(k: T.Kernel) -> tuple[Candidate | None, str]:
    """The kernel's fissionable fold, or None and why not ("" where the
    kernel has no fold over rows at all)."""
    for node in _top_folds(k.body):
        found, why = _streamed(node, k) if isinstance(node, T.Stream) else _looped(node, k)
        if found is None and len(k.levels) > 1:
            continue  # (several levels: only a fold the shape holds for is worth a word; most are other shapes)
        if found is not None or why:
            return found, why
    return None, ""


def fission(k: T.Kernel, c: Candidate) -> Fission:
    """The two kernel programs of a candidate."""
    outer, let = k.levels[:c.depth + 1], c.let
    value = let.binders[0]
    taken = {n for name in kernel_names(k) for n in (name, target.c_name(name))}
    scratch = fresh(target.c_name(f"{value.name}_all"), taken)  # (spelt as C spells it: both kernels agree)
    rows = tuple(Binder(p.name, Array(p.type.elem, p.type.shape[1:]), "lambda", p.span) for p in c.rows)
    by_row = T.MapLevel(c.depth + 1, c.length, rows, c.arrays, (), let.span)
    values = dataclasses.replace(
        k, levels=outer + (by_row,), body=_on_rows(let.value, c.rows, c.loop.index, rows),
        outputs=(let.value.type,), output_names=(scratch,), promoted=(), unused=(), streamable=())
    # the fold: each outer level passes on its row of V, the thread's row read at j where E was computed
    # (streamed in place of the rows of C)
    shape = tuple(lv.size for lv in outer) + (c.length,)
    whole = Binder(scratch, Array(value.type, shape), "param", let.span)
    passed, arg = [], T.Var(whole, whole.type, let.span)
    for d in range(len(outer)):
        name = f"{value.name}_row" if d == c.depth else f"{value.name}_{d}"
        sub = Binder(fresh(name, taken), Array(value.type, shape[d + 1:]), "lambda", let.span)
        passed.append((sub, arg))
        arg = T.Var(sub, sub.type, let.span)
    row = passed[-1][0]
    j = T.Var(c.loop.index, c.loop.index.type, let.span)
    companions = []
    if c.stream is None:
        read = T.Index(T.Var(row, row.type, let.span), (j,), value.type, let.value.span)
        body = _replaced(k.body, c.loop, dataclasses.replace(c.loop, body=dataclasses.replace(let, value=read)))
    else:
        s = c.stream
        chunk = Binder(fresh(f"{value.name}_c", taken), Array(value.type, (s.chunk,)), "chunk", let.span)
        read = T.Index(T.Var(chunk, chunk.type, let.span), (j,), value.type, let.value.span)
        loop = dataclasses.replace(c.loop, body=dataclasses.replace(let, value=read))
        companions = [(p, a) for p, a in zip(s.chunk_params, s.arrays) if p not in c.rows]  # a bias, weights
        stream = dataclasses.replace(s, chunk_params=(chunk,) + tuple(p for p, _ in companions),
                                     arrays=(T.Var(row, row.type, s.span),) + tuple(a for _, a in companions),
                                     body=_replaced(s.body, c.loop, loop))
        body = _replaced(k.body, s, stream)
    levels, needed = list(k.levels), used(body)
    for d in reversed(range(len(levels))):  # innermost first: a row only E read, and what only it read, go
        lv = levels[d]
        needed |= set().union(*(used(v) for _, v in lv.lets))
        if d < len(passed):
            sub, sub_arg = passed[d]
            kept = [(p, a) for p, a in zip(lv.params, lv.args) if p in needed]
            lv = levels[d] = dataclasses.replace(lv, params=tuple(p for p, _ in kept) + (sub,),
                                                 args=tuple(a for _, a in kept) + (sub_arg,))
        needed |= set().union(*(used(a) for a in lv.args))
    fold = dataclasses.replace(k, params=k.params + (whole,), levels=tuple(levels), body=body,
                               promoted=(), unused=(), streamable=())
    return Fission(c, values, fold, scratch, tuple(a for _, a in companions))


def _top_folds(e):
    """The streams and loops a kernel's body binds with lets, outside any loop or branch."""
    while isinstance(e, T.Let):
        if isinstance(e.value, (T.Stream, T.Loop)):
            yield e.value
        e = e.body
    if isinstance(e, (T.Stream, T.Loop)):
        yield e


def _streamed(s: T.Stream, k: T.Kernel) -> tuple[Candidate | None, str]:
    """A stream whose body is a loop over the chunk, whose first let reads
    rows: chunks of rows of main's arrays (`cc[j, ...]`), or, in a loop read
    as a stream, main's arrays at the stream's position (`R[kk + j, ...]`).
    The stream's other inputs (a bias, output weights: vectors zipped with
    the rows) are companions the fold still reads beside the pairs' values."""
    loop = s.body
    if not isinstance(loop, T.Loop) or not (isinstance(loop.bound, T.Var) and loop.bound.binder is s.chunk):
        return None, ""
    if tuple(getattr(i, "binder", None) for i in loop.inits) != s.acc_params or not isinstance(loop.body, T.Let):
        return None, ""
    value = loop.body.value
    read = used(value)
    rows = [(p, a) for p, a in zip(s.chunk_params, s.arrays) if p in read]
    other = [p for p, a in rows if not _invariant(a, k) or len(a.type.shape) < 2]
    rows = [(p, a) for p, a in rows if p not in other]
    placed = [n.array for n in descendants(value, T.is_exp) if _placed_read(n, k, s.offset, loop.index)]
    rows += list({a.binder: (a.binder, a) for a in placed if _same_count(a.type.shape[0], s.length)}.values())
    if not rows:
        return None, ""  # no rows of arrays every thread reads
    if other:
        return None, (f"`{loop.body.binders[0].name}` reads `{other[0].name}`, a chunk the stream zips with the rows "
                      "that is not a row of an array every thread reads: the pairs' kernel walks only those rows")
    found, why = _pairs(k, s, loop, tuple(b for b, _ in rows), tuple(a for _, a in rows), s.length,
                        set(s.acc_params) | {s.offset, s.chunk})
    chunks = {p for p, _ in rows if p in s.chunk_params}  # the fold reads V's row in place of these chunks
    if found is not None and _reads_of(s.body, chunks) > _reads_of(found.let.value, chunks):
        return None, f"the fold reads the rows of {array_names(found.arrays)} beyond `{found.let.binders[0].name}`"
    return found, why


def _placed_read(n, k: T.Kernel, offset: Binder, index: Binder) -> bool:
    """`R[kk + j, ...]`: a row of main's array R at a stream's position."""
    return isinstance(n, T.Index) and _invariant(n.array, k) and len(n.array.type.shape) >= 2 \
        and len(n.indices) >= 2 and _position(n.indices[0], offset, index)


def _position(e, offset: Binder, index: Binder) -> bool:
    """`kk + j` (or `j + kk`): the stream's position, the loop walking its chunk from `kk`."""
    return isinstance(e, T.BinOp) and e.op == "+" and \
        {getattr(e.lhs, "binder", None), getattr(e.rhs, "binder", None)} == {offset, index}


def _row_index(e, placed: bool, offset: Binder | None, index: Binder) -> bool:
    """A row read's first index: the stream's position for main's arrays a
    stream's loop reads (`placed`), else the loop's own index (a chunk's
    row `cc[j]`, or main's array in a plain loop over its rows)."""
    return _position(e, offset, index) if placed else isinstance(e, T.Var) and e.binder is index


def _same_count(extent, length) -> bool:
    """Whether an array's row count is the stream's length (both one size, or one number)."""
    a, b = trip_count(extent), trip_count(length)
    return a is not None and a == b


def _looped(loop: T.Loop, k: T.Kernel) -> tuple[Candidate | None, str]:
    """A plain loop `for j < k` whose first let reads rows `R[j]` of main's arrays, k rows each."""
    length = trip_count(loop.bound)
    let = loop.body
    if length is None or not isinstance(let, T.Let):
        return None, ""
    arrays = {n.array.binder: n.array for n in descendants(let.value, T.is_exp)
              if isinstance(n, T.Index) and isinstance(n.array, T.Var) and n.indices
              and isinstance(n.indices[0], T.Var) and n.indices[0].binder is loop.index}
    if not arrays or any(not _invariant(a, k) or len(a.type.shape) < 2 or a.type.shape[0] != length
                         for a in arrays.values()):
        return None, ""  # not whole rows of main's arrays, one a step
    return _pairs(k, None, loop, tuple(arrays), tuple(arrays.values()), length, set())


def _pairs(k: T.Kernel, s, loop: T.Loop, rows: tuple, arrays: tuple, length,
           carried: set) -> tuple[Candidate | None, str]:
    """The candidate, where the loop's first let computes a scalar from row j alone, with a loop in it."""
    let = loop.body
    if not isinstance(let, T.Let) or len(let.binders) != 1 or not isinstance(let.binders[0].type, Scalar):
        return None, "the fold over the rows does not start by binding one value"
    name = let.binders[0].name
    offset = s.offset if s is not None else None
    placed = {r for r in rows if s is not None and r not in s.chunk_params}  # main's arrays at `kk + j`
    if not _only_row_reads(let.value, set(rows), loop.index, offset, placed):
        return None, f"`{name}` reads the rows other than as row j"
    reads = free(let.value) - {offset}  # (the stream's position: only inside row reads, as `kk + j`)
    if reads & (carried | set(loop.params)):
        return None, f"`{name}` reads what the fold carries, so it cannot be computed first"
    if len(k.levels) > 1 and reads & _binds(k.levels[-1]):
        return None, ""  # E varies with the innermost level: computed once a point as written
    scope = k.levels if len(k.levels) == 1 else k.levels[:-1]
    known = set(k.params) | set(k.sizes) | set().union(*(_binds(lv) for lv in scope)) | {p.binder for p in k.prelude}
    other = sorted(b.name for b in reads - known - set(rows) - {loop.index})
    if other:  # (the pairs' kernel has main's arrays, the map's rows and its lets; nothing the thread computed)
        return None, f"`{name}` reads {', '.join(f'`{n}`' for n in other)}, computed by the thread before the fold"
    loops = tuple(_outermost_loops(let.value))
    if not loops:
        return None, f"`{name}` has no loop: too little work a pair to pay for storing it"
    if length is None:
        return None, "the rows' count is not a size of the program"
    held = reads | {a.binder for a in arrays if isinstance(a, T.Var)}
    depth = max((d for d, lv in enumerate(scope) if held & _binds(lv)), default=0)
    return Candidate(s, loop, let, loops, rows, arrays, length, depth), ""


def _binds(level: T.MapLevel) -> set:
    """The names a map level binds: its parameters and its lets' binders."""
    return set(level.params) | {b for bs, _ in level.lets for b in bs}


def _outermost_loops(e):
    """The loops and streams of `e` inside no other."""
    if isinstance(e, (T.Loop, T.Stream)):
        yield e
        return
    for child in children(e, T.is_exp):
        yield from _outermost_loops(child)


def _reads_of(e, binders: set) -> int:
    """How many times `e` reads one of `binders`."""
    return sum(isinstance(n, T.Var) and n.binder in binders for n in descendants(e, T.is_exp))


def array_names(arrays, k: T.Kernel | None = None) -> str:
    """main's arrays (or a level's rows of them) named, for a reason, by the
    names the program gave them: a read through a transposed view the kernel
    stage made (promote.py) is the program's array's column."""
    return ", ".join(_array_name(a, k) for a in arrays)


def _array_name(a, k: T.Kernel | None) -> str:
    if isinstance(a, T.Var):
        return a.binder.name
    if not (isinstance(a, T.Index) and isinstance(a.array, T.Var)):
        return "an array"
    source = _transposed_from(a.array.binder, k) if k is not None else None
    if source is None or len(a.indices) != 1:
        return f"a row of {a.array.binder.name}"
    at = a.indices[0]
    return f"column {at.binder.name} of {source.name}" if isinstance(at, T.Var) else f"a column of {source.name}"


def _transposed_from(b: Binder, k: T.Kernel) -> Binder | None:
    """The array (main's, or a level's element of it) whose transposed view `b` is, or None."""
    views = {p.binder: p.value.source for p in k.prelude if isinstance(p.value, T.Transpose)}
    if b in views:
        return views[b]
    for level in k.levels:
        args = dict(zip(level.params, level.args))
        whole = args.get(b)
        if isinstance(whole, T.Var) and whole.binder in views:  # the level's element of the view: its own of the source
            return next((p for p, arg in args.items() if isinstance(arg, T.Var) and arg.binder == views[whole.binder]),
                        views[whole.binder])
    return None


def trip_count(n):
    """How many times a loop (its bound) or a stream (its length) runs, or a
    bound or a length itself: a number, a size's binder, or None (neither)."""
    if isinstance(n, T.Stream):
        n = n.length
    elif isinstance(n, T.Loop):
        n = n.bound
    if isinstance(n, T.Lit):
        n = n.value
    elif isinstance(n, T.Var):
        n = n.binder
    if isinstance(n, bool):
        return None
    return n if isinstance(n, int) or (isinstance(n, Binder) and n.kind == "size") else None


def _invariant(a, k: T.Kernel) -> bool:
    """An array every point of the innermost level reads whole: one main
    was given, or, in a kernel of several levels, a row an outer level binds."""
    return isinstance(a, T.Var) and (a.binder in k.params or any(a.binder in lv.params for lv in k.levels[:-1]))


def _only_row_reads(e, rows: set, index: Binder, offset: Binder | None = None, placed=frozenset()) -> bool:
    """Whether `rows` (a chunk's rows, or main's arrays), the loop's `index`
    and the stream's `offset` occur in `e` only as reads `cc[j, ...]` (or,
    for the `placed` ones, `R[kk + j, ...]`; one walk: ids of the Vars
    those reads hold, then every other Var)."""
    nodes = list(descendants(e, T.is_exp))
    allowed = {id(x) for n in nodes if isinstance(n, T.Index) and isinstance(n.array, T.Var)
               and n.array.binder in rows and n.indices
               and _row_index(n.indices[0], n.array.binder in placed, offset, index)
               for x in (n.array, *descendants(n.indices[0], T.is_exp))}
    watched = rows | {index, offset}
    return all(id(n) in allowed for n in nodes if isinstance(n, T.Var) and n.binder in watched)


def _on_rows(e, held: tuple, index: Binder, rows: tuple):
    """`e` with every `cc[j, rest]` read as `r[rest]`, `r` the map's row."""
    by = dict(zip(held, rows))

    def walk(n):
        if isinstance(n, T.Index) and isinstance(n.array, T.Var) and n.array.binder in by:
            r = by[n.array.binder]
            rest = tuple(walk(i) for i in n.indices[1:])
            return T.Index(T.Var(r, r.type, n.array.span), rest, n.type, n.span) if rest else \
                T.Var(r, r.type, n.span)
        return map_children(n, walk, T.is_exp)
    return walk(e)


def _replaced(e, old, new):
    """`e` with the node `old` (itself, not an equal one) replaced by `new`."""
    if e is old:
        return new
    return map_children(e, lambda n: _replaced(n, old, new), T.is_exp)
