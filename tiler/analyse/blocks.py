"""Block shapes: which kernel dims a block spans, how many threads along
each, and which thread and block index walks each dim.

`candidate_spans(rank)` lists the shapes the plan tries (1-D and 2-D
blocks, innermost dim on threadIdx.x); `block(...)` makes one; `untiled_block`
is the untiled kernel's block.
"""
from __future__ import annotations

from itertools import combinations

from .. import target
from ..check import typed as T
from .context import Context
from .interior import UNTILED_INTERIOR
from .records import dims_text
from .schedule import BlockPlan, StreamPlan

DEFAULT_1D, DEFAULT_2D = 256, 32
UNTILED_1D, UNTILED_2D = (256,), (32, 8)  # x first


def candidate_spans(rank: int):
    for k in (1, 2):
        for dims in combinations(range(rank), k):
            yield tuple(sorted(dims, reverse=True))  # innermost dim on threadIdx.x


def block(rank: int, spans: tuple[int, ...], ctx: Context, kernel: T.Kernel | None = None) -> BlockPlan:
    default = DEFAULT_1D if len(spans) == 1 else DEFAULT_2D
    extents = [1] * rank
    thread_axis: list = [None] * rank
    for axis, d in zip(target.AXES, spans):
        extents[d] = ctx.options.tile_for(d, _fit(default, ctx.known_size(kernel.levels[d].size) if kernel else None))
        thread_axis[d] = axis
    interchanged = len(spans) == 1 and rank > 1 and spans[0] != rank - 1
    return BlockPlan(rank, spans, tuple(extents), tuple(thread_axis), _grid_axes(rank, spans), interchanged, "", 0)


def folded_dims(kernel: T.Kernel, block: BlockPlan, known_size) -> dict[int, str]:
    """The dims on grid y or z that may need more blocks than CUDA's 65,535
    there (a size known only at launch, or a larger one), by grid axis:
    their grid axis holds at most that many blocks, and each block loops
    over the tiles of that dim a grid apart (lowered in lower/__init__.py).
    A block's trips are the same for all its threads, so barriers inside
    stay uniform."""
    out = {}
    for level in kernel.levels:
        d, axis = level.dim, block.grid_axis[level.dim]
        if axis == "x":
            continue
        known = known_size(level.size)
        if known is None or -(-known // block.points(d)) > target.MAX_GRID[axis]:
            out[d] = axis
    return out


def _fit(default: int, size: int | None) -> int:
    """A block need not be wider than a dimension whose size is known: the
    smallest power of two (at least a warp) that covers it, up to the default."""
    if not size or size >= default:
        return default
    width = target.WARP
    while width < size:
        width *= 2
    return min(width, default)


def _grid_axes(rank: int, spans) -> tuple[str, ...]:
    order = list(spans) + [d for d in reversed(range(rank)) if d not in spans]
    axes = [""] * rank
    for axis, d in zip(target.AXES, order):
        axes[d] = axis
    return tuple(axes)


def untiled_block(rank: int, reason: str, inner: int | None = None) -> BlockPlan:
    """`inner`: the innermost dimension's size where it is a literal: a 2-D block takes only as many threads
    along x as cover it (a power of two), the rest along y (a point of 3 outputs: 4 x 64, not 32 x 8 with 29
    of each warp's 32 lanes idle)."""
    shape = UNTILED_1D if rank == 1 else _narrowed(UNTILED_2D, inner)
    if rank > 1 and shape != UNTILED_2D:
        reason = f"{reason}; {shape[0]} thread{'s' * (shape[0] > 1)} along x, {shape[1]} along y: the innermost " \
            f"dimension has {inner} point{'s' * (inner > 1)}, and a warp's other lanes would idle"
    spans = tuple(reversed(range(rank)))[:len(shape)]
    extents = [1] * rank
    thread_axis: list = [None] * rank
    for axis, d, e in zip(target.AXES, spans, shape):
        extents[d], thread_axis[d] = e, axis
    return BlockPlan(rank, spans, tuple(extents), tuple(thread_axis), _grid_axes(rank, spans), False, reason, 0,
                     register_reason="nothing is staged in shared memory to reuse from registers",
                     interior_reason=UNTILED_INTERIOR, min_blocks_reason="ptxas's own register choice")


def _narrowed(shape: tuple[int, int], inner: int | None) -> tuple[int, int]:
    """`shape` (x, y) with x no wider than a power of two covering a literal `inner` size, y the threads left."""
    if not inner or inner >= shape[0]:
        return shape
    width = 1 << (inner - 1).bit_length()
    return width, shape[0] * shape[1] // width


def kind(b: BlockPlan) -> str:
    if len(b.spans) == 2:
        return "2-D"
    if b.rank == 1:
        return "1-D"
    grid = f"1-D block in a {b.rank}-D grid"
    return grid + (", interchanged" if b.interchanged else "")


def stream_kind(s, b: BlockPlan) -> str:
    """How explain names a stream's tiling under its schedule's block."""
    return kind(b) + (", partial" if s.partial else "") if s.tiled else "none"


def why_block(b: BlockPlan, streams: tuple[StreamPlan, ...]) -> str:
    staged = [p for s in streams for p in s.inputs if p.staged]
    shape = " x ".join(str(b.extents[d]) for d in reversed(b.spans))
    why = (f"spans dimension {dims_text(b.spans)} ({shape} threads): stages {len(staged)} input(s) "
           "with the fewest global loads")
    if b.interchanged:
        why += f"; dimension {b.spans[0]} is not innermost, so it is interchanged onto threadIdx.x"
    return why
