"""The scan version (analyse/scans.py, lower/scan.py): first, where the
plan has a scan, for rows of SCAN_MIN_LENGTH positions and more (shorter
ones, each point's own walk of its stream is as fast as two launches),
with 32-bit offsets and the rows on grid y and z within CUDA's limits;
raced at a first launch against the untiled kernel of the versions that
follow, as every tiled version is."""
from __future__ import annotations

from .. import target
from ..analyse import Analysis
from ..analyse.reductions import Test
from ..analyse.scans import SCAN_MIN_LENGTH, Scan
from .planned import fits_int, untiled_rival
from .records import AtMost, Build, Kind, RowTest, Version, all_of


def scan_versions(a: Analysis, file: str, rest: list[Version]) -> list[Version]:
    scan = a.plan.scan
    if not isinstance(scan, Scan) or (isinstance(scan.length, int) and scan.length < SCAN_MIN_LENGTH):
        return []
    rows = a.kernel.levels[:-1]
    if any(isinstance(lv.size, int) and lv.size > target.MAX_GRID["y"] for lv in rows):
        return []  # (a literal count of rows past the grid's axis)
    sizes = tuple(lv.size if isinstance(lv.size, int) else lv.size.name for lv in rows)
    tests = [fits_int(a.kernel), RowTest(Test("length", ">=", SCAN_MIN_LENGTH), sizes, scan.length)]
    tests += [AtMost(lv.size.name, target.MAX_GRID["y"]) for lv in rows if not isinstance(lv.size, int)]
    build = Build(a, file, True, scan=scan)
    why = f"a scan: {scan.reason}; shorter rows run the versions that follow"
    rival = untiled_rival(rest, file, "the scan") if a.options.launch_timing else None
    return [Version(Kind.SCAN, build, all_of(t for t in tests if t is not None), why, rival=rival)]
