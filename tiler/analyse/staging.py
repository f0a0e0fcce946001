"""Staging: for one stream under one block, which inputs go to shared memory
and how (`plan_stream`), or why not (`refusal`).

An input can be staged when it is invariant to a dimension the block spans:
the threads along that dimension then share one copy. Every guard on the way
to the stream must be uniform across the block, or some thread would miss a
barrier. The copy lays the unit-stride index of global memory on threadIdx.x;
the shared tile is transposed (chunk index outer) when the inner loop's
reads would otherwise be a row apart, and padded when copy and reads run
along different axes of it.
"""
from __future__ import annotations

import math
from dataclasses import replace

from ..check import typed as T
from ..check.types import Array
from ..interp.values import dtype
from .blocks import kind
from .options import Options
from .records import Guard, StreamSite, dims_text
from .schedule import BlockPlan, Coalescing, Copy, CopyAxis, InputPlan, Layout, Level, Reads, Staging, StreamPlan
from .views import Views, chunk_reads


def not_tiled(site: StreamSite, reason: str, rank: int) -> StreamPlan:
    everything = frozenset(range(rank))
    inputs = tuple(InputPlan(i.param.name, i.array, i.variance, everything - i.variance, None, reason)
                   for i in site.inputs)
    return StreamPlan(site, False, "none", None, inputs, reason, 0)


