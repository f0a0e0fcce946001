"""Register tiling (the design note's last section): whether each thread of a
2-D block computes a micro-tile of points instead of one, and how large.

Along a dim the block spans, a staged input invariant to that dim is the
same for every point of the micro-tile along it: strip-mining the dim and
running the strip inside the thread reads that value from shared memory
once into a register and reuses it across the strip. The micro-tile is as
large as the accumulators allow (every point keeps its own), and a block of
16 x 16 threads then covers 128 x 128 points by default.
"""
from __future__ import annotations

import math
from dataclasses import replace

from .. import target
from ..check import typed as T
from ..check.types import Scalar
from ..interp.values import dtype
from .options import Options
from .records import dims_text
from .schedule import BlockPlan, RegisterTile, Schedule

MICRO = 8  # points a thread takes along a dim with reuse
THREADS = 16  # threads along each dim of a register-tiled block
GROUP_BYTES = 16  # one 128-bit shared read: 4 f32 points, 2 f64
ACCUMULATORS = 64  # 32-bit registers for accumulators (of 255), leaving room for operands and addresses
ADDRESSING = 48  # registers for indices, addresses and loop state (ptxas: 128 in all for mm's 8 x 8 tile)
# registers a thread may use with two 256-thread blocks on an SM (65536 / 512):
# double buffering through registers pays only where it stays under this
# (measured on an H200: mm's 8 x 8 tile reached 147 registers with it and ran
# 9% slower than without; see RESULTS.md)
REGISTER_BUDGET = 128


def register_tile(schedule: Schedule, kernel: T.Kernel, options: Options) -> tuple[RegisterTile | None, str]:
    """The micro-tile for this schedule's block, or None and why not."""
    block = schedule.block
    if options.no_register_tile:
        return None, "register tiling is off (--no-register-tile)"
    if not schedule.tiled:
        return None, "nothing is staged in shared memory to reuse from registers"
    if len(block.spans) != 2:
        return None, "a 1-D block: its points share no staged value along a second dim (no micro-tile)"
    reuse = _reuse_dims(schedule)
    words = max(1, _accumulator_words(schedule))
    sizes = [1] * block.rank
    for d in block.spans:
        wanted = _given(options, d)
        if wanted is not None:
            sizes[d] = wanted
        elif d in reuse and not _small(kernel, d, options):
            sizes[d] = MICRO
    threads = math.prod(options.tile_for(d, THREADS) for d in block.spans)
    while _over(sizes, words, threads, block) and max(sizes) > 1 and not any(options.register_tile):
        sizes[sizes.index(max(sizes))] //= 2  # every point keeps its accumulators: halve the larger side
    if math.prod(sizes) == 1:
        return None, (f"no staged input is invariant to a dim wide enough for a micro-tile (dims "
                      f"{dims_text(block.spans)})")
    group = _group(schedule, sizes)
    accumulators, operands = _registers(sizes, words, block)
    single = accumulators + operands + ADDRESSING
    # prefetching the next tiles costs about as many registers again as the operands
    double = ((single + operands <= REGISTER_BUDGET and threads * (single + operands) <= target.REGISTER_FILE)
              or options.double_buffer) and not options.single_buffer
    tile = RegisterTile(tuple(sizes), group, accumulators, single + (operands if double else 0), double)
    shares = "; ".join(f"{p.name} is read once for the {sizes[d]} points along dim {d}"
                       for s in schedule.streams for p in s.inputs if p.staged
                       for d in sorted(p.invariant_to & frozenset(block.spans)) if sizes[d] > 1)
    return tile, f"{' x '.join(str(sizes[d]) for d in reversed(block.spans))} points a thread: {shares}"


def _registers(sizes, words: int, block: BlockPlan) -> tuple[int, int]:
    """(accumulator, operand) registers a thread of this micro-tile needs."""
    operands = sum(sizes[d] for d in block.spans)  # one register a point along each dim, per k
    return math.prod(sizes) * words, operands


def _over(sizes, words: int, threads: int, block: BlockPlan) -> bool:
    """Too many accumulators, or a block whose registers pass the register
    file (ptxas would cap each thread's and spill the rest)."""
    accumulators, operands = _registers(sizes, words, block)
    return accumulators > ACCUMULATORS or threads * (accumulators + operands + ADDRESSING) > target.REGISTER_FILE


def register_block(block: BlockPlan, tile: RegisterTile, options: Options) -> BlockPlan:
    """The block with fewer threads per dim, each computing the micro-tile."""
    extents = tuple(options.tile_for(d, THREADS) if d in block.spans else 1 for d in range(block.rank))
    return replace(block, extents=extents, register=tile)


def _reuse_dims(schedule: Schedule) -> frozenset:
    spans = frozenset(schedule.block.spans)
    return frozenset(d for s in schedule.streams if s.tiled for p in s.inputs if p.staged
                     for d in p.invariant_to & spans)


def _accumulator_words(schedule: Schedule) -> int:
    """32-bit registers every point keeps across the streams: their accumulators."""
    return sum(max(1, dtype(p.type).itemsize // 4) if isinstance(p.type, Scalar) else ACCUMULATORS
               for s in schedule.streams for p in s.site.stream.acc_params)


def _given(options: Options, d: int) -> int | None:
    if not options.register_tile:
        return None
    sizes = options.register_tile
    return sizes[0] if len(sizes) == 1 else (sizes[d] if d < len(sizes) else None)


def _small(kernel: T.Kernel, d: int, options: Options) -> bool:
    """A dim known to be shorter than a register-tiled block's side."""
    n = options.known_size(kernel.levels[d].size)
    return n is not None and n < THREADS * MICRO


def _group(schedule: Schedule, sizes) -> int:
    """Consecutive points per thread: one 16-byte read of the widest element."""
    widest = max((dtype(p.array.type).itemsize for s in schedule.streams for p in s.inputs if p.staged), default=4)
    group = GROUP_BYTES // widest
    for n in sizes:
        if n > 1:
            group = math.gcd(group, n)
    return group
