"""The versions of a plan whose rows are run by a warp or a block
(reductions.Split): the lanes a row chosen at launch by the rows' count and
length (Split.choices), each raced against the untiled kernel at a first
launch. Where the split is gated (rows shorter than it pays for, or more
outer rows than the grid holds), the schedule's own versions follow.
"""
from __future__ import annotations

import dataclasses

from ..analyse import Analysis
from ..analyse.reductions import (
    COLUMN_ROWS,
    K_FEW_TILES_LENGTH,
    K_MIN_LENGTH,
    K_MOST_WORK,
    K_SHARE,
    MAX_BLOCKS_A_ROW,
    OWN_WARP_ROW,
    WARP,
    WIDE_BLOCK,
    LaneChoice,
    Test,
)
from ..analyse.registers import GRID_SHARE
from ..analyse.split_k import split_k_stream
from .planned import fits_int, plan_versions, rivals, untiled_build
from .records import WIDE_NOTE, AtMost, Build, Copies, FewTiles, Kind, RowTest, Version, all_of, any_of, both


def split_versions(a: Analysis, file: str) -> list[Version]:
    split = a.plan.split
    k = a.kernel
    regular = plan_versions(a, file) if split.gated else None
    rows = row_sizes(a)

    def test(t) -> RowTest:
        return RowTest(t, rows, split.length)
    gate = all_of(test(t) for t in split.gate) if split.gate else None
    others = "other sizes" if split.limits else "shorter rows"
    fits = fits_int(k)
    untiled = untiled_build(a, file)

    def versions(wide: bool, note: str) -> list[Version]:
        out = [] if wide else k_split_versions(a, file, split, test, fits)
        for choice in split.choices:
            if wide and split.few and choice.lanes == WIDE_BLOCK and not choice.several:
                continue  # 64-bit offsets beside a product's or an n-body's body, 64 registers a thread: spilled
            tests = split.tests_of(choice)
            if tests is not None:
                tests = tuple(alts for alts in tests if possible(alts, rows, split.length))
                if not tests:
                    continue  # it could never run (rows and length one size: at most 65,535 and 2^20 or more)
            when = any_of(all_of(test(t) for t in alts) for alts in tests) if tests else None
            when = both(fits if not wide else None, both(gate, when))
            why = f"{choice.who} a row" + (f"; {others} run the versions that follow" if gate else "")
            build = Build(a, file, True, split=split, lanes=choice.lanes, several=choice.several, wide=wide,
                          columns=choice.columns)
            out.append(Version(Kind.SPLIT, build, when, "; ".join(p for p in (note, why) if p), choice=choice))
        # (after the split's own lanes, which run where the points are few: as before it)
        out += own_warp_versions(a, file, split, test, None if wide else fits, wide, note)
        if regular is not None:
            out += [v for v in regular if v.build.wide == wide]
        if a.options.launch_timing:  # every version raced against the untiled kernel reading in place
            out = rivals(out, dataclasses.replace(untiled, wide=wide), None if wide else fits, note and note + ", ")
        return out
    out = versions(False, "")
    if fits is not None:
        out += versions(True, WIDE_NOTE)
    return out


def own_warp_versions(a: Analysis, file: str, split, test, fits, wide: bool, note: str) -> list[Version]:
    """A warp a row where a split for few points streams each point's own rows (Split.own_warp), after the
    split's own versions (which run where the points are few): for more points whose rows are OWN_WARP_ROW long
    or more, raced at a first launch against the next version whose condition holds (the plan's own), then the
    winner against the untiled kernel. Only where launches are timed: the version is a guess the race judges."""
    if not split.own_warp or not a.options.launch_timing:
        return []
    rows = row_sizes(a)
    if not possible(split.own_warp_tests, rows, split.length):
        return []  # (a literal length shorter than that)
    choice = LaneChoice(WARP, (split.own_warp_tests,))
    build = Build(a, file, True, split=split, lanes=WARP, wide=wide, own_warp=True)
    why = f"a warp a row, for more points where the rows are {OWN_WARP_ROW} long or more: the reductions stream " \
        "each point's own row, which one thread a point reads a row apart from its neighbours'"
    when = both(fits, all_of(test(t) for t in split.own_warp_tests))
    return [Version(Kind.SPLIT, build, when, "; ".join(p for p in (note, why) if p), choice=choice)]


