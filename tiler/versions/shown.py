"""The kernels explain shows being rewritten (`--show-rewrites`,
`--show-transformed`), as builds: the plan's first version (32-bit offsets,
vector copies, the launch's transposed inputs where it reads them) and a
fissioned fold's pairs' kernel; for `--show-transformed`, with every copy
synchronous (one buffer a tile, no cp.async or prefetch), which the
register tiling rewrites do not touch. Lowered, each keeps its body after
each rewrite (kir.Kernel.trace), which explain prints.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..analyse import Analysis, Schedule
from .fission import FissionPlan, pairs_file
from .planned import launch_transposed, reading
from .records import BOUNDED, Build, Versions


@dataclass(frozen=True)
class Shown:
    label: str  # what the kernel is, for a heading ("" for the program's own)
    build: Build
    schedule: Schedule  # the plan's schedule it is lowered from (as planned, before `synchronous`)


def shown_builds(vs: Versions, synchronous_copies: bool = False) -> list[Shown]:
    """The program's kernel and a fissioned fold's pairs' kernel."""
    out = [Shown("", _first(vs.analysis, vs.file, synchronous_copies), vs.analysis.plan.schedule)]
    if isinstance(vs.fission, FissionPlan):
        values = vs.fission.values
        if values.plan.in_place is not None:  # (the fissioned versions read its operands in place: fission.py)
            values = dataclasses.replace(values, plan=values.plan.in_place)
        out.append(Shown("the fissioned pairs' kernel: ", _first(values, pairs_file(vs.file), synchronous_copies),
                         values.plan.schedule))
    return out


def _first(a: Analysis, file: str, synchronous_copies: bool) -> Build:
    schedule = synchronous(a.plan.schedule) if synchronous_copies else a.plan.schedule
    arrays = launch_transposed(schedule)
    return Build(a, file, schedule.tiled, reading(schedule, arrays), transposed=arrays,
                 suffix=BOUNDED if schedule.bounds else "")


def pipelined(schedule: Schedule) -> bool:
    """Whether the schedule's kernel pipelines copies that `synchronous` draws synchronous."""
    return synchronous(schedule) != schedule


def synchronous(schedule: Schedule) -> Schedule:
    """The schedule with every copy made by the block's threads through
    registers, one buffer a tile (no cp.async, no prefetch)."""
    def plain(p):
        if p.staging is None:
            return p
        return dataclasses.replace(p, staging=dataclasses.replace(p.staging, buffers=1, asynchronous=False))
    streams = tuple(dataclasses.replace(s, inputs=tuple(plain(p) for p in s.inputs)) for s in schedule.streams)
    block = schedule.block
    if block.register is not None:
        register = dataclasses.replace(block.register, double_buffer=False, asynchronous=False)
        block = dataclasses.replace(block, register=register)
    slabs = tuple(dataclasses.replace(r, asynchronous=False) for r in schedule.slabs)
    return dataclasses.replace(schedule, streams=streams, block=block, slabs=slabs)
