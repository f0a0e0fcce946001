"""Tiling plans: the candidate schedules, ranked, and the launch's versions.

`plan(kernel, variance, options) -> Plan`. For every block shape that fits
(blocks.py), each stream is staged as far as it safely can be (staging.py);
the candidates are ranked by the cost model (cost.py: global loads a thread
per streamed element, then fewer and outer dims first). The best is the
schedule; a stream whose tiling cannot pay at the sizes known at compile
time is left untiled, and sizes only known at launch get thresholds below
which the launch runs the untiled kernel instead.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .. import target
from ..check import typed as T
from ..check.types import Array, element_bytes
from ..errors import PlainError
from . import cost
from .blocks import block as make_block
from .blocks import candidate_spans, folded_dims, untiled_block, why_block
from .context import Context
from .core_tma import with_core_tma
from .interior import with_interior
from .march import Marching, marching
from .occupancy import with_occupancy
from .operand_transposes import replanned_for_units
from .options import tile_text
from .raster import with_group_rows
from .records import Variance
from .reductions import Split, split_plan
from .registers import MICRO, grid_blocks, register_block, register_tile, synchronous
from .scans import NoScan, Scan, scan_plan
from .schedule import Math, Schedule, StreamPlan, Threshold
from .settle import settled
from .slabs import apart_loads, fits, row_candidates, unfit
from .staging import not_tiled, over_limit, plan_stream, stream_refusal
from .tensor_cores import with_matrix_units
from .transposes import transpositions
from .views import Views
from .window_tile import WindowTile, window_tile
from .windows import windows


@dataclass(frozen=True)
class Plan:
    schedule: Schedule  # the one compiled
    candidates: tuple[Schedule, ...]  # every block shape tried, best first (the schedule's own first)
    untiled: Schedule  # the fallback version's schedule
    thresholds: tuple[Threshold, ...]  # run the tiled kernel only from these sizes on
    # one point a thread, for launches where the schedule's micro-tile would leave the GPU's SMs without a
    # block (its grid's size known only then); None where the schedule has one point a thread or its grid
    # is known now
    fewer: Schedule | None = None
    # rows run by a warp or a block that share their reductions (reductions.py): the launch's first versions
    split: Split | None = None
    # where the schedule's tiles hold rows of a bounded length (Schedule.bounds): the plan without the bound,
    # whose versions run the launches past it
    unbounded: "Plan | None" = None
    # where the kernel reads windows: consecutive points a thread sharing their reads (window_tile.py), or why not
    window: WindowTile | None = None
    # the schedule with a smaller 2-D micro-tile, for few outputs whose reduction blocks share (split-K):
    # None where the schedule has no 2-D micro-tile of MICRO points a side
    few_outputs: Schedule | None = None
    # where the schedule's product takes the matrix units by default (tensor_cores._exact), the plan without
    # them, which the split-K version's blocks run (its stage computes on the FP64 pipe, and tiles laid out for
    # the units made X^T Y's slower: H200, benchmarks/RESULTS.md); None: the schedule's own
    k_schedule: Schedule | None = None
    # where a 3-D window may be marched along its outer dimension (march.py), or why not; None: no such window
    march: Marching | None = None
    # where the schedule's product reads operands the launch transposes for the matrix units: the plan reading
    # them in place, whose versions run the launches too small for the copies to pay (operand_transposes.py)
    in_place: "Plan | None" = None
    # a fold per point over the positions up to its own, run as one scan of its terms (scans.py), or why not;
    # None: no loop of the innermost level tests the point's position
    scan: Scan | NoScan | None = None


def plan(kernel: T.Kernel, var: Variance, ctx: Context) -> Plan:
    planned = _planned(kernel, var, ctx)
    if ctx.options.no_tile or ctx.options.no_scan:
        return planned
    return replace(planned, scan=scan_plan(kernel, var))


def _planned(kernel: T.Kernel, var: Variance, ctx: Context) -> Plan:
    tiling = _tiling(kernel, var, ctx)
    if ctx.options.no_tile:
        return tiling
    if any(t.units for t in tiling.schedule.transposed):
        in_place = _tiling(kernel, var, ctx.constrained(units_in_place=True))
        tiling = replace(tiling, in_place=in_place if in_place.schedule.tiled else None)
    split = replace(tiling, split=split_plan(kernel, var, ctx, tiling.schedule))
    if split.split is not None and split.split.active and not split.split.few:
        return split  # rows shared among threads: their launches keep that, whatever the row lengths
    bounded = _bounded(kernel, var, ctx, tiling)
    chosen = split if bounded is tiling else replace(bounded, split=split_plan(kernel, var, ctx, bounded.schedule))
    found = windows(kernel)
    return replace(chosen, window=window_tile(kernel, found, chosen.untiled, ctx),
                   march=marching(kernel, found, chosen.untiled, ctx))


def _tiling(kernel: T.Kernel, var: Variance, ctx: Context) -> Plan:
    rank = len(kernel.levels)
    views = Views(kernel, var)
    untiled = _untiled(var, rank, "tiling is off (--no-tile)" if ctx.options.no_tile else "the untiled fallback", views,
                       ctx)
    if ctx.options.no_tile:
        return Plan(untiled, (untiled,), untiled, ())
    _check_given(ctx, rank)
    ranked = []
    for spans in candidate_spans(rank):
        block = make_block(rank, spans, ctx, kernel)
        if block.threads > target.MAX_THREADS_PER_BLOCK and len(ctx.options.tile) == 1:
            continue  # one --tile N for every dimension: N x N is too many, so 2-D blocks are out
        if block.threads > target.MAX_THREADS_PER_BLOCK:  # sizes given per dimension: the user's block
            shape = " x ".join(str(block.extents[d]) for d in reversed(block.spans))
            raise PlainError(f"--tile {tile_text(ctx.options.tile)}: a block of {shape} threads has {block.threads:,}; "
                             f"a block has at most {target.MAX_THREADS_PER_BLOCK:,}",
                             "give smaller sizes, or one per dimension (`_` keeps the default)")
        schedule = _schedule(block, var, views, ctx)
        ranked.append(((schedule.cost + apart_loads(block, kernel, views, ctx), len(spans), [-d for d in spans]),
                       schedule))
    ranked.sort(key=lambda kv: kv[0])
    candidates = tuple(s for _, s in ranked)
    if not candidates:
        reason = f"every block the tile sizes allow has more than {target.MAX_THREADS_PER_BLOCK} threads"
        fallback = _untiled(var, rank, reason, views, ctx)
        return Plan(fallback, (), fallback, ())
    best = candidates[0]
    if not best.tiled:
        reason = "no streamed input can be staged in shared memory" if var.streams else "the kernel has no streamSeq"
        streams = tuple(_left_untiled(_real_obstacle(candidates, n), untiled.streams[n])
                        for n in range(len(best.streams)))
        chosen = Schedule(untiled_block(rank, reason, _inner_literal(kernel, ctx)), streams, cost.loads(streams),
                          math=math_of(ctx))
        chosen = replace(chosen, slabs=row_candidates(chosen, kernel, views, ctx))
        chosen = transpositions(chosen, kernel, views, ctx)
        return Plan(chosen, candidates, chosen, ())
    narrow = _coalescing_block(best, views, ctx)
    reason = "; narrow, since every tiled stream stages its threads' own rows: one thread a row leaves few " \
             "threads, and small blocks spread them over every SM" if narrow.block.narrowed else ""
    best = _completed(narrow, reason, kernel, views, ctx)
    candidates = (best,) + candidates[1:]
    fewer = _fewer_points(best, narrow, reason, kernel, views, ctx)
    limits = cost.thresholds(fewer or best, untiled, {lv.dim: lv.size for lv in kernel.levels},
                             dict(ctx.options.thresholds), frozenset(kernel.sizes))
    units = best.matrix_units
    if units is not None and units.exact and not ctx.options.tensor_cores:  # (split-K's plan: the units' off)
        k_ctx = ctx.constrained(exact_units=False)
        k_schedule = _completed(narrow, reason, kernel, views, k_ctx)
        few = _few_outputs(k_schedule, narrow, reason, kernel, views, k_ctx)
    else:
        k_schedule, few = None, _few_outputs(best, narrow, reason, kernel, views, ctx)
    return Plan(best, candidates, untiled, limits, fewer, few_outputs=few, k_schedule=k_schedule)


# points a thread along each dim of the split-K version's micro-tile: 16 x 16 threads then cover 64 x 64
# outputs, where the plan's 8 x 8 cover 128 x 128 (X^T Y of 64 x 64 outputs: three quarters idle)
FEW_OUTPUTS_MICRO = 4


def _few_outputs(best: Schedule, plain: Schedule, reason: str, kernel: T.Kernel, views: Views,
                 ctx: Context) -> Schedule | None:
    """The schedule with a 2-D micro-tile of FEW_OUTPUTS_MICRO points a
    side, where the best one has MICRO (a product's): the split-K version's
    (versions/split.py), which runs where the outputs are few and the blocks
    along grid z share each tile's reduction, so that its tiles cover them
    with fewer idle points."""
    register = best.block.register
    if register is None or len(best.block.spans) != 2 or ctx.options.register_tile or best.transposed or \
            any(register.sizes[d] != MICRO for d in best.block.spans):
        return None
    few = _completed(plain, reason, kernel, views, ctx.constrained(micro=FEW_OUTPUTS_MICRO))
    if not few.tiled or few.transposed or few.block.register is None or few.block.spans != best.block.spans:
        return None
    return few


# The row length a plan assumes, at most, for rows of a length known only at
# launch that it would stage (k-means' centres and points, d features): 64
# elements, 256 bytes of f32 a row. Shorter rows leave a line partly unused;
# longer ones run the plan without the bound.
ROW_BOUND = 64


def _bounded(kernel: T.Kernel, var: Variance, ctx: Context, tiling: Plan) -> Plan:
    """Where rows the plan would stage have a length known only at launch,
    the plan made with those lengths taken as at most ROW_BOUND, if it costs
    less (its rows' loads priced alike): its tiles hold rows that long, its
    copies stop at the row's real end, and the launch runs it only where no
    row is longer (the plan without the bound runs the others)."""
    names = _launch_row_lengths(var, tiling.schedule, ctx)
    if not names:
        return tiling
    within = ctx.constrained(bounds=tuple((n, ROW_BOUND) for n in sorted(names)))
    bounded = _tiling(kernel, var, within)
    taken = frozenset(names)

    def mark(s: Schedule | None) -> Schedule | None:
        return None if s is None else replace(s, bounded=taken)
    if not bounded.schedule.tiled or not mark(bounded.schedule).bounds:
        return tiling
    views = Views(kernel, var)  # ranked as _tiling ranks candidates: the streams' loads and the rows read apart
    now = bounded.schedule.cost + apart_loads(bounded.schedule.block, kernel, views, within)
    before = _priced_at(tiling.schedule, taken, ROW_BOUND) + apart_loads(tiling.schedule.block, kernel, views, ctx)
    if tiling.schedule.tiled and now >= before:
        return tiling  # the bound saves no loads the plan does not already
    return replace(bounded, schedule=mark(bounded.schedule), fewer=mark(bounded.fewer),
                   few_outputs=mark(bounded.few_outputs), k_schedule=mark(bounded.k_schedule),
                   candidates=(mark(bounded.schedule),) + bounded.candidates[1:], unbounded=tiling)


def _priced_at(schedule: Schedule, names: frozenset, length: int) -> float:
    """The schedule's cost with the rows of length `names` it reads in place
    priced as `length` elements each (as a bounded plan prices its tiles)."""
    def priced(p):
        shape = getattr(p.array.type, "shape", ())
        long = len(shape) == 2 and not isinstance(shape[1], int) and shape[1].name in names
        return replace(p, element=length) if long and not p.staged else p
    return cost.loads(tuple(replace(s, inputs=tuple(priced(p) for p in s.inputs)) for s in schedule.streams))


def _launch_row_lengths(var: Variance, schedule: Schedule, ctx: Context) -> set[str]:
    """The sizes known only at launch that are the row lengths of chunks of
    rows the streams read, or of rows threads read whole (slabs.py)."""
    rows = [i.param.type.shape[1] for s in var.streams for i in s.inputs
            if isinstance(i.param.type, Array) and i.param.type.rank == 2]
    rows += [r.array.type.shape[1] for r in schedule.slabs if r.length is None]
    return {r.name for r in rows if not isinstance(r, int) and ctx.known_size(r) is None}


def _completed(plain: Schedule, reason: str, kernel: T.Kernel, views: Views, ctx: Context) -> Schedule:
    """A candidate made whole: its register tile and the rows its threads
    read whole (_with_rows), the transpositions, interior blocks, blocks an
    SM, and whether its product runs on the matrix units."""
    best, narrowed = _with_rows(plain, kernel, views, ctx)
    why = why_block(best.block, best.streams) + reason + narrowed
    best = transpositions(replace(best, block=replace(best.block, reason=why)), kernel, views, ctx)
    best = with_matrix_units(with_occupancy(with_interior(best, ctx), ctx), kernel, ctx)
    best = with_group_rows(best, ctx)
    if best.matrix_units is not None and best.matrix_units.used and not ctx.constraints.matrix and \
            target.SIZEOF[best.matrix_units.shape.inputs] in target.MATRIX_CHUNKS:
        # planned again with tiles laid out for the units (Constraints.matrix), where the units still take it,
        # and for the warp groups' instructions where the GPU has them (Constraints.swizzle)
        loop = bool(folded_dims(kernel, best.block, ctx.known_size))
        tries = [ctx.constrained(matrix=True, grid_loop=loop)]
        if target.has_wgmma(ctx.device.arch) and best.matrix_units.shape.inputs in target.WGMMA_INPUTS:
            tries.insert(0, ctx.constrained(matrix=True, swizzle=True, grid_loop=loop))
        for c in tries:
            units = _completed(plain, reason, kernel, views, c)
            if units.matrix_units is not None and units.matrix_units.used:
                return replanned_for_units(units, kernel, views, c,
                                           lambda v, cx: _completed(plain, reason, kernel, v, cx))
    return with_core_tma(best, kernel, views, ctx, lambda v, cx: _completed(plain, reason, kernel, v, cx))


def _fewer_points(best: Schedule, plain: Schedule, reason: str, kernel: T.Kernel, views: Views,
                  ctx: Context) -> Schedule | None:
    """The schedule with one point a thread, where the best one gives each
    thread several (a coarsened 1-D block, a 2-D register tile) and how many
    blocks its grid has is known only at launch: a grid of too few blocks
    leaves SMs idle, and the same work spread one point a thread over more
    blocks runs on more of them (an MRI-Q of 8192 voxels, 4 points a thread:
    8 blocks for 132 SMs, 2.5x slower than untiled). The launch picks between
    them with the SM count (lower.py, registers.fills)."""
    points = {d: best.block.points(d) for d in best.block.spans}
    if best.block.register is None or ctx.options.register_tile or best.transposed or best.block.interior \
            or grid_blocks(kernel, points, ctx) is not None:
        return None
    fewer = _completed(plain, reason, kernel, views, ctx.constrained(one_point=True))
    if not fewer.tiled or fewer.transposed:
        return None
    return replace(fewer, block=replace(fewer.block, register_reason=(
        "one point a thread, for launches whose grid under the micro-tile would leave too many SMs without a "
        "block")))


def math_of(ctx: Context) -> Math:
    return Math.FAST if ctx.options.fast_math else Math.IEEE


MIN_CHUNK = 8  # below this a chunk's two barriers cost more than its tiles save


def _check_given(ctx: Context, rank: int) -> None:
    """Per-dimension --tile and --register-tile name at most the kernel's dimensions."""
    for flag, sizes in (("--tile", ctx.options.tile), ("--register-tile", ctx.options.register_tile)):
        if len(sizes) > max(rank, 1) and len(sizes) > 1:
            raise PlainError(f"{flag} {tile_text(sizes)}: {len(sizes)} sizes for a kernel of {rank} dimension"
                             f"{'s' if rank > 1 else ''}", "give one size a dimension, outermost first, or one for all")


def _schedule(block, var: Variance, views: Views, ctx: Context) -> Schedule:
    """Every stream staged as far as it can be under `block`, within the shared-memory limit."""
    streams = settled(tuple(plan_stream(s, block, views, ctx) for s in var.streams), block, views, ctx)
    shared = sum(s.shared_bytes for s in streams)
    limit = ctx.shared_limit(block.pipelined)
    if shared > limit and block.pipelined:  # the stages go before the tiles shrink: shorter chunks cost more
        return _schedule(replace(block, register=synchronous(block.register, block.threads, ctx)), var, views,
                         ctx)
    if shared > limit and _narrows(block, streams, ctx):
        # _coalescing_block narrows this block for its threads' rows anyway: the narrow block is the one that
        # must fit (two f64 rows a thread: 256 threads need 122,880 bytes even in chunks of 8, 16 threads 26,112)
        return _schedule(_narrow_for_rows(block), var, views, ctx)
    full = _chunk_of(streams)
    if shared > limit and ctx.chunk is None and _narrowed_never(block, streams, ctx):
        # rows staged only to coalesce take a block's rows of tile each, and a block whose other tiles many
        # threads share is not narrowed for them (_coalescing_block): rather than shorter chunks for every
        # stream (a fuzzed kernel: chunks of 8 beside 256 rows of 8, 0.14x untiled), the rows stay in place
        # (a --chunk the user gave is halved to fit instead, as it was asked for); chunks shrink first only
        # while each row's line keeps the COALESCE_LINE bytes its copies need (f64: 32 elements)
        streams, shared = _halved(streams, shared, limit, _line_chunk(streams), block, var, views, ctx)
        if shared > limit:
            apart = settled(tuple(plan_stream(s, block, views, ctx, coalesce=False) for s in var.streams),
                             block, views, ctx)
            if sum(s.shared_bytes for s in apart) <= limit:
                streams, shared, full = apart, sum(s.shared_bytes for s in apart), _chunk_of(apart)
    streams, shared = _halved(streams, shared, limit, MIN_CHUNK, block, var, views, ctx)  # smaller, then none
    chunk = _chunk_of(streams)
    if shared > limit:
        streams = tuple(over_limit(s, shared, limit) for s in streams)
        shared = 0
    elif chunk < full:
        streams = _shortened(streams, full, limit)
    return Schedule(replace(block, shared_bytes=shared), streams, cost.loads(streams), math=math_of(ctx))


def _chunk_of(streams) -> int:
    return max((s.chunk for s in streams if s.tiled), default=0)


def _shortened(streams, full: int, limit: int, beside: str = "") -> tuple[StreamPlan, ...]:
    """The tiled streams, their reasons saying why their chunk is shorter than `full`."""
    why = (f"chunk {_chunk_of(streams)}, not {full}: the tiles of {full}{beside} would need more than the {limit} "
           "bytes of shared memory a block may use")
    return tuple(replace(s, reason=f"{s.reason}; {why}") if s.tiled else s for s in streams)


def _halved(streams, shared: int, limit: int, floor: int, block, var: Variance, views: Views, ctx: Context):
    """The streams planned with their chunk halved until their tiles fit the
    limit or another halving would pass `floor` (a chunk that is not a power
    of two stops above it: 92 -> 46 -> 23 -> 11, never 5); and their shared
    bytes."""
    chunk = _chunk_of(streams)
    while shared > limit and chunk // 2 >= floor:
        chunk //= 2
        streams = settled(tuple(plan_stream(s, block, views, ctx, chunk) for s in var.streams), block, views,
                           ctx, chunk)
        shared = sum(s.shared_bytes for s in streams)
    return streams, shared


def _narrows(block, streams, ctx: Context) -> bool:
    """_coalescing_block narrows this block: 1-D, wider than COALESCE_THREADS
    and not by --tile, with every tiled stream staging its threads' own rows."""
    tiled = [s for s in streams if s.tiled]
    return len(block.spans) == 1 and bool(tiled) and all(any(p.for_coalescing for p in s.inputs) for s in tiled) \
        and not ctx.options.tile_for(block.spans[0], 0) and block.extents[block.spans[0]] > COALESCE_THREADS


# bytes of a row a chunk copies, at least, where a block stages its threads' own rows: 64 f32 (COALESCE_CHUNK)
COALESCE_LINE = 256


def _line_chunk(streams) -> int:
    """The shortest chunk whose rows, staged to coalesce, still hold COALESCE_LINE bytes each."""
    widest = max((element_bytes(p.array.type) for s in streams if s.tiled for p in s.inputs if p.for_coalescing),
                 default=4)
    return max(MIN_CHUNK, COALESCE_LINE // widest)


def _narrowed_never(block, streams, ctx: Context) -> bool:
    """Some stream stages rows to coalesce, and the block will not be
    narrowed for them (_narrows)."""
    coalescing = any(p.for_coalescing for s in streams if s.tiled for p in s.inputs)
    return coalescing and not _narrows(block, streams, ctx)


def _left_untiled(obstacle: StreamPlan, untiled: StreamPlan) -> StreamPlan:
    """A stream no block tiles: the reasons from the candidate that shows the
    obstacle, whether reads are uncoalesced from the untiled kernel's block."""
    inputs = tuple(replace(p, uncoalesced=u.uncoalesced) for p, u in zip(obstacle.inputs, untiled.inputs))
    return replace(obstacle, partial=False, inputs=inputs)


def _real_obstacle(candidates: tuple[Schedule, ...], n: int) -> StreamPlan:
    """Stream n, untiled under every block: its inputs' reasons from a block
    that spans a dimension the input is invariant to, where there is one (a
    branch on the thread index, say), rather than from a block that could
    never have shared it."""
    best = candidates[0].streams[n]
    inputs = []
    for j, p in enumerate(best.inputs):
        telling = (c.streams[n].inputs[j] for c in candidates
                   if c.streams[n].inputs[j].invariant_to & frozenset(c.block.spans))
        inputs.append(next(telling, p))
    return replace(best, inputs=tuple(inputs), reason=stream_refusal(inputs))


# threads of a block that stages its threads' own rows: such a kernel has one
# thread a row, so few threads in all; small blocks spread them over every SM.
# Measured on an H200 (benchmarks/RESULTS.md), for a mat-vec and row sums at
# 8192 and 16384 rows: 16 to 64 threads with 64-element chunks beat 128 and
# 256 threads by 2-3x; 16 was fastest at 8192 rows (mat-vec 0.121 ms, 32:
# 0.131), 32 at 16384 (row sums 0.328 ms, 16: 0.360). Picking it by the row
# count at launch is the tuner's work.
COALESCE_THREADS = 16


def _coalescing_block(best: Schedule, views: Views, ctx: Context) -> Schedule:
    """A 1-D block whose tiled streams all stage their threads' own rows,
    narrowed to COALESCE_THREADS unless --tile gave its width. (A stream
    whose tiles only serve many threads keeps the wide block: narrowing
    would cut that reuse.)"""
    block = best.block
    if not _narrows(block, best.streams, ctx):
        return best
    narrowed = _schedule(_narrow_for_rows(block), views.var, views, ctx)
    return narrowed if narrowed.tiled else best


def _narrow_for_rows(block):
    (x,) = block.spans
    return replace(block, extents=tuple(COALESCE_THREADS if d == x else e for d, e in enumerate(block.extents)),
                   narrowed=True)


def _registers(best: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> Schedule:
    """The best schedule with a register tile where one pays, re-staged for
    the block's new shape; else the same, with the reason recorded."""
    tile, reason = register_tile(best, kernel, ctx)
    if tile is not None:
        tiled = _schedule(register_block(best.block, tile, ctx, kernel), views.var, views, ctx)
        if tiled.tiled and all(s.tiled == t.tiled for s, t in zip(best.streams, tiled.streams)):
            return replace(tiled, block=replace(tiled.block, register_reason=reason))
        reason = "the register-tiled block could not stage what the plain one does (shared memory)"
    return replace(best, block=replace(best.block, register_reason=reason))


def _with_rows(plain: Schedule, kernel: T.Kernel, views: Views, ctx: Context) -> tuple[Schedule, str]:
    """The schedule with its register tile and the rows its threads read
    whole (slabs.py); where those rows would not fit in shared memory beside
    the tiles, the block (before its register tile) narrowed until they do.
    Also the words for a narrowing."""
    x, narrowed = plain.block.spans[0], ""
    while True:
        best = _registers(plain, kernel, views, ctx)
        rows = row_candidates(best, kernel, views, ctx)
        if not any(r.staged for r in rows) or fits(best, rows, ctx):
            break
        shorter = _shorter_chunks(plain, best, rows, views, ctx)
        if shorter is not None:
            plain = shorter
            continue
        threads = plain.block.extents[x] // 2
        smaller = _schedule(replace(plain.block, extents=tuple(threads if d == x else e for d, e in
                                                               enumerate(plain.block.extents))), views.var, views,
                            ctx) if threads >= target.WARP else None
        if smaller is None or not smaller.tiled:
            return replace(best, slabs=unfit(rows, ctx)), ""
        plain = smaller
        narrowed = f"; {threads} threads, so that the rows its points read whole fit in shared memory"
    slab_bytes = sum(r.bytes for r in rows if r.staged)
    return replace(best, slabs=rows, block=replace(best.block, shared_bytes=best.block.shared_bytes + slab_bytes)), \
        narrowed


def _shorter_chunks(plain: Schedule, best: Schedule, rows, views: Views, ctx: Context) -> Schedule | None:
    """The plain schedule with its chunks halved until its tiles fit beside
    the rows its threads read whole, where that keeps every chunk at least
    MIN_CHUNK (and a line of the rows staged to coalesce): a shorter chunk
    costs two barriers more a chunk, a narrower block costs its tiles half
    their reuse, twice the global loads (k-means, rows of at most 64, 16
    centres, H200: chunks of 64 beside 64 threads' rows, 0.227 ms; chunks of
    32 beside 128 threads', 0.148). None where the chunks cannot shrink so
    (a --chunk given, a register tile, which plans its own chunks)."""
    if ctx.chunk is not None or best.block.register is not None:
        return None
    coalescing = any(p.for_coalescing for s in plain.streams if s.tiled for p in s.inputs)
    floor = _line_chunk(plain.streams) if coalescing else MIN_CHUNK
    limit = ctx.shared_limit(plain.block.pipelined) - sum(r.bytes for r in rows if r.staged)
    streams, shared = _halved(plain.streams, plain.block.shared_bytes, limit, floor, plain.block, views.var, views,
                              ctx)
    if shared > limit or not all(s.tiled == t.tiled for s, t in zip(plain.streams, streams)):
        return None
    streams = _shortened(streams, _chunk_of(plain.streams), ctx.shared_limit(plain.block.pipelined),
                         " and the rows its points read whole")
    return Schedule(replace(plain.block, shared_bytes=shared), streams, cost.loads(streams), math=plain.math)


def _untiled(var: Variance, rank: int, reason: str, views: Views, ctx: Context) -> Schedule:
    block = untiled_block(rank, reason, _inner_literal(views.kernel, ctx))
    streams = tuple(not_tiled(s, reason, rank, views, block.spans[0], ctx) for s in var.streams)
    return Schedule(block, streams, cost.loads(streams), math=math_of(ctx))


def _inner_literal(kernel: T.Kernel, ctx: Context) -> int | None:
    """The innermost map level's size where it is known when compiling (a literal, or a size given)."""
    return ctx.known_size(kernel.levels[-1].size) if len(kernel.levels) > 1 else None
