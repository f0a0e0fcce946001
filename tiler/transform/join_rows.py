"""Rows joined, as a rewrite of the kernel program: where a schedule joins a
loop's rows (analyse/joins.py), the loop whose body streams the rows it picks,

    loop (acc = init) = for j < count do
      let jb = nei[bx, j] in streamSeq(f, rv[jb], acc)
    in rest

becomes one stream over those rows laid end to end,

    let acc = streamSeq(f, joinRows(j < count: let jb = nei[bx, j] in rv[jb]), init)
    in rest

(`T.JoinRows`). The two fold the same elements in the same order, and
`streamSeq` means the same for any split of its arrays, so a chunk may hold
the end of one row and the start of the next: what the analysis proved
sound (the stream carries the loop's accumulators from the loop's own
values, and its body never tells the rows apart). The interpreter runs the
rewritten program, and lower turns each `JoinRows` into the joined view
its copies read. A schedule that joins nothing, the untiled one among them,
leaves the program as it is.
"""
from __future__ import annotations

from dataclasses import replace

from ..analyse.schedule import Schedule, StreamPlan
from ..check import typed as T
from ..errors import CompilerBug
from ..tree import map_children

NAME = "join rows"


def join_rows(kernel: T.Kernel, schedule: Schedule) -> tuple[T.Kernel, Schedule, tuple[str, ...]]:
    """The kernel with every loop the schedule joins rewritten, the
    schedule's stream plans pointing at the streams of the rewritten kernel,
    and the rewrite's name where it joined anything (for the kernel's record)."""
    joins = {T.point(s.join.loop): s for s in schedule.streams if s.join is not None and s.join.joined}
    if not joins:
        return kernel, schedule, ()
    streams: dict[int, T.Stream] = {}  # a stream of `kernel`, by its point -> the one that replaces it
    rewrite = _Rewrite(joins, streams)
    levels = tuple(replace(lv, lets=tuple((b, rewrite(v)) for b, v in lv.lets)) for lv in kernel.levels)
    kernel = replace(kernel, levels=levels, body=rewrite(kernel.body))
    if rewrite.done != set(joins):
        raise CompilerBug("a loop the schedule joins is not in the kernel", kernel.span, "lower")
    plans = tuple(_resited(s, streams) for s in schedule.streams)
    return kernel, replace(schedule, streams=plans), (NAME,)


class _Rewrite:
    def __init__(self, joins: dict, streams: dict):
        self.joins, self.streams, self.done = joins, streams, set()

    def __call__(self, e):
        plan = self.joins.get(T.point(e)) if isinstance(e, T.Loop) else None
        new = self._joined(e, plan) if plan is not None else map_children(e, self, T.is_exp)
        if isinstance(e, T.Stream) and new is not e:  # a stream with a joined loop inside
            self.streams[T.point(e)] = new
        return new

    def _joined(self, loop: T.Loop, plan: StreamPlan) -> T.Let:
        self.done.add(T.point(loop))
        lets, body = [], loop.body
        while isinstance(body, T.Let):
            lets.append(body)
            body = body.body
        stream = plan.site.stream
        if body is not stream:
            raise CompilerBug("a joined loop's body is not its stream", loop.span, "lower")
        # (the loop's start values and count may hold joined loops of their own; the picks are plain)
        count = self(loop.bound)
        rows = tuple(T.JoinRows(loop.index, count, _picked(lets, a), a.type, loop.span) for a in stream.arrays)
        joined = replace(stream, arrays=rows, inits=tuple(self(i) for i in loop.inits), body=self(stream.body))
        self.streams[T.point(stream)] = joined
        return T.Let(loop.results, joined, self(loop.rest), loop.type, loop.span)


def _picked(lets: list, row):
    """`row` after the lets that pick it (each input's own chain: the same
    binders, which lower binds once for all of a stream's rows)."""
    for let in reversed(lets):
        row = T.Let(let.binders, let.value, row, row.type, let.span)
    return row


def _resited(s: StreamPlan, streams: dict) -> StreamPlan:
    new = streams.get(T.point(s.site.stream))
    return s if new is None else replace(s, site=replace(s.site, stream=new))
