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
"""
from __future__ import annotations

from dataclasses import replace

from .. import target
from ..check import typed as T
from ..check.types import Array
from ..interp.values import dtype
from .options import Options
from .schedule import RowSlab, Schedule
from .views import Views, element_reads, mentions


def row_candidates(schedule: Schedule, kernel: T.Kernel, views: Views, options: Options) -> tuple[RowSlab, ...]:
    """Each map row the body reads by element alone, a row apart along
    threadIdx.x: staged if the block allows, else with the reason."""
    block = schedule.block
    x = block.spans[0]
    out = []
    for level in kernel.levels:
        for p, arg in zip(level.params, level.args):
            if not _read_apart(p, level, kernel, views, x):
                continue
            length = options.known_size(p.type.shape[0])
            reason = _refusal(schedule, length, p, options)
            if reason:
                out.append(RowSlab(p.name, arg, level.dim, length, False, reason))
                continue
            points = block.points(x)
            pitch = length | 1  # odd: a warp's reads at one index fall in 32 distinct banks
            size = points * pitch * dtype(p.type).itemsize
            out.append(RowSlab(p.name, arg, level.dim, length, True,
                               f"its reads are a row apart along threadIdx.x (uncoalesced): the block copies the "
                               f"{points} rows of its points into shared memory along the rows, once, and each "
                               f"thread reads its own (pitch {pitch})", points, pitch, size))
    return tuple(out)


def _read_apart(p, level, kernel: T.Kernel, views: Views, x: int) -> bool:
    """A 1-D row of the map along threadIdx.x's dim, whose own index is the
    unit-stride one, read only element by element in the body."""
    if level.dim != x or not isinstance(p.type, Array) or p.type.rank != 1:
        return False
    if any(mentions(v, p) for lv in kernel.levels for _, v in lv.lets):
        return False
    reads = element_reads(kernel.body, p)
    return bool(reads) and views.unit_stride(T.Var(p, p.type)) == "chunk"


def _refusal(schedule: Schedule, length: int | None, p, options: Options) -> str:
    if options.no_coalesce:
        return "staging for coalescing is off (--no-coalesce)"
    if options.transpose:
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


def fits(schedule: Schedule, slabs: tuple[RowSlab, ...], options: Options) -> bool:
    return schedule.block.shared_bytes + sum(s.bytes for s in slabs if s.staged) <= \
        options.shared_limit(schedule.block.pipelined)


def unfit(slabs: tuple[RowSlab, ...], options: Options) -> tuple[RowSlab, ...]:
    """The rows left in place: no block of at least a warp fits them."""
    why = (f"the rows of a block of {target.WARP} threads would not fit beside its tiles in the "
           f"{options.shared_limit()} bytes of shared memory a block may use")
    return tuple(replace(s, staged=False, reason=why, points=0, pitch=0, bytes=0) if s.staged else s for s in slabs)
