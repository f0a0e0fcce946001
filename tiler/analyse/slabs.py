"""Rows each thread reads whole outside any stream (`p[f]` in a loop over
`p`, a map's row): whether the block stages them, and why or why not.

In place, neighbouring threads read such rows a row apart: every load of a
warp touches as many cache lines as it has threads (k-means' points: 34
lines a load where a coalesced one touches one). The block instead copies
its points' rows, which lie one after another in global memory, into one
shared array before the body (a flat copy: coalesced), and each thread
reads its own row there. The shared array is sized when the kernel is
compiled, so the row's length must be known then; a block whose rows
would not fit beside its tiles is narrowed until they do.

How the copy runs (`_layout`): where the block's rows lie one after another
in an input and a line of their own length leaves a warp's reads at one
index at most 2-way bank conflicted (a length not a multiple of 4), the
shared array keeps that length and the rows are one run: copied flat, in
vectors, every copy in flight at once (cp.async), with no division of the
copy's index into row and element. Else each line is padded to an odd
pitch (conflict-free reads) and every element's place is computed; a
division and a remainder by the row length an element dominated k-means'
instructions.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .. import target
from ..check import typed as T
from ..check.types import Array, element_bytes
from .context import Context
from .cost import UNCOALESCED_LOADS
from .schedule import RowSlab, Schedule
from .views import Stride, UnitStride, Views, element_reads, mentions


def row_candidates(schedule: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> tuple[RowSlab, ...]:
    """Each map row the body reads by element alone, a row apart along
    threadIdx.x: staged if the block allows, else with the reason."""
    block = schedule.block
    x = block.spans[0]
    out = []
    for level in kernel.levels:
        for p, arg in zip(level.params, level.args):
            if not _read_apart(p, level, kernel, views, x):
                continue
            length = ctx.row_length(p.type.shape[0])
            bounded = ctx.bounded(p.type.shape[0])
            reason = _refusal(schedule, length, p, ctx)
            if reason:
                out.append(RowSlab(p.name, arg, level.dim, length, False, reason))
                continue
            points = block.points(x)
            itemsize = element_bytes(p.type)
            apart = "the rows do not lie one after another in an input" if not _one_after_another(p, views, x) else \
                f"rows shorter than {length} do not lie {length} apart" if bounded else ""
            layout = _layout(length, points, itemsize, apart, ctx)
            rows = f"rows of its points (at most {length} elements each)" if bounded else "rows of its points"
            out.append(RowSlab(p.name, arg, level.dim, length, True,
                               f"its reads are a row apart along threadIdx.x (uncoalesced): the block copies the "
                               f"{points} {rows} into shared memory along the rows, once, and each "
                               f"thread reads its own; {layout.why}", points, layout.pitch,
                               points * layout.pitch * itemsize, run=layout.run, vector=layout.vector,
                               asynchronous=layout.asynchronous))
    return tuple(out)


def apart_loads(block, kernel: T.Kernel, views: Views, ctx: Context) -> float:
    """What the rows read a row apart along `block`'s threadIdx.x cost beyond
    coalesced reads, in global loads a point per element, where the block
    could not stage them (a length known only at launch, a 2-D block): the
    plan weighs it against what a candidate's staging saves, so that a
    block does not put such a row's dimension on threadIdx.x for a stream's
    sake (a fuzzed 3-D kernel: a row of M3 read in place a row apart beside
    a staged stream, 0.13x untiled)."""
    x = block.spans[0] if block.spans else None
    extra = 0.0
    for level in kernel.levels:
        for p in level.params:
            if x is None or not _read_apart(p, level, kernel, views, x):
                continue
            stageable = ctx.row_length(p.type.shape[0]) is not None and len(block.spans) == 1 \
                and not ctx.options.no_coalesce
            if not stageable:
                extra += (UNCOALESCED_LOADS - 1) * element_bytes(p.type) / 4
    return extra


@dataclass(frozen=True)
class _Layout:
    pitch: int
    run: bool
    vector: int
    asynchronous: bool
    why: str


def _layout(length: int, points: int, itemsize: int, apart: str, ctx: Context) -> _Layout:
    """The shared array's pitch and how the copy fills it (module doc);
    `apart`: why the block's rows are not one run in global memory ("": they are)."""
    ways = _conflicts(length, itemsize)
    if apart or ways > 2 or itemsize not in target.ASYNC_COPY_BYTES:
        pitch = length | 1  # odd: a warp's reads at one index fall in distinct banks
        why = apart if apart else \
            f"lines of {length} would leave reads {ways}-way bank conflicted" if ways > 2 else \
            f"elements of {itemsize} bytes are copied one by one"
        return _Layout(pitch, False, 1, False, f"pitch {pitch}, odd for conflict-free reads ({why})")
    vector = 1 if ctx.no_vector else \
        max(w for w in (1, 2, 4) if w * itemsize <= 16 and points * length % w == 0)
    asynchronous = not ctx.options.no_async
    how = f"{vector} elements a copy" + (", all in flight by cp.async" if asynchronous else " through registers")
    conflicts = "conflict-free reads" if ways == 1 else f"reads at most {ways}-way bank conflicted"
    return _Layout(length, True, vector, asynchronous,
                   f"the rows lie one after another, so the block's {points} rows are one run of "
                   f"{points * length} elements, copied flat, {how} (the last block, past the end, element by "
                   f"element); lines of {length}: {conflicts}")


