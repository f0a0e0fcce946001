"""A loop that walks arrays along its index, written as a stream.

`loop (acc = 0f32) = for k < m do acc + row[k] * x[k] in acc` folds `row`
and `x` element by element, in order; so does

    streamSeq(fn (int kk, [int, c] ks, f32 acc) =>
                loop (acc) = for k' < c do acc + row[kk + k'] * x[kk + k'] in acc,
              iota(m), 0f32)

for every split of `[0, m)` into chunks, bit for bit: a stream folds its
chunks in order, and each chunk's loop takes its elements in order. Written
so, the reads `row[kk + k']` and `x[kk + k']` walk the stream's position,
and `promote` makes them stream inputs like those of a program that spelled
the stream out: a mat-vec or a matrix product written with a plain `loop`
then gets the plan of the same computation written with `streamSeq`.

`as_stream` builds that stream over `iota(bound)`; `promote` keeps it only
where some read became a stream input (`without_positions` then drops the
`iota`, which nothing reads), and otherwise keeps the loop.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

from ..check import typed as T
from ..check.types import I32, Array, Binder, tuple_of
from ..source import Span
from ..tree import children, descendants, map_children


@dataclass(frozen=True)
class Survey:
    """What `promote` may find in a kernel body, from one walk of it."""

    candidates: tuple  # the loops (outside any stream) that may become streams
    blocked: tuple  # (loop, why) for the others outside any stream, holding none, that read arrays at their index
    streams: bool  # whether it holds a stream at all
    outer: dict = dataclasses.field(default_factory=dict)  # id of a candidate -> the innermost loop around it

    @property
    def loops(self) -> frozenset[int]:
        return frozenset(id(n) for n in self.candidates)


def survey(body) -> Survey:
    """The loops in `body`, outside any stream, that may become streams:
    the loop's bound is a size or a literal (the stream's length), its
    index is an index of some read (else nothing could become a stream
    input), and it holds no stream (a stream inside the new one would only
    nest the copies; the inner one stays as written). One walk for the
    whole body: asking loop by loop would cost a nest of loops its depth
    squared."""
    indexed: set[Binder] = set()
    loops = []  # (loop, the innermost loop whose body holds it, inside a stream), parents before children
    holders = []  # the innermost loop whose body holds each stream (None: none)
    stack = [(body, None, False)]
    while stack:
        n, loop, streamed = stack.pop()
        if isinstance(n, T.Loop):
            loops.append((n, loop, streamed))
            stack.extend((c, loop, streamed) for c in (*n.inits, n.bound, n.rest))
            stack.append((n.body, n, streamed))
            continue
        if isinstance(n, T.Index):
            indexed.update(i.binder for i in n.indices if isinstance(i, T.Var))
        elif isinstance(n, T.Stream):
            holders.append(loop)
        inside = streamed or isinstance(n, T.Stream)
        stack.extend((c, loop, inside) for c in children(n, T.is_exp))
    holding = {id(loop) for loop in holders if loop is not None}
    for n, loop, _ in reversed(loops):  # inner loops before the loops around them
        if loop is not None and id(n) in holding:
            holding.add(id(loop))
    candidates, blocked = [], []
    for n, _, streamed in loops:  # (a loop around a stream is the program's own structure: not said)
        if streamed or n.index not in indexed or id(n) in holding:
            continue
        if _sized(n.bound):
            candidates.append(n)
        else:
            blocked.append((n, "its bound is not a size or a literal: a stream walks its arrays whole"))
    outer = {id(n): loop for n, loop, _ in loops if loop is not None}
    return Survey(tuple(candidates), tuple(blocked), bool(holders), outer)


def _sized(bound) -> bool:
    return isinstance(bound, T.Lit) and isinstance(bound.value, int) and bound.value > 0 or \
        isinstance(bound, T.Var) and bound.binder.kind == "size"


def as_stream(e: T.Loop, fresh: Callable[[str], str]) -> T.Let:
    """`let (results) = streamSeq(..., iota(bound), inits) in rest`: the loop
    as a stream over its positions (see the module's docstring)."""
    size = e.bound.value if isinstance(e.bound, T.Lit) else e.bound.binder
    span = e.span
    offset = Binder(fresh("kk"), I32, "offset", span)
    chunk = Binder(fresh("chunk"), I32, "chunk", span)
    positions = Binder(fresh(f"{e.index.name}s"), Array(I32, (chunk,)), "chunk", span)
    accs = tuple(Binder(fresh(p.name), p.type, "acc", p.span) for p in e.params)
    step = Binder(fresh(e.index.name), I32, "index", e.index.span)
    ends = tuple(Binder(fresh(p.name), p.type, "result", p.span) for p in e.params)
    acc_type = tuple_of(p.type for p in e.params)
    at = T.BinOp("+", T.Var(offset, I32, span), T.Var(step, I32, e.index.span), I32, e.index.span)
    end = ends[0] if len(ends) == 1 else None
    rest = T.Var(end, end.type, span) if end else T.TupleE(tuple(T.Var(b, b.type, span) for b in ends), acc_type, span)
    chunk_loop = T.Loop(e.params, tuple(T.Var(a, a.type, span) for a in accs), step, T.Var(chunk, I32, span),
                        _substituted(e.body, e.index, at), ends, rest, acc_type, span)
    iota = T.Iota(e.bound, Array(I32, (size,)), span)
    stream = T.Stream(offset, chunk, (positions,), accs, (iota,), e.inits, chunk_loop, acc_type, span, loop=True)
    return T.Let(e.results, stream, e.rest, e.type, span)


def without_positions(s: T.Stream) -> T.Stream | None:
    """The stream `as_stream` built, without its `iota` input, once some read
    became an input beside it; None where none did (the loop stays a loop)."""
    if len(s.arrays) < 2:
        return None
    return T.Stream(s.offset, s.chunk, s.chunk_params[1:], s.acc_params, s.arrays[1:], s.inits, s.body, s.type,
                    s.span, loop=True)


@dataclass(frozen=True)
class Streamable:
    """A loop that reads arrays at its index: what reading it as a stream
    streams of it (unless --keep-loops), or why it stays a loop."""

    span: Span  # the loop's
    arrays: tuple[str, ...]  # the arrays whose reads at its index become stream inputs
    stays: str = ""  # why it stays a loop even without --keep-loops ("": it can be read as a stream)


def loop_notes(found: Survey, trial: T.Kernel | None, streams: bool = True) -> tuple[Streamable, ...]:
    """For explain: the loops `trial` (the kernel with `found`'s candidates
    read as streams; None: it was not made) read as streams (where
    `streams`: under --keep-loops), the candidates it left as loops, and
    the loops `found` blocked, in source order."""
    became = streamable(trial) if trial is not None else ()
    spans = {x.span for x in became}
    left = () if trial is None else tuple(
        Streamable(n.span, (), _why_left(n, found, spans, streams)) for n in found.candidates if n.span not in spans)
    blocked = tuple(Streamable(n.span, (), why) for n, why in found.blocked)
    became = became if streams else ()
    return tuple(sorted(became + left + blocked, key=lambda x: (x.span.line, x.span.col)))


def _why_left(loop, found: Survey, spans: set, kept: bool) -> str:
    """Why a candidate stayed a loop: a loop around it became the stream
    (it is that stream's body now), or none of its reads could be an input."""
    around = found.outer.get(id(loop))
    while around is not None and around.span not in spans:
        around = found.outer.get(id(around))
    if around is not None:
        return (f"it is inside the loop at {around.span.line}:{around.span.col}, which "
                f"{'would be' if kept else 'is'} read as a stream: it is part of that stream's body")
    return "none of its reads at its index can be a stream input " + (
        "(explain without --keep-loops says why for each)" if kept else "(the index reads' lines say why for each)")


def read_loops(k: T.Kernel) -> list[T.Stream]:
    """The streams of `k` that the source wrote as loops."""
    return [s for s in descendants(k.body, T.is_exp) if isinstance(s, T.Stream) and s.loop]


def streamable(k: T.Kernel) -> tuple[Streamable, ...]:
    """The loops of `k` (a kernel with loops read as streams) that became streams."""
    out = []
    for s in read_loops(k):
        params = {p.name for p in s.chunk_params}
        out.append(Streamable(s.span, tuple(dict.fromkeys(r.array for r in k.promoted if r.param in params))))
    return tuple(out)


def _substituted(e, index: Binder, at):
    """`e` with every read of the loop's index `index` replaced by `at`."""
    if isinstance(e, T.Var) and e.binder is index:
        return at
    return map_children(e, lambda c: _substituted(c, index, at), T.is_exp) if T.is_exp(e) else e
