"""A fold over rows fissioned (kernel/fission.py finds the shape and writes
the two kernel programs): whether it is, the plans of its two kernels, and
the fissioned versions.

The fissioned versions compute the value of every (point, row) pair into
scratch memory first, then fold it. They pay for that array (written once,
read once: 8 bytes a pair in f32) and for a second launch, and win where a
pair costs a loop over its rows: the pairs' kernel is register-tiled over
both dimensions, where one thread a point reread every row from shared
memory (or global memory, where rows did not fit). Which wins depends on
how well the fold as written is tiled: on k-means (experiments/fission.py
in tiler's repository, H100), at a loop of 64 the fold as written won at
128, 256 and 1,024 rows (1.1x to 1.5x), from 128 the fissioned versions
won, 1.5x to 130x; a batched bilinear form whose fold as written re-copies
a vector for every row lost 4x to its peer at 64 rows and a loop of 64.
So a first launch races a fissioned version against the version the
kernel as written would run (the next that is not fissioned), then the
winner against the untiled kernel, and the gates keep out only sizes too
small to be worth the race: rows at least `ROWS` and a pair's loop at
least `WORK` long. Where the value varies with none of the innermost
levels' points (a kernel of several levels), the fold as written computes
it once for each of them: fissioned, once in all, so the loop it must
reach is WORK over their count.

Each fissioned version pairs a version of the pairs' program (its 32-bit
tiled ones that read in place: the register-tiled one, for grids that fill
the GPU, then one point a thread for smaller ones) with one of the fold's
(its 32-bit versions that read in place in one kernel: those that split
rows among threads, then its last, which runs at any size). They come first
in the module, under the plan's gates; the module's own versions follow for
every launch they do not take.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ..analyse import Analysis, analyse
from ..check import typed as T
from ..errors import CompilerBug
from ..kernel import kernel_of
from ..kernel.fission import Fission, array_names, candidate, fission, trip_count
from ..source import program_stem
from .records import Gate, Kind, OnStage, Version, all_of

ROWS = 32  # the fewest rows a fissioned version is raced at (a warp of them a point)
WORK = 32  # the shortest pair's loop it is raced at (a shorter value is cheap to compute where it is written)
MOST_SPLIT = 3  # the fold's split versions kept (a warp, 1024 threads, 256 threads a row)
# kinds no stage takes: fissioned already, or raced against the next version (which a stage is not)
RACED_AHEAD = (Kind.FISSIONED, Kind.WINDOW, Kind.STRIDED, Kind.MARCH)


@dataclass(frozen=True)
class Gating:
    """A launch test of the fissioned versions: `size >= least`."""

    size: str  # a size's name
    least: int
    what: str  # in words, for explain


@dataclass(frozen=True)
class FissionPlan:
    fission: Fission
    values: Analysis  # the pairs' kernel
    fold: Analysis  # the fold reading them
    gates: tuple[Gating, ...]  # all must hold at launch (sizes known now are tested here)
    reason: str  # what was fissioned, in words


@dataclass(frozen=True)
class NoFission:
    """A fold of the fissionable shape that is not fissioned, and why."""

    reason: str


def fission_plan(a: Analysis) -> FissionPlan | NoFission | None:
    """The plan of a fissionable fold, NoFission with the reason where one is
    found but not fissioned, None where the kernel has none."""
    kernel, options = a.kernel, a.options
    found, why = candidate(kernel) if not options.no_tile else (None, "")
    if found is None:
        return NoFission(why) if why else None
    if options.no_fission:
        return NoFission("fission is off (--no-fission)")
    if options.steers_schedule():
        return NoFission("an option steers the schedule of the kernel as written")
    parts = fission(kernel, found)
    promote, loops, _, hoist, speculate = options.kernel_stage()  # (the parts' streamable loops are not listed)
    values = analyse(kernel_of(T.Program("", parts.values, {}), promote, loops, False, hoist, speculate), options,
                     a.device)
    fold = _raced_as_a_whole(analyse(kernel_of(T.Program("", parts.fold, {}), promote, loops, False, hoist,
                                               speculate), options, a.device))
    if not values.tiled:
        return NoFission("the kernel of the pairs would not be tiled")
    inside, exact = _inside(kernel, found.depth, options)
    gates, why = _gates(found, options, ROWS, -(-WORK // inside))
    if gates is None:
        return NoFission(why)
    value = found.let.binders[0].name
    tiled = "register-tiled" if values.block.register is not None else "tiled"
    count = f"{inside}" if exact else f"at least {inside}"
    once = f", once for the {count} points of the levels inside, which it does not vary with" if inside > 1 else ""
    reason = (f"`{value}` ({found.let.span.line}:{found.let.span.col}) reads no accumulator of the fold over the "
              f"rows of {array_names(found.arrays)}: a {found.depth + 2}-D kernel computes it for every "
              f"pair into scratch memory first ({parts.scratch}), {tiled}{once}, and the fold reads it there"
              + (f", beside {array_names(parts.companions, kernel)}" if parts.companions else ""))
    return FissionPlan(parts, values, fold, gates, reason)


def _raced_as_a_whole(fold: Analysis) -> Analysis:
    """The fold's analysis without a warp a row for own rows (reductions.Split.own_warp): a fissioned
    version races the kernel as written, never the fold's other versions, which a version raced ahead of them
    would leave unreachable."""
    split = fold.plan.split
    if split is None or not split.own_warp:
        return fold
    return dataclasses.replace(fold, plan=dataclasses.replace(fold.plan, split=dataclasses.replace(split,
                                                                                                 own_warp=False)))


def pairs_file(file: str) -> str:
    """The name the pairs' program is lowered under (its kernels are named from it)."""
    return f"{program_stem(file)}_pairs.fut"


