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
from tiler.analyse.scans import (
    COLUMN_SCAN_BLOCKS,
    COLUMN_SCAN_LANES,
    COLUMN_SCAN_SHARE,
    MANY_ROWS,
    SCAN_UNRACED,
    SHORT_ROW_LENGTH,
    WARP_SCAN_LONGEST,
    WARP_SCAN_MANY_ROWS,
    WARP_SCAN_MIN_ROWS,
    Scan,
)
from tiler.pipeline import run_all, run_to

SCANS = PROGRAMS / "scans"
PREFIX = "fun [f32, n] main([f32, n] x) =\n  map(fn f32 (int i) =>\n    {body}\n  , iota(n))\n"


def scan_of(text: str, options: Options = DEFAULT):
    return run_to("analyse", text, "t.fut", options).plan.scan


def loop(test: str, update: str = "acc + x[j]", keep: str = "acc") -> str:
    return PREFIX.format(body=f"loop (acc = 0f32) = for j < n do if {test} then {update} else {keep} in acc")


@pytest.mark.parametrize("test, suffix, exclusive", [
    ("j <= i", False, False), ("j < i", False, True), ("i >= j", False, False), ("i > j", False, True),
    ("j + 1 <= i", False, True), ("j - i <= 0", False, False), ("2 * j <= 2 * i", None, None),
    ("j * 1 <= i", False, False),
    ("i64(j) <= i64(i)", False, False), ("j < i + 1", False, False),
    ("j >= i", True, False), ("j > i", True, True), ("i <= j", True, False), ("i < j", True, True),
    ("j - 1 >= i", True, True)])
def test_the_positions_test_is_read_whichever_way_it_is_written(test, suffix, exclusive):
    scan = scan_of(loop(test))
    if exclusive is None:  # (not the position against the point's: a scaled one)
        assert not isinstance(scan, Scan)
        return
    assert isinstance(scan, Scan), scan
    assert (scan.loops[0].suffix, scan.loops[0].exclusive) == (suffix, exclusive)
    assert scan.loops[0].operators == (Operator.ADD,)


def test_the_positions_test_is_read_through_lets():
    text = PREFIX.format(body="let last = i - 1 in streamSeq(fn f32 (int kk, [f32, c] xc, f32 acc) => loop (acc) = "
                              "for k < c do let at = kk + k in if at <= last then acc + xc[k] else acc in acc, x, 0f32)")
    scan = scan_of(text)
    assert isinstance(scan, Scan) and scan.loops[0].exclusive and not scan.suffix


@pytest.mark.parametrize("test, suffix, exclusive", [
    ("j > i", False, False), ("j >= i", False, True), ("j < i", True, False), ("j <= i", True, True)])
def test_a_test_keeping_the_value_in_its_then_branch_folds_the_other_side(test, suffix, exclusive):
    scan = scan_of(loop(test, update="acc", keep="acc + x[j]"))
    assert isinstance(scan, Scan)
    assert (scan.loops[0].suffix, scan.loops[0].exclusive) == (suffix, exclusive)


def test_loops_folding_either_side_are_scanned_as_the_first_is():
    text = PREFIX.format(body="let a = loop (acc = 0f32) = for j < n do if j <= i then acc + x[j] else acc in acc in "
                              "let b = loop (acc = 0f32) = for j < n do if j >= i then acc + x[j] else acc in acc in "
                              "a - b")
    scan = scan_of(text)
    assert isinstance(scan, Scan) and len(scan.loops) == 1 and not scan.suffix
    assert "those up to its own: one scan walks them one way" in scan.left[0].reason


