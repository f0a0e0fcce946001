"""Tiling plans: which inputs go to shared memory, in what block, and why.

`plan(kernel, variance, options) -> (BlockPlan, StreamPlans)`. An input of a
stream can be staged when it is invariant to a dimension the block spans:
the threads along that dimension then share one copy. The block's dimensions
are chosen by a cost model, the global loads a thread makes per streamed
element (1 for an input left in global memory, 1/reuse for a staged one),
among the blocks that are safe: every guard on the way to a staged stream
must be uniform across the block, or some thread would miss a barrier.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from ..check import typed as T
from ..check.types import Array, Binder
from ..errors import PlainError
from ..interp.values import dtype
from .records import Dims, Guard, StreamSite, Variance, dims_text
from .views import Views, chunk_reads

DEFAULT_1D, DEFAULT_2D = 256, 32
UNTILED_1D, UNTILED_2D = (256,), (32, 8)  # x first
SHARED_LIMIT = 48 * 1024
MAX_THREADS = 1024
AXES = ("x", "y", "z")


@dataclass(frozen=True)
class Options:
    """What the user steers; `explain` and `compile` share it."""

    tile: tuple = ()  # per dimension (None: default), or one size for all
    no_tile: bool = False
    max_shared: int = SHARED_LIMIT
    # ablations (the design note's observations; `tiler bench --ablate`):
    copy_along_chunk: bool = False  # lay the chunk on threadIdx.x even where that is uncoalesced
    row_major_tiles: bool = False  # never transpose a tile (and never pad it)
    sizes: tuple = ()  # (size name, value) pairs known before launch: a block need not be wider than its dim

    def known_size(self, size) -> int | None:
        if isinstance(size, int):
            return size
        return dict(self.sizes).get(getattr(size, "name", None))

    def tile_for(self, dim: int, default: int) -> int:
        """One size applies to every dimension; several are per dimension, outermost first."""
        if len(self.tile) == 1 and self.tile[0] is not None:
            return int(self.tile[0])
        if dim < len(self.tile) and self.tile[dim] is not None:
            return int(self.tile[dim])
        return default


def parse_tile(text: str) -> tuple:
    """`N` or `N0,N1,...` ('_' keeps a dimension's default), as `--tile` takes it."""
    parts = [t.strip() for t in text.split(",")]
    try:
        sizes = tuple(None if t in ("", "_") else int(t) for t in parts)
    except ValueError:
        raise PlainError(f"--tile expects N or N0,N1,... (whole numbers), got `{text}`") from None
    if any(t is not None and not 1 <= t <= MAX_THREADS for t in sizes):
        raise PlainError(f"--tile {text}: a block has between 1 and {MAX_THREADS} threads along a dimension")
    return sizes


@dataclass(frozen=True)
class InputPlan:
    name: str  # the chunk parameter
    array: object  # the typed argument expression
    varies_with: Dims
    invariant_to: Dims
    staged: bool
    reason: str
    rows: tuple[int, ...] = ()  # block dims the tile keeps one row per thread index for
    tile: tuple[int, ...] = ()  # (rows, chunk) extents, chunk last
    layout: str = ""  # "row-major" or "transposed" (chunk index outer)
    padding: int = 0
    copy: str = ""  # which index the copy lays on threadIdx.x, and whether that is coalesced
    reads: str = ""  # how the inner loop reads the tile: broadcast, unit-stride, per-thread
    bytes: int = 0
    reuse: int = 1  # threads one staged copy serves


@dataclass(frozen=True)
class StreamPlan:
    site: StreamSite
    tiled: bool
    kind: str
    chunk: int | None
    inputs: tuple[InputPlan, ...]
    reason: str
    shared_bytes: int


@dataclass(frozen=True)
class BlockPlan:
    rank: int
    spans: tuple[int, ...]  # kernel dims the block spans, threadIdx.x first
    extents: tuple[int, ...]  # threads along each kernel dim (1: not spanned)
    thread_axis: tuple[str | None, ...]  # per kernel dim: "x", "y" or None
    grid_axis: tuple[str, ...]  # per kernel dim: the blockIdx axis that walks it
    interchanged: bool
    reason: str
    shared_bytes: int
    small_dims: tuple[tuple[int, int], ...] = ()  # (dim, threshold): untiled below it

    @property
    def threads(self) -> int:
        n = 1
        for e in self.extents:
            n *= e
        return n


def plan(kernel: T.Kernel, var: Variance, options: Options) -> tuple[BlockPlan, tuple[StreamPlan, ...]]:
    views = Views(kernel, var)
    rank = len(kernel.levels)
    if options.no_tile:
        block = _untiled_block(rank, "tiling is off (--no-tile)")
        return block, tuple(_not_tiled(s, "tiling is off (--no-tile)", rank) for s in var.streams)
    best = None
    for spans in _candidate_spans(rank):
        block = _block(rank, spans, options, kernel)
        if block.threads > MAX_THREADS:
            continue  # a block this size cannot be launched
        streams = tuple(_plan_stream(s, block, views, options) for s in var.streams)
        shared = sum(s.shared_bytes for s in streams)
        if shared > options.max_shared:
            streams = tuple(_over_limit(s, shared, options) for s in streams)
            shared = 0
        cost = sum(_loads(p) for s in streams for p in s.inputs)
        key = (cost, len(spans), [-d for d in spans])
        if best is None or key < best[0]:
            best = (key, block, streams, shared)
    if best is None:
        reason = f"every block the tile sizes allow has more than {MAX_THREADS} threads"
        return _untiled_block(rank, reason), tuple(_not_tiled(s, reason, rank) for s in var.streams)
    if not any(s.tiled for s in best[2]):
        reason = "no streamed input can be staged in shared memory" if var.streams else "the kernel has no streamSeq"
        block = _untiled_block(rank, reason)
        return block, tuple(replace(s, kind="none") for s in best[2])
    _, block, streams, shared = best
    why = _why_block(block, streams)
    return replace(block, reason=why, shared_bytes=shared, small_dims=_small_dims(kernel, block)), streams


# ---- blocks -----------------------------------------------------------------


def _candidate_spans(rank: int):
    for k in (1, 2):
        for dims in combinations(range(rank), k):
            yield tuple(sorted(dims, reverse=True))  # innermost dim on threadIdx.x


def _block(rank: int, spans: tuple[int, ...], options: Options, kernel=None) -> BlockPlan:
    default = DEFAULT_1D if len(spans) == 1 else DEFAULT_2D
    extents = [1] * rank
    thread_axis: list = [None] * rank
    for axis, d in zip(AXES, spans):
        extents[d] = options.tile_for(d, _fit(default, options.known_size(kernel.levels[d].size) if kernel else None))
        thread_axis[d] = axis
    grid = _grid_axes(rank, spans)
    interchanged = len(spans) == 1 and rank > 1 and spans[0] != rank - 1
    return BlockPlan(rank, spans, tuple(extents), tuple(thread_axis), grid, interchanged, "", 0)


def _fit(default: int, size: int | None) -> int:
    """A block need not be wider than a dimension whose size is known: the
    smallest power of two (at least a warp) that covers it, up to the default."""
    if not size or size >= default:
        return default
    width = 32
    while width < size:
        width *= 2
    return min(width, default)


def _grid_axes(rank: int, spans) -> tuple[str, ...]:
    order = list(spans) + [d for d in reversed(range(rank)) if d not in spans]
    axes = [""] * rank
    for axis, d in zip(AXES, order):
        axes[d] = axis
    return tuple(axes)


def _untiled_block(rank: int, reason: str) -> BlockPlan:
    shape = UNTILED_1D if rank == 1 else UNTILED_2D
    spans = tuple(reversed(range(rank)))[:len(shape)]
    extents = [1] * rank
    thread_axis: list = [None] * rank
    for axis, d, e in zip(AXES, spans, shape):
        extents[d], thread_axis[d] = e, axis
    return BlockPlan(rank, spans, tuple(extents), tuple(thread_axis), _grid_axes(rank, spans), False, reason, 0)


def _small_dims(kernel: T.Kernel, block: BlockPlan) -> tuple[tuple[int, int], ...]:
    """Spanned dims whose size is only known at run time: below a quarter of
    the block's extent most of a block would idle, and the untiled kernel should run."""
    out = []
    for d in block.spans:
        size = kernel.levels[d].size
        threshold = max(8, block.extents[d] // 4)
        if isinstance(size, Binder) or (isinstance(size, int) and size < threshold):
            out.append((d, threshold))
    return tuple(out)


# ---- streams -----------------------------------------------------------------


def _not_tiled(site: StreamSite, reason: str, rank: int) -> StreamPlan:
    everything = frozenset(range(rank))
    inputs = tuple(InputPlan(i.param.name, i.array, i.variance, everything - i.variance, False, reason)
                   for i in site.inputs)
    return StreamPlan(site, False, "none", None, inputs, reason, 0)


def _plan_stream(site: StreamSite, block: BlockPlan, views: Views, options: Options) -> StreamPlan:
    rank, spans = block.rank, frozenset(block.spans)
    unsafe = [g for g in site.guards if g.variance & spans]
    if site.length_variance & spans:
        unsafe.append(_length_guard(site))
    decisions = []
    for i in site.inputs:
        invariant = frozenset(range(rank)) - i.variance
        base = InputPlan(i.param.name, i.array, i.variance, invariant, False, "")
        decisions.append(replace(base, reason=_refusal(i, invariant, spans, site, unsafe) or ""))
    for n, d in enumerate(decisions):
        rows = _rows(d, block)
        if not d.reason and rows and not views.rows_computable(d.array, rows):
            decisions[n] = replace(d, reason=(
                f"its row differs along dimension {dims_text(rows)} through data (an index read from memory): "
                "the cooperative copy cannot compute the other threads' rows"))
    staged_rows = [_rows(d, block) for d in decisions if not d.reason]
    if not staged_rows:
        reason = _stream_refusal(decisions)
        return StreamPlan(site, False, "none", None, tuple(decisions), reason, 0)
    chunk = max(1, block.threads // max(_product(block.extents[d] for d in r) for r in staged_rows))
    inputs = tuple(d if d.reason else _stage(d, site, block, views, chunk, options) for d in decisions)
    staged = [p for p in inputs if p.staged]
    kind = _kind(block) + (", partial" if len(staged) < len(inputs) else "")
    shared = sum(p.bytes for p in staged)
    reason = (f"{len(staged)} of {len(inputs)} input(s) staged: "
              + "; ".join(f"{p.name} is invariant to dimension {dims_text(p.invariant_to & spans)}" for p in staged))
    return StreamPlan(site, True, kind, chunk, inputs, reason, shared)


def _length_guard(site: StreamSite) -> Guard:
    return Guard("stream length", site.span, site.length_variance)


def _refusal(i, invariant: frozenset, spans: frozenset, site: StreamSite, unsafe) -> str | None:
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
    if chunk_reads(site.stream, i.param) is None:
        return "its chunk is used whole (passed on or indexed partially), not read element by element"
    return None


def _stream_refusal(decisions) -> str:
    reasons = list(dict.fromkeys(d.reason for d in decisions))
    return reasons[0] if len(reasons) == 1 else "; ".join(f"{d.name}: {d.reason}" for d in decisions)


def _rows(d: InputPlan, block: BlockPlan) -> tuple[int, ...]:
    """Spanned dims the input varies with: the tile keeps one row per thread index along them."""
    return tuple(x for x in block.spans if x in d.varies_with)


def _stage(d: InputPlan, site: StreamSite, block: BlockPlan, views: Views, chunk: int,
           options: Options) -> InputPlan:
    rows = _rows(d, block)
    row_count = _product(block.extents[x] for x in rows)
    x_dim = block.spans[0]
    unit = views.unit_stride(d.array)
    # the copy lays the unit-stride index of global memory on threadIdx.x
    if unit == "chunk":
        copy, copy_x = "along the chunk: coalesced", "chunk"
    elif isinstance(unit, tuple) and unit[1] in rows and options.copy_along_chunk:
        copy, copy_x = "along the chunk, a row apart: uncoalesced (ablation)", "chunk"
    elif isinstance(unit, tuple) and unit[1] in rows:
        copy, copy_x = f"along the rows (dim {unit[1]} is unit-stride, through the transpose): coalesced", "rows"
    elif unit is None:
        copy, copy_x = "along the chunk: layout unknown (a computed array)", "chunk"
    else:
        copy, copy_x = "along the chunk, a row apart: uncoalesced", "chunk"
    reads_vary = x_dim in rows
    layout = "transposed" if reads_vary and not options.row_major_tiles else "row-major"
    contiguous = "rows" if layout == "transposed" else "chunk"
    padding = 1 if copy_x != contiguous and rows and not options.row_major_tiles else 0
    index_variance = [views.exp_variance(e) for e in chunk_reads(site.stream, _param(site, d.name)) or []]
    if any(x_dim in v for v in index_variance):
        reads = "per-thread index: may conflict"
    elif reads_vary and layout == "transposed":
        reads = "unit-stride"
    elif reads_vary:
        reads = f"a row apart: bank conflicts (pitch {chunk + padding})"
    else:
        reads = "broadcast"
    inner = (row_count + padding) if layout == "transposed" else (chunk + padding)
    outer = chunk if layout == "transposed" else row_count
    size = dtype(d.array.type).itemsize * inner * outer
    invariant = d.invariant_to & frozenset(block.spans)
    reuse = _product(block.extents[x] for x in invariant)
    reason = (f"invariant to dimension {dims_text(invariant)}, which the block spans: "
              f"one copy serves {reuse} threads")
    return replace(d, staged=True, reason=reason, rows=rows, tile=(row_count, chunk) if rows else (chunk,),
                   layout=layout, padding=padding, copy=copy, reads=reads, bytes=size, reuse=reuse)


def _param(site: StreamSite, name: str):
    return next(i.param for i in site.inputs if i.param.name == name)


def _over_limit(s: StreamPlan, total: int, options: Options) -> StreamPlan:
    if not s.tiled:
        return s
    reason = (f"the plan needs {total} bytes of shared memory, over the limit of {options.max_shared}; "
              "try a smaller --tile or a larger --max-shared")
    inputs = tuple(replace(p, staged=False, reason=reason) if p.staged else p for p in s.inputs)
    return StreamPlan(s.site, False, "none", None, inputs, reason, 0)


def _loads(p: InputPlan) -> float:
    """Global loads per thread per streamed element: what the block choice minimises."""
    return 1.0 / p.reuse if p.staged else 1.0


def _kind(block: BlockPlan) -> str:
    if len(block.spans) == 2:
        return "2-D"
    if block.rank == 1:
        return "1-D"
    grid = f"1-D block in a {block.rank}-D grid"
    return grid + (", interchanged" if block.interchanged else "")


def _why_block(block: BlockPlan, streams) -> str:
    staged = [p for s in streams for p in s.inputs if p.staged]
    dims = dims_text(block.spans)
    shape = " x ".join(str(block.extents[d]) for d in reversed(block.spans))
    why = f"spans dimension {dims} ({shape} threads): stages {len(staged)} input(s) with the fewest global loads"
    if block.interchanged:
        why += f"; dimension {block.spans[0]} is not innermost, so it is interchanged onto threadIdx.x"
    return why


def _product(xs) -> int:
    n = 1
    for x in xs:
        n *= x
    return n
