"""Whether a fold over rows is fissioned (kernel/fission.py finds the
shape), and the plans of its two kernels.

The fissioned versions compute the value of every (point, row) pair into
scratch memory first, then fold it. They pay for that array (written once,
read once: 8 bytes a pair in f32) and for a second launch, and win where a
pair costs a loop over its rows: the pairs' kernel is register-tiled over
both dimensions, where one thread a point reread every row from shared
memory (or global memory, where rows did not fit). The launch runs them
where the rows fill at least one of the pairs' block tiles along them (the
plan's threads times its register tile there: 128 for 16 threads of 8 pairs;
fewer would leave most of each tile idle), and are at least `ROWS` (the fewest
measured), and a pair's loop is at least `WORK` long. Measured on k-means (benchmarks/experiments/fission.py, H100): at a
loop of 64 the fold as written won at 128, 256 and 1,024 rows (1.1x to
1.5x); from 128 the fissioned versions won, 1.5x to 130x. They are raced
against the untiled kernel like every tiled version.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..check import typed as T
from ..kernel import kernel_of
from ..kernel.fission import Fission, array_names, candidate, fission, trip_count
from .options import Options

ROWS = 128  # the fewest rows the fissioned versions were measured to win at (k-means, 128 centres)
WORK = 128  # a pair's loop length from which they run (measured: at 64 the fold as written won)


@dataclass(frozen=True)
class Gate:
    """A launch test of the fissioned versions: `size >= least`."""

    size: str  # a size's name
    least: int
    what: str  # in words, for explain


@dataclass(frozen=True)
class FissionPlan:
    fission: Fission
    values: object  # Analysis of the pairs' kernel
    fold: object  # Analysis of the fold reading them
    gates: tuple[Gate, ...]  # all must hold at launch (sizes known now are tested here)
    reason: str  # what was fissioned, in words


@dataclass(frozen=True)
class NoFission:
    """A fold of the fissionable shape that is not fissioned, and why."""

    reason: str


def fission_plan(kernel: T.Kernel, options: Options, analyse) -> FissionPlan | NoFission | None:
    """The plan of a fissionable fold (`analyse` plans each of its kernels),
    NoFission with the reason where one is found but not fissioned, None
    where the kernel has none."""
    found, why = candidate(kernel) if not options.no_tile else (None, "")
    if found is None:
        return NoFission(why) if why else None
    if options.no_fission:
        return NoFission("fission is off (--no-fission)")
    if options.steers_schedule():
        return NoFission("an option steers the schedule of the kernel as written")
    parts = fission(kernel, found)
    # the user's options (none steers the schedule: above), the parts not fissioned again
    own = dataclasses.replace(options, no_fission=True)
    promote, loops, _ = options.kernel_stage()  # (the parts' streamable loops are not listed for explain)
    values = analyse(kernel_of(T.Program("", parts.values, {}), promote, loops, False), own)
    fold = analyse(kernel_of(T.Program("", parts.fold, {}), promote, loops, False), own)
    if not values.tiled:
        return NoFission("the kernel of the pairs would not be tiled")
    gates, why = _gates(found, options, max(_tile_rows(values.block), ROWS))
    if gates is None:
        return NoFission(why)
    value = found.let.binders[0].name
    tiled = "register-tiled" if values.block.register is not None else "tiled"
    reason = (f"`{value}` ({found.let.span.line}:{found.let.span.col}) reads no accumulator of the fold over the "
              f"rows of {array_names(found.arrays)}: a 2-D kernel computes it for every "
              f"pair into scratch memory first ({parts.scratch}), {tiled}, and the fold reads it there")
    return FissionPlan(parts, values, fold, gates, reason)


def _tile_rows(block) -> int:
    """The rows one block of the pairs' kernel covers (dimension 1: threads
    along it, times the points a thread takes there)."""
    return block.extents[1] * (block.register.sizes[1] if block.register is not None else 1)


def _gates(found, options: Options, least_rows: int) -> tuple[tuple[Gate, ...] | None, str]:
    """The launch tests, those on sizes known now decided now: the rows at
    least `least_rows`; a pair's loops
    (its outermost ones) at least WORK long, one of them enough."""
    value = options.known_size
    gates = []
    rows = value(found.length)
    if rows is not None and rows < least_rows:
        return None, f"rows: {rows}, fewer than {least_rows}, do not pay for storing " \
                     "every pair"
    if rows is None:
        gates.append(Gate(found.length.name, least_rows, "rows"))
    lengths = [trip_count(x) for x in found.loops]
    if any(n is not None and value(n) is not None and value(n) >= WORK for n in lengths):
        return tuple(gates), ""  # a loop long enough, known now
    open_ = [n for n in lengths if n is not None and value(n) is None]
    if not open_:
        longest = max((value(n) for n in lengths if n is not None), default=None)
        if longest is None:
            return None, "the length of a pair's loop is not a size of the program"
        return None, f"a pair's loop: {longest}, fewer than {WORK}, does not pay for storing every pair"
    return tuple(gates) + (Gate(open_[0].name, WORK, "a pair's loop"),), ""
