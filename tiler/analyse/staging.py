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

from .. import target
from ..check import typed as T
from ..check.types import Array, element_bytes, size_text
from .context import Context
from .copying import (
    NARROW_ASYNC,
    NARROW_BYTES,
    asynchronous_copies,
    copy_steps,
    fewer_buffers,
    held_back_by_size,
    known_chunks,
    tile_rows,
)
from .records import Guard, StreamInput, StreamSite, dims_text
from .schedule import (
    BlockPlan,
    Coalescing,
    Copy,
    CopyAxis,
    InputPlan,
    Layout,
    Level,
    Pack,
    Reads,
    Refusal,
    Staging,
    StreamPlan,
)
from .views import Stride, UnitStride, Views, chunk_reads

# elements a chunk has at least when a block stages its threads' own rows: a
# 256-byte line of f32 a row, so that each thread's 128-bit copies of a chunk
# are 16 loads in flight at once (see COALESCE_THREADS in plan.py)
COALESCE_CHUNK = 64
# a CUDA cores' product's chunk where TMA copies its tiles (core_tma.py): mm at 4096^3 on an H200, 2.785 ms
# against 2.961 with chunks of 16 (a chunk a loop step; the forty-first session)
TMA_CHUNK = 32
# the loop over such a chunk unrolled 8 times: each thread sums its own row,
# a chain of shared reads the compiler left rolled (H200, row sums of 8192^2:
# 0.142 ms rolled, 0.119 unrolled 8 times; the mat-vec unchanged within 2%)
COALESCE_UNROLL = 8


def not_tiled(site: StreamSite, reason: str, rank: int, views: Views, x_dim: int, ctx: Context) -> StreamPlan:
    """The stream left in global memory; each input says whether its reads
    there are uncoalesced under a block with `x_dim` on threadIdx.x."""
    everything = frozenset(range(rank))
    inputs = tuple(InputPlan(i.param.name, i.array, i.variance, everything - i.variance, None, reason,
                             uncoalesced=uncoalesced(site, i, x_dim, views), element=_element(i, ctx),
                             refusal=Refusal.STREAM) for i in site.inputs)
    return StreamPlan(site, False, False, None, inputs, reason, 0)


def row_length(param, ctx: Context) -> int | None:
    """A chunk of rows' row length where it is known (a literal, or --size),
    or the bound the plan takes for it (Options.row_length)."""
    return ctx.row_length(param.type.shape[1]) if param.type.rank == 2 else None


def _element(i: StreamInput, ctx: Context) -> int:
    return row_length(i.param, ctx) or 1 if isinstance(i.param.type, Array) else 1


def uncoalesced(site: StreamSite, i: StreamInput, x_dim: int, views: Views) -> bool:
    """Read in place, would consecutive threads read a row apart? Its row
    varies along threadIdx.x while the chunk index is the unit-stride one,
    and the body reads its elements."""
    return x_dim in i.variance and views.unit_stride(i.array) == UnitStride(Stride.CHUNK) \
        and bool(chunk_reads(site.stream, i.param))


# why a block leaves its threads' own rows in place when they do not fit (plan._schedule)
ROWS_DO_NOT_FIT = ("the block's rows in chunks of {chunk} (whole lines of each) would not fit beside the other "
                   "tiles, and shorter chunks for every stream would cost more barriers than coalescing saves")


