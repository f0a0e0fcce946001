"""Rows joined: a loop that streams, each iteration, rows it picks (a gather:
lavaMD's neighbour boxes, `for k < count do let jb = nei[bx, k] in
streamSeq(..., rv[jb], acc)`) run as one stream over its rows laid end to
end.

`streamSeq` means the same for any split of its array, so the stream over
row A, then the one over row B carrying its result, is the stream over A ++ B
split at their border: a chunk of the joined stream may end inside a row
and the next take up the rest. Joined, the block copies a full chunk of it
at a time: rows shorter than a chunk share one pair of barriers and fill
their tiles, where rows apart cost a pair a row, each with a part-empty tile
and a chunk loop of the row's length.

It holds when the loop's body is the stream (after lets that only compute
which rows), the stream carries the loop's accumulators from the loop's own
values, every input is staged with one copy for the whole block, and the
stream's body needs nothing of a row but its elements in order: it never
uses the chunk's start, the loop's index or the values the loop computes
for a row.
"""
from __future__ import annotations

from dataclasses import replace

from ..check import typed as T
from ..tree import children, descendants
from .context import Context
from .schedule import BlockPlan, Join, StreamPlan
from .staging import plan_stream
from .views import Views, mentions

JOINED = ("the loop's rows, laid end to end, are one stream: a chunk copies several short rows (or the end of one "
          "and the start of the next) between one pair of barriers")


def loops_around(kernel: T.Kernel) -> dict[int, tuple[T.Loop, tuple[T.Let, ...]]]:
    """For each stream that is a loop's body (after lets), by its program point: the loop, and the lets
    between them."""
    found: dict[int, tuple] = {}
    roots = [kernel.body] + [v for lv in kernel.levels for _, v in lv.lets]
    for e in (n for r in roots for n in descendants(r, T.is_exp)):
        if isinstance(e, T.Loop):
            lets, body = [], e.body
            while isinstance(body, T.Let):
                lets.append(body)
                body = body.body
            if isinstance(body, T.Stream):
                found[T.point(body)] = (e, tuple(lets))
    return found


# a joined stream's chunk, in elements a thread of the block: it is as long
# as all the loop's rows together, so longer chunks halve its barriers and
# put two loads a thread in flight (H200, Rodinia lavaMD at boxes1d 30, rows
# of 100, 128 threads, IEEE / --fast-math: rows apart 8.68 / 5.93 ms, joined
# in chunks of 128 8.68 / 5.79, of 256 8.53 / 5.59, of 512 8.65 / 5.54)
JOIN_CHUNK = 2


def with_joins(streams: tuple[StreamPlan, ...], block: BlockPlan, views: Views, ctx: Context,
               chunk_limit: int | None = None) -> tuple[StreamPlan, ...]:
    """Each tiled stream that is a loop's body joined with the loop's
    iterations where that is sound and saves barriers (or as --join-rows
    says), with the reason either way; a joined stream's chunk JOIN_CHUNK
    elements a thread, unless --chunk gave it (or `chunk_limit`, the shared
    memory, bounds it)."""
    loops = loops_around(views.kernel) if views.var.may_hold(T.Loop) else {}
    return tuple(_joined(s, loops[T.point(s.site.stream)], block, views, ctx, chunk_limit)
                 if s.tiled and T.point(s.site.stream) in loops else s for s in streams)


def _joined(s: StreamPlan, around, block: BlockPlan, views: Views, ctx: Context,
            chunk_limit: int | None) -> StreamPlan:
    loop, lets = around
    length = s.site.stream.length
    refusal = unsound(s, loop, lets, views.kernel)
    sound = refusal is None
    if refusal is None and ctx.options.join_rows is False:
        refusal = "rows apart (--no-join-rows)"
    if refusal is None and ctx.options.join_rows is None:
        refusal = _saves_nothing(s, ctx.known_size(length))
    if refusal is not None:
        return replace(s, join=Join(loop, length, False, refusal, sound))
    # staged again for the joined stream: its chunk, and scalar copies (a chunk's elements lie in several
    # rows, so no vector of them is one load)
    joined = ctx.constrained(join_chunk=ctx.chunk or JOIN_CHUNK * block.threads)
    return replace(plan_stream(s.site, block, views, joined, chunk_limit, joined=True),
                   join=Join(loop, length, True, JOINED))


