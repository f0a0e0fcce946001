"""Index reads that walk a stream's position, made stream inputs.

Inside `streamSeq(fn (int kk, ...) => ... for k < chunk do ... B[kk + k, j] ...)`
the read `B[kk + k, j]` walks column j of B in step with the stream, as a
chunk of `transpose(B)[j]` would. Rewritten as such a chunk parameter, it is
an input like the others: the analysis sees what it varies with, the cost
model counts its loads, and the plan can stage it in shared memory. This is
what lets a matrix product written with `B` as given (no transpose in the
prelude) get the same kernel as one written with the transpose.

A read is rewritten when
- one index is the stream's offset plus the index of a loop `for k < chunk`
  (the chunk's own size), and the array's extent there is the stream's length;
- the array and its other indices are fixed for the whole stream (bound
  outside it), so every chunk reads the same row;
- that index is the array's last (a row: `B[j, kk + k]` reads `B[j]`) or the
  one before it in an array of main's (a column: read through a view with
  the last two axes swapped; `B[b, kk + k, j]` of a batch of matrices too)
  or in a map's element of one (`b[kk + k, j]`, the map walking B: that map
  then walks the view beside B, and the chunk is a row of its element); and
- the read is made on every step (not under an `if` or a short-circuit), or
  every other index is the index of a parallel dimension within the array's
  extent: a copy that loads it for every element then stays in bounds.
Every read that has the first form but not the rest keeps its reason, for
explain. A read of a chunk of rows at the chunk loop's step, `rows[k, j]`
with `rows` the stream's chunk of X's rows and j fixed for the stream, is
`X[kk + k, j]` and is treated as that read (the chunk of rows, read
nowhere else then, is dropped from the stream's inputs).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import target
from ..check import typed as T
from ..check.binders import bound, used
from ..check.types import Array, Binder
from ..errors import CompilerBug
from ..tree import children, descendants, map_children
from .loops import as_stream, without_positions
from .names import fresh, kernel_names


@dataclass(frozen=True)
class Promotion:
    """One read of the form `X[..., kk + k, ...]` in a stream, and what became of it."""

    read: T.Index  # as written
    array: str  # X
    param: str  # the chunk parameter that now stands for it ("" when it was left in place)
    reason: str  # how it is read as a stream input, or why it is not
    site: object = None  # the stream (or the loop read as one) it was considered for, by its span


def promote_reads(k: T.Kernel, loops: frozenset[int] = frozenset()) -> T.Kernel:
    """The kernel with every read that walks a stream's position made a
    stream input (and the reads of the loops `loops` names along their
    index, each loop then read as a stream: kernel.loops), and a record of
    each such read in `k.promoted`."""
    p = _Promoter(k, loops)
    body = p.exp(k.body)
    if not p.records:
        return k
    _check_chunks(body)
    levels = tuple(dataclasses.replace(lv, params=lv.params + tuple(b for b, _ in p.rows.get(d, {}).values()),
                                       args=lv.args + tuple(a for _, a in p.rows.get(d, {}).values()))
                   for d, lv in enumerate(k.levels))
    return dataclasses.replace(k, body=body, levels=levels, prelude=k.prelude + tuple(p.prelude),
                               promoted=tuple(p.records))


@dataclass(frozen=True)
class _Read:
    """A read `array[indices]` whose index `position` is `offset + k`."""

    node: T.Index
    array: Binder
    position: int
    step: T.Var  # k, the index of the loop over the chunk
    others: tuple  # the other indices, in order
    conditional: bool  # only some steps make it


class _Promoter:
    def __init__(self, k: T.Kernel, loops: frozenset[int]):
        self.globals = {b for b in k.params} | {pl.binder for pl in k.prelude}
        self.points = {p for lv in k.levels for p in lv.params}  # what a point's column of a chunk of rows reads
        # a map level's element of an array of main's (`b` mapped over `B`): its transposed rows are the same
        # level's elements of B's transposed view (a parameter that level gains, in `rows`)
        self.elements = {p: (d, a.binder) for d, lv in enumerate(k.levels) for p, a in zip(lv.params, lv.args)
                         if isinstance(a, T.Var) and a.binder in self.globals and isinstance(p.type, Array)
                         and a.binder.type.rank == p.type.rank + 1}
        self.rows: dict[int, dict[Binder, tuple[Binder, T.Var]]] = {}  # depth -> {element: (transposed, its array)}
        self.iota_dims = {p: lv for lv in k.levels for p, a in zip(lv.params, lv.args) if isinstance(a, T.Iota)}
        self.names = kernel_names(k)
        self.prelude: list[T.PreludeLet] = []
        self.transposed: dict[Binder, Binder] = {}
        self.records: list[Promotion] = []
        self.depth = 0  # streams around the node being rewritten
        self.loops = loops  # ids of the body's loops to read as streams (the body is walked as it was)

    def exp(self, e):
        if isinstance(e, T.Stream):
            self.depth += 1
            e = map_children(e, self.exp, T.is_exp)  # inner streams first
            self.depth -= 1
            return self.stream(e)
        if isinstance(e, T.Loop) and not self.depth and id(e) in self.loops:
            converted = self.loop(e)
            if converted is not None:
                return converted
        return map_children(e, self.exp, T.is_exp) if T.is_exp(e) else e

    def loop(self, e: T.Loop) -> T.Let | None:
        """The loop as a stream (kernel.loops) where a read it makes along its
        index becomes a stream input; None where none does."""
        let = as_stream(e, self.fresh)
        stream = without_positions(self.stream(let.value))
        if stream is None:  # its reads' records say why each stays a read
            return None
        inits = tuple(self.exp(i) for i in stream.inits)
        return dataclasses.replace(let, value=dataclasses.replace(stream, inits=inits), body=self.exp(let.body))

    def stream(self, s: T.Stream) -> T.Stream:
        reads = _reads(s, self.points)
        moving = [] if s.loop else _moving(s, {id(r.node) for r in reads})  # (a loop's position has no name of yours)
        try:
            return self.promoted(s, reads)
        finally:  # after the stream's other reads, for explain
            self.records += [Promotion(n, n.array.binder.name, "", (
                f"its index uses the stream's position `{s.offset.name}`, but not as `{s.offset.name} + k` over the "
                f"chunk: what it reads is no chunk of a row or column of `{n.array.binder.name}` (a window that also "
                f"moves with each point, as a stencil's, stays a read)"), s.span) for n in moving]

    def promoted(self, s: T.Stream, reads: list) -> T.Stream:
        if not reads:
            return s
        new: dict[tuple, tuple[Binder, object]] = {}  # (array, position, others) -> (chunk param, stream array)
        rewrite: dict[int, tuple] = {}  # id of a read node -> (its chunk param, the loop index)
        inside = bound(s)
        for r in reads:
            key = (r.array, r.position, r.others)
            reason = self.refusal(s, r, inside)
            if reason:
                self.records.append(Promotion(r.node, r.array.name, "", reason, s.span))
                continue
            if key not in new:
                new[key] = (self.chunk_param(s, r), self.stream_array(r))
            param = new[key][0]
            rewrite[id(r.node)] = (param, r.step)
            self.records.append(Promotion(r.node, r.array.name, param.name, _how(r, s), s.span))
        if not new:
            return s
        body = _replace_reads(s.body, rewrite)
        # a chunk of rows whose every read became a column's chunk is no input any more
        before, after = used(s.body), used(body)
        kept = [(p, a) for p, a in zip(s.chunk_params, s.arrays) if p in after or p not in before]
        params = tuple(p for p, _ in kept) + tuple(p for p, _ in new.values())
        arrays = tuple(a for _, a in kept) + tuple(a for _, a in new.values())
        return dataclasses.replace(s, chunk_params=params, arrays=arrays, body=body)

    def refusal(self, s: T.Stream, r: _Read, inside: set) -> str:
        shape, it = r.array.type.shape, _noun(s)
        if len(r.others) + 1 < len(shape):
            return (f"it reads a row of `{r.array.name}`, not an element: no chunk of elements stands for it "
                    f"(index the element itself, `{r.array.name}[..., k]`, to make the {it} read it chunk by chunk)")
        if r.array in inside:
            return f"`{r.array.name}` is bound inside the {it}: its rows are not fixed for the whole {it}"
        if any(used(o) & inside for o in r.others):
            return f"an index other than the {it}'s position changes within the {it}"
        if shape[r.position] != _length(s):
            return (f"`{r.array.name}` has {_size_text(shape[r.position])} elements along that index, the {it} "
                    f"{_size_text(_length(s))}: its chunks would not line up with the {it}'s")
        last = r.position == len(shape) - 1
        if not last and not (r.position == len(shape) - 2 and (r.array in self.globals or r.array in self.elements)):
            return (f"the {it} walks an index that is neither the array's last nor the one before the last of "
                    f"an array of main's or of a map's element of one: no row or transposed row of it is the "
                    f"{it}'s chunk")
        if r.conditional and not all(self.in_range(o, size) for o, size in zip(r.others, _without(shape, r.position))):
            return ("it is read on some steps only (under an `if`), and its other indices are not known to be in "
                    "range: a copy of every element might read past the array")
        return ""

    def in_range(self, index, size) -> bool:
        """Is `index` the index of a parallel dimension no larger than `size`?"""
        if not isinstance(index, T.Var) or index.binder not in self.iota_dims:
            return False
        return self.iota_dims[index.binder].size == size

    def stream_array(self, r: _Read):
        """The array whose chunks the read walks: a row of X, or of X's transpose."""
        source = r.array
        if r.position != len(r.array.type.shape) - 1:
            source = self.transpose(r.array) if r.array in self.globals else self.transposed_element(r.array)
        var = T.Var(source, source.type, r.node.span)
        if not r.others:
            return var
        row = source.type
        for _ in r.others:
            row = row.row()
        return T.Index(var, r.others, row, r.node.span)

    def transpose(self, b: Binder) -> Binder:
        """`b` with its last two axes swapped (a view, never a copy)."""
        if b not in self.transposed:
            *lead, rows, cols = b.type.shape
            t = Binder(self.fresh(f"{b.name}_t"), Array(b.type.elem, (*lead, cols, rows)), "let", b.span)
            self.prelude.append(T.PreludeLet(t, T.Transpose(b, t.type, b.span, len(lead))))
            self.transposed[b] = t
        return self.transposed[b]

    def transposed_element(self, b: Binder) -> Binder:
        """`b`, a map level's element of an array of main's, with its last two
        axes swapped: a new parameter of that level, its element of the
        array's transposed view."""
        depth, whole = self.elements[b]
        rows = self.rows.setdefault(depth, {})
        if b not in rows:
            t = self.transpose(whole)
            *lead, r, c = b.type.shape
            element = Binder(self.fresh(f"{b.name}_t"), Array(b.type.elem, (*lead, c, r)), "lambda", b.span)
            rows[b] = (element, T.Var(t, t.type, b.span))
        return rows[b][0]

    def chunk_param(self, s: T.Stream, r: _Read) -> Binder:
        return Binder(self.fresh(f"{r.array.name}_c"), Array(r.array.type.elem, (s.chunk,)), "chunk", r.node.span)

    def fresh(self, base: str) -> str:
        return fresh(base, self.names)


