"""Register tiling (the design note's last section): whether each thread of a
block computes a micro-tile of points instead of one, and how large.

Along a dim the block spans, a staged input invariant to that dim is the
same for every point of the micro-tile along it: strip-mining the dim and
running the strip inside the thread reads that value from shared memory
once into a register and reuses it across the strip. The micro-tile is as
large as the accumulators allow (every point keeps its own), and a block of
16 x 16 threads then covers 128 x 128 points by default.

A 1-D block whose staged inputs are all shared by its threads (n-body) is
coarsened instead: each thread takes COARSEN points a block apart (so
global reads and stores stay coalesced), and each value read from shared
memory serves all of them; not where the grid would then have fewer blocks
than the GPU has multiprocessors.
"""
from __future__ import annotations

import math
from dataclasses import replace

from .. import target
from ..check import typed as T
from ..check.types import Scalar, element_bytes
from ..tree import children, descendants
from .context import Context
from .copying import async_sizes, micro_tile_async, pipelines
from .cost import LOAD_PRICE, price
from .records import dims_text
from .schedule import BlockPlan, RegisterTile, Schedule

MICRO = 8  # points a thread takes along a dim with reuse
THREADS = 16  # threads along each dim of a register-tiled block
GROUP_BYTES = 16  # one 128-bit shared read: 4 f32 points, 2 f64
ACCUMULATORS = 64  # 32-bit registers for accumulators (of 255), leaving room for operands and addresses
ADDRESSING = 48  # registers for indices, addresses and loop state (ptxas: 128 in all for mm's 8 x 8 tile)
# with the tiles copied by TMA (core_tma.py) the copies' addresses go, more of them the more a thread copies:
# one register in TMA_SAVED accumulators (ptxas, the forty-first session: 101-127 in all for the tests' 8 x 8
# tiles, a min-plus product 101, mm 109 with its sizes known and 125 without; an 8 x 1 tile 64, as with cp.async)
TMA_SAVED = 4
# registers a thread may use with two 256-thread blocks on an SM (65536 / 512):
# double buffering through registers pays only where it stays under this
# (measured on an H200: mm's 8 x 8 tile reached 147 registers with it and ran
# 9% slower than without; see RESULTS.md)
REGISTER_BUDGET = 128
# A 1-D block is coarsened only where the body does little arithmetic for
# each staged element it reads (less than LIGHT, priced by cost.price): then
# the shared reads are the work, and 4 points a thread (2 where 4 would leave
# SMs without a block) read each once for all. Measured on an H200 (`acc +
# xc[t] * a`, 2 operations a read; 2^20 points, 4096 streamed): 0.303 ms one
# a thread, 0.235 two, 0.187 four, 0.167 eight. A heavier body gains little
# and can lose much: 2 points a thread made 3-D n-body 1% faster (47.97 ->
# 47.42 ms at 2^18), but on the corpus (RESULTS.md, 2026-11-24) an RBF sum
# (exp), a 2-D n-body (sqrt, division), a table interpolation and an f64
# Matern kernel 30-50% slower than one a thread.
COARSEN = 2
COARSEN_LIGHT, LIGHT = 4, 4
# A micro-tile runs where its grid gives blocks to at least 1/GRID_SHARE of
# the GPU's SMs (by block rank), else one point a thread spreads the work
# over more of them. 1-D: every SM (3-D n-body at 2^16, 2 a thread, 128
# blocks: 4.11 ms against 3.25 one a thread). 2-D, measured on the corpus
# (RESULTS.md, 2026-11-24): products of 1000 x 1000 points, 64 blocks of an
# 8 x 8 tile for 132 SMs, ran 1.8x faster than one point a thread; 2 to 11
# blocks ran 1.3-2.6x slower.
GRID_SHARE = {1: 1, 2: 4}
# the register tiling rewrite's interchange unrolls a uniform loop of at most this constant count around
# per-point work (but not one with a barrier inside); a window's reads are alike point to point only so
UNROLL_LIMIT = 32


