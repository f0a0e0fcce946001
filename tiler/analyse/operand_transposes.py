"""A product's B transposed by the launch for the matrix units (K-major).

sm_90a's warp groups read TF32 tiles from shared memory only with a row's
positions along the reduction adjacent (K-major). A product's B whose
columns are adjacent in memory (`A B`, B as given) therefore has its tile
read by each thread into registers and the product computed transposed
(tensor_cores.py), and that tile is not a box TMA can copy. Where B is an
array of main's and the sizes make the product large, the launch can
instead transpose B (its last two axes, into scratch memory, as
transposes.py does for rows threads read alone): the kernel then reads that
copy, both tiles are K-major, read through descriptors and copied by TMA.

The transposition reads and writes B once more each launch, against a
product that reads each of B's elements once for every block row of A, so
it pays where A has many rows (measured: MIN_ROWS) and the grid has a block
for every SM.
"""
from __future__ import annotations

from dataclasses import replace

from ..check import typed as T
from ..check.types import Array
from .context import Context
from .registers import grid_blocks
from .schedule import Schedule, Transposition
from .tma_boxes import tma_refusal
from .views import Views, mentions
from .wide_tiles import wider

# A's rows (the product's output rows) from which the transposed product ran
# faster than the one reading B's tile into registers, transposition
# included (H200, benchmarks/RESULTS.md, thirtieth session: 2048 rows 5%
# faster, 4096 15-18%; 1024 rows 5-10% slower, 512 rows 30-40% slower)
MIN_ROWS = 2048


def replanned_for_units(units: Schedule, kernel: T.Kernel, views: Views, ctx: Context, replan) -> Schedule:
    """The units' schedule reading B from the launch's transposed copy where
    that lets the warp groups read both tiles copied by TMA, and with wider
    tiles where they pay (wide_tiles.py); else `units`. `replan(views,
    ctx)`: the schedule planned again so."""
    found = k_major_operand(units, kernel, views, ctx)
    if found is not None:
        root, why = found
        k_major = views.transposing(root)
        retried = replan(k_major, ctx)
        if _copied_by_tma(units, retried, kernel, k_major, ctx):  # (wider keeps its tiles so, or gives it back)
            return _recorded(wider(retried, kernel, k_major, ctx, replan), root, why, kernel)
    return wider(units, kernel, views, ctx, replan)


def k_major_operand(units: Schedule, kernel: T.Kernel, views: Views, ctx: Context):
    """(B's array, why) where `units` (a schedule whose product runs on the
    warp groups transposed, B's tile in registers) would instead read B
    from the launch's transposed copy; else None."""
    mu = units.matrix_units
    if mu is None or not mu.used or mu.shape is None or not mu.shape.transposed or ctx.options.no_tma or \
            ctx.options.transpose is False or ctx.constraints.grid_loop:
        return None
    stream = units.streams[0]
    b = next((p for p in stream.inputs if p.name == mu.inputs[1]), None)
    found = views.items(b.array) if b is not None else None
    if not found or found[0] not in kernel.params or not isinstance(found[0].type, Array) or \
            found[0].type.rank != 2:
        return None
    root = found[0]
    a = next((p for p in stream.inputs if p.name == mu.inputs[0]), None)
    if a is not None and (views.items(a.array) or (None,))[0] is root:
        return None  # (A Aᵀ written with B a transposed view of A: the copy would change A's tile too)
    if any(mentions(pl.value, root) and not isinstance(pl.value, T.Transpose) for pl in kernel.prelude):
        return None
    rows = ctx.known_size(kernel.levels[mu.dims[0]].size)
    points = {d: units.block.points(d) for d in units.block.spans}
    blocks = grid_blocks(kernel, points, ctx)
    if rows is None or rows < MIN_ROWS or blocks is None or blocks < ctx.device.multiprocessors:
        return None
    return root, (f"the warp groups read TF32 tiles through descriptors only with the reduction's positions "
                  f"adjacent, and {root.name}'s columns are adjacent: the launch transposes {root.name} (its two axes) "
                  "into scratch memory first, and the kernel reads that copy, both tiles copied by TMA and read "
                  f"from shared memory (A has {rows} rows, at least {MIN_ROWS}: the transposition, once a launch, "
                  "costs less than the tile read into each thread's registers)")


def _copied_by_tma(units: Schedule, retried: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> bool:
    """`retried` (planned reading B transposed) runs its product on the units
    untransposed, its block along the same dims, and lowering will copy both
    tiles by TMA (tma_boxes.py: A's own too, which the copy must not change)."""
    mu = retried.matrix_units
    return mu is not None and mu.used and not mu.shape.transposed and retried.block.spans == units.block.spans and \
        not tma_refusal(retried, kernel, views, ctx)


def _recorded(schedule: Schedule, root, why: str, kernel: T.Kernel) -> Schedule:
    """The schedule with B's transposition for the units recorded."""
    rows, length = root.type.shape
    record = Transposition(root.name, _name(rows), _name(length), tuple(_name(lv.size) for lv in kernel.levels),
                           True, None, None, why, units=True)
    return replace(schedule, transposes=schedule.transposes + (record,))


def _name(size) -> str | int:
    return size if isinstance(size, int) else size.name