def plan_stream(site: StreamSite, block: BlockPlan, views: Views, options: Options,
                chunk_limit: int | None = None) -> StreamPlan:
    """`chunk_limit`: a smaller chunk than the block's (tiles that fit the shared memory)."""
    rank, spans = block.rank, frozenset(block.spans)
    unsafe = [g for g in site.guards if g.variance & spans]
    if site.length_variance & spans:
        unsafe.append(Guard("stream length", site.span, site.length_variance))
    decisions = []
    for i in site.inputs:
        invariant = frozenset(range(rank)) - i.variance
        reason = refusal(i, invariant, spans, site, unsafe) or ""
        decisions.append(InputPlan(i.param.name, i.array, i.variance, invariant, None, reason))
    for n, d in enumerate(decisions):
        rows = _rows(d, block)
        if not d.reason and rows and not views.rows_computable(d.array, rows):
            decisions[n] = replace(d, reason=(
                f"its row differs along dimension {dims_text(rows)} through data (an index read from memory): "
                "the cooperative copy cannot compute the other threads' rows"))
    staged_rows = [_rows(d, block) for d in decisions if not d.reason]
    if not staged_rows:
        return StreamPlan(site, False, "none", None, tuple(decisions), stream_refusal(decisions), 0)
    chunk = max(1, block.threads // max(math.prod(block.extents[d] for d in r) for r in staged_rows))
    chunk = min(chunk, chunk_limit or chunk)
    inputs = _share_tiles(tuple(d if d.reason else _stage(d, site, block, views, chunk, options)
                                for d in decisions))
    staged = [p for p in inputs if p.staged]
    shape = kind(block) + (", partial" if len(staged) < len(inputs) else "")
    shared = sum(p.staging.bytes for p in staged if p.copied)
    reason = (f"{len(staged)} of {len(inputs)} input(s) staged: "
              + "; ".join(f"{p.name} is invariant to dimension {dims_text(p.invariant_to & spans)}" for p in staged))
    return StreamPlan(site, True, shape, chunk, inputs, reason, shared)


def refusal(i, invariant: frozenset, spans: frozenset, site: StreamSite, unsafe) -> str | None:
    if isinstance(i.array, T.Iota):
        return "iota values are computed from the index, not loaded: nothing to stage"
    if not isinstance(i.param.type, Array) or i.param.type.rank != 1:
        return f"its chunk elements are arrays ({i.param.type}); tiler stages chunks of scalars"
    if not invariant:
        return (f"varies with every dimension ({dims_text(i.variance)}): each thread streams its own data, "
                "so no thread of a block could share a copy")
    if not invariant & spans:
        return (f"invariant to dimension {dims_text(invariant)}, but the block spans dimension "
                f"{dims_text(spans)}: the threads that share it are in different blocks")
    if unsafe:
        g = unsafe[0]
        return (f"the stream is under a {g.kind} ({g.span.short}) that varies with dimension "
                f"{dims_text(g.variance & spans)}, which the block spans: its threads would not all reach "
                "the barriers of a cooperative copy")
    reads = chunk_reads(site.stream, i.param)
    if reads is None:
        return "its chunk is used whole (passed on or indexed partially), not read element by element"
    if not reads:
        return "its chunk is never read: there is nothing to stage"
    return None


def _share_tiles(inputs: tuple[InputPlan, ...]) -> tuple[InputPlan, ...]:
    """An array streamed twice with the same tile is copied once: the later
    input reads the earlier one's tile."""
    first, out = {}, []
    for p in inputs:
        key = (p.array, p.staging)
        if p.staged and key in first:
            p = replace(p, shares=first[key], reason=f"the same array as `{first[key]}`, staged the same way: it "
                                                     f"reads {first[key]}'s tile (one copy, no second buffer)")
        elif p.staged:
            first[key] = p.name
        out.append(p)
    return tuple(out)


def stream_refusal(decisions) -> str:
    reasons = list(dict.fromkeys(d.reason for d in decisions))
    return reasons[0] if len(reasons) == 1 else "; ".join(f"{d.name}: {d.reason}" for d in decisions)


def _rows(d: InputPlan, block: BlockPlan) -> tuple[int, ...]:
    """Spanned dims the input varies with: the tile keeps one row per thread index along them."""
    return tuple(x for x in block.spans if x in d.varies_with)


def _copy(unit, rows: tuple[int, ...], options: Options) -> Copy:
    """Which index of the tile the copy lays on threadIdx.x: the one that is
    unit-stride in global memory, so the copy's reads coalesce."""
    if unit == "chunk":
        return Copy(CopyAxis.CHUNK, Coalescing.COALESCED)
    if isinstance(unit, tuple) and unit[1] in rows and options.copy_along_chunk:
        return Copy(CopyAxis.CHUNK, Coalescing.UNCOALESCED, unit[1], ablation=True)
    if isinstance(unit, tuple) and unit[1] in rows:
        return Copy(CopyAxis.ROWS, Coalescing.COALESCED, unit[1])
    if unit is None:
        return Copy(CopyAxis.CHUNK, Coalescing.UNKNOWN)
    return Copy(CopyAxis.CHUNK, Coalescing.UNCOALESCED)


def _stage(d: InputPlan, site: StreamSite, block: BlockPlan, views: Views, chunk: int,
           options: Options) -> InputPlan:
    rows = _rows(d, block)
    row_count = math.prod(block.points(x) for x in rows)
    x_dim = block.spans[0]
    copy = _copy(views.unit_stride(d.array), rows, options)
    reads_vary = x_dim in rows
    # under a register tile a thread reads `group` consecutive rows at one
    # chunk index: the tile is transposed so that they are one vector read
    micro = block.register is not None and bool(rows)
    transpose = (reads_vary or micro) and not options.row_major_tiles
    layout = Layout.TRANSPOSED if transpose else Layout.ROW_MAJOR
    contiguous = CopyAxis.ROWS if layout is Layout.TRANSPOSED else CopyAxis.CHUNK
    vector = _vector(d, copy, rows, row_count, chunk, block, options)
    # padding keeps the copy's stores off one bank; a register tile's vector
    # reads need lines that stay 16-byte aligned, so it pads by a whole group
    step = block.register.group if micro else 1
    padding = step if copy.axis is not contiguous and rows and not options.row_major_tiles else 0
    index_variance = [views.exp_variance(e) for e in chunk_reads(site.stream, _param(site, d.name)) or []]
    if any(x_dim in v for v in index_variance):
        reads = Reads.PER_THREAD
    elif reads_vary and layout is Layout.TRANSPOSED:
        reads = Reads.UNIT_STRIDE
    elif reads_vary:
        reads = Reads.STRIDED
    else:
        reads = Reads.BROADCAST
    inner = (row_count + padding) if layout is Layout.TRANSPOSED else (chunk + padding)
    outer = chunk if layout is Layout.TRANSPOSED else row_count
    size = dtype(d.array.type).itemsize * inner * outer
    invariant = d.invariant_to & frozenset(block.spans)
    reuse = math.prod(block.points(x) for x in invariant)
    threads = math.prod(block.extents[x] for x in invariant)
    serves = f"{reuse} threads" if reuse == threads else f"{reuse} points ({threads} threads)"
    reason = f"invariant to dimension {dims_text(invariant)}, which the block spans: one copy serves {serves}"
    # the prefetch holds a constant count of copy steps a thread in registers
    whole = (max(row_count, 1) * chunk) % (block.threads * vector) == 0
    buffers = 2 if block.register is not None and block.register.double_buffer and whole else 1
    staging = Staging(Level.SHARED, rows, (row_count, chunk) if rows else (chunk,), layout, padding, copy, reads,
                      size * buffers, reuse, vector, buffers)
    return replace(d, staging=staging, reason=reason)


def _vector(d: InputPlan, copy: Copy, rows, row_count: int, chunk: int, block: BlockPlan, options: Options) -> int:
    """Elements one copy instruction moves: 4 (128 bits of f32 or i32) along
    the copy's coalesced axis when a register-tiled block's tile divides
    into whole vectors for every thread; the launch must then guarantee that
    the array's rows start 16-byte aligned (its inner size a multiple of 4)."""
    width = 4
    if block.register is None or options.no_vector or copy.coalescing is not Coalescing.COALESCED:
        return 1
    if dtype(d.array.type).itemsize != 4:
        return 1
    along = chunk if copy.axis is CopyAxis.CHUNK else row_count
    if along % width or (max(row_count, 1) * chunk) % (block.threads * width):
        return 1
    return width


def _param(site: StreamSite, name: str):
    return next(i.param for i in site.inputs if i.param.name == name)


def over_limit(s: StreamPlan, total: int, options: Options) -> StreamPlan:
    if not s.tiled:
        return s
    reason = (f"the plan needs {total} bytes of shared memory, over the limit of {options.max_shared}; "
              "try a smaller --tile or a larger --max-shared")
    inputs = tuple(replace(p, staging=None, reason=reason) if p.staged else p for p in s.inputs)
    return StreamPlan(s.site, False, "none", None, inputs, reason, 0)