def fold_file(file: str) -> str:
    return f"{program_stem(file)}_fold.fut"


def fissioned_versions(plan: FissionPlan, pairs: list[Version], folds: list[Version],
                       own: list[Version]) -> list[Version]:
    """A version for each of the fold's versions that read in place in one
    kernel and each of the pairs' tiled ones (`pairs`, `folds`: each
    program's versions), raced against the untiled kernel of the module's own
    versions (`own`)."""
    gate = all_of(Gate(g) for g in plan.gates)
    rival = next((v.rival for v in own if v.rival is not None and not v.build.wide), None)
    pairs = _pairs_versions(pairs)
    if not pairs:
        raise CompilerBug("the pairs' kernel has no tiled version that reads in place")
    out = []
    for fold in _fold_versions(folds, len(plan.fold.kernel.levels)):
        for n, pair in enumerate(pairs):
            # the pair's and the fold's last halves (a vector record's scalar one) run at any alignment
            on_stage = OnStage(pair.launch_condition) if pair.launch_condition is not None else None
            when = all_of(c for c in (gate, on_stage, fold.launch_condition) if c is not None)
            out.append(Version(Kind.FISSIONED, fold.build, when, rival=rival, choice=fold.choice, fold=fold,
                               pair=pair, pair_index=n, scratch=plan.fission.scratch))
    return out


def _pairs_versions(versions: list[Version]) -> list[Version]:
    """The pairs' versions the fissioned ones launch: tiled (none that
    splits the few pairs' loops among threads), 32-bit, in place, in one
    kernel, at any row length (the first is the plan's; the
    others, one point a thread, for smaller grids); a version with vector
    copies as its scalar half (lowering.py), which runs at any size."""
    # (not a window version: it is raced against the next version, which a stage is not)
    return [v for v in versions if v.tiled and not v.build.lanes and v.kind not in RACED_AHEAD and _in_place(v)]


def _fold_versions(versions: list[Version], levels: int) -> list[Version]:
    """The fold's 32-bit versions that read in place in one kernel: those
    that split rows among threads, then its last (it runs at any size).
    A 1-D fold's tiled versions (rows staged to coalesce) are left out: they
    spilled when they were tried (before a chunk's copies shared their
    unroll) and have not been timed as a fold of pairs since. A fold of
    several levels keeps its tiled ones: their blocks share each row of
    the values, and of what the stream zips with them, among the points of
    the levels that row does not vary with (an attention block's values
    among its queries): those without a test of their own grid (the
    version's grid test is its stage's, the pairs' kernel's)."""
    ok = [v for v in versions if _in_place(v) and v.kind not in RACED_AHEAD]
    if levels > 1:
        kept = [v for v in ok[:-1] if (v.tiled or v.build.lanes) and not v.grid_share][:MOST_SPLIT]
        # (the last, where a kept one runs whenever it would, could never run)
        last = [v for v in ok[-1:] if all(k.launch_condition != v.launch_condition for k in kept)]
        return kept + last
    return [v for v in ok[:-1] if v.build.lanes][:MOST_SPLIT] + ok[-1:]


def _in_place(v: Version) -> bool:
    """32-bit, reading every input as the program has it, in one kernel, at any row length."""
    b = v.build
    return not (b.wide or b.transposed or b.several or b.fixed or b.bounds)


def _inside(kernel: T.Kernel, depth: int, options) -> tuple[int, bool]:
    """The points of the levels inside `depth`: how many times the fold as
    written computes each pair's value (the sizes known now; 1 for a size
    known only at launch), and whether every size was known."""
    sizes = [options.known_size(level.size) for level in kernel.levels[depth + 1:]]
    return math.prod(n or 1 for n in sizes), all(n is not None for n in sizes)


def _gates(found, options, least_rows: int, work: int) -> tuple[tuple[Gating, ...] | None, str]:
    """The launch tests, those on sizes known now decided now: the rows at
    least `least_rows`; a pair's loops (its outermost ones) at least `work`
    long, one of them enough."""
    value = options.known_size
    gates = []
    rows = value(found.length)
    if rows is not None and rows < least_rows:
        return None, f"rows: {rows}, fewer than {least_rows}, do not pay for storing " \
                     "every pair"
    if rows is None:
        gates.append(Gating(found.length.name, least_rows, "rows"))
    lengths = [trip_count(x) for x in found.loops]
    if any(n is not None and value(n) is not None and value(n) >= work for n in lengths):
        return tuple(gates), ""  # a loop long enough, known now
    open_ = [n for n in lengths if n is not None and value(n) is None]
    if not open_:
        longest = max((value(n) for n in lengths if n is not None), default=None)
        if longest is None:
            return None, "the length of a pair's loop is not a size of the program"
        return None, f"a pair's loop: {longest}, fewer than {work}, does not pay for storing every pair"
    return tuple(gates) + (Gating(open_[0].name, work, "a pair's loop"),), ""