def register_tile(schedule: Schedule, kernel: T.Kernel, ctx: Context) -> tuple[RegisterTile | None, str]:
    """The micro-tile for this schedule's block, or None and why not."""
    block = schedule.block
    if ctx.no_register_tile:
        return None, "register tiling is off (--no-register-tile)"
    if not schedule.tiled:
        return None, "nothing is staged in shared memory to reuse from registers"
    if len(block.spans) == 1:
        return _coarsened(schedule, kernel, ctx)
    if len(block.spans) != 2:
        return None, "a block of three dims: no micro-tile"
    if not any(ctx.register_sizes) and shares_every_tile(schedule):
        ops = operations_per_read(schedule)  # a 2-D n-body: the 1-D block's rule (_coarsened)
        if ops >= LIGHT:
            return None, (f"every staged element serves the whole block, and the body does {ops:.3g} operations a "
                          "read: the arithmetic, not the shared reads, is the work (one point a thread)")
    reuse = _reuse_dims(schedule)
    words = max(1, _accumulator_words(schedule))
    sizes = [1] * block.rank
    for d in block.spans:
        wanted = _given(ctx, d)
        if wanted is not None:
            sizes[d] = wanted
        elif d in reuse and not _small(kernel, d, ctx):
            sizes[d] = ctx.constraints.micro or MICRO
    threads = math.prod(ctx.options.tile_for(d, THREADS) for d in block.spans)
    while _over(sizes, words, threads, block, ctx.device.register_file) and max(sizes) > 1 and not any(ctx.register_sizes):
        sizes[sizes.index(max(sizes))] //= 2  # every point keeps its accumulators: halve the larger side
    if math.prod(sizes) == 1:
        return None, (f"no staged input is invariant to a dim wide enough for a micro-tile (dims "
                      f"{dims_text(block.spans)})")
    def blocks():
        return grid_blocks(kernel, {d: ctx.options.tile_for(d, THREADS) * sizes[d] for d in block.spans}, ctx)

    while not any(ctx.register_sizes) and math.prod(sizes) > 1 and blocks() is not None \
            and not fills(blocks(), 2, ctx.device.multiprocessors):  # enough SMs a block before more points a thread
        sizes[sizes.index(max(sizes))] //= 2
    if math.prod(sizes) == 1:
        return None, (f"a micro-tile would leave blocks for fewer than a quarter of the GPU's "
                      f"{ctx.device.multiprocessors} multiprocessors: one point a thread")
    group = _group(schedule, sizes)
    accumulators, operands = _registers(sizes, words, block)
    single = accumulators + operands + ADDRESSING
    pipelined = _pipelined_streams(schedule, ctx)
    asynchronous = any(pipelined)
    double = not all(pipelined) and _double_buffered(single, operands, threads, ctx)
    tile = RegisterTile(tuple(sizes), group, accumulators, single + (operands if double else 0), double,
                        asynchronous, operands)
    shares = "; ".join(_read_once(p, sizes, block) for s in schedule.streams for p in s.inputs
                       if p.staged and any(sizes[d] > 1 for d in p.invariant_to & frozenset(block.spans)))
    return tile, f"{' x '.join(str(sizes[d]) for d in reversed(block.spans))} points a thread: {shares}"


def _read_once(p, sizes: list, block) -> str:
    """How many of a thread's points one shared read of `p` serves: those
    along every dim it is invariant to, counted once."""
    dims = [d for d in sorted(p.invariant_to & frozenset(block.spans)) if sizes[d] > 1]
    where = f"dim {dims[0]}" if len(dims) == 1 else "dims " + " and ".join(map(str, dims))
    return f"{p.name} is read once for the {math.prod(sizes[d] for d in dims)} points along {where}"


def _coarsened(schedule: Schedule, kernel: T.Kernel, ctx: Context) -> tuple[RegisterTile | None, str]:
    """The 1-D block's micro-tile: COARSEN points a thread (COARSEN_LIGHT for
    a light body), or --register-tile's."""
    block = schedule.block
    (d,) = block.spans
    staged = [p for s in schedule.streams if s.tiled for p in s.inputs if p.staged]
    wanted, why = _given(ctx, d), ""
    if wanted is None:
        if not shares_every_tile(schedule):
            return None, ("a 1-D block staging its threads' own rows: more points a thread would only make "
                          "the tile of rows larger (no micro-tile)")
        ops = operations_per_read(schedule)
        if ops >= LIGHT:
            return None, (f"{ops:.3g} operations a staged element read: the arithmetic, not the shared reads, is "
                          "the work, and more points a thread would only leave fewer threads (one a thread)")
        why = f" ({ops:.3g} operations a staged element read: a light body)"
        for wanted in (COARSEN_LIGHT, COARSEN):
            threads = coarse_threads(block, kernel, ctx, wanted)
            blocks = grid_blocks(kernel, {d: threads * wanted}, ctx)
            if blocks is None or fills(blocks, 1, ctx.device.multiprocessors):
                break  # the grid still fills the GPU
        else:
            return None, (f"{wanted} points a thread would leave {blocks} blocks, fewer than the GPU's "
                          f"{ctx.device.multiprocessors} multiprocessors: one a thread")
    if wanted == 1:
        return None, "one point a thread (--register-tile 1)"
    threads = coarse_threads(block, kernel, ctx, wanted)
    words = max(1, _accumulator_words(schedule))
    sizes = tuple(wanted if x == d else 1 for x in range(block.rank))
    accumulators, operands = _registers(sizes, words, block)
    single = accumulators + operands + ADDRESSING
    double = _double_buffered(single, operands, threads, ctx)
    tile = RegisterTile(sizes, 1, accumulators, single + (operands if double else 0), double)
    shared = ", ".join(p.name for p in staged if not p.staging.own)
    own = ", ".join(p.name for p in staged if p.staging.own)
    serves = f"each value of {shared} read from shared memory serves all {wanted}" if shared else ""
    apart = f"each point reads its own elements of {own}" if own else ""
    return tile, (f"{wanted} points a thread, {threads} threads apart{why}: " + "; ".join(x for x in (serves, apart)
                                                                                       if x))


