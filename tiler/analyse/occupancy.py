"""How many blocks an SM must hold at once (`__launch_bounds__`' second
bound, `--min-blocks`): a schedule parameter, the tuner's `min_blocks`.

Left out, ptxas picks a thread's registers itself, and keeps n-body's
kernels at 48 registers for 40 warps an SM. Told one block suffices, it
takes the registers the arithmetic of an interaction schedules best with
(66, 24 warps), and the kernel runs faster. Measured on an H200
(RESULTS.md, "Blocks an SM"): nbody3d at 2^18 47.35 -> 44.09 ms, with
`--fast-math` 41.05 -> 38.08; MRI-Q 1.233 -> 1.195; the note's n-body and
Rodinia's lavaMD within 0.2%. A register-tiled 2-D block is the opposite:
asked for one block, ptxas gave the product 130 registers and one block
an SM (3.03 -> 3.38 ms), so it keeps ptxas's choice (two blocks of 128),
unless it has interior blocks: under ptxas's choice their two bodies'
registers spilled (int_grid, 8 bytes). A kernel whose tiled streams read
or carry f16 or bf16 asks for one block too: each operation on them
converts to float and back, and under ptxas's choice an f16 product's
kernel spilled at 128 registers (104 bytes; 168 asked for one block), a
streamRed's over f16 rows at 96 (64 bytes; 115).
"""
from __future__ import annotations

from dataclasses import replace

from .context import Context
from .registers import shares_every_tile
from .schedule import Schedule

ONE_BLOCK = 1


def with_occupancy(schedule: Schedule, ctx: Context) -> Schedule:
    """The tiled schedule with the blocks an SM its kernel asks for, and why."""
    block = schedule.block
    if ctx.options.min_blocks is not None:
        given = ctx.options.min_blocks or None  # 0: ptxas's own choice
        why = f"{given} block(s) an SM, as --min-blocks gives" if given else "ptxas's own register choice " \
              "(--min-blocks 0)"
        return replace(schedule, block=replace(block, min_blocks=given, min_blocks_reason=why))
    if block.interior:
        return replace(schedule, block=replace(block, min_blocks=ONE_BLOCK, min_blocks_reason=(
            "one block an SM: with interior blocks the kernel has two bodies, whose registers ptxas spilled "
            "to keep more blocks")))
    if _narrow_streams(schedule):
        return replace(schedule, block=replace(block, min_blocks=ONE_BLOCK, min_blocks_reason=(
            "one block an SM: the tiled streams compute in 16-bit floats, each operation converted to float and "
            "back, and under ptxas's own register choice such kernels spilled")))
    if len(block.spans) == 1 and shares_every_tile(schedule) and not schedule.stages_to_coalesce:
        own = any(p.staging.own for s in schedule.streams if s.tiled for p in s.inputs if p.staged)
        shared = ("every staged tile is the same for all the block's threads (some read at each thread's own "
                  "index)" if own else "every thread reads every staged element")
        return replace(schedule, block=replace(block, min_blocks=ONE_BLOCK, min_blocks_reason=(
            f"one block an SM suffices: {shared}, so each thread's chain of arithmetic is the work, and the "
            "registers ptxas then takes schedule it better than more warps do")))
    return replace(schedule, block=replace(block, min_blocks_reason=(
        "ptxas's own register choice" + (": asked for one block an SM, 2-D register tiles (measured on the matrix "
                                         "product) took more registers than two blocks allow, and ran slower"
                                         if block.register is not None and len(block.spans) > 1 else ""))))


def _narrow_streams(schedule: Schedule) -> bool:
    """Whether a tiled stream stages or carries f16 or bf16 values."""
    tiled = [s for s in schedule.streams if s.tiled]
    staged = [p.array.type.elem for s in tiled for p in s.inputs if p.staged]
    carried = [p.type for s in tiled for p in s.site.stream.acc_params]
    return any(getattr(t, "is_narrow", False) for t in staged + carried)
