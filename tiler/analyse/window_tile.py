"""Windows shared in registers: consecutive points a thread along a window's
dimension.

Where the points along dimension d read a window of an array (windows.py)
whose offsets run over loops of a few iterations each (or are constants),
point p and point p + 1 read the same elements, one offset apart. A thread
that takes POINTS consecutive points along d, with the loops around the
reads unrolled (the register tiling rewrite's interchange unrolls uniform
loops of a constant count), reads each element of its points' window once:
nvcc finds the loads of one address among the unrolled copies (identical
index expressions, no store between them) and keeps the value in a
register. A 15-tap vertical pass then loads 22 rows for 8 points instead
of 120, and a 3-D stencil marched along z keeps its planes in registers
(the register half of 2.5-D blocking).

The schedule is the untiled kernel's block (no shared memory), each thread
taking POINTS points along the window's dimension, with the bounds clamps
of a tiled kernel (so that every thread computes all its points and only
its stores are guarded) and an unclamped copy of the body for the blocks
wholly inside the array, whose index expressions are the ones nvcc can
match. threadIdx.x's dimension is never the one: consecutive points a
thread along it would stride a warp's loads and stores. Where no
dimension will do (or the loops are not unrolled), the version stages the
window in shared memory instead (halo_tile.py), each thread taking
STRIDED points a block's width apart along threadIdx.x's dimension. A
kernel of no window and no loop (each point loads and stores a few
elements) gets those strided points alone: a thread then keeps STRIDED
loads in flight, not one.

The version is a guess the cost model cannot price (what nvcc keeps in
registers is its own), so a first launch races it against the version that
would otherwise run, then the winner against the untiled kernel.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace

from ..check import typed as T
from ..check.binders import used
from ..check.types import element_bytes
from ..tree import descendants
from .context import Context
from .halo_tile import Halos, halo_tiles
from .registers import ADDRESSING, UNROLL_LIMIT, grid_blocks
from .schedule import RegisterTile, Schedule
from .windows import Window

POINTS = 8  # consecutive points a thread along the window's dimension (--window-points gives others)
STRIDED = 8  # points a thread along threadIdx.x's dimension, a block's width apart, in a halo tile's version
# the unrolled copies of a window's reads a thread makes at most (points x iterations of the loops around
# them): nvcc matches loads among this many, and a body larger than this takes long to compile
MAX_COPIES = 1024
# the most expressions a point of a kernel of no window and no loop computes for its strided points (`_coarse`):
# a larger body computes more than it loads, and its 8 copies would take 8 times as long to compile
COARSE_BODY = 64


@dataclass(frozen=True)
class WindowTile:
    """Consecutive points a thread along `dim`, sharing the reads of the
    `arrays`' windows in registers (`dim` None: one point a thread), and the
    windows the block stages in shared memory with their halo (`halos`), or
    why neither (`schedule` None). `elementwise`: the kernel reads no window
    and has no loop; its points lie a block's width apart (`_coarse`)."""

    dim: int | None
    points: int
    arrays: tuple[str, ...]
    schedule: Schedule | None
    reason: str
    halos: Halos | None = None
    elementwise: bool = False

    @property
    def staged(self) -> tuple[str, ...]:
        """The arrays whose windows the version stages in shared memory."""
        return tuple(t.array for t in self.halos.tiles) if self.halos and self.schedule is not None else ()


def window_tile(kernel: T.Kernel, found: tuple[Window, ...], untiled: Schedule, ctx: Context) -> WindowTile | None:
    """The window version's schedule for the kernel's windows `found`
    (windows.py), or why there is none (None: the kernel reads no window);
    a kernel of no window and no loop gets the strided points (`_coarse`)."""
    if not found:
        return _coarse(kernel, untiled, ctx)
    registers = _registers(kernel, found, untiled, ctx)
    if registers.schedule is not None:  # (a shared tile as well measured slower on most such programs)
        return registers
    strided = _strided(kernel, untiled, ctx)
    halos = halo_tiles(kernel, found, strided.block, ctx)
    if not halos.tiles:
        return replace(registers, halos=halos, reason=f"{registers.reason}; no halo tile: {halos.reason}")
    points = halos.block.micro_points
    staged = f"the block stages the window{'s' if len(halos.tiles) > 1 else ''} of " \
        f"{', '.join(t.text() for t in halos.tiles)} in shared memory, halo included, and reads it there " \
        f"(neighbouring threads share its elements; registers cannot: {registers.reason})"
    if points > 1:
        staged += f"; {points} points a thread, a block's width apart along dimension {halos.block.spans[0]} (the " \
                  "reads that do not move with them are loaded once for all)"
    return WindowTile(None, points, tuple(t.array for t in halos.tiles),
                      replace(strided, block=halos.block, halos=halos.tiles), staged, halos)


