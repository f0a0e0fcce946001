"""Stage `analyse`: inlined kernel -> `Analysis` (variance table and tiling plan).

A pure pass: `analyse(kernel, options)` computes every record `tiler explain`
prints and code generation follows; nothing is decided later.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check import typed as T
from .plan import BlockPlan, InputPlan, Options, StreamPlan, parse_tile, plan
from .records import Variance
from .variance import variance

__all__ = ["analyse", "Analysis", "Options", "parse_tile", "BlockPlan", "StreamPlan", "InputPlan"]


@dataclass(frozen=True)
class Analysis:
    kernel: T.Kernel
    variance: Variance
    block: BlockPlan
    streams: tuple[StreamPlan, ...]
    options: Options

    @property
    def tiled(self) -> bool:
        return any(s.tiled for s in self.streams)


DEFAULT = Options()


def analyse(kernel: T.Kernel, options: Options = DEFAULT) -> Analysis:
    var = variance(kernel)
    block, streams = plan(kernel, var, options)
    return Analysis(kernel, var, block, streams, options)
