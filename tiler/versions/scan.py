"""The scan versions (analyse/scans.py, lower/scan.py): first, where the
plan has a scan, for rows of SCAN_MIN_LENGTH positions and more (shorter
ones, each point's own walk of its stream is as fast as two launches), or
of SHORT_ROW_LENGTH and more where there are MANY_ROWS rows, with 32-bit
offsets and the rows outside the innermost row level on grid z within
CUDA's limits."""
from __future__ import annotations

from .. import target
from ..analyse import Analysis
from ..analyse.reductions import Test
from ..analyse.scans import MANY_ROWS, SCAN_MIN_LENGTH, SCAN_UNRACED, SHORT_ROW_LENGTH, Scan
from .planned import fits_int, untiled_rival
from .records import RACED, AtMost, Build, Kind, RowTest, Version, all_of, any_of


def scan_versions(a: Analysis, file: str, rest: list[Version]) -> list[Version]:
    """From SCAN_UNRACED positions the scan runs unraced (a first launch would
    otherwise time the untiled kernel's n^2 / 2 steps four times: minutes at
    2^24); from SCAN_MIN_LENGTH raced against the untiled kernel, as every
    tiled version is (a copy of the kernels, named `_raced`)."""
    scan = a.plan.scan
    if not isinstance(scan, Scan):
        return []
    # (along rows, the innermost row level on grid x, which has room for any count, the one outside it on z;
    # down columns, the levels outside the positions', on z)
    columns = scan.columns(a.kernel)
    rows = a.kernel.levels[:scan.level] if columns else a.kernel.levels[:-1]
    on_z = rows if columns else rows[:-1]
    many_rows = bool(rows) and not columns  # (rows of a matrix: shorter ones scanned where they are many)
    if isinstance(scan.length, int) and scan.length < (SHORT_ROW_LENGTH if many_rows else SCAN_MIN_LENGTH):
        return []
    if any(isinstance(lv.size, int) and lv.size > target.MAX_GRID["z"] for lv in on_z):
        return []  # (a literal count of rows past the grid's axis)
    sizes = tuple(lv.size if isinstance(lv.size, int) else lv.size.name for lv in rows)

    # (the positions' size by its name: a row's length, or a column's)
    length = scan.length if isinstance(scan.length, str) else "length"

    def when(least: int, short_rows: bool = False):
        long_rows = RowTest(Test(length, ">=", least), sizes, scan.length)
        if short_rows and many_rows:
            long_rows = any_of([long_rows, all_of([RowTest(Test(length, ">=", SHORT_ROW_LENGTH), sizes, scan.length),
                                                   RowTest(Test("rows", ">=", MANY_ROWS), sizes, scan.length)])])
        tests = [fits_int(a.kernel), long_rows]
        tests += [AtMost(lv.size.name, target.MAX_GRID["z"]) for lv in on_z if not isinstance(lv.size, int)]
        return all_of(t for t in tests if t is not None)
    why = f"a scan: {scan.reason}; shorter rows run the versions that follow"
    if not a.options.launch_timing:
        return [Version(Kind.SCAN, Build(a, file, True, scan=scan), when(SCAN_MIN_LENGTH, True), why)]
    short = isinstance(scan.length, int) and scan.length < SCAN_UNRACED
    out = [] if short else [Version(Kind.SCAN, Build(a, file, True, scan=scan), when(SCAN_UNRACED),
                                    f"{why}; unraced from {SCAN_UNRACED:,} positions")]
    if short or not isinstance(scan.length, int):
        out.append(Version(Kind.SCAN, Build(a, file, True, scan=scan, suffix=RACED), when(SCAN_MIN_LENGTH, True), why,
                           rival=untiled_rival(rest, file, "the scan")))
    return out