def _coarse(kernel: T.Kernel, untiled: Schedule, ctx: Context) -> WindowTile | None:
    """A kernel of points that each load and store a few elements (no loop, no stream): one point a thread keeps
    one load in flight, so STRIDED points a thread, a block's width apart along threadIdx.x's dimension (a warp's
    accesses stay consecutive), keep that many; not where that dimension is a literal shorter than the points a
    block takes along it (a block of 32 lanes over 3 points), for a body of more than COARSE_BODY expressions,
    or for points that load nothing of their own (a fill). Raced, as a window version is, where its grid gives
    every SM a block (H200: a rank-one update of 15,000 x 20,000 1.04 -> 0.58 ms, of 2,000 x 1,500 0.020 ->
    0.017; experiments/results/session37-2026-12-01-h200)."""
    body = list(descendants(kernel.body, T.is_exp))
    if len(body) > COARSE_BODY or any(isinstance(e, (T.Loop, T.Stream)) for e in body) or not _loads_its_own(kernel):
        return None
    strided = _strided(kernel, untiled, ctx)
    if strided is untiled:
        return None
    unit, points = untiled.block.spans[0], strided.block.micro_points
    along = next((ctx.known_size(lv.size) for lv in kernel.levels if lv.dim == unit), None)
    if along is not None and along < untiled.block.points(unit) * points:
        return None
    return WindowTile(None, points, (), strided, f"no window, no loop: {points} points a thread, a block's width "
                      f"apart along dimension {unit}, keep {points} loads a thread in flight", elementwise=True)


def _loads_its_own(kernel: T.Kernel) -> bool:
    """Whether each point loads an element of its own: an index read in its body or its level's lets, or an
    element of an array its level maps over that the body uses (not an iota's)."""
    inner = kernel.levels[-1]
    exps = [kernel.body, *(e for _, e in inner.lets)]
    reads = any(isinstance(e, T.Index) for x in exps for e in descendants(x, T.is_exp))
    uses = set().union(*(used(x) for x in exps))
    return reads or any(p in uses and not isinstance(a, T.Iota) for p, a in zip(inner.params, inner.args))


def _strided(kernel: T.Kernel, untiled: Schedule, ctx: Context) -> Schedule:
    """The untiled schedule with STRIDED points a thread along threadIdx.x's
    dimension, a block's width apart (a warp's reads stay consecutive), where
    the grid keeps a block for every SM; else one point a thread."""
    block = untiled.block
    unit = block.spans[0]
    points = STRIDED if ctx.options.window_points is None else ctx.options.window_points
    blocks = grid_blocks(kernel, {d: block.points(d) * (points if d == unit else 1) for d in range(block.rank)}, ctx)
    if points <= 1 or ctx.no_register_tile or blocks is not None and blocks < ctx.device.multiprocessors:
        return untiled
    tile = _micro_tile(kernel, tuple(p.name for p in kernel.params), unit, points, 1, block.rank)
    return replace(untiled, block=replace(block, register=tile, register_reason=f"{points} points a thread, a "
                                          f"block's width apart along dimension {unit}"))


def _registers(kernel: T.Kernel, found: tuple[Window, ...], untiled: Schedule, ctx: Context) -> WindowTile:
    """Consecutive points a thread along the window's dimension, or why not."""
    block = untiled.block

    def refused(why: str) -> WindowTile:
        return WindowTile(None, 1, tuple(w.array for w in found), None, why)
    if ctx.no_register_tile:
        return refused("register tiling is off (--no-register-tile)")
    unit = block.spans[0]  # threadIdx.x's dimension
    moving = [(a.halo or 0, -a.dim, a.dim, w) for w in found for a in w.axes if a.dim != unit and a.halo != 0]
    if not moving:
        return refused(f"every window moves only along dimension {unit}, which threadIdx.x walks: consecutive "
                       "points a thread there would stride a warp's loads and stores")
    unknown = [w for _, _, _, w in moving if _launch_extent(w)]
    if unknown:
        w = unknown[0]
        return refused(f"the window of {w.array} has an extent known only at launch "
                       f"({', '.join(b for a in w.axes for b in a.bounds)}): the loops around its reads cannot be "
                       "unrolled")
    _, _, dim, _ = max(moving, key=lambda m: (m[0], m[1]))
    shared = tuple(w.array for _, _, d, w in moving if d == dim)
    points = ctx.options.window_points or POINTS
    why_not = _refusal(kernel, [w for _, _, d, w in moving if d == dim], dim, points, block, ctx)
    if why_not:
        return refused(why_not)
    loads = _loads(found, dim, points)
    if loads is not None and loads[1] >= loads[0] * points:
        return refused(f"{points} points a thread along dimension {dim} would share none of their {loads[0]} reads "
                       "a point")
    tile = _micro_tile(kernel, shared, dim, points, points, block.rank)
    why = (f"{points} consecutive points a thread along dimension {dim}: the reads of {', '.join(shared)} that "
           f"neighbouring points share are loaded once, their loops unrolled") + \
        (f" ({points} points' {loads[0] * points:,} reads touch {loads[1]:,} elements: {loads[1] / points:.3g} loads "
         f"a point instead of {loads[0]:,} where nvcc matches them all)" if loads is not None else "")
    chosen = replace(untiled, block=replace(block, register=tile, register_reason=why, interior=True,
                                                        interior_reason="blocks wholly inside every dimension run "
                                                        "a copy of the body without the bounds clamps, whose reads "
                                                        "nvcc can match"))
    return WindowTile(dim, points, shared, chosen, why)