def _noun(s: T.Stream) -> str:
    return "loop" if s.loop else "stream"


def _how(r: _Read, s: T.Stream) -> str:
    shape = r.array.type.shape
    if r.position == len(shape) - 1:
        what = f"a row of `{r.array.name}`" if r.others else f"`{r.array.name}` itself"
    else:
        what = f"a column of `{r.array.name}` (a row of its transpose)"
    return f"{what}, read chunk by chunk with the {_noun(s)}"


def _reads(s: T.Stream, points: set) -> list[_Read]:
    """The reads `X[..., s.offset + k, ...]` in the stream's body, k the index
    of a loop over the chunk's size."""
    out: list[_Read] = []
    # a chunk of rows (`[[f32, m], c] rows` of X) read at the chunk loop's step, `rows[k, j]`: X[offset + k, j]
    # (only where its other indices are fixed for the whole stream and pick the point's own column: a row of the
    # chunk walked by an inner loop, k-means' centres, or a few columns every point reads, a chunk of 3-D points,
    # are a chunk of rows as written, copied whole)
    # Not where the rows are a constant no longer than a warp (attention's 32 features a key): a block spans
    # such a dim whole, so its copy of the chunk's rows is read whole, and a column's chunk a point would make
    # the plan tile a body of many operations a read in registers (measured on an H200: attention with an
    # online softmax 2.1x slower).
    rows_of = {p: a.binder for p, a in zip(s.chunk_params, s.arrays)
               if isinstance(a, T.Var) and isinstance(p.type, Array) and p.type.rank >= 2
               and not (isinstance(p.type.shape[-1], int) and p.type.shape[-1] <= target.WARP)}
    inside = bound(s)

    def walk(e, loops: frozenset, conditional: bool):
        if isinstance(e, T.Stream) and e is not s:
            return  # an inner stream's reads are its own
        # an element `X[a, b]`, or a chain `X[a][b]` read as it (the whole chain rewritten); a row `X[kk + k]`
        # is said but never made an input (refusal)
        element = _element(e)
        direct = isinstance(e, T.Index) and isinstance(e.array, T.Var) and isinstance(e.array.type, Array)
        found = element or ((e.array, e.indices) if direct else None)
        if found is not None:
            array, indices = found
            hits = [(n, k) for n, i in enumerate(indices) if (k := _step(i, s.offset, loops)) is not None]
            if len(hits) == 1:
                (n, k), = hits
                out.append(_Read(e, array.binder, n, k, indices[:n] + indices[n + 1:], conditional))
            if element is not None and not isinstance(e.array, T.Var):
                for i in indices:  # (not the inner indexes of the chain: a row of X is no element)
                    walk(i, loops, conditional)
                return
        if direct:
            first = e.indices[0]
            if e.array.binder in rows_of and len(e.indices) == e.array.type.rank and isinstance(first, T.Var) and \
                    first.binder in loops and not any(used(i) & inside for i in e.indices[1:]) and \
                    any(used(i) & points for i in e.indices[1:]):
                out.append(_Read(e, rows_of[e.array.binder], 0, first, e.indices[1:], conditional))
        if isinstance(e, T.Loop):
            for i in e.inits:
                walk(i, loops, conditional)
            walk(e.bound, loops, conditional)
            chunk_loop = isinstance(e.bound, T.Var) and e.bound.binder is s.chunk
            walk(e.body, loops | {e.index} if chunk_loop else loops, conditional or not chunk_loop)
            walk(e.rest, loops, conditional)
            return
        for c, guard in T.guarded_children(e):
            walk(c, loops, conditional or guard is not None)

    walk(s.body, frozenset(), False)
    return out