@pytest.mark.parametrize("test, update, keep, reason", [
    ("j <= i + 1", "acc + x[j]", "acc", "reaches past"),
    ("j >= i - 1", "acc + x[j]", "acc", "reaches past"),
    ("j < i - 1", "acc + x[j]", "acc", "leaves out more"),
    ("j > i + 1", "acc + x[j]", "acc", "leaves out more"),
    ("j <= i", "acc + x[j] * f32(i)", "acc", "its term reads `i`"),
    ("j <= i && j >= i - 8", "acc + x[j]", "acc", "both sides"),
    ("2 * j <= 2 * i", "acc + x[j]", "acc", "is not the stream's position"),
    ("j < i", "acc + x[j]", "acc + x[j] * 0f32", "neither branch"),
    ("x[j] > 0f32 && j > i", "acc", "acc + x[j]", "where its `&&` test fails"),
    ("j + 2147483647 <= i + 2147483647", "acc + x[j]", "acc", "is not the stream's position"),
    ("j + n <= i + n", "acc + x[j]", "acc", "is not the stream's position"),
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


@pytest.mark.parametrize("body", [
    "loop (acc = 0f32) = for j < n do acc + x[j] in acc + x[i]",
    "loop (acc = 0f32) = for j < n do if j * j <= i then acc + x[j] else acc in acc",
    "loop (acc = 0f32) = for j < n do if i64(j + i) - i64(i) <= 0i64 then acc + x[j] else acc in acc",
    "loop (acc = 0f32) = for t < 7 do let j = i + t - 3 in if j >= 0 && j < n then acc + x[j] else acc in acc"])
def test_no_loop_comparing_its_index_with_the_position_has_no_scan_to_explain(body):
    assert scan_of(PREFIX.format(body=body)) is None


def test_a_value_updated_alike_on_both_sides_is_a_total():
    scan = scan_of((SCANS / "cdf_total_f32.fut").read_text())
    assert isinstance(scan, Scan)
    assert scan.loops[0].whole == (False, True, False) and scan.loops[0].totals == ("t",)
    assert "`t`, updated alike on both sides of the test, the total of every position" in scan.reason


@pytest.mark.parametrize("test", ["j < i", "j > i"])
def test_a_total_beside_a_prefix_leaving_out_the_points_position_is_not_scanned(test):
    """The scan leaves out the term at the last position it walks: a total needs it."""
    text = PREFIX.format(body=f"loop (a = 0f32, t = 0f32) = for j < n do if {test} then (a + x[j], t + x[j]) else "
                              "(a, t + x[j]) in a / t")
    scan = scan_of(text)
    assert not isinstance(scan, Scan) and "a total beside a prefix" in scan.reason


def test_every_loop_the_position_masks_is_scanned_in_one_kernel():
    path = SCANS / "kept_first_count_i64.fut"
    scan = scan_of(path.read_text())
    assert isinstance(scan, Scan) and len(scan.loops) == 2 and not scan.left
    module = run_all(path.read_text(), path.name, Options())["verify"]
    first = module.versions[0].kernel
    assert first.name == "tiler_kept_first_count_i64_scan256"
    assert [s.name for s in first.stages] == ["tiler_kept_first_count_i64_scan256_stage0"]
    assert len(first.scratch) == 2  # one array a loop's carried value


@pytest.mark.parametrize("name, levels, ops, exclusive", [
    ("chain_excl_peak_f64", (0, 1, 1), (Operator.ADD, Operator.MAX, Operator.ADD), True),
    ("chain_rows_guarded_f32", (0, 1, 2, 1), (Operator.ADD, Operator.MAX, Operator.MAX, Operator.MUL), False),
    ("chain_count_weighted_i64", (0, 1), (Operator.ADD, Operator.ADD), False)])
def test_running_values_reading_each_others_are_scanned_one_level_after_another(name, levels, ops, exclusive):
    """A value whose terms read another's running value (new or old, through
    lets and the element's own test) is scanned after it: a stage a level."""
    path = SCANS / f"{name}.fut"
    scan = scan_of(path.read_text())
    assert isinstance(scan, Scan), scan
    (s,) = scan.loops
    assert (s.levels, s.operators, s.exclusive, s.depth) == (levels, ops, exclusive, max(levels) + 1)
    assert f"{s.depth} scans one after another" in scan.reason
    first = next(v.kernel for v in run_all(path.read_text(), path.name, Options())["verify"].versions
                 if "_scan256" in v.kernel.name)  # (rows: a warp a row first, one kernel)
    assert [st.name for st in first.stages] == [f"{first.name}_stage{n}" for n in range(s.depth)]


def test_a_test_of_the_element_nested_in_the_positions_is_read_as_joined_by_and():
    """`if j <= i then (if x[j] > 0 then (c + 1, s + x[j]) else (c, s)) else
    (c, s)`: a plain scan and a chain in one kernel (a stage each level)."""
    path = SCANS / "nested_if_count_f32.fut"
    scan = scan_of(path.read_text())
    assert isinstance(scan, Scan) and [s.depth for s in scan.loops] == [1, 2] and not scan.left
    first = run_all(path.read_text(), path.name, Options())["verify"].versions[0].kernel
    assert len(first.stages) == 2


def test_a_value_whose_new_value_is_a_let_is_a_plain_scan():
    scan = scan_of(loop("j <= i", update="let b = acc + x[j] in b"))
    assert isinstance(scan, Scan) and scan.loops[0].depth == 1 and scan.loops[0].operators == (Operator.ADD,)


CHAIN = PREFIX.format(body="loop (a = 0f32, m = 0f32{more}) = for j < n do if {test} then {update} else {keep} "
                           "in a + m")


@pytest.mark.parametrize("test, update, keep, more, reason", [
    ("j >= i", "(a + x[j], max(m, a + x[j]))", "(a, m)", "", "depend on where each point starts"),
    ("j <= i", "let z = a * x[j] in (a + z, m)", "(a, m)", "", "reads `a` itself"),
    ("j <= i", "(a + m * x[j], m + a)", "(a, m)", "", "read each other's running values"),
    ("j <= i && a > 0f32", "(a + x[j], m)", "(a, m)", "", "reads `a` itself (or the test above it does)"),
    ("j <= i", "(a + x[j], m + a, t + x[j])", "(a, m, t + x[j])", ", t = 0f32", "a total beside running values"),
    ("j <= i", "(a + x[j], m / a)", "(a, m)", "", "`m` is not combined with"),
])
def test_chains_not_built_say_why(test, update, keep, more, reason):
    scan = scan_of(CHAIN.format(test=test, update=update, keep=keep, more=more))
    assert not isinstance(scan, Scan) and scan is not None
    assert reason in scan.reason, scan.reason


def test_a_chain_whose_read_value_starts_from_the_point_is_not_scanned():
    """`m`'s terms read `a`'s running value, which starts from the point's own element: no scan serves all."""
    text = CHAIN.format(test="j <= i", update="(a + x[j], m + a)", keep="(a, m)", more="").replace("a = 0f32",
                                                                                                  "a = x[i]")
    scan = scan_of(text)
    assert not isinstance(scan, Scan) and "(`i`), so no one scan serves every point" in scan.reason
    assert isinstance(scan_of(text.replace("m + a)", "m + x[j])")), Scan)  # (independent: the start comes last)


COLUMNS = "fun [[f32, m], n] main([[f32, m], n] X) =\n  map(fn [f32, m] (int i) =>\n    map(fn f32 (int k) =>\n" \
          "      {body}\n    , iota(m))\n  , iota(n))\n"


@pytest.mark.parametrize("body, exclusive, suffix", [
    ("loop (s = 0f32) = for j < n do if j <= i then s + X[j, k] else s in s", False, False),
    ("loop (s = 0f32) = for j < n do if i > j then max(s, X[j, k]) else s in s", True, False),
    ("streamSeq(fn f32 (int j0, [[f32, m], c] xc, f32 s) => loop (s) = for j < c do if j0 + j >= i then s + xc[j, k] "
     "else s in s, X, 0f32)", False, True)])
def test_a_fold_down_the_columns_is_scanned_a_thread_a_column(body, exclusive, suffix):
    text = COLUMNS.format(body=body)
    scan = scan_of(text)
    assert isinstance(scan, Scan) and scan.level == 0, scan
    assert (scan.loops[0].exclusive, scan.suffix) == (exclusive, suffix)
    assert "down each column" in scan.reason
    kernel = run_all(text, "t.fut", Options())["verify"].versions[0].kernel
    assert kernel.block == (COLUMN_SCAN_LANES, 1, 1) and kernel.grid[0] == ("m", COLUMN_SCAN_LANES)
    assert kernel.grid[1] == ("n", COLUMN_SCAN_SHARE, COLUMN_SCAN_BLOCKS)


def test_a_chain_down_the_columns_is_scanned_a_thread_a_column():
    body = "loop (s = 0f32, t = 0f32) = for j < n do if j <= i then (s + X[j, k], t + s) else (s, t) in s + t"
    scan = scan_of(COLUMNS.format(body=body))
    assert isinstance(scan, Scan) and scan.level == 0 and scan.loops[0].levels == (0, 1)


def test_a_term_down_the_columns_reading_the_row_is_not_scanned():
    scan = scan_of(COLUMNS.format(body="loop (s = 0f32) = for j < n do if j <= i then s + X[j, k] * X[i, k] else s in s"))
    assert not isinstance(scan, Scan) and "varies with the point" in scan.reason


def test_a_fold_moved_to_an_outer_level_says_why_it_is_not_scanned():
    """It reads nothing of the inner level, so stage kernel runs it once a row, outside the innermost code."""
    body = "let s = loop (s = 0f32) = for j < n do if j <= i then s + X[j, 0] else s in s in s + X[i, k]"
    scan = scan_of(COLUMNS.format(body=body))
    assert not isinstance(scan, Scan) and "runs once a row, in that level's own code" in scan.reason


def test_a_loop_under_a_branch_of_the_point_is_walked_by_each_point():
    text = PREFIX.format(body="if i % 2 == 0 then loop (acc = 0f32) = for j < n do if j <= i then acc + x[j] else acc"
                              " in acc else 0f32")
    scan = scan_of(text)
    assert not isinstance(scan, Scan) and "only under a branch" in scan.reason


def test_no_scan_option_and_no_tile_leave_the_points_walking():
    text = loop("j <= i")
    assert scan_of(text, Options(no_scan=True)) is None
    assert scan_of(text, Options(no_tile=True)) is None


def test_the_scan_runs_first_unraced_for_long_rows_then_raced_from_its_shortest():
    path = ROOT / "corpus" / "e_row_count_min_int.fut"
    module = run_all(path.read_text(), path.name, Options())["verify"]
    assert [v.kernel.name[len("tiler_e_row_count_min_int_"):] for v in module.versions[:4]] == [
        "scan32", "scan32_raced", "scan256", "scan256_raced"]  # (a warp a row first: below)
    unraced, raced = module.versions[2:4]
    assert unraced.kernel.name.endswith("_scan256") and not unraced.rival
    assert raced.kernel.name.endswith("_scan256_raced") and raced.rival.endswith("_untiled")
    assert [s.name for s in raced.kernel.stages] == ["tiler_e_row_count_min_int_scan256_raced_stage0"]
    text = repr(raced.plan.condition)
    assert "what='m', op='>=', value=256" in text and "AtMost" not in text
    # the rows on grid x (any count of them), the blocks of a row's positions on y (at most MAX_BLOCKS_A_ROW)
    assert raced.kernel.grid[0] == ("n", 1) and raced.kernel.grid[1] == ("m", 256, 2048)
    assert not module.holds(raced, {"n": 4, "m": 255}) and module.holds(raced, {"n": 4, "m": 256})
    assert module.holds(raced, {"n": 200_000, "m": 256})
    # three levels: the batches on z, within its limit
    batches = SCANS / "batch_rows_f32.fut"
    raced = run_all(batches.read_text(), batches.name, Options())["verify"].versions[3]
    assert raced.kernel.grid == (("r", 1), ("m", 256, 2048), ("b", 1))
    assert "AtMost(size='b', value=65535)" in repr(raced.plan.condition)
    assert not module.holds(unraced, {"n": 4, "m": SCAN_UNRACED - 1}) and module.holds(unraced, {"n": 4, "m": SCAN_UNRACED})
    # (without launch timing, one version each, at every length from its shortest)
    module = run_all(path.read_text(), path.name, Options(no_launch_timing=True))["verify"]
    assert module.versions[1].kernel.name.endswith("_scan256") and module.holds(module.versions[1], {"n": 4, "m": 256})


@pytest.mark.parametrize("rows, length, picked", [
    (WARP_SCAN_MIN_ROWS, 1, "scan32_raced"), (WARP_SCAN_MIN_ROWS, WARP_SCAN_LONGEST, "scan32_raced"),
    (WARP_SCAN_MIN_ROWS, WARP_SCAN_LONGEST + 1, "scan256_raced"), (WARP_SCAN_MIN_ROWS - 1, 300, "scan256_raced"),
    (WARP_SCAN_MANY_ROWS, SCAN_UNRACED - 1, "scan32_raced"), (WARP_SCAN_MANY_ROWS, SCAN_UNRACED, "scan32"),
    (WARP_SCAN_MANY_ROWS - 1, SCAN_UNRACED, "scan256"), (WARP_SCAN_MIN_ROWS - 1, 100, "tiled"),
])
def test_many_rows_are_scanned_a_warp_a_row(rows, length, picked):
    """A warp a row, eight rows a block, where the rows are many: at most
    4,096 positions from 1,024 rows, any from 2,048 (raced against the
    untiled kernel below SCAN_UNRACED positions, as a block a row is);
    fewer rows run a block a row, from 256 positions."""
    path = ROOT / "corpus" / "e_row_count_min_int.fut"
    module = run_all(path.read_text(), path.name, Options())["verify"]
    kernel = module.select({"n": rows, "m": length}, 132)
    assert kernel.name == f"tiler_e_row_count_min_int_{picked}"
    if picked.startswith("scan32"):
        assert kernel.block == (32, 8, 1) and kernel.grid == (("n", 8), None, None) and not kernel.stages
        assert not kernel.shared and not kernel.scratch
    # a first launch races it against the version that follows (a block a row from 256 positions: as fast with
    # 1,024 rows of 4,096 where a step costs more), then the winner against the untiled kernel
    ahead = module.ahead({"n": rows, "m": length}, 132)
    assert (ahead is not None) == (picked == "scan32_raced")
    if ahead is not None and length >= 256:
        assert ahead.name == "tiler_e_row_count_min_int_scan256_raced"


def test_a_total_beside_the_scan_keeps_a_block_a_row():
    """A value that is the row's total needs the whole row before any
    point's: no warp a row (its one kernel has no stage)."""
    path = SCANS / "rows_share_f32.fut"
    module = run_all(path.read_text(), path.name, Options())["verify"]
    assert module.versions[0].kernel.name.endswith("_scan256")
    assert not any("_scan32" in k.name for k in module.kernels)
    # which then runs rows of 128 positions and more where there are many (each point's own walk is then rows x
    # m^2 / 2 steps)
    for sizes, picked in (({"n": MANY_ROWS, "m": SHORT_ROW_LENGTH}, "scan256_raced"),
                          ({"n": MANY_ROWS, "m": 200}, "scan256_raced"), ({"n": MANY_ROWS - 1, "m": 200}, "tiled"),
                          ({"n": MANY_ROWS, "m": SHORT_ROW_LENGTH - 1}, "tiled")):
        assert module.select(sizes, 132).name == f"tiler_rows_share_f32_{picked}", sizes
    # rows the program fixes below WARP_SCAN_MIN_ROWS: no warp a row, which could never run
    text = (SCANS / "rows_cummax_f64.fut").read_text().replace("m], r]", "m], 500]")
    assert not any("_scan32" in k.name for k in run_all(text, "lit.fut", Options())["verify"].kernels)


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_the_scan_kernels_compile_without_spills(tmp_path):
    units, scans_of = [], []
    paths = sorted(p for p in SCANS.glob("*.fut")) + [ROOT / "corpus" / f"{n}.fut" for n in (
        "b_prefix_masked_i64", "e_hist_cdf_f32", "e_series_wealth_logret_f64", "e_row_runmean_peak_f32",
        "e_col_cumsum_sales_f32", "e_col_excl_offsets_int")]
    for path in paths:
        values = run_all(path.read_text(), path.name, Options())
        if isinstance(values["analyse"].plan.scan, Scan):
            units.append(values["render"])
            scans_of.append(values["analyse"].plan.scan)
    reports = ptxas_reports(units, tmp_path)
    scans = {name: r for name, r in reports.items() if "_scan256" in name}
    # the stages (one a chain's level) and the scan kernel of each program's, unraced and raced
    assert len(scans) == 2 * (len(units) + sum(max(s.depth for s in scan.loops) for scan in scans_of))
    for name, report in scans.items():
        assert " 0 bytes spill stores" in report, (name, report)


def test_explain_says_which_loops_are_scanned_and_why_not():
    out = tiler("explain", SCANS / "kept_first_count_i64.fut")
    assert out.returncode == 0, out.stderr
    assert "scan: loops at 6:29 and 11:29: each point folds the terms at the positions up to its own (by +)" in \
        " ".join(out.stdout.split())
    data = json.loads(tiler("explain", "--json", SCANS / "reaching_f32.fut").stdout)
    assert data["scan"]["scanned"] is False
    assert "reaches past the point's own position" in data["scan"]["not_scanned"][0]["reason"]
    data = json.loads(tiler("explain", "--json", SCANS / "cdf_total_f32.fut").stdout)
    assert data["scan"]["loops"] == [{"line": 7, "column": 23, "operators": ["+", "+", "min"], "suffix": False,
                                      "exclusive": False, "totals": ["t"], "chain": [["s", "t", "lo"]]}]
    assert data["versions"][0]["kernel"] == "scan"
    data = json.loads(tiler("explain", "--json", SCANS / "chain_rows_guarded_f32.fut").stdout)
    assert data["scan"]["loops"][0]["chain"] == [["s"], ["hi", "g"], ["fall"]]
    # a warp a row first, eight rows a block; then a row's blocks, not its rows (those are on grid x)
    assert (data["versions"][0]["lanes"], data["versions"][0]["rows_a_block"]) == (32, 8)
    assert data["versions"][2]["blocks_a_row"] == "min(ceil(m / 256), 2048)" and data["versions"][2]["kernels"] == 4
    assert "scan, 32 threads a row, 8 rows a block" in tiler("explain", SCANS / "chain_rows_guarded_f32.fut").stdout


@pytest.mark.parametrize("name", ["rows_cummax_f64", "rows_share_f32"])
@pytest.mark.parametrize("rows", ["r", 500, 1500, 3000, 20000])
@pytest.mark.parametrize("length", ["m", 100, 200, 300, 5000, 20000])
@pytest.mark.parametrize("timing", [True, False])
def test_every_scan_version_can_run_at_the_sizes_the_program_fixes(name, rows, length, timing):
    """Where the program fixes the rows' count or their length, no scan
    version is built that no launch could pick (a block a row's raced
    version aside: the warp's first opponent in a race)."""
    text = (SCANS / f"{name}.fut").read_text()
    row_size = "r" if "m], r]" in text else "n"
    text = text.replace(f"m], {row_size}]", f"m], {rows}]" if rows != "r" else f"m], {row_size}]")
    text = text.replace("[f64, m]", f"[f64, {length}]").replace("[f32, m]", f"[f32, {length}]") \
        .replace("j < m", f"j < {length}").replace("iota(m)", f"iota({length})")
    module = run_all(text, "t.fut", Options(no_launch_timing=not timing))["verify"]
    named = {s: v for s, v in ((row_size, rows), ("m", length)) if isinstance(v, str)}
    grid = {"r": [1, 1000, 1024, 1500, 2048, 5000, 16384, 20000], "n": [1, 1000, 1024, 1500, 2048, 5000, 16384, 20000],
            "m": [1, 100, 128, 200, 256, 300, 4096, 5000, 16384, 20000]}
    picked = set()
    for r in grid[row_size] if row_size in named else [None]:
        for m in grid["m"] if "m" in named else [None]:
            sizes = {k: v for k, v in ((row_size, r), ("m", m)) if v is not None}
            picked.add(module.select(sizes, 132).name)
    for v in module.versions:
        if "_scan" in v.kernel.name and not v.kernel.name.endswith("_scan256_raced"):
            assert v.kernel.name in picked, (v.kernel.name, rows, length, timing)
