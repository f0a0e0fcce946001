"""Interior blocks: whether a tiled kernel's blocks that lie wholly inside
every dimension run a second copy of the body without the bounds clamps
and store guards (the blocks at the edges keep them), a schedule parameter
(`--interior`, the tuner's `interior` family), off unless asked.

tiler's clamps are not in the inner loop: a copy's row clamp depends on the
thread and the block alone, so nvcc computes it once, outside the chunk
loop, and full chunks need no guard along the stream. What the second copy
of the body costs is code and registers: without the clamps nvcc keeps
more addresses live. It is offered where the clamps are most numerous, a
register tile's copies and its stores; a kernel whose copies are rows
staged to coalesce (dozens of copies a thread, each with its own 64-bit
address once unclamped) spills, so it keeps one body.
"""
from __future__ import annotations

from dataclasses import replace

from .context import Context
from .schedule import Schedule

UNTILED_INTERIOR = "untiled: a thread past the end of a dimension leaves before the body, so nothing is clamped"
UNCLAMPED = "blocks wholly inside every dimension run a copy of the body without the bounds clamps and store guards; " \
            "the blocks at the edges keep them (--interior)"
CLAMPED = "one body for every block, bounds clamps included: its clamps are computed once, outside the chunk loop " \
          "(--interior gives inner blocks a copy without them)"
NO_REGISTER_TILE = "one body for every block: one point a thread has a single clamp, computed once"
COALESCING = "one body for every block: unclamped, the copies of rows staged to coalesce keep an address each live " \
             "(ptxas spills)"


def with_interior(schedule: Schedule, ctx: Context) -> Schedule:
    """The tiled schedule with the interior decision and why."""
    block = schedule.block
    if block.register is None:
        chosen, reason = False, NO_REGISTER_TILE
    elif schedule.stages_to_coalesce:
        chosen, reason = False, COALESCING
    else:
        chosen, reason = ctx.options.interior, UNCLAMPED if ctx.options.interior else CLAMPED
    return replace(schedule, block=replace(block, interior=chosen, interior_reason=reason))
