"""Wider tiles for products the warp groups compute from tiles TMA copies.

A block of 256 threads computes 128 x 128 outputs by default (8 x 8 points
a thread). On sm_90a's warp groups with TMA copies the instructions read
their operands from shared memory, so a thread's registers hold only its
accumulators, and a block of 128 x 256 outputs (8 x 16) fits: each chunk's
copies of A's tile then serve twice the outputs. Measured on an H200
(benchmarks/RESULTS.md, thirtieth session), it pays where
- the reduction is long: at least WIDE_STEPS instruction steps (each tile's
  pipeline fill and its 128 x 256 outputs' stores cost a share that shrinks
  with the reduction; a bf16 product 2048 long, 128 steps, ran 7% slower),
- the wider tiles' grid has at least WIDE_WAVES blocks an SM, and
- its last wave leaves no more SMs idle than the plain tiles' grid does
  (a TF32 product of 5120 x 5120 outputs: 800 blocks, 6.1 waves of one block
  an SM, ran 3% slower than 1,600 blocks in 12.1), and
- where the plain tiles run two blocks an SM (16-bit inputs), the wider
  grid has at least WIDE_WAVES_PAIRED blocks an SM: the plain grid's
  finer blocks even out its last wave and overlap one block's stores with
  the other's copies (bf16: 10-13% faster at 15.5 waves, 2-8% slower at
  6.1 and 8.7; 4% faster at 3.9, left out as the others below 12).
"""
from __future__ import annotations

from dataclasses import replace

from ..check import typed as T
from .context import Context
from .registers import grid_blocks
from .schedule import Schedule
from .views import Views

# Points a thread along A's rows and B's columns, and the blocks an SM the
# grid of such tiles must have at least (H200, thirtieth session:
# benchmarks/RESULTS.md)
WIDE_TILE = (8, 16)
WIDE_STEPS = 256
WIDE_WAVES = 3
WIDE_WAVES_PAIRED = 12
# the share of the SMs' block slots the last wave may use less than the plain grid's (the grids' own rounding)
WAVE_SLACK = 0.02


def wider(units: Schedule, kernel: T.Kernel, views: Views, ctx: Context, replan) -> Schedule:
    """`units` planned again (`replan(views, ctx)`) with WIDE_TILE's
    register tile where its grid has WIDE_WAVES blocks an SM (sizes known,
    no grid loop, no --register-tile) and the units still compute it with
    TMA copies; else `units`."""
    mu = units.matrix_units
    if ctx.options.register_tile or ctx.constraints.grid_loop or mu is None or not mu.used or not mu.tma:
        return units
    length = ctx.known_size(units.streams[0].inputs[0].array.type.shape[-1])
    if length is None or length < WIDE_STEPS * mu.shape.k:
        return units
    sizes = [1] * units.block.rank
    for d, n in zip(mu.dims, WIDE_TILE):
        sizes[d] = n
    blocks = grid_blocks(kernel, {d: units.block.extents[d] * sizes[d] for d in units.block.spans}, ctx)
    plain = grid_blocks(kernel, {d: units.block.points(d) for d in units.block.spans}, ctx)
    sms = ctx.device.multiprocessors
    least = WIDE_WAVES_PAIRED if (units.block.min_blocks or 1) > 1 else WIDE_WAVES
    if blocks is None or blocks < least * sms:
        return units
    wide = replan(views, ctx.constrained(register_tile=tuple(sizes)))
    done = wide.matrix_units
    if done is None or not done.used or not done.tma or wide.block.register is None:
        return units
    filled, before = (_last_wave(n, sms * (s.block.min_blocks or 1)) for n, s in ((blocks, wide), (plain, units)))
    if filled < before - WAVE_SLACK:
        return units
    return replace(wide, block=replace(wide.block, register_reason=(
        f"{wide.block.register_reason}; wider along dim {mu.dims[1]} for the warp groups' TMA-fed product: its "
        f"reduction of {length} is {length // mu.shape.k} instruction steps, at least {WIDE_STEPS}, its grid of "
        f"{blocks} blocks has at least {least} an SM and fills its waves' block slots as well as the plain "
        f"tiles' ({filled:.0%}), and each chunk's copies of {mu.inputs[0]} serve twice the outputs")))


def _last_wave(blocks: int, slots: int) -> float:
    """The share of the block slots a grid's waves use (its last wave's rounding)."""
    return blocks / (-(-blocks // slots) * slots)
