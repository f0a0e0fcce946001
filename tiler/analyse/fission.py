"""Whether a fold over rows is fissioned (kernel/fission.py finds the
shape), and the plans of its two kernels.

The fissioned versions compute the value of every (point, row) pair into
scratch memory first, then fold it. They pay for that array (written once,
read once: 8 bytes a pair in f32) and for a second launch, and win where a
pair costs a loop over its rows: the pairs' kernel is register-tiled over
both dimensions, where one thread a point reread every row from shared
memory (or global memory, where rows did not fit). The launch runs them
where the rows are at least `ROWS` (the register tile's extent along them:
fewer would leave most of each tile idle) and a pair's loop at least `WORK`
long. Measured on k-means (benchmarks/experiments/fission.py, H100): at a
loop of 64 the fold as written won at 128, 256 and 1,024 rows (1.1x to
1.5x); from 128 the fissioned versions won, 1.5x to 130x. They are raced
against the untiled kernel like every tiled version.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..check import typed as T
from ..check.types import Binder
from ..kernel import kernel_of
from ..kernel.fission import Fission, candidate, fission
from .options import Options

ROWS = 128  # rows (the second dimension of the pairs) from which the fissioned versions run
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
    gates, why = _gates(found, options)
    if gates is None:
        return NoFission(why)
    parts = fission(kernel, found)
    own = Options(sizes=options.sizes, max_shared=options.max_shared, fast_math=options.fast_math,
                  no_launch_timing=options.no_launch_timing, no_promote=options.no_promote,
                  keep_loops=options.keep_loops, multiprocessors=options.multiprocessors,
                  device_shared=options.device_shared, no_fission=True)
    promote, loops = not options.no_promote, not options.keep_loops
    values = analyse(kernel_of(T.Program("", parts.values, {}), promote, loops, False), own)
    fold = analyse(kernel_of(T.Program("", parts.fold, {}), promote, loops, False), own)
    if not values.tiled:
        return NoFission("the kernel of the pairs would not be tiled")
    value = found.let.binders[0].name
    reason = (f"`{value}` ({found.let.span.line}:{found.let.span.col}) reads no accumulator of the fold over the "
              f"rows of {', '.join(_name(a) for a in found.arrays)}: a 2-D kernel computes it for every "
              f"pair into scratch memory first ({parts.scratch}), register-tiled, and the fold reads it there")
    return FissionPlan(parts, values, fold, gates, reason)


def _gates(found, options: Options) -> tuple[tuple[Gate, ...] | None, str]:
    """The launch tests, those on sizes known now decided now."""
    known = dict(options.sizes)
    tests = ((found.length, ROWS, "rows"), (_length(found.inner), WORK, "a pair's loop"))
    gates = []
    for size, least, what in tests:
        if size is None:
            return None, "the length of a pair's loop is not a size of the program"
        value = size if isinstance(size, int) else known.get(size.name)
        if value is not None:
            if value < least:
                return None, f"{what}: {value}, fewer than {least}, do not pay for storing every pair"
            continue
        gates.append(Gate(size.name, least, what))
    return tuple(gates), ""


def _length(inner):
    """A loop's bound or a stream's length: a number or a size's binder (None: neither)."""
    n = inner.length if isinstance(inner, T.Stream) else inner.bound
    if isinstance(n, T.Lit) and isinstance(n.value, int):
        return n.value
    if isinstance(n, T.Var) and n.binder.kind == "size":
        return n.binder
    if isinstance(n, (int, Binder)):
        return n if isinstance(n, int) or n.kind == "size" else None
    return None


def _name(a) -> str:
    return a.binder.name if isinstance(a, T.Var) else "an array"
