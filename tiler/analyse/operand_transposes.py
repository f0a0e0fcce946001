"""A product's operands transposed by the launch for the matrix units (K-major).

sm_90a's warp groups read TF32 tiles from shared memory only with a row's
positions along the reduction adjacent (K-major). A product's B whose
columns are adjacent in memory (`A B`, B as given) therefore has its tile
read by each thread into registers and the product computed transposed
(tensor_cores.py), and that tile is not a box TMA can copy. Where B is an
array of main's and the sizes make the product large, the launch can
instead transpose B (its last two axes, into scratch memory, as
transposes.py does for rows threads read alone): the kernel then reads that
copy, both tiles are K-major, read through descriptors and copied by TMA.
Where A's tile is not K-major either (Aᵀ B), B's copy alone leaves A's tile
copied element by element, so the launch transposes both; where both tiles
read one array (Xᵀ X), its one copy serves both.

The transposition reads and writes B once more each launch, against a
product that reads each of B's elements once for every block row of A, so
it pays where A has many rows (measured: MIN_ROWS) and the grid has a block
for every SM; A's copy likewise where B has many columns (Aᵀ B with 2,048
columns, each of A's elements read by 8 blocks of 256 columns, ran 2.05x
faster with both copies). Each copy's record says under which launch test
it pays (Transposition.units_tests); the plan reading the operands in
place (Plan.in_place) runs the other launches of a module compiled knowing
large sizes.
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
    """The units' schedule reading B (and where A's tile is not K-major
    either, A) from the launch's transposed copies where that lets the warp
    groups read both tiles copied by TMA, and with wider tiles where they pay
    (wide_tiles.py); else `units`. `replan(views, ctx)`: the schedule planned
    again so."""
    for roots, why in k_major_operands(units, kernel, views, ctx):
        k_major = views
        for root in roots:
            k_major = k_major.transposing(root)
        retried = replan(k_major, ctx)
        if _copied_by_tma(units, retried, kernel, k_major, ctx):  # (wider keeps its tiles so, or gives it back)
            return _recorded(wider(retried, kernel, k_major, ctx, replan), roots, why, kernel,
                             units.matrix_units.dims)
    return wider(units, kernel, views, ctx, replan)


def k_major_operands(units: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> list:
    """The sets of arrays (with why) whose copies, transposed by the launch,
    `units` (a schedule whose product runs on the warp groups transposed,
    B's tile in registers) might read instead, fewest first: B's array, then
    A's and B's (Aᵀ B: A's tile, not K-major either, is copied element by
    element); one array where both tiles read it (Aᵀ A). Each array is a 2-D
    array of main's, read in the prelude only through transposes, and the
    output's extent along its tile at least MIN_ROWS (the copy is made once a
    launch; the product reads each of its elements once for every block
    across the other operand). Empty where no copy may be read."""
    mu = units.matrix_units
    if mu is None or not mu.used or mu.shape is None or not mu.shape.transposed or ctx.options.no_tma or \
            ctx.options.transpose is False or ctx.constraints.grid_loop or ctx.constraints.units_in_place:
        return []
    points = {d: units.block.points(d) for d in units.block.spans}
    blocks = grid_blocks(kernel, points, ctx)
    if blocks is None or blocks < ctx.device.multiprocessors:
        return []
    stream = units.streams[0]
    a, b = (launch_root(next((p for p in stream.inputs if p.name == name), None), kernel, views) for name in mu.inputs)
    extents = [ctx.known_size(kernel.levels[d].size) for d in mu.dims]
    if b is None or extents[0] is None or extents[0] < MIN_ROWS:
        return []
    if a is b:
        return [((b,), _why((b,), extents, shared=True))]
    found = [((b,), _why((b,), extents))]
    if a is not None and extents[1] is not None and extents[1] >= MIN_ROWS:
        found.append(((a, b), _why((a, b), extents)))
    return found


def launch_root(staged, kernel: T.Kernel, views: Views):
    """The 2-D array of main's a staged input's tile reads, where the launch
    may transpose it (the prelude reads it only through transposes); else None
    (core_tma.py asks too)."""
    found = views.items(staged.array) if staged is not None else None
    if not found or found[0] not in kernel.params or not isinstance(found[0].type, Array) or \
            found[0].type.rank != 2:
        return None
    root = found[0]
    if any(mentions(pl.value, root) and not isinstance(pl.value, T.Transpose) for pl in kernel.prelude):
        return None
    return root


def _why(roots: tuple, extents: list, shared: bool = False) -> str:
    one = len(roots) == 1
    names = " and ".join(r.name for r in roots)
    tiles = f"both tiles read {names}, with" if shared else f"{names}'s tile has" if one else \
        f"{roots[0].name}'s and {roots[1].name}'s tiles have"
    return (f"the warp groups read TF32 tiles through descriptors only with the reduction's positions adjacent, "
            f"and {tiles} the output's positions adjacent: the launch transposes {names} (two axes) into scratch "
            f"memory first, and the kernel reads {'that copy' if one else 'those copies'}, both tiles copied by TMA "
            f"and read from shared memory (the output has {extents[0]} rows{'' if one else f' and {extents[1]} columns'}"
            f", at least {MIN_ROWS}: the transposition, once a launch, costs less than the tile read into each "
            "thread's registers)")


def _copied_by_tma(units: Schedule, retried: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> bool:
    """`retried` (planned reading the transposed copies) runs its product on the units
    untransposed, its block along the same dims, and lowering will copy both
    tiles by TMA (tma_boxes.py: A's own too, which the copy must not change)."""
    mu = retried.matrix_units
    return mu is not None and mu.used and not mu.shape.transposed and retried.block.spans == units.block.spans and \
        not tma_refusal(retried, kernel, views, ctx)


def _recorded(schedule: Schedule, roots: tuple, why: str, kernel: T.Kernel, dims: tuple) -> Schedule:
    """The schedule with the operands' transpositions for the units
    recorded, each with the launch test its copy pays under: B's (or one
    array's for both tiles) the output's rows at least MIN_ROWS, A's its
    columns (a size given when compiled is a size of the launch's too: a
    module runs at any)."""
    def tests(at: int) -> tuple:
        size = kernel.levels[dims[at]].size
        return () if isinstance(size, int) else (((size.name,), ">=", MIN_ROWS),)
    records = tuple(Transposition(root.name, _name(root.type.shape[0]), _name(root.type.shape[1]),
                                  tuple(_name(lv.size) for lv in kernel.levels), True, None, None, why, units=True,
                                  units_tests=tests(1 if len(roots) == 2 and n == 0 else 0))
                    for n, root in enumerate(roots))
    return replace(schedule, transposes=schedule.transposes + records)


def _name(size) -> str | int:
    return size if isinstance(size, int) else size.name
