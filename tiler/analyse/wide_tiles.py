"""Wider tiles for products the warp groups compute from tiles TMA copies.

A block of 256 threads computes 128 x 128 outputs by default (8 x 8 points
a thread). On sm_90a's warp groups with TMA copies the instructions read
their operands from shared memory, so a thread's registers hold only its
accumulators, and a block of 128 x 256 outputs (8 x 16) fits, each warp
group's half one 64 x 256 instruction a step: each chunk's copies of A's
tile then serve twice the outputs, and the instructions read A's tile half
as often. Measured on an H200 (benchmarks/RESULTS.md, thirtieth session),
it pays where
- the reduction is long: at least WIDE_STEPS instruction steps (each tile's
  pipeline fill and its 128 x 256 outputs' stores cost a share that shrinks
  with the reduction; on one 64 x 256 instruction a group, products of 64
  steps ran 12-13% faster wide, bf16 and TF32; shorter ones were not
  measured), and
- the wider tiles' grid has at least WIDE_WAVES blocks an SM.
From 3.9 waves up, every product measured ran 4-27% faster (bf16 and TF32,
including grids whose last wave is nearly empty).
"""
from __future__ import annotations

from dataclasses import replace

from .. import target
from ..check import typed as T
from .context import Context
from .registers import grid_blocks
from .schedule import Schedule
from .tma_boxes import tma_refusal
from .views import Views

# Points a thread along A's rows and B's columns, and the blocks an SM the
# grid of such tiles must have at least (H200, thirtieth and thirty-first
# sessions: benchmarks/RESULTS.md)
WIDE_TILE = (8, 16)
WIDE_STEPS = 64
WIDE_WAVES = 3


def wider(units: Schedule, kernel: T.Kernel, views: Views, ctx: Context, replan) -> Schedule:
    """`units` planned again (`replan(views, ctx)`) with WIDE_TILE's
    register tile where its grid has WIDE_WAVES blocks an SM (sizes known,
    no grid loop, no --register-tile or --tile), lowering copying its tiles
    by TMA before and after (tma_boxes.py); else `units`."""
    mu = units.matrix_units
    if ctx.options.register_tile or ctx.options.tile or tma_refusal(units, kernel, views, ctx):
        return units
    length = ctx.known_size(units.streams[0].inputs[0].array.type.shape[-1])
    if length is None or length < WIDE_STEPS * mu.shape.k:
        return units
    sizes = [1] * units.block.rank
    for d, n in zip(mu.dims, WIDE_TILE):
        sizes[d] = n
    blocks = grid_blocks(kernel, {d: units.block.extents[d] * sizes[d] for d in units.block.spans}, ctx)
    sms = ctx.device.multiprocessors
    if blocks is None or blocks < WIDE_WAVES * sms:
        return units
    wide = replan(views, ctx.constrained(register_tile=tuple(sizes)))
    done = wide.matrix_units
    if done is None or not done.used or wide.block.register is None or tma_refusal(wide, kernel, views, ctx) or \
            done.shape.n != max(target.WGMMA_N):  # (as measured: one 64 x 256 instruction a group a step)
        return units
    return replace(wide, block=replace(wide.block, register_reason=(
        f"{wide.block.register_reason}; wider along dim {mu.dims[1]} for the warp groups' TMA-fed product: its "
        f"reduction of {length} is {length // mu.shape.k} instruction steps, at least {WIDE_STEPS}, its grid of "
        f"{blocks} blocks has at least {WIDE_WAVES} an SM, and each chunk's copies of {mu.inputs[0]} serve twice the "
        "outputs")))