def expected_registers(schedule: Schedule, variance) -> int | None:
    """The registers a thread of a 2-D micro-tile is expected to use, for
    explain: its accumulators, one step's operands, the elements each thread
    copies through registers a chunk (ptxas issues a copy's loads together),
    the values each point reads from outside the stream (a covariance's
    means) or computes in it, and ADDRESSING. Within 15% of ptxas on the
    tests' register-tiled programs (test_codegen). None for a coarsened 1-D block: its
    body, not the tile, sets its registers (ptxas's count: explain --nvcc); and for a
    product on the matrix units, whose fragments and staging do (mm_f64's: 174, where
    this count says 136)."""
    block, tile = schedule.block, schedule.block.register
    units = schedule.matrix_units
    if tile is None or len(block.spans) < 2 or units is not None and units.used:
        return None
    staged = [p for s in schedule.streams if s.tiled for p in s.inputs if p.staged]
    spans = frozenset(block.spans)
    # a step's operands: one value of a staged input for each point along the dims it varies with
    operands = sum(math.prod(block.micro(d) for d in spans - p.invariant_to) * _words(p.array.type) for p in staged)
    threads = math.prod(block.extents[d] for d in block.spans)
    copies = sum(-(-p.staging.elements // threads) * _words(p.array.type)
                 for p in staged if p.copied and not p.staging.asynchronous)
    return tile.accumulators + operands + copies + _point_values(schedule, variance) + \
        _body_values(schedule, variance) + ADDRESSING - (tile.accumulators // TMA_SAVED if schedule.copies_by_tma else 0)


def _point_values(schedule: Schedule, variance) -> int:
    """Registers for the scalars a tiled stream's body reads from outside it
    that differ from point to point of a micro-tile (a covariance's means, a
    scaled element): each thread keeps one for each of its points along the
    spanned dims the value varies with. A staged input's row (`A[i]`) is
    not among them: the block's copy reads it, not the points."""
    block, words = schedule.block, 0
    for s in schedule.streams:
        if not s.tiled:
            continue
        staged = {id(p.array) for p in s.inputs if p.staged}
        nodes = [s.site.stream] + [e for part in children(s.site.stream, T.is_exp) if id(part) not in staged
                                   for e in descendants(part, T.is_exp)]
        inside = {b for e in nodes for b in _bound(e)}
        outside = {e.binder for e in nodes if isinstance(e, T.Var)} - inside
        for b in outside:
            dims = variance.of(b) & frozenset(block.spans)
            if dims and isinstance(b.type, Scalar):
                words += math.prod(block.micro(d) for d in dims) * max(1, element_bytes(b.type) // 4)
    return words


def _body_values(schedule: Schedule, variance) -> int:
    """Registers for the scalars a tiled stream's body computes for each
    point beside its accumulators: the `let`s of its body and the values its
    inner loops carry, one for each of a thread's points along the spanned
    dims they vary with (an online softmax's score, maximum and scale, a
    dot product's sum: ptxas holds every point's at once, 119 registers for
    attention_bf16's 8 points where the tile and its operands made 80).
    Not the `let`s of a loop over the chunk whose body has no inner loop: a
    straight-line update ptxas finishes point by point (a squared
    difference's `t`: 99 registers where counting it made 176)."""
    block, words, seen = schedule.block, 0, set()
    spans = frozenset(block.spans)
    for s in schedule.streams:
        if not s.tiled:
            continue
        body = s.site.stream.body
        straight = {id(e) for e in descendants(body.body, T.is_exp)} if isinstance(body, T.Loop) and \
            not any(isinstance(e, T.Loop) for e in descendants(body.body, T.is_exp)) else set()
        for e in (e for e in descendants(body, T.is_exp) if id(e) not in straight):
            names = e.binders if isinstance(e, T.Let) else \
                e.params if isinstance(e, T.Loop) and e is not body else ()
            for b in names:
                dims = variance.of(b) & spans
                if id(b) not in seen and dims and isinstance(b.type, Scalar):
                    seen.add(id(b))
                    words += math.prod(block.micro(d) for d in dims) * max(1, element_bytes(b.type) // 4)
    return words


def _bound(e) -> tuple:
    """The names `e` binds."""
    if isinstance(e, T.Let):
        return e.binders
    if isinstance(e, T.Loop):
        return e.params + (e.index,) + e.results
    if isinstance(e, T.Stream):
        return (e.offset, e.chunk) + e.chunk_params + e.acc_params
    return ()


def _words(array_type) -> int:
    """32-bit registers one element of an array takes."""
    return max(1, element_bytes(array_type) // 4)


def shares_every_tile(schedule: Schedule) -> bool:
    """Every staged tile is read whole by every thread of the block: each
    staged input is invariant to every dim the block spans (a 1-D n-body, a
    grid of points summing over charges), none keeps a row of its own nor
    serves one dim only (a product's outer product). What coarsening needs,
    and the tuner tries."""
    spans = frozenset(schedule.block.spans)
    return all(spans <= p.invariant_to for s in schedule.streams if s.tiled for p in s.inputs if p.staged)


def _pipelined_streams(schedule: Schedule, ctx: Context) -> tuple[bool, ...]:
    """For each tiled stream, whether a 2-D micro-tile's tiles are copied by
    cp.async, ASYNC_STAGES chunks in the shared buffers (staging.py), instead
    of through registers:
    measured on an H200 (experiments/mm_pipeline.*), the matrix
    product went from 0.85x cuBLAS to 0.89x at 4096^3 and 0.90x at 8192^3
    with three stages; two stages were 4% slower than no cp.async. Each
    staged element must be a size cp.async moves (4 or 8 bytes), and each
    tile one of rows, as the product's are (staging.pipelines: a stream at a
    time); a tile every thread of the block shares is one element a thread
    to copy, and pipelining it deeper only takes registers (a 2-D grid
    summing charges spilled with it)."""
    tiled = [s for s in schedule.streams if s.tiled]
    if not micro_tile_async(ctx):
        return tuple(False for _ in tiled)
    moved = async_sizes(ctx)
    return tuple(pipelines([p for p in s.inputs if p.staged], lambda p: p.staging.rows, moved) for s in tiled)


def synchronous(tile: RegisterTile, threads: int, ctx: Context) -> RegisterTile:
    """The micro-tile with its tiles copied through registers instead (where
    cp.async's stages would not fit the shared memory a block may use)."""
    single = tile.registers - (tile.operands if tile.double_buffer else 0)
    double = _double_buffered(single, tile.operands, threads, ctx)
    return replace(tile, asynchronous=False, double_buffer=double, registers=single + (tile.operands if double else 0))


def _double_buffered(single: int, operands: int, threads: int, ctx: Context) -> bool:
    """Whether the next chunk's tiles are prefetched through registers:
    about as many registers again as the operands, within the budget and the
    register file (or as --double-buffer / --single-buffer say)."""
    fits = single + operands <= REGISTER_BUDGET and threads * (single + operands) <= ctx.device.register_file
    return (fits or ctx.options.double_buffer) and not ctx.options.single_buffer


def coarse_threads(block: BlockPlan, kernel: T.Kernel, ctx: Context, points: int) -> int:
    """Threads of a 1-D block whose threads take `points` each: fewer where
    a dim of known size would leave the block's last points past its end
    (a box of 512 particles, 4 points a thread: 128 threads); --tile's own."""
    (d,) = block.spans
    threads = block.extents[d]
    n = ctx.known_size(kernel.levels[d].size)
    if ctx.options.tile_for(d, 0) or n is None:
        return threads
    while threads > target.WARP and (threads // 2) * points >= n:
        threads //= 2
    return threads


def grid_blocks(kernel: T.Kernel, points: dict, ctx: Context) -> int | None:
    """The grid's block count where a block covers `points[d]` points along
    each dim d it spans (None: some size is known only at launch)."""
    count = 1
    for lv in kernel.levels:
        n = ctx.known_size(lv.size)
        if n is None:
            return None
        count *= -(-n // points.get(lv.dim, 1))
    return count


def fills(blocks: int, spans: int, multiprocessors: int) -> bool:
    """Whether a grid of `blocks` gives enough SMs a block for a micro-tile
    of a block spanning `spans` dims (GRID_SHARE)."""
    return blocks * GRID_SHARE[spans] >= multiprocessors


def operations_per_read(schedule: Schedule) -> float:
    """Arithmetic in the tiled streams' bodies (index arithmetic aside), in f32
    adds by its price (cost.price: a sin is 20; a read from global memory,
    which no micro-tile shares, LOAD_PRICE), for each distinct staged element
    they read."""
    ops, reads = 0, set()
    for s in schedule.streams:
        if not s.tiled:
            continue
        staged = {s.site.stream.chunk_params[n] for n, p in enumerate(s.inputs) if p.staged}
        stack = [s.site.stream.body]
        while stack:
            e = stack.pop()
            if isinstance(e, T.Index) and isinstance(e.array, T.Var) and e.array.binder in staged:
                reads.add(e)
                continue
            if isinstance(e, T.Index):  # a read in place (its indices are address arithmetic)
                ops += LOAD_PRICE
                continue
            ops += price(e) if isinstance(e, (T.BinOp, T.UnOp, T.Builtin)) else 0
            stack.extend(children(e, T.is_exp))
    return ops / max(1, len(reads))


def _registers(sizes, words: int, block: BlockPlan) -> tuple[int, int]:
    """(accumulator, operand) registers a thread of this micro-tile needs."""
    operands = sum(sizes[d] for d in block.spans)  # one register a point along each dim, per k
    return math.prod(sizes) * words, operands


def _over(sizes, words: int, threads: int, block: BlockPlan, register_file: int) -> bool:
    """Too many accumulators, or a block whose registers pass the register
    file (ptxas would cap each thread's and spill the rest)."""
    accumulators, operands = _registers(sizes, words, block)
    return accumulators > ACCUMULATORS or threads * (accumulators + operands + ADDRESSING) > register_file


def register_block(block: BlockPlan, tile: RegisterTile, ctx: Context, kernel: T.Kernel) -> BlockPlan:
    """The block with fewer threads per dim, each computing the micro-tile
    (a coarsened 1-D block keeps its threads where the dim is long enough)."""
    if len(block.spans) == 1:
        (d,) = block.spans
        threads = coarse_threads(block, kernel, ctx, tile.sizes[d])
        return replace(block, extents=tuple(threads if x == d else e for x, e in enumerate(block.extents)),
                       register=tile)
    extents = tuple(ctx.options.tile_for(d, THREADS) if d in block.spans else 1 for d in range(block.rank))
    return replace(block, extents=extents, register=tile)


def _reuse_dims(schedule: Schedule) -> frozenset:
    spans = frozenset(schedule.block.spans)
    return frozenset(d for s in schedule.streams if s.tiled for p in s.inputs if p.staged
                     for d in p.invariant_to & spans)


def _accumulator_words(schedule: Schedule) -> int:
    """32-bit registers every point keeps across the streams: their accumulators."""
    return sum(max(1, element_bytes(p.type) // 4) if isinstance(p.type, Scalar) else ACCUMULATORS
               for s in schedule.streams for p in s.site.stream.acc_params)


def _given(ctx: Context, d: int) -> int | None:
    if not ctx.register_sizes:
        return None
    sizes = ctx.register_sizes
    return sizes[0] if len(sizes) == 1 else (sizes[d] if d < len(sizes) else None)


def _small(kernel: T.Kernel, d: int, ctx: Context) -> bool:
    """A dim known to be shorter than a register-tiled block's side."""
    n = ctx.known_size(kernel.levels[d].size)
    return n is not None and n < THREADS * MICRO


def _group(schedule: Schedule, sizes) -> int:
    """Consecutive points per thread: one 16-byte read of the widest element."""
    widest = max((element_bytes(p.array.type) for s in schedule.streams for p in s.inputs if p.staged), default=4)
    group = GROUP_BYTES // widest
    for n in sizes:
        if n > 1:
            group = math.gcd(group, n)
    return group