def _check_chunks(body) -> None:
    """Every stream's chunk parameter is a chunk of its array: the same rank
    and elements (a read rewritten as a chunk of something else would be
    lowered as that, and compute another program)."""
    for s in descendants(body, T.is_exp):
        if not isinstance(s, T.Stream):
            continue
        for p, a in zip(s.chunk_params, s.arrays):
            if not isinstance(a.type, Array) or p.type.rank != a.type.rank or p.type.elem != a.type.elem:
                raise CompilerBug(f"stream input `{p.name}` is no chunk of its array after promotion", s.span,
                                  "kernel")


def _element(e) -> tuple | None:
    """(X, its indices) where `e` reads one element of an array X, as
    `X[a, b]` or as a chain `X[a][b]`; None for anything else (a row
    `X[a]`, which no element's chunk stands for)."""
    indices = []
    while isinstance(e, T.Index):
        indices[:0] = e.indices
        e = e.array
    if not (isinstance(e, T.Var) and isinstance(e.type, Array)) or len(indices) != e.type.rank:
        return None
    return e, tuple(indices)


def _moving(s: T.Stream, listed: set) -> list:
    """The other reads of arrays in the stream's body (not its inner streams'
    nor its own chunks) whose index uses the stream's position: not rows or
    columns the stream walks, said for explain."""
    out, stack = [], [s.body]
    while stack:
        e = stack.pop()
        if isinstance(e, T.Stream):
            continue  # an inner stream's reads are its own
        if isinstance(e, T.Index) and id(e) not in listed and isinstance(e.array, T.Var) and \
                isinstance(e.array.type, Array) and e.array.binder not in s.chunk_params and \
                any(s.offset in used(i) for i in e.indices):
            out.append(e)
        if isinstance(e, T.Index) and id(e) in listed:  # (a chain read as one element: not its inner rows)
            while isinstance(e, T.Index):
                stack.extend(e.indices)
                e = e.array
            continue
        stack.extend(children(e, T.is_exp))
    return sorted(out, key=lambda n: (n.span.line, n.span.col))


def _step(i, offset: Binder, loops: frozenset) -> T.Var | None:
    """k, where the index is `offset + k` or `k + offset` and k the index of
    a loop over the chunk; else None."""
    if not (isinstance(i, T.BinOp) and i.op == "+" and isinstance(i.lhs, T.Var) and isinstance(i.rhs, T.Var)):
        return None
    for off, k in ((i.lhs, i.rhs), (i.rhs, i.lhs)):
        if off.binder is offset and k.binder in loops:
            return k
    return None


def _replace_reads(e, rewrite: dict):
    if isinstance(e, T.Index) and id(e) in rewrite:
        param, k = rewrite[id(e)]
        return T.Index(T.Var(param, param.type, e.span), (k,), e.type, e.span)
    return map_children(e, lambda c: _replace_reads(c, rewrite), T.is_exp) if T.is_exp(e) else e


def _length(s: T.Stream):
    return s.length


def _without(shape: tuple, n: int) -> tuple:
    return shape[:n] + shape[n + 1:]


def _size_text(size) -> str:
    return str(size) if isinstance(size, int) else f"`{size.name}`"
