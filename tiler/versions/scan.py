"""The scan versions (analyse/scans.py, lower/scan.py): first, along rows
of a matrix where they are many, a warp a row (WARP_SCAN_MIN_ROWS rows of
at most WARP_SCAN_LONGEST positions, or WARP_SCAN_MANY_ROWS of any); then,
where the plan has a scan, a block a row (or several) for rows of
SCAN_MIN_LENGTH positions and more (shorter ones, each point's own walk of
its stream is as fast as two launches; SHORT_ROW_LENGTH where the rows are
MANY_ROWS and a value is a total, which a warp a row cannot compute), with
32-bit offsets and the rows outside the innermost row level on grid z
within CUDA's limits."""
from __future__ import annotations

import dataclasses
import math

from .. import target
from ..analyse import Analysis
from ..analyse.row_tests import Test
from ..analyse.scans import (
    MANY_ROWS,
    SCAN_MIN_LENGTH,
    SCAN_UNRACED,
    SHORT_ROW_LENGTH,
    WARP_SCAN_LONGEST,
    WARP_SCAN_MANY_ROWS,
    WARP_SCAN_MIN_ROWS,
    WARP_SCAN_ROWS,
    Scan,
)
from .planned import fits_int, untiled_rival
from .records import RACED, AtMost, Build, Kind, RowTest, Version, all_of, any_of


def scan_versions(a: Analysis, file: str, rest: list[Version]) -> list[Version]:
    """From SCAN_UNRACED positions a scan runs unraced (a first launch would
    otherwise time the untiled kernel's n^2 / 2 steps four times: minutes at
    2^24); below, raced against the untiled kernel, as every tiled version
    is (a copy of the kernels, named `_raced`)."""
    scan = a.plan.scan
    if not isinstance(scan, Scan):
        return []
    # (along rows, the innermost row level on grid x, which has room for any count, the one outside it on z;
    # down columns, the levels outside the positions', on z)
    columns = scan.columns(a.kernel)
    rows = a.kernel.levels[:scan.level] if columns else a.kernel.levels[:-1]
    on_z = rows if columns else rows[:-1]
    if any(isinstance(lv.size, int) and lv.size > target.MAX_GRID["z"] for lv in on_z):
        return []  # (a literal count of rows past the grid's axis)
    sizes = tuple(lv.size if isinstance(lv.size, int) else lv.size.name for lv in rows)
    # (the positions' size by its name: a row's length, or a column's)
    length = scan.length if isinstance(scan.length, str) else "length"

    def test(what: str, op: str, value: int) -> RowTest:
        return RowTest(Test(what, op, value), sizes, scan.length)

    def when(*tests):
        held = [fits_int(a.kernel), *tests]
        held += [AtMost(lv.size.name, target.MAX_GRID["z"]) for lv in on_z if not isinstance(lv.size, int)]
        return all_of(t for t in held if t is not None)

    def versions(build: Build, least: int, why: str, own, can) -> list[Version]:
        """`build` from `least` positions where its own tests hold (`own(unraced)`): raced below SCAN_UNRACED,
        unraced from it; each only where it can run at the sizes the program fixes (`can(unraced)`, None: the
        one version without launch timing)."""
        if isinstance(scan.length, int) and scan.length < least:
            return []
        if not a.options.launch_timing:
            return [Version(Kind.SCAN, build, when(*own(False)), why)] if can(None) else []
        out = [] if isinstance(scan.length, int) and scan.length < SCAN_UNRACED or not can(True) else [Version(
            Kind.SCAN, build, when(test(length, ">=", SCAN_UNRACED), *own(True)),
            f"{why}; unraced from {SCAN_UNRACED:,} positions")]
        if (not isinstance(scan.length, int) or scan.length < SCAN_UNRACED) and can(False):
            out.append(Version(Kind.SCAN, dataclasses.replace(build, suffix=RACED), when(*own(False)), why,
                               rival=untiled_rival(rest, file, "the scan")))
        return out

    def warp_tests(unraced: bool) -> list:
        """WARP_SCAN_MIN_ROWS rows of at most WARP_SCAN_LONGEST positions, or WARP_SCAN_MANY_ROWS rows (only
        those from SCAN_UNRACED positions on)."""
        many = test("rows", ">=", WARP_SCAN_MANY_ROWS)
        return [many] if unraced else [any_of([all_of([test("rows", ">=", WARP_SCAN_MIN_ROWS),
                                                       test(length, "<=", WARP_SCAN_LONGEST)]), many])]

    def block_tests(unraced: bool) -> list:
        """From SCAN_MIN_LENGTH positions, or (a total beside the scan, so no warp a row) SHORT_ROW_LENGTH where
        the rows are MANY_ROWS."""
        if unraced:
            return []
        if not short_rows:
            return [test(length, ">=", SCAN_MIN_LENGTH)]
        return [any_of([test(length, ">=", SCAN_MIN_LENGTH),
                        all_of([test(length, ">=", SHORT_ROW_LENGTH), test("rows", ">=", MANY_ROWS)])])]
    # (a value that is a total needs the whole row before any point's value: a warp a row has no stage for it;
    # a block a row then runs for shorter rows where they are many)
    along_rows = bool(rows) and not columns
    total = any(any(s.whole) for s in scan.loops)
    short_rows = along_rows and total
    # (the rows' count and the length where the program fixes them: versions that could never run are left out)
    literal = math.prod(lv.size for lv in rows) if all(isinstance(lv.size, int) for lv in rows) else None

    def rows_from(count: int) -> bool:
        return literal is None or literal >= count

    short = not isinstance(scan.length, int) or scan.length <= WARP_SCAN_LONGEST
    warp = along_rows and not total and rows_from(WARP_SCAN_MIN_ROWS)

    def warp_can(unraced) -> bool:
        return rows_from(WARP_SCAN_MANY_ROWS) or (not unraced and short)

    def block_can(unraced) -> bool:  # (the raced one is the warp's first opponent: kept)
        covers = warp and literal is not None and (literal >= WARP_SCAN_MANY_ROWS or (
            unraced is None and isinstance(scan.length, int) and short))
        return unraced is False or not covers
    out = []
    if warp:
        out += versions(Build(a, file, True, scan=scan, lanes=target.WARP), 1,
                        f"a scan, a warp a row ({WARP_SCAN_ROWS} rows a block): {scan.reason}; longer rows, or "
                        "fewer, run the versions that follow", warp_tests, warp_can)
    least = SHORT_ROW_LENGTH if short_rows and rows_from(MANY_ROWS) else SCAN_MIN_LENGTH
    return out + versions(Build(a, file, True, scan=scan), least,
                          f"a scan: {scan.reason}; shorter rows run the versions that follow", block_tests, block_can)