def unsound(s: StreamPlan, loop: T.Loop, lets: tuple, kernel: T.Kernel) -> str | None:
    """Why the loop's iterations cannot be one stream (None: they can)."""
    for check in (_not_carried, _not_plain, _picked_by_accumulator, _lengths_differ, _tells_rows_apart,
                  _not_shared_alike):
        why = check(s.site.stream, loop, lets, kernel, s)
        if why:
            return why
    return None


def _not_carried(e: T.Stream, loop: T.Loop, lets, kernel, s) -> str | None:
    if len(e.inits) == len(loop.params) and all(isinstance(i, T.Var) and i.binder is p
                                                 for i, p in zip(e.inits, loop.params)):
        return None
    return "the stream does not carry the loop's accumulators (its initial values are not the loop's own, in order)"


def _not_plain(e: T.Stream, loop: T.Loop, lets, kernel, s) -> str | None:
    for let in lets:
        if not _plain(let.value):
            return (f"the loop computes `{', '.join(b.name for b in let.binders)}` with control (a loop, a "
                    "stream or a branch) before the stream: the copy could not compute it for any row")
    return None


def _picked_by_accumulator(e: T.Stream, loop: T.Loop, lets, kernel, s) -> str | None:
    picks = [let.value for let in lets] + list(e.arrays)
    for p in loop.params:
        if any(mentions(x, p) for x in picks):
            return f"the rows are picked with `{p.name}`, the loop's accumulator: a row depends on the ones before it"
    return None


def _lengths_differ(e: T.Stream, loop: T.Loop, lets, kernel, s) -> str | None:
    length = e.length
    if isinstance(length, int) or length in kernel.sizes:
        return None
    return f"the rows' length ({length.name}) is not one of main's sizes: rows of several lengths"


def _tells_rows_apart(e: T.Stream, loop: T.Loop, lets, kernel, s) -> str | None:
    uses = [(e.offset, "its chunk's start"), (loop.index, "the loop's index")]
    uses += [(b, "a value the loop computes for each row") for let in lets for b in let.binders]
    uses += [(p, "the loop's accumulator, not its own") for p in loop.params]
    for binder, what in uses:
        if mentions(e.body, binder):
            return f"the stream's body uses `{binder.name}`, {what}: it needs to know where a row starts"
    return None


def _not_shared_alike(e: T.Stream, loop: T.Loop, lets, kernel, s: StreamPlan) -> str | None:
    for p in s.inputs:
        if not p.staged:
            return f"`{p.name}` is read in place: a joined stream reads every input from its tiles"
        if p.staging.rows or p.staging.element > 1 or p.staging.asynchronous:
            return f"`{p.name}`'s tile is not one chunk every thread of the block reads alike"
    return None


def _saves_nothing(s: StreamPlan, length: int | None) -> str | None:
    """Rows apart cost a pair of barriers for each part of a row a chunk
    holds; joined, one a full chunk. Equal where the rows are whole chunks."""
    if length is not None and length % s.chunk == 0:
        return (f"each row is whole chunks ({length} elements, chunk {s.chunk}): joining the rows would save no "
                "barrier")
    return None


def _plain(e) -> bool:
    """Arithmetic and reads only: what the copy can compute for any row."""
    if isinstance(e, (T.Loop, T.Stream, T.If, T.Let)):
        return False
    return all(_plain(c) for c in _children(e))


def _children(e):
    return children(e, T.is_exp)