def _conflicts(length: int, itemsize: int) -> int:
    """How many ways a warp's reads at one index of lines `length` apart
    collide in shared memory's banks (4-byte words; an 8-byte element is
    read by half-warps)."""
    words = max(itemsize // 4, 1)
    lanes = target.SHARED_BANKS // words
    return math.gcd(length, lanes)


def _one_after_another(p, views: Views, x: int) -> bool:
    """Whether the map's row `p` is the thread's own row of a 2-D input,
    `A[i]` for the thread's index i along x: rows i and i + 1 are adjacent."""
    found = views.items(T.Var(p, p.type))
    if not found:
        return False
    root, items = found
    return getattr(root.type, "rank", 0) == 2 and tuple(items) == (("dim", x), ("free", 0))


def _read_apart(p, level, kernel: T.Kernel, views: Views, x: int) -> bool:
    """A 1-D row of the map along threadIdx.x's dim, whose own index is the
    unit-stride one, read only element by element in the body."""
    if level.dim != x or not isinstance(p.type, Array) or p.type.rank != 1:
        return False
    if any(mentions(v, p) for lv in kernel.levels for _, v in lv.lets):
        return False
    reads = element_reads(kernel.body, p)
    return bool(reads) and views.unit_stride(T.Var(p, p.type)) == UnitStride(Stride.CHUNK)


def _refusal(schedule: Schedule, length: int | None, p, ctx: Context) -> str:
    if ctx.options.no_coalesce:
        return "staging for coalescing is off (--no-coalesce)"
    if ctx.options.transpose:
        return "--transpose chose the other remedy"
    if length is None:
        return (f"its length {p.type.shape[0].name} is known only at launch: the shared array is sized when the "
                f"kernel is compiled (give --size {p.type.shape[0].name}=N)")
    if not schedule.tiled:
        return ("the kernel stages nothing else: an untiled kernel has no barriers, and its threads past the end "
                "leave early")
    if len(schedule.block.spans) != 1:
        return "tiler stages such rows in 1-D blocks"
    return ""


def fits(schedule: Schedule, slabs: tuple[RowSlab, ...], ctx: Context) -> bool:
    return schedule.block.shared_bytes + sum(s.bytes for s in slabs if s.staged) <= \
        ctx.shared_limit(schedule.block.pipelined)


def unfit(slabs: tuple[RowSlab, ...], ctx: Context) -> tuple[RowSlab, ...]:
    """The rows left in place: no block of at least a warp fits them."""
    why = (f"the rows of a block of {target.WARP} threads would not fit beside its tiles in the "
           f"{ctx.shared_limit()} bytes of shared memory a block may use")
    return tuple(replace(s, staged=False, reason=why, points=0, pitch=0, bytes=0, run=False, vector=1,
                         asynchronous=False) if s.staged else s for s in slabs)