def k_split_versions(a: Analysis, file: str, split, test, fits) -> list[Version]:
    """The split-K version, first, where it applies (split_k.split_k_stream):
    for launches of few points whose rows are K_MIN_LENGTH long or more, and
    for any points where the plan's tiled kernel has fewer tiles than the GPU
    has SMs and the rows are K_FEW_TILES_LENGTH long or more; the last
    kernel the split's several blocks a row (its first choice's lanes). Its
    tiles are the plan's smaller ones where it has them
    (plan._few_outputs): measured on the corpus's products and X^T Y at 64,
    90 and 32 outputs a side, they ran 0.46x-0.92x the time of the plan's
    128 x 128 tiles where the race kept a split-K version (H200,
    benchmarks/RESULTS.md)."""
    # (a plan whose tiles TMA copies from the launch's transposed copies splits its reading in place: core_tma.py)
    plan = a.plan.in_place if a.plan.in_place is not None and a.plan.schedule.copies_by_tma else a.plan
    own = plan.k_schedule or plan.schedule  # (without the units it would take by default: Plan.k_schedule)
    if split_k_stream(a.kernel, split, own) is None:
        return []
    few = plan.few_outputs
    schedule = few if few is not None and split_k_stream(a.kernel, split, few) is not None else own
    several = next(c for c in split.choices if c.several)
    rows = row_sizes(a)
    # (the rows on grid y and z, as the split's several blocks a row have them: its limits too)
    # (one point a thread, a heavy body's: each of a block's 128 iterations is long, so from K_FEW_TILES_LENGTH)
    least = K_MIN_LENGTH if schedule.block.register is not None else K_FEW_TILES_LENGTH
    long = (Test("length", ">=", least),) + split.several_limits
    # (K_FEW_TILES_LENGTH >= MIN_SPLIT_LENGTH: the split's own test of the length is implied)
    # (its partial results, rows x blocks a row, no more than few points' at most: K_MOST_WORK)
    wide = (Test("length", ">=", K_FEW_TILES_LENGTH), Test("rows", ">=", split.few_rows, True),
            Test("work", "<=", K_MOST_WORK)) + split.limits + split.several_limits
    alternatives = []
    # (where the plan has a one-point version for grids too small for its micro-tile: the tiles it counts)
    in_plan = dataclasses.replace(a, plan=plan)
    for tests, tiles in ((split.gate_below(split.few_rows) + long, None),) + (((wide, plan_tiles(in_plan)),)
                                                                              if plan.fewer else ()):
        if possible(tests, rows, split.length):
            alternatives.append(all_of([test(t) for t in dict.fromkeys(tests)] + ([tiles] if tiles else [])))
    if not alternatives:
        return []  # (a literal length: never long enough)
    bounded = all_of(AtMost(n, v) for n, v in schedule.bounds.items())  # (its tiles hold rows of at most v)
    choice = LaneChoice(several.lanes, (long,), True, several.columns)
    build = Build(a, file, True, schedule, vectors=False, split=split, lanes=choice.lanes, several=True,
                  columns=choice.columns, k_split=True)
    side = f", {COLUMN_ROWS} rows side by side a block" if choice.columns else ""
    tile = " x ".join(str(schedule.block.points(d)) for d in reversed(schedule.block.spans))
    why = f"split-K: the tiled kernel with tiles of {tile} outputs, its blocks sharing each tile's reduction (one " \
          f"each {K_SHARE:,} iterations at least, at most {MAX_BLOCKS_A_ROW:,} a tile), then {choice.lanes} " \
          f"threads a row{side} combine the partial results; other sizes run the versions that follow"
    return [Version(Kind.SPLIT, build, both(fits, both(any_of(alternatives), bounded)), why, Copies.SCALAR,
                    choice=choice)]


def plan_tiles(a: Analysis) -> FewTiles:
    """The plan's tiled kernel would leave SMs without a block as its micro-tile's versions test it
    (registers.GRID_SHARE), so that its one-point version would run: each map level's size over the points
    a block takes along it."""
    block = a.plan.schedule.block
    return FewTiles(tuple((lv.size if isinstance(lv.size, int) else lv.size.name, block.points(d))
                          for d, lv in enumerate(a.kernel.levels)), GRID_SHARE[len(block.spans)])


def row_sizes(a: Analysis) -> tuple:
    """The row levels' sizes, as the split's tests name them (a literal, or a size's name)."""
    return tuple(lv.size if isinstance(lv.size, int) else lv.size.name for lv in a.kernel.levels[:a.plan.split.rows])


def possible(tests, rows: tuple, length) -> bool:
    """Whether the tests can all hold at once, those per SM of the GPU
    aside: no size at least one literal and at most a smaller one (the rows'
    count and their length may be one size), no literal size failing its
    own test."""
    low, high = {}, {}
    for t in tests:
        size = {"rows": rows[0] if len(rows) == 1 else None, "length": length}.get(t.what, t.what)
        if t.per_sm or size is None:
            continue
        least = t.value if t.op == ">=" else None
        most = t.value if t.op == "<=" else t.value - 1 if t.op == "<" else None
        if isinstance(size, int):
            if (least is not None and size < least) or (most is not None and size > most):
                return False
            continue
        if least is not None:
            low[size] = max(low.get(size, least), least)
        if most is not None:
            high[size] = min(high.get(size, most), most)
    return all(low[s] <= high[s] for s in low.keys() & high.keys())
