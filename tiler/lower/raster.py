"""A grid's tiles renumbered in groups of rows (analyse/raster.py): the
kernel's first statements compute, from blockIdx.x and blockIdx.y, the
tile each block takes. Block b of the launch's order (x fastest) takes, in
group g = b / (rows x the grid's columns), the tile down column
(b mod that) / rows' of the group, at row g x rows + (b mod that) mod rows'
(rows: the groups' height, at most the grid's rows; rows': the group's
own, fewer in the last group). Every tile of the grid
is taken by one block. A dim whose blocks a loop walks past CUDA's grid
limit (lower.__init__._folded) renumbers the grid's first rows and walks
from there as before."""
from __future__ import annotations

from .. import kir, target
from ..kir.build import add, ceil_div, const, mul
from .values import minimum


def group_tiles(low, block, sizes: list, folded: dict) -> tuple[tuple, dict]:
    """The declarations that renumber the tiles (first in the kernel) and
    the tile index of the dims on grid x and y, by dim; nothing where the
    block takes its tiles in the launch's order."""
    rows = block.group_rows
    axes = {axis: d for d, axis in enumerate(block.grid_axis)}
    if not rows or "x" not in axes or "y" not in axes:
        return (), {}
    dx, dy = axes["x"], axes["y"]
    columns, lines = tiles_along(block, sizes, dx), tiles_along(block, sizes, dy)
    if dy in folded:  # the grid holds the first MAX_GRID rows of tiles
        lines = minimum(lines, const(target.MAX_GRID["y"]))
    decls = []

    def declare(name, value):  # (a program's names shaped tiler_* are renamed: target.c_name)
        low.used.add(name)
        decls.append(kir.Decl(name, "int", value, True))
        return kir.Ref(name)
    # int: the grid's tiles are fewer than 2^31 (a grid's blocks are), and so is a group's: its rows are at
    # most the grid's
    tile = declare("tiler_tile", add(mul(kir.BlockIdx("y"), columns), kir.BlockIdx("x")))
    full = declare("tiler_full_rows", minimum(lines, const(rows)))
    group = declare("tiler_group", mul(full, columns))
    first = declare("tiler_first_row", mul(kir.Bin("/", tile, group), full))
    height = declare("tiler_group_rows", minimum(kir.Bin("-", lines, first), full))
    within = declare("tiler_in_group", kir.Bin("%", tile, group))
    y = declare("tiler_tile_y", add(first, kir.Bin("%", within, height)))
    x = declare("tiler_tile_x", kir.Bin("/", within, height))
    return tuple(decls), {dx: x, dy: y}


def tiles_along(block, sizes: list, d: int):
    """The block's tiles along dim d (its grid's blocks, or the loop's past CUDA's limit)."""
    return ceil_div(sizes[d], block.points(d))