def plan_stream(site: StreamSite, block: BlockPlan, views: Views, ctx: Context,
                chunk_limit: int | None = None, coalesce: bool = True, joined: bool = False) -> StreamPlan:
    """`chunk_limit`: a smaller chunk than the block's (tiles that fit the
    shared memory); `coalesce` off: rows no thread shares stay in place;
    `joined`: the stream is its loop's rows end to end (joins.py), longer
    than the one row its site walks."""
    rank, spans = block.rank, frozenset(block.spans)
    unsafe = [g for g in site.guards if g.variance & spans]
    if site.length_variance & spans:
        unsafe.append(Guard("stream length", site.span, site.length_variance))
    decisions = []
    for i in site.inputs:
        invariant = frozenset(range(rank)) - i.variance
        unco = uncoalesced(site, i, block.spans[0], views)
        kind_, sharing = _kind_refusal(i, ctx), _sharing_refusal(i.variance, invariant, spans)
        access = _access_refusal(i, site, unsafe, spans)
        refused = kind_ or sharing or access
        if not kind_ and sharing and unco:  # no thread shares it, but its reads could coalesce
            blocked = access or _coalescing_refusal(i, block, ctx) or (
                None if coalesce else (Refusal.ROWS_DO_NOT_FIT, ROWS_DO_NOT_FIT.format(chunk=COALESCE_CHUNK)))
            refused = (blocked[0], f"{sharing[1]}; its reads are a row apart along threadIdx.x, but {blocked[1]}") \
                if blocked else None
        refusal, reason = refused or (None, "")
        decisions.append(InputPlan(i.param.name, i.array, i.variance, invariant, None, reason, uncoalesced=unco,
                                   element=_element(i, ctx), refusal=refusal))
    for n, d in enumerate(decisions):
        rows = tile_rows(d, block)
        if d.refusal is None and rows and d.element > 1:
            decisions[n] = replace(d, refusal=Refusal.ROWS_DIFFER, reason=(
                f"its chunk's rows differ along dimension {dims_text(rows)}, which the block spans: tiler stages "
                "a chunk of rows only where every thread of the block reads the same rows"))
        elif d.refusal is None and rows and not views.rows_computable(d.array, rows):
            decisions[n] = replace(d, refusal=Refusal.ROWS_THROUGH_DATA, reason=(
                f"its row differs along dimension {dims_text(rows)} through data (an index read from memory): "
                "the cooperative copy cannot compute the other threads' rows"))
    staged_rows = [tile_rows(d, block) for d in decisions if d.refusal is None]
    if not staged_rows:
        return StreamPlan(site, False, False, None, tuple(decisions), stream_refusal(decisions), 0)
    chunk = max(1, block.threads // max(math.prod(block.extents[d] for d in r) for r in staged_rows))
    coalescing = any(d.refusal is None and not d.invariant_to & spans for d in decisions)
    if coalescing:
        chunk = max(chunk, COALESCE_CHUNK)  # rows staged for coalescing: a whole line of each per copy
    if ctx.constraints.matrix:
        chunk = target.matrix_chunk({element_bytes(d.array.type) for d in decisions if d.refusal is None},
                                    ctx.device.arch, chunk, ctx.constraints.grid_loop)
    if ctx.constraints.swizzle:  # a swizzled line's positions: the warp groups read a row's chunk as one line
        chunk = max(target.wgmma_line(target.CTYPE[d.array.type.elem.kind]) for d in decisions if d.refusal is None)
    if ctx.constraints.core_tma:
        chunk = max(chunk, TMA_CHUNK)
    chunk = ctx.chunk or _row_chunk(chunk, site, decisions, ctx)
    chunk = min(chunk, chunk_limit or chunk)
    chunks = None if joined else known_chunks(site, chunk, ctx)
    # one chunk (or none) has nothing to overlap its copy with: cp.async only adds buffers (a register
    # tile's copies are as registers.py planned the block)
    asynchronous = asynchronous_copies(decisions, block, ctx, coalescing) and \
        (chunks is None or chunks > 1 or block.register is not None)
    narrow = NARROW_ASYNC if not asynchronous and held_back_by_size(decisions, block, ctx, coalescing) else ""
    inputs = _share_tiles(tuple(d if d.refusal else fewer_buffers(_noted(_stage(d, site, block, views, chunk, ctx,
                                                                                  coalescing, asynchronous), narrow),
                                                                  chunks)
                                for d in decisions))
    inputs = _pack(inputs, site) if ctx.options.pack else inputs
    staged = [p for p in inputs if p.staged]
    shared = sum(p.staging.bytes for p in staged if p.copied)
    reason = (f"{len(staged)} of {len(inputs)} input(s) staged: "
              + "; ".join(f"{p.name} is invariant to dimension {dims_text(p.invariant_to & spans)}"
                          if p.invariant_to & spans else f"{p.name} so that its reads coalesce" for p in staged))
    unroll = ctx.options.unroll if ctx.options.unroll is not None else (COALESCE_UNROLL if coalescing else None)
    return StreamPlan(site, True, len(staged) < len(inputs), chunk, inputs, reason, shared, unroll)


Refused = tuple[Refusal, str]  # why an input stays in place, and the words for explain


def _kind_refusal(i, ctx: Context) -> Refused | None:
    if isinstance(i.array, T.Iota):
        return Refusal.COMPUTED, "iota values are computed from the index, not loaded: nothing to stage"
    t = i.param.type
    if not isinstance(t, Array) or t.rank > 2:
        return Refusal.NESTED, (f"its chunk elements are arrays of arrays ({t}); tiler stages chunks of scalars or "
                                "of rows")
    if t.rank == 2 and row_length(i.param, ctx) is None:
        return Refusal.ROWS_AT_LAUNCH, (
            f"its chunk elements are rows of {size_text(t.shape[1])} elements, a size known only at launch: "
            f"a shared tile of rows is sized when the kernel is compiled (give --size {size_text(t.shape[1])}=N)")
    return None


def _row_chunk(chunk: int, site: StreamSite, decisions, ctx: Context) -> int:
    """A stream staging a chunk of rows takes no more rows a chunk than it
    has (its tile is rows x row length: a known short stream, k-means' 16
    centres, then fills one chunk exactly and leaves no shared memory idle)."""
    if not any(d.refusal is None and d.element > 1 for d in decisions):
        return chunk
    length = ctx.known_size(site.stream.length)
    return min(chunk, length) if length else chunk


def _sharing_refusal(variance: frozenset, invariant: frozenset, spans: frozenset) -> Refused | None:
    if not invariant:
        return Refusal.OWN_DATA, (f"varies with every dimension ({dims_text(variance)}): each thread streams its own data, "
                "so no thread of a block could share a copy")
    if not invariant & spans:
        return Refusal.OTHER_BLOCKS, (f"invariant to dimension {dims_text(invariant)}, but the block spans dimension "
                f"{dims_text(spans)}: the threads that share it are in different blocks")
    return None


def _access_refusal(i, site: StreamSite, unsafe, spans: frozenset) -> Refused | None:
    """Whether a cooperative copy is safe and has something to copy."""
    if unsafe:
        g = unsafe[0]
        return Refusal.DIVERGENT, (f"the stream is under a {g.kind} ({g.span.short}) that varies with dimension "
                f"{dims_text(g.variance & spans)}, which the block spans: its threads would not all reach the "
                "barriers of a cooperative copy")
    reads = chunk_reads(site.stream, i.param)
    if reads is None:
        return Refusal.USED_WHOLE, "its chunk is used whole (passed on or indexed partially), not read element by element"
    if not reads:
        return Refusal.NEVER_READ, "its chunk is never read: there is nothing to stage"
    return None


def _coalescing_refusal(i, block: BlockPlan, ctx: Context) -> Refused | None:
    """Why a block cannot stage its threads' own rows of an input (None: it can)."""
    if ctx.options.no_coalesce:
        return Refusal.COALESCING_OFF, "staging for coalescing is off (--no-coalesce)"
    if ctx.options.transpose:
        return Refusal.TRANSPOSED, "--transpose chose the other remedy"
    rows = [d for d in block.spans if d in i.variance]
    if len(rows) > 1:
        return Refusal.ROWS_ALONG_BOTH, (f"its rows differ along both dimensions the block spans ({dims_text(rows)}): "
                "tiler stages one row a thread along one of them")
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


PACK_WIDTH = 4  # members of one packed array at most: one 128-bit read of 4-byte elements


def _pack(inputs: tuple[InputPlan, ...], site: StreamSite) -> tuple[InputPlan, ...]:
    """--pack: inputs whose tiles hold no rows (every thread reads the same
    chunk), staged alike, of one 4-byte element type and read at the same
    indices are interleaved in one shared array, up to four together: each
    step of the inner loop then reads one vector instead of one element an
    input (n-body's x, y, z and mass: one 128-bit shared read, not four).

    Not the default: nvcc, unrolling the inner loop 4 times, already reads
    4 consecutive elements of each unpacked tile as one 128-bit broadcast,
    the same count of shared reads. Measured on an H200: MRI-Q 4% faster
    packed, 3-D n-body at 2^16 bodies 21% slower (its four interactions a
    step scheduled one after another instead of interleaved)."""
    groups: dict = {}
    for p in inputs:
        st = p.staging
        if p.copied and not st.rows and st.element == 1 and element_bytes(p.array.type) == 4 and \
                not st.asynchronous:  # cp.async lands a vector whole, not interleaved
            reads = chunk_reads(site.stream, _param(site, p.name))
            key = (st.tile, st.layout, st.copy, st.vector, st.buffers, p.array.type.elem.kind,
                   frozenset(reads))
            groups.setdefault(key, []).append(p.name)
    packs = {}
    for names in groups.values():
        for start in range(0, len(names), PACK_WIDTH):
            members = tuple(names[start:start + PACK_WIDTH])
            if len(members) > 1:
                width = 2 if len(members) == 2 else PACK_WIDTH
                packs |= {m: Pack("_".join(members), lane, width, members) for lane, m in enumerate(members)}
    return tuple(_packed(p, packs[p.name]) if p.name in packs else p for p in inputs)


def _packed(p: InputPlan, pack: Pack) -> InputPlan:
    st = p.staging
    others = ", ".join(m for m in pack.members if m != p.name)
    unused = pack.width - len(pack.members)
    # the first member's tile carries the lane no input fills
    bytes_ = st.bytes * (1 + unused) if pack.lane == 0 else st.bytes
    why = (f"; interleaved with {others} in one shared array, {pack.width} elements a step: one "
           f"{pack.width * 32}-bit read fetches them all")
    return replace(p, staging=replace(st, pack=pack, bytes=bytes_), reason=p.reason + why)


def stream_refusal(decisions) -> str:
    reasons = list(dict.fromkeys(d.reason for d in decisions))
    return reasons[0] if len(reasons) == 1 else "; ".join(f"{d.name}: {d.reason}" for d in decisions)


def _copy(unit: UnitStride | None, rows: tuple[int, ...], ctx: Context) -> Copy:
    """Which index of the tile the copy lays on threadIdx.x: the one that is
    unit-stride in global memory, so the copy's reads coalesce."""
    if unit == UnitStride(Stride.CHUNK):
        return Copy(CopyAxis.CHUNK, Coalescing.COALESCED)
    if unit is not None and unit.along is Stride.DIM and unit.dim in rows and ctx.options.copy_along_chunk:
        return Copy(CopyAxis.CHUNK, Coalescing.UNCOALESCED, unit.dim, ablation=True)
    if unit is not None and unit.along is Stride.DIM and unit.dim in rows:  # (each point's own element, at least)
        return Copy(CopyAxis.ROWS, Coalescing.COALESCED if unit.adjacent else Coalescing.UNCOALESCED, unit.dim)
    if unit is None:
        return Copy(CopyAxis.CHUNK, Coalescing.UNKNOWN)
    return Copy(CopyAxis.CHUNK, Coalescing.UNCOALESCED)


def _stage(d: InputPlan, site: StreamSite, block: BlockPlan, views: Views, chunk: int,
           ctx: Context, coalescing: bool, asynchronous: bool) -> InputPlan:
    """`coalescing`: the stream stages some thread's own rows; its copies
    then pipeline (see `pipelined`), by cp.async where `asynchronous`."""
    if d.element > 1:
        return _stage_row_chunk(d, site, block, views, chunk, ctx, coalescing, asynchronous)
    rows = tile_rows(d, block)
    row_count = math.prod(block.points(x) for x in rows)
    x_dim = block.spans[0]
    copy = _copy(views.unit_stride(d.array), rows, ctx)
    reads_vary = x_dim in rows
    # under a register tile a thread reads `group` consecutive rows at one
    # chunk index: the tile is transposed so that they are one vector read
    micro = block.register is not None and bool(rows)
    transpose = (reads_vary or micro) and not ctx.options.row_major_tiles
    matrix = micro and ctx.constraints.matrix
    swizzled = matrix and ctx.constraints.swizzle
    if (asynchronous and not micro) or matrix:  # cp.async stores whole vectors: the copy's axis is the shared array's contiguous one
        transpose = copy.axis is CopyAxis.ROWS
    registers = False
    if swizzled and transpose and target.CTYPE[d.array.type.elem.kind] not in target.WGMMA_TRANSPOSABLE:
        # the warp groups read TF32 tiles through descriptors only with a row's positions adjacent: B's tile
        # (its rows along the block's inner dim, analyse/tensor_cores.py) stays as copied, padded, each thread
        # reading its share into registers (target.WGMMA_REGISTER_INPUTS); A's is copied across its lines
        registers = target.CTYPE[d.array.type.elem.kind] in target.WGMMA_REGISTER_INPUTS and \
            rows == (max(block.spans),)
        swizzled, transpose = not registers, registers
    layout = Layout.TRANSPOSED if transpose else Layout.ROW_MAJOR
    contiguous = CopyAxis.ROWS if layout is Layout.TRANSPOSED else CopyAxis.CHUNK
    elements = max(row_count, 1) * chunk
    along = chunk if copy.axis is CopyAxis.CHUNK else row_count
    vector, buffers = copy_steps(d, copy, along, elements, block, ctx, coalescing, views, asynchronous,
                                  copy.axis is contiguous)
    # padding keeps the copy's stores off one bank; a register tile's vector
    # reads need lines that stay 16-byte aligned, so it pads by a whole group;
    # cp.async's lines too, so its threads' rows (read a line apart) are
    # padded by 16 bytes, which spreads a warp's reads over 8 banks' groups
    step = block.register.group if micro else 1
    padding = step if copy.axis is not contiguous and rows and not ctx.options.row_major_tiles else 0
    if asynchronous and not micro:
        padded = reads_vary and layout is Layout.ROW_MAJOR and not ctx.options.row_major_tiles
        padding = max(target.ASYNC_COPY_BYTES) // element_bytes(d.array.type) if padded else 0
    if matrix:  # lines whose reads by the units fall on distinct banks (the swizzle spreads them unpadded)
        padding = 0 if swizzled else target.matrix_pad(element_bytes(d.array.type), layout is Layout.TRANSPOSED)
    index_variance = _index_variance(d, site, views)
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
    size = element_bytes(d.array.type) * inner * outer
    invariant = d.invariant_to & frozenset(block.spans)
    reuse, serves = _serves(invariant, block)
    own = reads is Reads.PER_THREAD and _own_elements(d, site, views, x_dim)
    reason = f"invariant to dimension {dims_text(invariant)}, which the block spans: one copy serves " + \
        (_own_words(serves) if own else serves)
    if not invariant:
        _, own = _sharing_refusal(d.varies_with, d.invariant_to, frozenset(block.spans))
        reason = (f"{own}; but in place its reads are a row apart along threadIdx.x (uncoalesced): the block "
                  "copies its threads' rows into shared memory along the rows, coalesced, and each thread reads its "
                  "own row there")
    staging = Staging(Level.SHARED, rows, (row_count, chunk) if rows else (chunk,), layout, padding, copy, reads,
                      size * buffers, reuse, vector, buffers, asynchronous=asynchronous, own=own, swizzled=swizzled,
                      registers=registers)
    return replace(d, staging=staging, reason=reason)


def _noted(p: InputPlan, note: str) -> InputPlan:
    """A copy of 2-byte elements with why it is not cp.async (copying.NARROW_ASYNC), where that is the reason."""
    return replace(p, reason=p.reason + note) if note and element_bytes(p.array.type) == NARROW_BYTES else p


def _stage_row_chunk(d: InputPlan, site: StreamSite, block: BlockPlan, views: Views, chunk: int,
                     ctx: Context, coalescing: bool, asynchronous: bool) -> InputPlan:
    """A chunk of rows every thread of the block reads (k-means' centres):
    a chunk x row-length tile, row-major as in global memory, so the copy
    runs along the rows, one after another, as they lie (coalesced where each
    row's elements are unit-stride), and reads at one index are broadcasts."""
    unit = views.unit_stride(d.array)
    copy = Copy(CopyAxis.CHUNK, Coalescing.COALESCED if unit == UnitStride(Stride.ROW)
                else Coalescing.UNKNOWN if unit is None else Coalescing.UNCOALESCED)
    x_dim = block.spans[0]
    reads = Reads.PER_THREAD if any(x_dim in v for v in _index_variance(d, site, views)) else Reads.BROADCAST
    elements = chunk * d.element
    vector, buffers = copy_steps(d, copy, d.element, elements, block, ctx, coalescing, views, asynchronous)
    invariant = d.invariant_to & frozenset(block.spans)
    reuse, serves = _serves(invariant, block)
    own = reads is Reads.PER_THREAD and _own_elements(d, site, views, x_dim)
    size = element_bytes(d.array.type) * elements
    staging = Staging(Level.SHARED, (), (chunk,), Layout.ROW_MAJOR, 0, copy, reads, size * buffers, reuse, vector,
                      buffers, element=d.element, asynchronous=asynchronous, own=own)
    length = f"at most {d.element}" if ctx.bounded(d.array.type.shape[-1]) else f"{d.element}"
    reason = (f"invariant to dimension {dims_text(invariant)}, which the block spans: one copy of {chunk} rows of "
              f"{length} serves " + (_own_words(serves) if own else serves))
    return replace(d, staging=staging, reason=reason)


def _serves(invariant: frozenset, block: BlockPlan) -> tuple[int, str]:
    """The points one staged copy serves, and in words (with the threads where a thread has several)."""
    reuse = math.prod(block.points(x) for x in invariant)
    threads = math.prod(block.extents[x] for x in invariant)
    return reuse, f"{reuse} threads" if reuse == threads else f"{reuse} points ({threads} threads)"


def _own_elements(d: InputPlan, site: StreamSite, views: Views, dim: int) -> bool:
    """The body reads the chunk once, and every index of that read that
    differs between the block's threads along `dim` is the thread's own
    index there, shifted alike for all (`rows[k, j]`, `yc[i - kk]`): no two
    threads read one element."""
    reads = chunk_reads(site.stream, _param(site, d.name)) or []
    if len(reads) != 1:  # two reads (`rows[k, j]`, `rows[k, j + 1]`) may meet at one element
        return False
    varying = [e for e in reads[0] if dim in views.exp_variance(e)]
    return bool(varying) and all(views.own_index(e, dim) for e in varying)


def _own_words(serves: str) -> str:
    return (f"{serves}, but each element is read by one of them only, at its own index: the copy gathers the "
            "block's loads, it shares none")


def _index_variance(d: InputPlan, site: StreamSite, views: Views) -> list:
    """The variance of each index the body reads the input's chunk with."""
    reads = chunk_reads(site.stream, _param(site, d.name)) or []
    return [views.exp_variance(e) for indices in reads for e in indices]


def _param(site: StreamSite, name: str):
    return next(i.param for i in site.inputs if i.param.name == name)


def over_limit(s: StreamPlan, total: int, limit: int) -> StreamPlan:
    if not s.tiled:
        return s
    reason = (f"the plan needs {total} bytes of shared memory, over the limit of {limit}; "
              "try a smaller --tile or a larger --max-shared")
    inputs = tuple(replace(p, staging=None, reason=reason, refusal=Refusal.OVER_LIMIT) if p.staged else p
                   for p in s.inputs)
    return StreamPlan(s.site, False, False, None, inputs, reason, 0)

