"""Steps 2 and 3 of `--show-transformed` for a register-tiled plan (and a
fissioned fold's pairs' kernel): the kernel program the register tiling
rewrites produced (transform/register_tile.py), printed after strip-mining,
after interchange and after sequentialising (a kernel without a register
tile: as lower writes it). Not a drawing: lower_schedule's own output.

Printed for reading, not as the .cu has it: the copies synchronous, one
buffer a tile (the kernel's pipeline of cp.async or prefetching registers is
orthogonal to the rewrites; `--show-rewrites` prints the kernel itself),
each copy one line (what it copies, and where), and each map over a
thread's points drawn as a loop `point_...` until sequentialise unrolls it.
"""
from __future__ import annotations

import dataclasses

from .. import kir
from ..analyse import Analysis, Schedule
from ..analyse.fission import FissionPlan
from ..lower import launch_transposed, lower_schedule, reading
from ..lower.fission import pairs_file
from ..render.statements import statements
from ..transform.register_tile import as_loops

ONE_POINT = "one point a thread"
STEPS = {
    "strip-mine": "After strip-mining, each tiled dim's point P{d}_ becomes the thread's current "
                  "point of its micro-tile, its group G{d}_ and lane L{d}_ (the loops over them come next)",
    "interchange": "After interchange, the map over the thread's points (a loop point_...) "
                   "distributed over the statements and moved inward through the loops over chunks and over "
                   "k; the copies and barriers stay once a thread, and a load that fewer dims decide gets a "
                   "map of its own, read once into registers and reused by the other dims' points",
    "sequentialise": "After sequentialising, each map over points made loops nvcc unrolls, each "
                     "value that differs by point an array of registers",
}


def observed(a: Analysis, schedule: Schedule, file: str) -> tuple[kir.Kernel, list[tuple[str, tuple]]]:
    """The schedule's first version (32-bit offsets, vector copies, the
    launch's transposed inputs where it reads them), and its body before and
    after each register tiling rewrite (none without a register tile)."""
    seen: list[tuple[str, tuple]] = []
    arrays = launch_transposed(schedule)
    kernel = lower_schedule(a, reading(schedule, arrays), file, transposed=arrays,
                            observe=lambda name, body: seen.append((name, body)))
    return kernel, seen


def pairs(a: Analysis, file: str) -> tuple[Analysis, str] | None:
    """A fissioned fold's pairs' program, and the file lower names its kernels from."""
    return (a.fission.values, pairs_file(file)) if isinstance(a.fission, FissionPlan) else None


def kernel_steps(a: Analysis, file: str) -> list[tuple[str, str]]:
    """(the step's name, the kernel's body printed) after each register
    tiling rewrite of the plan's schedule, its copies synchronous; without a
    register tile, the one body lower writes ("one point a thread")."""
    kernel, seen = observed(a, synchronous(a.plan.schedule), file)
    steps = [(name, body) for name, body in seen if name in STEPS] or [(ONE_POINT, kernel.body)]
    return [(name, statements(_one_line_copies(as_loops(body)), "")) for name, body in steps]


def pipelined(a: Analysis) -> bool:
    """Whether the plan's kernel pipelines copies the steps draw synchronous."""
    return synchronous(a.plan.schedule) != a.plan.schedule


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


def _one_line_copies(body: tuple) -> tuple:
    """Each copy (its header, then its loop) as its header alone."""
    def block(stmts: tuple) -> tuple:
        out, skip = [], False
        for s in stmts:
            if not skip:
                copy = isinstance(s, kir.Comment) and s.copy
                out.append(dataclasses.replace(s, text=f"copyFastMem: {s.text}") if copy else s)
            skip = not skip and isinstance(s, kir.Comment) and s.copy
        return tuple(out)
    return kir.blocks_mapped(body, block)
