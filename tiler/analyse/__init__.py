"""Stage `analyse`: inlined kernel -> `Analysis` (variance table and plan).

A pure pass: `analyse(kernel, options)` computes every record `tiler explain`
prints and code generation follows; nothing is decided later.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .. import target
from ..check import typed as T
from .context import Constraints, Context
from .options import CLI_NAMES, Options, make_options, parse_tile, tile_text
from .plan import Plan, plan
from .records import Variance
from .schedule import BlockPlan, InputPlan, Schedule, StreamPlan, Threshold
from .variance import variance

__all__ = ["analyse", "Analysis", "Options", "Context", "Constraints", "parse_tile", "make_options", "tile_text", "CLI_NAMES", "BlockPlan", "StreamPlan", "InputPlan", "Schedule",
           "Threshold", "DEFAULT"]


@dataclass(frozen=True)
class Analysis:
    kernel: T.Kernel
    variance: Variance
    plan: Plan
    options: Options  # what the user asked
    device: target.Device = target.DEFAULT_DEVICE  # the GPU planned for
    # where stage `kernel` speculated a stream: the program as written, planned, whose untiled kernel the
    # versions fall back to and race (versions.planned.untiled_build)
    as_written: Analysis | None = field(default=None, repr=False, compare=False)

    @property
    def context(self) -> Context:
        """What the plan was made under (the planner's own constraints aside: each schedule records its own)."""
        return Context(self.options, self.device)

    @property
    def schedule(self) -> Schedule:
        return self.plan.schedule

    @property
    def block(self) -> BlockPlan:
        return self.plan.schedule.block

    @property
    def streams(self) -> tuple[StreamPlan, ...]:
        return self.plan.schedule.streams

    @property
    def tiled(self) -> bool:
        return self.plan.schedule.tiled


DEFAULT = Options()


def analyse(kernel: T.Kernel, options: Options = DEFAULT, device: target.Device = target.DEFAULT_DEVICE) -> Analysis:
    """`device`: the GPU planned for (its SM count, its shared memory).
    Work stage `kernel` moved to the level where it varies pays only where
    the row's threads share it: where the plan splits no row (or only for
    few points: reductions.FEW_POINTS_AN_SM), the kernel as
    written is planned instead (measured on generated programs: moved but
    unshared, a reduction whose inputs the tiled kernel staged ran up to
    1.19x slower), its records saying why nothing moved. A kernel with a
    stream speculated (kernel/speculate.py) whose plan stages nothing is
    planned as written instead."""
    a = _analysed(kernel, options, device)
    if kernel.unspeculated is None:
        return a
    # a stream computed at every point pays only where a block stages it (kernel/speculate.py): untiled, the
    # program as written
    written = _analysed(kernel.unspeculated, options, device)
    return dataclasses.replace(a, as_written=written) if a.plan.schedule.tiled else written


def _analysed(kernel: T.Kernel, options: Options, device: target.Device) -> Analysis:
    var = variance(kernel)
    a = Analysis(kernel, var, plan(kernel, var, Context(options, device)), options, device)
    if kernel.written is None or a.plan.split is not None and a.plan.split.active and not a.plan.split.few:
        return a  # (a split for few points only leaves the many-point launches to the tiled kernel: as written)
    why = a.plan.split.reason if a.plan.split is not None else "rows are not split (--no-split)"
    written = dataclasses.replace(kernel.written, hoisted=tuple(_kept(h, why) for h in kernel.hoisted))
    var = variance(written)
    return Analysis(written, var, plan(written, var, Context(options, device)), options, device)


def _kept(h, why: str):
    """A move the plan does not take: the work stays where it was written."""
    if not h.moved or h.runs < 0:  # (work computed once a launch is so in the kernel as written too)
        return h
    if h.written < 0:  # (written in main's prelude, kernel.hoist.PRELUDE)
        return dataclasses.replace(h, runs=h.written, reason=f"written before the maps, but moved, the row's threads "
                                   f"would not share it ({why}): every thread computes it before its point, as "
                                   "written")
    return dataclasses.replace(h, runs=h.written, reason=f"it reads nothing of its map level, but moved, the row's "
                               f"threads would not share it ({why}): it stays, where the tiled kernel can stage "
                               "what it reads")
