"""How a staged tile is copied: the vector width of a copy instruction, how
many buffers it takes (double-buffered through registers, or cp.async
stages), whether cp.async moves it, and no more buffers than a stream of
known length has chunks. staging.py decides what is staged; this module how.
"""
from __future__ import annotations

from dataclasses import replace

from .. import target
from ..check.types import element_bytes
from .context import Context
from .records import StreamSite
from .schedule import BlockPlan, Coalescing, Copy, InputPlan
from .views import Views

# chunks a stream copied by cp.async keeps in shared memory: the one read and
# two in flight (H200, the same row sums by a hand-written kernel of tiler's
# shape, % of the copy bandwidth: 2 chunks 66%, 3 90%, 4 89%, 6 88%; the
# register-prefetch pipeline 60%)
ASYNC_STAGES = 3


def tile_rows(d: InputPlan, block: BlockPlan) -> tuple[int, ...]:
    """Spanned dims the input varies with: the tile keeps one row per thread index along them."""
    return tuple(x for x in block.spans if x in d.varies_with)


def known_chunks(site: StreamSite, chunk: int, ctx: Context) -> int | None:
    """The chunks a stream of length known when compiled has (None: known at launch only)."""
    length = ctx.known_size(site.stream.length)
    return -(-length // chunk) if length is not None else None


def fewer_buffers(p: InputPlan, chunks: int | None) -> InputPlan:
    """No more buffers than the stream has chunks: a buffer no chunk fills is
    shared memory the plan would count and ptxas drop (attention scores'
    head of 64, one chunk: 3 cp.async buffers planned, 1 kept)."""
    st = p.staging
    fewer = None if chunks is None or st is None else max(chunks, 2 if st.asynchronous else 1)  # (a pipeline: 2)
    if fewer is None or st.buffers <= fewer:
        return p
    return replace(p, staging=replace(st, buffers=fewer, bytes=st.bytes // st.buffers * fewer))


def copy_steps(d: InputPlan, copy: Copy, along: int, elements: int, block: BlockPlan, ctx: Context,
                coalescing: bool, views: Views, asynchronous: bool, contiguous: bool = True) -> tuple[int, int]:
    """(vector width, buffers) of a tile of `elements` whose copy runs `along`
    elements of its coalesced axis a line: pipelined copies (`pipelined`)
    move vectors where the tile divides into them; by cp.async they are
    ASYNC_STAGES deep, and move vectors only where the copy's axis is the
    shared array's `contiguous` one (a vector lands whole: a micro-tile's
    transposed tile copied across its lines goes element by element); else
    double-buffered where each thread's part of the tile is a constant count
    of copy steps (the prefetch holds them in registers)."""
    if not pipelined(block, ctx, coalescing):
        return 1, 1
    vector = vector_width(d, copy, along, elements, block, ctx, views)
    if asynchronous:
        return vector if contiguous else 1, ASYNC_STAGES
    whole = elements % (block.threads * vector) == 0
    double = whole and (block.register is None or block.register.double_buffer)
    return vector, 2 if double else 1


def asynchronous_copies(decisions, block: BlockPlan, ctx: Context, coalescing: bool,
                        moved: tuple | None = None) -> bool:
    """Whether a stream's copies are cp.async (sm_80 on): where the block
    stages its threads' own rows, a pure stream of memory whose few threads
    need many loads in flight, which cp.async keeps without registers; and
    a 2-D micro-tile's, as registers.py decided (a coarsened 1-D block keeps
    its prefetch through registers). Every staged input of the stream is
    copied alike, so each must be of a size cp.async moves (`moved`, by
    default async_sizes')."""
    moved = moved or async_sizes(ctx)
    if block.register is not None and len(block.spans) == 2:  # a micro-tile's: as registers.py decided
        staged = [d for d in decisions if d.refusal is None]
        return block.register.asynchronous and pipelines(staged, lambda d: tile_rows(d, block), moved)
    if not coalescing or ctx.options.no_async or ctx.options.single_buffer or block.register is not None or \
            not has_async(ctx):
        return False
    return all(element_bytes(d.array.type) in moved for d in decisions if d.refusal is None)


def has_async(ctx: Context) -> bool:
    """Whether the GPU planned for has cp.async (sm_80 on)."""
    return target.arch_number(ctx.device.arch) >= target.ASYNC_MIN_ARCH


def micro_tile_async(ctx: Context) -> bool:
    """Whether a 2-D micro-tile's copies may be cp.async: no option keeps
    them off it (--no-async, --single-buffer, --double-buffer) and the GPU
    has it."""
    o = ctx.options
    return not (o.no_async or o.single_buffer or o.double_buffer) and has_async(ctx)


def pipelines(staged: list, rows, moved: tuple = target.ASYNC_COPY_BYTES) -> bool:
    """Whether a register tile's stream is copied by cp.async: every staged
    input a tile of rows (`rows(input)`) of elements cp.async moves."""
    return bool(staged) and all(rows(p) and element_bytes(p.array.type) in moved for p in staged)


NARROW_BYTES = 2  # f16 and bf16


def async_sizes(ctx: Context) -> tuple:
    """The element sizes a micro-tile's cp.async copies take: 4 and 8
    bytes, and 2 where the matrix units read the tiles (Constraints.matrix),
    whose lines are copied in whole 16-byte vectors (a version of unaligned
    rows, copied element by element, is copied through registers instead:
    lower/streams.py)."""
    return target.ASYNC_COPY_BYTES + ((NARROW_BYTES,) if ctx.constraints.matrix else ())


NARROW_ASYNC = ("; copied through registers, not by cp.async: cp.async moves 4, 8 or 16 bytes, and a step of this "
                "copy may move a single element of 2 (the last chunk's, or a tile that is no whole vectors)")


def held_back_by_size(decisions, block: BlockPlan, ctx: Context, coalescing: bool) -> bool:
    """Whether a stream's copies would be cp.async but for elements of 2
    bytes, which a copy of one element at a time cannot move by cp.async:
    they are copied through registers instead (NARROW_ASYNC says so)."""
    staged = [d for d in decisions if d.refusal is None]
    if not any(element_bytes(d.array.type) == NARROW_BYTES for d in staged):
        return False
    moved = target.ASYNC_COPY_BYTES + (NARROW_BYTES,)
    if block.register is not None and len(block.spans) == 2:
        return micro_tile_async(ctx) and pipelines(staged, lambda d: tile_rows(d, block), moved)
    return asynchronous_copies(decisions, block, ctx, coalescing, moved)


def pipelined(block: BlockPlan, ctx: Context, coalescing: bool) -> bool:
    """Whether the copies of a stream move vectors and (where a thread's part
    of the tile is a constant count) prefetch the next chunk through
    registers: under a register tile, whose arithmetic hides the loads, and
    where a block stages its threads' own rows, whose copy is nearly all the
    work: there the loads must be many and in flight at once to keep the
    memory busy, with the few threads such a kernel has."""
    if block.register is not None:
        return True
    return coalescing and not ctx.options.single_buffer


# elements one 128-bit copy moves, by their size: 4 of f32 or i32, 8 of f16 or
# bf16 (8-byte elements are copied one at a time, but for the tiles of the
# matrix units: MATRIX_VECTOR_WIDTH)
VECTOR_WIDTH = {4: 4, 2: 8}
MATRIX_VECTOR_WIDTH = {8: 2}


def vector_width(d: InputPlan, copy: Copy, along: int, elements: int, block: BlockPlan, ctx: Context,
            views: Views) -> int:
    """Elements one copy instruction moves: 128 bits (VECTOR_WIDTH) along
    the copy's coalesced axis when the tile divides into whole vectors for
    every thread; the launch must then guarantee that the array's rows start
    16-byte aligned (its inner sizes multiples of the width), which no
    launch can where an inner size is known and not a multiple."""
    widths = {**MATRIX_VECTOR_WIDTH, **VECTOR_WIDTH} if ctx.constraints.matrix else VECTOR_WIDTH
    width = widths.get(element_bytes(d.array.type), 1)
    if ctx.no_vector or copy.coalescing is not Coalescing.COALESCED or width == 1:
        return 1
    if along % width or elements % (block.threads * width):
        return 1
    found = views.items(d.array)
    inner = found[0].type.shape[1:] if found else ()
    if any((ctx.known_size(n) or width) % width for n in inner):
        return 1
    if any(ctx.bounded(n) for n in inner):  # a vector past a row's end would read the next row (or past the array)
        return 1
    return width
