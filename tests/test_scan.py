"""A fold per point over the positions up to its own, run as one scan of
its terms (analyse/scans.py, lower/scan.py): which loops are scanned and
why not, the versions a module holds, and the kernels' shape (their GPU
results are tests/test_gpu.py's)."""
from __future__ import annotations

import json
import shutil

import pytest
from conftest import PROGRAMS, ROOT, ptxas_reports, tiler

from tiler.analyse import DEFAULT, Options
from tiler.analyse.folds import Operator
from tiler.analyse.scans import Scan
from tiler.pipeline import run_all, run_to

SCANS = PROGRAMS / "scans"
PREFIX = "fun [f32, n] main([f32, n] x) =\n  map(fn f32 (int i) =>\n    {body}\n  , iota(n))\n"


def scan_of(text: str, options: Options = DEFAULT):
    return run_to("analyse", text, "t.fut", options).plan.scan


def loop(test: str, update: str = "acc + x[j]", keep: str = "acc") -> str:
    return PREFIX.format(body=f"loop (acc = 0f32) = for j < n do if {test} then {update} else {keep} in acc")


@pytest.mark.parametrize("test, exclusive", [
    ("j <= i", False), ("j < i", True), ("i >= j", False), ("i > j", True), ("j + 1 <= i", True),
    ("j - i <= 0", False), ("2 * j <= 2 * i", None), ("i64(j) <= i64(i)", False), ("j < i + 1", False)])
def test_the_positions_test_is_read_whichever_way_it_is_written(test, exclusive):
    scan = scan_of(loop(test))
    if exclusive is None:  # (not the position against the point's: a scaled one)
        assert not isinstance(scan, Scan)
        return
    assert isinstance(scan, Scan), scan
    assert scan.loops[0].exclusive is exclusive
    assert scan.loops[0].operators == (Operator.ADD,)


def test_a_test_keeping_the_value_in_its_then_branch_is_the_same_prefix():
    scan = scan_of(loop("j > i", update="acc", keep="acc + x[j]"))
    assert isinstance(scan, Scan) and not scan.loops[0].exclusive
    scan = scan_of(loop("j >= i", update="acc", keep="acc + x[j]"))
    assert isinstance(scan, Scan) and scan.loops[0].exclusive


@pytest.mark.parametrize("test, update, keep, reason", [
    ("j >= i", "acc + x[j]", "acc", "a suffix"),
    ("j <= i + 1", "acc + x[j]", "acc", "reaches past"),
    ("j < i - 1", "acc + x[j]", "acc", "leaves out more"),
    ("j <= i", "acc + x[j] * f32(i)", "acc", "its term reads `i`"),
    ("j <= i && j >= i - 8", "acc + x[j]", "acc", "both sides"),
    ("j * j <= i", "acc + x[j]", "acc", "is not the stream's position"),
    ("j <= i", "acc / x[j]", "acc", "not a reduction"),
])
def test_loops_the_scan_does_not_take_say_why(test, update, keep, reason):
    scan = scan_of(loop(test, update, keep))
    assert not isinstance(scan, Scan) and scan is not None
    assert reason in scan.reason


def test_a_branch_updating_one_value_and_the_other_another_is_no_prefix():
    text = PREFIX.format(body="loop (a = 0f32, b = 0f32) = for j < n do if j <= i then (a + x[j], b) else (a, b + x[j])"
                              " in a - b")
    scan = scan_of(text)
    assert not isinstance(scan, Scan) and "neither branch" in scan.reason


def test_no_loop_testing_the_position_has_no_scan_to_explain():
    assert scan_of(PREFIX.format(body="loop (acc = 0f32) = for j < n do acc + x[j] in acc + x[i]")) is None


def test_a_value_updated_alike_on_both_sides_is_a_total():
    scan = scan_of((SCANS / "cdf_total_f32.fut").read_text())
    assert isinstance(scan, Scan)
    assert scan.loops[0].whole == (False, True, False) and scan.loops[0].totals == ("t",)
    assert "`t`, updated alike on both sides of the test, the total of every position" in scan.reason


