"""The order a 2-D grid's blocks take their tiles in (`--group-rows`, the
tuner's `group_rows`): launched in order, blockIdx.x fastest, the blocks
resident at once (a wave) cover whole rows of tiles; in a product each row
of tiles reads one panel of A and every column of tiles its own panel of
B, so a wave of 132 blocks over a 64 x 64 grid of tiles reads 3 panels of
A and all 64 of B while it runs. Taking the tiles in groups of a few rows,
down a group's column before the next column (the order Triton's matrix
products use), the same wave reads 8 of A and 17 of B: the panels it shares
stay in L2, and fewer bytes come from device memory.

The kernel renumbers its tiles from its block indices once, at its start
(lower/raster.py); every block still takes exactly one tile of the grid.
It is done where the grid's order decides what a wave shares: the dims on
grid x and y each have a staged input that does not vary with them and
does vary with the other (A's panel and B's). Elsewhere (a stencil, a grid
of points summing one shared array) the launch's order is kept.

And only where the product runs on the matrix units with inputs of 32 bits
or fewer (TF32, bf16, f16), whose rate is 4 to 15 times the FP32 pipe's:
there the wave's reads from device memory bound the kernel. Measured on an
H200 against the launch's order in one call (RESULTS.md): TF32 at 8192^3
4.49 -> 4.19 ms, A Aᵀ in TF32 at 8192 4.36 -> 3.60, bf16 and TF32 at 4096^3
unchanged (two blocks an SM: a wave is already 8 rows of 32 tiles). A
product on the FP32 or FP64 pipes keeps up with its reads in any order, and
grouped, ptxas kept the renumbered tile in registers and chose another
allocation: mm at 4096^3 3.02 -> 3.55 ms, at 8192^3 23.3 -> 27.2, mm_f64
7.44 -> 8.45, on the FP64 units 3.34 -> 3.41.
"""
from __future__ import annotations

from dataclasses import replace

from .. import target
from .context import Context
from .schedule import Schedule

GROUP_ROWS = 8  # rows of tiles a group (Triton's default; a wave of 132 blocks then covers 8 x 17 tiles)

PANELS = "consecutive blocks take {rows} rows of tiles (dim {dy}) down each column of tiles (dim {dx}) before " \
         "the next column: a wave of blocks then shares the panels of {a} (one a row of tiles) and of {b} (one a " \
         "column) in L2, where the launch's order, whole rows at once, reads every panel of {b} each wave"
GIVEN = "tiles taken in groups of {rows} rows, as --group-rows gives"
IN_ORDER = "tiles in the launch's order (--group-rows 0)"
NO_PANELS = "tiles in the launch's order: no staged input is shared along one grid axis and walks the other " \
            "(a product's panels), so the order does not decide what a wave's blocks share"
ONE_AXIS = "tiles in the launch's order: the grid walks one dim"
PIPES = "tiles in the launch's order: the product runs on the {where}, whose rate its reads keep up with in " \
        "any order (grouped, mm at 4096^3 ran 17% slower: ptxas kept the renumbered tiles in registers)"
STAGE = "tiles in the launch's order: split-K's stage runs on the CUDA cores"
FAST_UNITS = 4  # bytes an input element takes at most on the fast matrix units (TF32, bf16, f16)


def with_group_rows(schedule: Schedule, ctx: Context) -> Schedule:
    """The tiled schedule with the order its blocks take their tiles in, and why."""
    block = schedule.block
    axes = {axis: d for d, axis in enumerate(block.grid_axis)}
    given = ctx.options.group_rows
    if "x" not in axes or "y" not in axes:  # (nothing to renumber, whatever is given)
        rows, why = 0, ONE_AXIS + (" (--group-rows orders a grid of two axes)" if given else "")
    elif given is not None:
        rows, why = given, GIVEN.format(rows=given) if given else IN_ORDER
    else:
        rows, why = _panels(schedule, axes["x"], axes["y"])
    return replace(schedule, block=replace(block, group_rows=rows, group_rows_reason=why))


def in_launch_order(schedule: Schedule) -> Schedule:
    """The schedule with its tiles in the launch's order: split-K's stage of
    a product on the matrix units runs its share on the CUDA cores."""
    if not schedule.block.group_rows:
        return schedule
    return replace(schedule, block=replace(schedule.block, group_rows=0, group_rows_reason=STAGE))


def _panels(schedule: Schedule, dx: int, dy: int) -> tuple[int, str]:
    """GROUP_ROWS where a staged input is a panel along each grid axis and
    the product runs on the fast matrix units, else 0."""
    staged = [p for s in schedule.streams if s.tiled for p in s.inputs if p.staged]
    rows = [p for p in staged if dx in p.invariant_to and dy in p.varies_with]
    columns = [p for p in staged if dy in p.invariant_to and dx in p.varies_with]
    if not rows or not columns:
        return 0, NO_PANELS
    units = schedule.matrix_units
    if units is None or not units.used:
        return 0, PIPES.format(where="CUDA cores")
    if target.SIZEOF[units.shape.inputs] > FAST_UNITS:
        return 0, PIPES.format(where="FP64 matrix units")
    return GROUP_ROWS, PANELS.format(rows=GROUP_ROWS, dy=dy, dx=dx, a=rows[0].name, b=columns[0].name)