def _micro_tile(kernel: T.Kernel, arrays: tuple, dim: int, points: int, group: int, rank: int) -> RegisterTile:
    """`points` a thread along `dim` in groups of `group` (its registers an
    estimate explain does not show: the race, not the model, judges the
    version), sized by the widest element of `arrays`."""
    sizes = tuple(points if d == dim else 1 for d in range(rank))
    words = max(1, max((element_bytes(p.type) for p in kernel.params if p.name in arrays), default=4) // 4)
    return RegisterTile(sizes, group, points * words, points * words * 2 + ADDRESSING, False)


def _refusal(kernel: T.Kernel, found: list[Window], dim: int, points: int, block, ctx: Context) -> str:
    """Why `points` consecutive points a thread along `dim` would share
    nothing or cost too much ("": they would not)."""
    shared = ", ".join(w.array for w in found)
    iterations = unrolled_iterations(kernel, found)
    if points <= 1:
        return "one point a thread (--window-points 1)"
    if iterations is None:
        return (f"a loop around the reads of {shared} runs more than {UNROLL_LIMIT} iterations, a count known only "
                "at launch, or inside an if: it is not unrolled, so no two points' reads are the same expression")
    if iterations * points > MAX_COPIES:
        return f"{points} points a thread would unroll {iterations * points:,} copies of the reads (more than " \
               f"{MAX_COPIES:,})"
    along = next((ctx.known_size(lv.size) for lv in kernel.levels if lv.dim == dim), None)
    if along is not None and along < points:
        return f"dimension {dim} has {along} point(s), fewer than the {points} a thread would take"
    blocks = grid_blocks(kernel, {d: block.points(d) * (points if d == dim else 1) for d in range(block.rank)}, ctx)
    if blocks is not None and blocks < ctx.device.multiprocessors:
        return f"{points} points a thread would leave {blocks} blocks for the GPU's {ctx.device.multiprocessors} " \
               "multiprocessors"
    return ""


def _loads(found, dim: int, points: int) -> tuple[int, int] | None:
    """(reads a point makes of the windows along `dim`, distinct elements
    `points` consecutive points read): each read's offsets enumerated along
    every axis it moves on (a product over axes: loops shared by two axes
    count as if they were not, so an upper bound); None where an offset has
    a value known only at launch."""
    reads, elements = 0, set()
    for w in found:
        if not any(a.dim == dim for a in w.axes):
            continue
        for offsets in w.offsets:
            values = [o.values() for o in offsets]
            if any(v is None for v in values):
                return None
            reads += math.prod(len(v) for v in values)
            for p in range(points):
                along = [{x + p for x in v} if a.dim == dim else v for a, v in zip(w.axes, values)]
                elements |= {(w.array,) + e for e in itertools.product(*along)}
    return (reads, len(elements)) if reads else None


def _launch_extent(w: Window) -> bool:
    return any(a.halo is None for a in w.axes)


def unrolled_iterations(kernel: T.Kernel, found: list[Window]) -> int | None:
    """The unrolled iterations around the windows' reads: the product of the
    counts of the loops (and streams) that enclose any of them, each a
    constant of at most UNROLL_LIMIT and none inside an `if` or the right
    side of `&&`/`||` (whose test may differ between a thread's points: the
    interchange then leaves the loop in each point's copy); None where one
    is not."""
    reads = {id(r) for w in found for r in w.reads}
    counts: dict[int, int | None] = {}
    chunks: dict = {}  # a stream's chunk size -> its constant length

    def walk(e, loops: tuple, guarded: bool) -> None:
        if isinstance(e, T.Index) and id(e) in reads:
            counts.update(loops)
        if isinstance(e, T.Loop):
            for i in e.inits:
                walk(i, loops, guarded)
            chunk = e.bound.binder if isinstance(e.bound, T.Var) else None
            count = chunks[chunk] if chunk in chunks else _count(e.bound)
            walk(e.body, loops + ((id(e), None if guarded else count),), guarded)
            walk(e.rest, loops, guarded)
            return
        if isinstance(e, T.Stream):
            for a in e.arrays + e.inits:
                walk(a, loops, guarded)
            chunks[e.chunk] = _count(e.length)  # the untiled kernel walks a stream in one chunk: a loop over it
            walk(e.body, loops, guarded)
            return
        for c, guard in T.guarded_children(e):
            walk(c, loops, guarded or guard is not None)
    for b in [v for lv in kernel.levels for _, v in lv.lets] + [kernel.body]:
        walk(b, (), False)
    if any(c is None for c in counts.values()):
        return None
    return math.prod(counts.values())


def _count(bound) -> int | None:
    """A loop's or stream's constant count, if at most UNROLL_LIMIT."""
    value = bound if isinstance(bound, int) else bound.value if isinstance(bound, T.Lit) else None
    return value if isinstance(value, int) and 0 < value <= UNROLL_LIMIT else None