def test_every_loop_the_position_masks_is_scanned_in_one_kernel():
    path = SCANS / "kept_first_count_i64.fut"
    scan = scan_of(path.read_text())
    assert isinstance(scan, Scan) and len(scan.loops) == 2 and not scan.left
    module = run_all(path.read_text(), path.name, Options())["verify"]
    first = module.versions[0].kernel
    assert first.name == "tiler_kept_first_count_i64_scan256"
    assert [s.name for s in first.stages] == ["tiler_kept_first_count_i64_scan256_stage0"]
    assert len(first.scratch) == 2  # one array a loop's carried value


def test_a_loop_under_a_branch_of_the_point_is_walked_by_each_point():
    text = PREFIX.format(body="if i % 2 == 0 then loop (acc = 0f32) = for j < n do if j <= i then acc + x[j] else acc"
                              " in acc else 0f32")
    scan = scan_of(text)
    assert not isinstance(scan, Scan) and "only under a branch" in scan.reason


def test_no_scan_option_and_no_tile_leave_the_points_walking():
    text = loop("j <= i")
    assert scan_of(text, Options(no_scan=True)) is None
    assert scan_of(text, Options(no_tile=True)) is None


def test_the_scan_runs_first_from_its_shortest_rows_and_races_the_untiled_kernel():
    path = ROOT / "corpus" / "e_row_count_min_int.fut"
    module = run_all(path.read_text(), path.name, Options())["verify"]
    first = module.versions[0]
    assert first.kernel.name.endswith("_scan256") and first.rival.endswith("_untiled")
    c = first.plan.condition
    text = repr(c)
    assert "what='length', op='>=', value=256" in text and "AtMost(size='n', value=65535)" in text
    # the rows on grid y, the blocks of a row's positions on x (at most MAX_BLOCKS_A_ROW)
    assert first.kernel.grid[0] == ("m", 256, 2048) and first.kernel.grid[1] == ("n", 1)
    assert not module.holds(first, {"n": 4, "m": 255}) and module.holds(first, {"n": 4, "m": 256})


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_the_scan_kernels_compile_without_spills(tmp_path):
    units = []
    paths = sorted(p for p in SCANS.glob("*.fut")) + [ROOT / "corpus" / f"{n}.fut" for n in (
        "b_prefix_masked_i64", "e_hist_cdf_f32", "e_series_wealth_logret_f64", "e_row_runmean_peak_f32")]
    for path in paths:
        values = run_all(path.read_text(), path.name, Options())
        if isinstance(values["analyse"].plan.scan, Scan):
            units.append(values["render"])
    reports = ptxas_reports(units, tmp_path)
    scans = {name: r for name, r in reports.items() if "_scan256" in name}
    assert len(scans) == 2 * 8  # the stage and the scan kernel of each program's
    for name, report in scans.items():
        assert " 0 bytes spill stores" in report, (name, report)


def test_explain_says_which_loops_are_scanned_and_why_not():
    out = tiler("explain", SCANS / "kept_first_count_i64.fut")
    assert out.returncode == 0, out.stderr
    assert "scan: loops at 6:29 and 11:29: each point folds the terms at the positions up to its own (by +)" in \
        " ".join(out.stdout.split())
    data = json.loads(tiler("explain", "--json", SCANS / "suffix_f32.fut").stdout)
    assert data["scan"]["scanned"] is False
    assert "a suffix" in data["scan"]["not_scanned"][0]["reason"]
    data = json.loads(tiler("explain", "--json", SCANS / "cdf_total_f32.fut").stdout)
    assert data["scan"]["loops"] == [{"line": 7, "column": 23, "operators": ["+", "+", "min"], "exclusive": False,
                                      "totals": ["t"]}]
    assert data["versions"][0]["kernel"] == "scan"
