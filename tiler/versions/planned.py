"""The versions of a plan's schedule (no split rows): the tiled kernel, its
scalar-copy twin, one point a thread for small grids, the untiled fallback
below the thresholds; the same reading transposed inputs first where the
launch transposes them; the same again with 64-bit offsets where an array
may pass 2^31 elements; and, where the plan's tiles hold rows of a bounded
length, its tiled versions within the bound before the versions of the plan
without it (Plan.unbounded).
"""
from __future__ import annotations

import dataclasses

from ..analyse import Analysis, Schedule
from ..analyse.registers import GRID_SHARE
from ..analyse.schedule import describe_thresholds, launch_tests, test_text
from ..check import typed as T
from ..check.types import Array
from ..errors import CompilerBug
from .records import (
    BOUNDED,
    LOOPED,
    ONE_POINT,
    WIDE_NOTE,
    Aligned,
    All,
    AtLeast,
    AtMost,
    Build,
    Copies,
    Equals,
    FillsSMs,
    Fits,
    Kind,
    SharedFits,
    Transposing,
    Version,
    all_of,
    both,
)


def plan_versions(a: Analysis, file: str) -> list[Version]:
    """The schedule's versions, after the march and the window version where there are ones."""
    versions = _in_place_versions(a, file)
    return march_versions(a, file, versions) + window_versions(a, file, versions) + versions


def _in_place_versions(a: Analysis, file: str) -> list[Version]:
    """The schedule's versions; where its product reads operands the launch
    transposes for the matrix units, its tiled versions alone, for launches
    large enough for the copies to pay (Transposition.units_tests) and whose
    grid has a block for every SM, then the versions of the plan reading
    them in place (Plan.in_place) for the others."""
    versions = _bounded_versions(a, file)
    if a.plan.in_place is None:
        return versions
    if not any(v.build.transposed for v in versions):  # (no version reads the copies: a fold's one-point ones)
        return _bounded_versions(dataclasses.replace(a, plan=a.plan.in_place), file)
    copies = ", ".join(sorted(units_transposed(a.plan.schedule)))
    # (for TMA's copies, core_tma.py: its 32-bit vector kernels alone; 64-bit offsets spilled, 28 bytes)
    alone = a.plan.schedule.copies_by_tma
    past = [v if alone and v.build.wide else
            _reading_in_place(v, f"{copies} read in place: the launches too small for the copies to pay")
            for v in _bounded_versions(dataclasses.replace(a, plan=a.plan.in_place), file)]
    when = all_of([Transposing(t) for t in dict.fromkeys(t for r in a.plan.schedule.transposed
                                                          for t in r.units_tests)] + [FillsSMs(1)])
    within = [dataclasses.replace(v, condition=both(when, v.condition), vector_alone=alone) for v in versions
              if v.build.transposed and not (alone and v.build.wide)]
    return _ahead_of(within, past, f"{file}'s versions reading the matrix units' copies", "reading them in place")


def _reading_in_place(v: Version, note: str) -> Version:
    """A tiled version of the plan reading the units' operands in place, saying so (a vector pair's halves each
    say their note, a version of one kernel its why)."""
    if v.kind is Kind.UNTILED:
        return v
    if v.copies is Copies.VECTOR_OR_SCALAR:
        return dataclasses.replace(v, note=_joined(v.note, note))
    return dataclasses.replace(v, why=_joined(v.why, note))


def _bounded_versions(a: Analysis, file: str) -> list[Version]:
    """The schedule's versions; where its tiles hold rows of a bounded
    length, its tiled versions alone, for launches within the bound, then
    the versions of the plan without the bound for the others."""
    versions = _schedule_versions(a, file)
    if a.plan.unbounded is None:
        return versions
    past = _schedule_versions(dataclasses.replace(a, plan=a.plan.unbounded), file)
    # renamed: the plan without the bound may have a tiled kernel of its own
    within = [dataclasses.replace(v, build=dataclasses.replace(v.build, suffix=v.build.suffix + BOUNDED))
              for v in versions if v.build.bounds]
    return _ahead_of(within, past, f"a bounded version of {file}", "without the bound")


def _ahead_of(within: list[Version], past: list[Version], what: str, other: str) -> list[Version]:
    """A plan's versions for some launches (`within`, each conditioned so)
    ahead of another plan's for the rest (`past`), 32-bit offsets first, as
    in every module: a version with 64-bit ones runs only where no other can.
    A version of `within` is raced against a kernel `past` must have."""
    names = {v.build.name for v in past}
    if any(v.rival is not None and v.rival.name not in names for v in within):
        raise CompilerBug(f"{what} is raced against a kernel the plan {other} does not have")
    return [v for v in within if not v.build.wide] + [v for v in past if not v.build.wide] + \
        [v for v in within if v.build.wide] + [v for v in past if v.build.wide]


