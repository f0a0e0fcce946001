"""Inputs the launch transposes before the kernel runs (the second remedy for
rows each thread walks alone; the first stages them in shared memory).

A row a thread reads by itself, where it lies, puts neighbouring threads a
row apart: each load of a warp touches 32 cache lines. Where the block does
not stage those rows (the stream is under a branch that differs between
threads, the kernel is untiled, the row's length is known only at launch,
...), the launch can instead transpose the array, its last two axes, into
scratch memory with a separate kernel, and the kernel reads that copy with
the row index on threadIdx.x: consecutive threads then read consecutive
addresses. The transposition reads and writes the whole array once, so it
pays only where the rows are long enough that reading them in place
thrashes the cache; for short rows L1 keeps a warp's lines between its
loads and the reads in place cost little (measured, below).
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..check import typed as T
from ..check.types import Array
from ..tree import children
from .context import Context
from .schedule import Schedule, Transposition
from .views import Views, index_chain, mentions

# Where the transposition pays, measured on an H200 (benchmarks/RESULTS.md,
# "Rows transposed by the launch"): a thread summing its row in a loop, in
# place against transposed (the transposition's own time included), rows of
# 34 to 65,536 elements, 2^24 to 2^28 elements in all. Where many rows (many
# threads) are read at once, L1 keeps most of a warp's lines between its
# reads, and in place runs at 1-2 TB/s: the transposition, which reads and
# writes the whole array once more, lost (0.3x to 0.9x at row lengths that
# are not powers of two). It won where few threads each walk a long row and
# the kernel in place waits on one load after another: at most about 128
# rows an SM and rows of at least 2,048 elements (1.3x to 3.3x; the worst
# case inside those bounds 0.89x).
MIN_ROW = 2048
ROWS_PER_SM = 128
# Threads a block of a kernel reading transposed copies spans: so few rows
# spread over every SM (256 threads a block left three quarters of an H200's
# SMs idle at 8,192 rows), one warp reading one 128-byte line a step.
THREADS = 32


def transpositions(schedule: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> Schedule:
    """The schedule with every array whose rows its threads read alone, in
    place, transposed by the launch where that pays (or why not)."""
    x = schedule.block.spans[0]
    staged = _staged_roots(schedule, views)
    found = []
    wanted = [p for p in kernel.params if isinstance(p.type, Array) and p.type.rank >= 2 and p.name not in staged]
    every_use = _uses(kernel, set(wanted), views)
    for p in wanted:
        uses = every_use[p]
        if not uses or not any(_per_thread_row(items, x) for items, _ in uses):
            continue
        rows, length = p.type.shape[-2], p.type.shape[-1]
        points = tuple(_name(lv.size) for lv in kernel.levels)  # the threads, each reading its own row
        reason = _refusal(kernel, p, uses, x, ctx)
        most = ROWS_PER_SM * ctx.device.multiprocessors
        shorter = longer = None
        if not reason and ctx.options.transpose is None:
            known = [ctx.known_size(lv.size) for lv in kernel.levels]
            reason, shorter, longer = _bounds(ctx.row_length(length),
                                              None if None in known else math.prod(known), most,
                                              ctx.bounded(length))
        t = Transposition(p.name, _name(rows), _name(length), points, not reason, MIN_ROW if shorter else None,
                          most if longer else None, reason)
        found.append(t if reason else replace(t, reason=_why(t)))
    chosen = {t.array for t in found if t.chosen}
    block = _narrow(schedule.block) if chosen and not schedule.tiled else None
    return replace(schedule, transposes=tuple(found), transposed_block=block, streams=tuple(
        replace(s, inputs=tuple(_transposed(i, chosen, views) for i in s.inputs)) for s in schedule.streams),
        slabs=tuple(_transposed(r, chosen, views) for r in schedule.slabs))


def _bounds(length: int | None, rows: int | None, most: int, bounded: bool = False) -> tuple[str, bool, bool]:
    """Why not, from the sizes known now (`rows`: the rows read at once, one
    a thread; `bounded`: `length` is the most a plan takes the rows to be);
    else whether the launch must still test the row length (too short) and
    the row count (too many)."""
    if length is not None and length < MIN_ROW:
        long = f"at most {length} elements long (this version's bound)" if bounded else f"{length} elements long"
        return (f"its rows are {long}: below {MIN_ROW}, reading them in place costs less than "
                "transposing the array first (the cache keeps most of a warp's lines between its reads)"), False, False
    if rows is not None and rows > most:
        return (f"its threads read {rows} rows, more than {ROWS_PER_SM} an SM: with that many reading at once, in "
                "place is not held up by each load's latency, and costs less than transposing first"), False, False
    return "", length is None, rows is None


def _narrow(block):
    """The untiled block of a kernel reading transposed copies, THREADS wide."""
    (x,) = block.spans if len(block.spans) == 1 else (None,)
    if x is None or block.extents[x] <= THREADS:
        return None
    return replace(block, extents=tuple(THREADS if d == x else e for d, e in enumerate(block.extents)),
                   reason=f"{block.reason}; {THREADS} threads where it reads transposed copies: few rows spread "
                          "over every SM")


def _transposed(read, chosen: set, views: Views):
    """A stream input or row (left in place) whose array the launch transposes."""
    root = _root(read.array, views)
    if root not in chosen or read.staged:
        return read
    return replace(read, transposed=True, reason=f"{read.reason}; the launch transposes {root} instead: the "
                                                 "kernel reads the copy along threadIdx.x")


def _why(t: Transposition) -> str:
    tests = t.launch_text()
    where = f", when {' and '.join(tests)} at launch (else it is read in place)" if tests else ""
    return (f"its rows are read by one thread each, a row apart along threadIdx.x: the launch transposes "
            f"{t.array} (its last two axes) into scratch memory first{where}, and the kernel reads that copy "
            "along threadIdx.x (coalesced)")


def _refusal(kernel: T.Kernel, p, uses, x: int, ctx: Context) -> str:
    if ctx.options.no_coalesce:
        return "coalescing is off (--no-coalesce)"
    if ctx.options.transpose is False:
        return "transposition is off (--no-transpose)"
    if any(mentions(pl.value, p) for pl in kernel.prelude):
        return f"{p.name} is also used in main's prelude"
    for items, span in uses:
        if not _per_thread_row(items, x):
            return (f"{p.name} is also read at {span.short} with the row not chosen by the thread's index along "
                    "threadIdx.x: transposed, that read would be a row apart instead")
    dims = set(range(len(kernel.levels)))
    for items, span in uses:
        shared = dims - {it[1] for it in items if it[0] == "dim"}
        if shared:
            return (f"the row read at {span.short} is the same for every point along dimension "
                    f"{', '.join(map(str, sorted(shared)))}: threads share it (the caches serve them), it is not a "
                    "row each thread walks alone")
    return ""


def _per_thread_row(items, x: int) -> bool:
    """The row (the second-to-last index) is the thread's index along x and
    the last index is the same for every thread of a warp."""
    if items is None or len(items) < 2 or items[-2] != ("dim", x):
        return False
    last = items[-1]
    if last[0] == "dim":  # (another dimension's index: the same for a warp's threads unless it is x's own)
        return last[1] != x
    return last[0] == "free" or x not in last[1]


def _uses(kernel: T.Kernel, wanted: set, views: Views) -> dict:
    """For each array of `wanted`, (items, span) for every place the kernel
    reads it: its map rows and index reads, each as `Views.items` describes
    it (None: used whole). One walk serves every array."""
    out = {p: [] for p in wanted}

    def walk(e):
        root, indices = index_chain(e)
        if root is not None:
            if root in out:
                found = views.items(e)
                out[root].append((found[1] if found else None, e.span))
            for i in indices:
                walk(i)
        elif isinstance(e, T.Var):
            if e.binder in out:
                out[e.binder].append((None, e.span))
        else:
            for c in children(e, T.is_exp):
                walk(c)

    for level in kernel.levels:
        for param, arg in zip(level.params, level.args):
            if isinstance(arg, T.Var) and arg.binder in out:  # the map's row: as the row parameter sees it
                found = views.items(T.Var(param, param.type))
                out[arg.binder].append((found[1] if found else None, arg.span))
            else:
                walk(arg)
        for _, value in level.lets:
            walk(value)
    walk(kernel.body)
    return out


def _staged_roots(schedule: Schedule, views: Views) -> set:
    """Arrays some input or row of the schedule stages in shared memory."""
    roots = {_root(i.array, views) for s in schedule.streams for i in s.inputs if i.staged}
    return roots | {_root(r.array, views) for r in schedule.slabs if r.staged}


def _root(array, views: Views) -> str | None:
    """The name of the parameter of `main` an array expression reads, if any."""
    found = views.items(array)
    return found[0].name if found else None


def _name(size):
    return size if isinstance(size, int) else size.name
