"""Stage `analyse`: inlined kernel -> `Analysis` (variance table and plan).

A pure pass: `analyse(kernel, options)` computes every record `tiler explain`
prints and code generation follows; nothing is decided later.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check import typed as T
from .fission import FissionPlan, NoFission, fission_plan
from .options import CLI_NAMES, Options, make_options, parse_tile, tile_text
from .plan import Plan, plan
from .records import Variance
from .schedule import BlockPlan, InputPlan, Schedule, StreamPlan, Threshold
from .variance import variance

__all__ = ["analyse", "Analysis", "Options", "parse_tile", "make_options", "tile_text", "CLI_NAMES", "BlockPlan", "StreamPlan", "InputPlan", "Schedule",
           "Threshold", "DEFAULT"]


@dataclass(frozen=True)
class Analysis:
    kernel: T.Kernel
    variance: Variance
    plan: Plan
    options: Options
    rewrites: tuple[str, ...] = ()  # the transform stage's rewrites that ran, in order
    # a fold over rows fissioned into a kernel of its pairs' values and one folding them (FissionPlan), or
    # found and not fissioned (NoFission, its reason); None: the kernel has no such fold
    fission: "FissionPlan | NoFission | None" = None

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


def analyse(kernel: T.Kernel, options: Options = DEFAULT) -> Analysis:
    var = variance(kernel)
    return Analysis(kernel, var, plan(kernel, var, options), options, fission=fission_plan(kernel, options, analyse))