def window_versions(a: Analysis, file: str, rest: list[Version]) -> list[Version]:
    """The window version, first, where the plan has one (window_tile.py)
    and launches are timed: with 32-bit offsets, raced at a first launch
    against the next version whose condition holds, then the winner against
    the untiled kernel of the `rest` (the plan's versions: one reading an
    input the launch transposes, where that is the only one); what nvcc
    keeps in registers, and what a halo tile's copy costs beside the cache,
    are no costs the model can price, so it never runs untimed. A kernel of
    no window gets the strided version instead, where its grid gives every
    SM a block (fewer points run one a thread: more loads in flight)."""
    if not has_window_version(a):
        return []
    build = Build(a, file, True, a.plan.window.schedule, vectors=False, window=True)
    halos = a.plan.window.halos
    sized = [t for t in halos.tiles if t.sized_at_launch] if halos is not None else []
    fits = SharedFits(halos.limit, tuple(t.array for t in sized)) if sized else None
    kind = window_kind(a)
    fills = FillsSMs(1) if kind is Kind.STRIDED else None
    return [Version(kind, build, all_of(c for c in (fits_int(a.kernel), fits, fills) if c is not None),
                    a.plan.window.reason, rival=untiled_rival(rest, file, f"the {kind.value} version"))]


def untiled_rival(rest: list[Version], file: str, what: str) -> Build:
    """The untiled kernel with 32-bit offsets of the plan's versions, which a version raced ahead of them races
    last: the one reading its inputs in place, or one reading an input the launch transposes where that is the
    only one (a transposing version's own tests need not hold where the version raced ahead runs)."""
    kept = [v.build for v in rest if v.kind is Kind.UNTILED and not v.build.wide]
    untiled = next((b for b in kept if not b.transposed), kept[0] if kept else None)
    if untiled is None:
        raise CompilerBug(f"{file}'s versions have no untiled kernel with 32-bit offsets to race {what}")
    return untiled


def march_versions(a: Analysis, file: str, rest: list[Version]) -> list[Version]:
    """The march (analyse/march.py), first: raced at a first launch against
    the next version whose condition holds (the window version, where there
    is one), then the winner against the untiled kernel of `rest`; where its
    grid has a block for every SM and fits CUDA's grid along y and z (a
    literal size past it has no march: march.py)."""
    if not has_march_version(a):
        return []
    m = a.plan.march.march
    levels = {lv.dim: lv for lv in a.kernel.levels}
    limits = [AtMost(levels[d].size.name, most) for d, most in m.grid_limits() if not isinstance(levels[d].size, int)]
    build = Build(a, file, True, a.plan.untiled, vectors=False, march=True)
    condition = all_of(c for c in (fits_int(a.kernel), FillsSMs(1), *limits) if c is not None)
    return [Version(Kind.MARCH, build, condition, a.plan.march.reason, rival=untiled_rival(rest, file, "the march"))]


def has_march_version(a: Analysis) -> bool:
    """Whether the module gets a march version (explain says so only then)."""
    return a.plan.march is not None and a.plan.march.march is not None and a.options.launch_timing


def has_window_version(a: Analysis) -> bool:
    """Whether the module gets a window version (explain says so only then)."""
    tile = a.plan.window
    return tile is not None and tile.schedule is not None and a.options.launch_timing


def window_kind(a: Analysis) -> Kind:
    """The window version's kind: strided where the kernel reads no window (window_tile._coarse)."""
    return Kind.STRIDED if a.plan.window.elementwise else Kind.WINDOW


def launch_transposed(schedule: Schedule) -> frozenset:
    """The arrays the schedule's first versions read from the launch's transposed copies."""
    return frozenset(t.array for t in schedule.transposed)


def units_transposed(schedule: Schedule) -> frozenset:
    """The arrays every version of the schedule reads from the launch's
    transposed copies: its tiles are laid out for them (Transposition.units)."""
    return frozenset(t.array for t in schedule.transposed if t.units)


def reading(schedule: Schedule, transposed: frozenset) -> Schedule:
    """The schedule whose kernel reads the `transposed` arrays from the launch's copies (its own block for them)."""
    if transposed and schedule.transposed_block is not None:
        return dataclasses.replace(schedule, block=schedule.transposed_block)
    return schedule


def _schedule_versions(a: Analysis, file: str) -> list[Version]:
    plan = a.plan
    moves = plan.schedule.transposed
    arrays = launch_transposed(plan.schedule)
    moved = f"the launch transposes {', '.join(sorted(arrays))} first" if moves else ""
    versions = _versions(a, file, arrays, moved)
    tests = launch_tests(moves)
    if tests:  # transposed only at some sizes: the same versions reading in place follow for the others
        when = all_of(Transposing(t) for t in tests)
        versions = [dataclasses.replace(v, condition=when if v.condition is None else All((when, v.condition)))
                    for v in versions if v.build.transposed]  # (the untiled fallback, in place, comes after)
        otherwise = f"unless {' and '.join(map(test_text, tests))}: {', '.join(sorted(arrays))} read in place"
        versions += _versions(a, file, units_transposed(plan.schedule), otherwise)
    fits = fits_int(a.kernel)
    timed = a.options.launch_timing and plan.schedule.tiled
    untiled = untiled_build(a, file)
    if timed:
        versions = rivals(versions, untiled, None)  # `fits` comes below
    if fits is None:  # every array is 1-D: int offsets reach every element
        return versions
    # the same kernels with 64-bit offsets, for launches where some array has 2^31 elements or more
    versions = [dataclasses.replace(v, condition=fits if v.condition is None else All((fits, v.condition)))
                for v in versions]
    wide = _wide_versions(a, file, WIDE_NOTE)
    main = wide[-1].build
    if plan.thresholds or main.fixed or main.bounds:
        wide.append(Version(Kind.UNTILED, dataclasses.replace(untiled, wide=True), None,
                            WIDE_NOTE + (", below the thresholds" if plan.thresholds else ", other sizes")))
    if timed:
        wide = rivals(wide, dataclasses.replace(untiled, wide=True), None, WIDE_NOTE + ", ")
    return versions + wide


def _wide_versions(a: Analysis, file: str, why: str) -> list[Version]:
    """The schedule's kernel with 64-bit offsets: with 128-bit copies where
    the 32-bit kernel has them (for sizes that keep the rows they read
    aligned), then with scalar copies."""
    plan = a.plan
    build = Build(a, file, plan.schedule.tiled, plan.schedule, wide=True, transposed=units_transposed(plan.schedule))
    kind = Kind.TILED if build.tiled else Kind.UNTILED
    if not plans_vectors(plan.schedule):  # every copy scalar: one kernel, no alignment to test
        return [Version(kind, build, launch_condition(plan, build), why)]
    return [Version(kind, build, both(launch_condition(plan, build), Aligned()), why, Copies.VECTOR_OR_SCALAR_WIDE)]


def rivals(versions: list[Version], untiled: Build, fits, note: str = "") -> list[Version]:
    """The versions with every tiled one timed against `untiled` at a first
    launch (the cost model cannot tell every loser from the winners: launch
    timing makes sure tiling never slows a program down); `untiled` is added
    as the last version where it is not one already (the conditions reach it
    only where no other holds; the timing reaches it where it is faster)."""
    out = [dataclasses.replace(v, rival=untiled) if v.tiled else v for v in versions]
    if not any(v.build.name == untiled.name for v in out):
        out.append(Version(Kind.UNTILED, untiled, fits,
                           note + "the untiled kernel, where it ran faster than the tiled version at a first launch"))
    return out


def _versions(a: Analysis, file: str, transposed: frozenset, note: str = "") -> list[Version]:
    """The versions with int offsets, reading the `transposed` inputs from the
    launch's transposed copies; `note` adds to why each of the schedule's runs."""
    plan = a.plan
    schedule = reading(plan.schedule, transposed)
    main = Build(a, file, schedule.tiled, schedule, transposed=transposed)
    condition = launch_condition(plan, main)
    why = _joined(describe_thresholds(plan.thresholds) if plan.thresholds else "",
                  describe_fixed(main.fixed) if main.fixed else "", describe_bounds(main.bounds) if main.bounds else "")
    fallback = bool(plan.thresholds or main.fixed or main.bounds)  # sizes where the launch runs the untiled kernel
    share = 0
    if plan.fewer is not None:  # the micro-tile only where its grid gives enough SMs a block (registers.fills)
        share = GRID_SHARE[len(schedule.block.spans)]
        condition = both(condition, FillsSMs(share))
        why = _joined(f"{schedule.block.register.points} points a thread", why)
    kind = Kind.TILED if main.tiled else Kind.UNTILED
    if plans_vectors(schedule):  # the vector half's condition has the alignment test innermost (lowering.py)
        versions = [Version(kind, main, both(condition, Aligned()), why, Copies.VECTOR_OR_SCALAR, note=note,
                            fallback=fallback)]
    else:  # every copy scalar: one kernel, no alignment to test
        only = f"the plan's kernel, which the {window_kind(a).value} version races first" if has_window_version(a) \
            else "the only version"
        versions = [Version(kind, main, condition, _joined(why, note) or only)]
    if plan.fewer is not None:
        fewer = Build(a, file, plan.fewer.tiled, plan.fewer, vectors=False, transposed=transposed, suffix=ONE_POINT)
        versions.append(Version(Kind.ONE_POINT, fewer, launch_condition(plan, fewer), _joined(
            "one point a thread: the micro-tile's grid would leave SMs without a block",
            describe_thresholds(plan.thresholds) if plan.thresholds else "", note)))
    if fallback:
        versions.append(Version(Kind.UNTILED, untiled_build(a, file), None, "the untiled fallback"))
    return versions


def untiled_build(a: Analysis, file: str) -> Build:
    """The untiled kernel the versions fall back to and race: the program's
    as written where stage `kernel` speculated a stream (Analysis.as_written),
    so that the race keeps the written kernel where few points take the
    stream's branch; else the analysed kernel's."""
    written = a.as_written
    source = written if written is not None and written.kernel.launch == a.kernel.launch else a
    return Build(source, file, False, source.plan.untiled)


def sized_grid(a: Analysis) -> bool:
    """Some map level's size was given when compiled: a kernel may then
    launch its grid along y or z with no loop over its blocks (Kernel.grid_bounds)."""
    return any(not isinstance(lv.size, int) and a.options.known_size(lv.size) is not None for lv in a.kernel.levels)


def looped_fallback(a: Analysis, file: str) -> Version:
    """The last version of a module compiled knowing sizes: the untiled
    kernel walking grid y and z in a loop, as though no size were given, for
    launches whose grid would pass the blocks the others' grids hold
    (lowering keeps it only where some kernel has such bounds)."""
    wide = fits_int(a.kernel) is not None
    build = dataclasses.replace(untiled_build(a, file), wide=wide, looped=True, suffix=LOOPED)
    return Version(Kind.UNTILED, build, None, "the untiled kernel with its blocks walking grid y and z in a loop, "
                   "for sizes past the grids the sizes given when compiled planned" + (f"; {WIDE_NOTE}" if wide else ""))


def plans_vectors(schedule: Schedule) -> bool:
    """Some staged tile is copied in vectors of several elements (whether the
    lowered kernel's copies then need a size to be a multiple of the width is
    known once it is lowered: records.Aligned)."""
    return any(p.copied and p.staging is not None and p.staging.vector > 1
               for s in schedule.streams if s.tiled for p in s.inputs)


def launch_condition(plan, build: Build):
    """The thresholds, the sizes fixed and the bounds a kernel's launch tests."""
    if not (plan.thresholds or build.fixed or build.bounds):
        return None
    return all_of([AtLeast(t) for t in plan.thresholds] + [Equals(n, v) for n, v in build.fixed]
                  + [AtMost(n, v) for n, v in build.bounds])


def fits_int(k: T.Kernel) -> Fits | None:
    """Every array of two or more dimensions (parameters and outputs) has
    fewer than 2^31 elements; None when there is none."""
    shapes = [p.type.shape for p in k.params if isinstance(p.type, Array) and len(p.type.shape) > 1]
    if len(k.levels) > 1:
        shapes.append(tuple(lv.size for lv in k.levels))
    named = tuple(dict.fromkeys(tuple(s if isinstance(s, int) else s.name for s in sh) for sh in shapes))
    return Fits(named) if named else None


def describe_bounds(bounds) -> str:
    """Why a tiled kernel runs only up to a size known at launch."""
    sizes = " and ".join(f"{n} <= {v}" for n, v in bounds)
    return (f"its shared tiles hold rows of at most {' and '.join(str(v) for _, v in bounds)} elements: it runs "
            f"where {sizes}, the versions that follow elsewhere")


def describe_fixed(fixed) -> str:
    """Why a tiled kernel runs at one value of a size alone."""
    sizes = " and ".join(f"{n} = {v}" for n, v in fixed)
    return f"its shared tiles hold rows of {sizes} elements (the size given when it was compiled)"


def _joined(*parts: str) -> str:
    """A version's reasons, the empty ones left out."""
    return "; ".join(p for p in parts if p)
