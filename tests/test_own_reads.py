"""Splits for few points whose reductions stream each point's own
elements (analyse/own_reads.py): they also run for more points an SM where
the rows are long, as one thread a point keeps too few bytes in flight."""
from __future__ import annotations

import pytest
from conftest import BENCHMARKS, ROOT

from tiler.analyse import Options, reductions
from tiler.analyse.own_reads import OWN_FEW_POINTS_AN_SM, OWN_LONG_ROW
from tiler.pipeline import run_to

MATVEC = """fun [f32, n] main([[f32, m], n] A, [f32, m] x) =
  map(fn f32 ([f32, m] row) =>
        loop (acc = 0f32) = for k < m do acc + {read} * x[k] in acc, A)
"""
COLUMNS = """fun [f32, m] main([[f32, m], n] A, [f32, n] x) =
  map(fn f32 (int j) => loop (s = 0f32) = for i < n do s + {read} * x[i] in s, iota(m))
"""
PRODUCT = """fun [[f32, p], n] main([[f32, m], n] A, [[f32, p], m] B) =
  map(fn [f32, p] ([f32, m] row) =>
        map(fn f32 (int j) => loop (acc = 0f32) = for k < m do acc + row[k] * B[k, j] in acc, iota(p)), A)
"""

PICKED = """fun [f32, n] main([[f32, m], h] A, [int, n] c, [f32, m] x) =
  map(fn f32 (int i) =>
        let row = {row} in
        loop (acc = 0f32) = for k < m do acc + row[k] * x[k] in acc, iota(n))
"""
GATHERED = """fun [f32, n] main([[f32, m], h] A, [int, n] c, [f32, m] x) =
  map(fn f32 (int i, int ci) => loop (acc = 0f32) = for k < m do acc + A[ci, k] * x[k] in acc, zip(iota(n), c))
"""


def split_of(text: str):
    return run_to("analyse", text, "t.fut").plan.split


def split_of_with(text: str, options: Options):
    return run_to("analyse", text, "t.fut", options).plan.split


@pytest.mark.parametrize("text, own", [
    (MATVEC.format(read="row[k]"), True),  # the row of A is the point's own
    (COLUMNS.format(read="A[i, j]"), True),  # A read at the point's own column
    (PRODUCT, False),  # a row of A every column's point reads, a column of B every row's
    (MATVEC.format(read="row[k / 2]"), False),  # the step's index computed: not a new element each step
    (COLUMNS.format(read="A[i, (j + i) % m]"), False),  # a column that moves with the step: another's too
    (COLUMNS.format(read="A[i / 2, j]"), False),  # a step whose index is computed may read what another reads
    (MATVEC.format(read="row[k] * x[(k * 7) % m]"), True),  # a gather of the shared vector beside it
    (PICKED.format(row="A[i]"), True),  # a row at the point's own index
    (PICKED.format(row="A[c[i]]"), False),  # a row picked through a table: another point's too
    (PICKED.format(row="A[i / 2]"), False),
    (PICKED.format(row="A[i % h]"), False),
    (GATHERED, False),  # the same, the table's entry a map parameter
])
def test_a_few_points_split_runs_further_where_each_step_reads_the_points_own_element(text, own):
    split = split_of(text)  # (a step with a division or a remainder is heavy: few up to 256 an SM)
    assert split.few and split.few_rows in (reductions.FEW_POINTS_AN_SM, reductions.HEAVY_FEW_POINTS_AN_SM)
    assert split.own_rows == (OWN_FEW_POINTS_AN_SM if own else 0)
    assert reductions.Test("rows", "<", OWN_FEW_POINTS_AN_SM if own else split.few_rows, True) in split.gate
    assert ("too few bytes in flight" in split.reason) == own


def test_a_step_with_an_inner_loop_over_shared_rows_is_the_tiled_kernels_work():
    """A product's step, an inner product over a row the other points read
    too (a bilinear form), reads the point's own element once a step: the
    tiled kernel shares the inner rows, so the split stays for few points."""
    text = """fun [f32, nb] main([[f32, n], n] A, [[f32, n], nb] X, [[f32, n], nb] Y) =
  map(fn f32 ([f32, n] x, [f32, n] y) =>
        loop (acc = 0f32) = for r < n do
          acc + x[r] * (loop (s = 0f32) = for q < n do s + A[r, q] * y[q] in s) in acc, X, Y)
"""
    split = split_of(text)
    assert split.few and not split.own_rows


def module_of(path):
    return run_to("verify", path.read_text(), path.name)


@pytest.mark.parametrize("name, sizes, kernel", [
    # H200 (experiments/verify/few_points.py): 40,000 rows of 10,007, 303 an SM: 0.65 -> 0.37 ms split
    ("a_matvec_rows_f32", {"n": 40000, "m": 10007}, "split256"),
    ("a_matvec_rows_f32", {"n": 200000, "m": 1000}, "tiled"),  # 1,515 an SM: one thread a point
    ("a_matvec_rows_f32", {"n": 40000, "m": OWN_LONG_ROW - 4}, "tiled"),  # short rows
    ("a_matvec_rows_f32", {"n": 3000, "m": 2000}, "split256"),  # few points: split at any length from 256
    ("a_matvec_rows_f32", {"n": 132 * OWN_FEW_POINTS_AN_SM, "m": 10000}, "tiled"),
    # columns: 30,000 x 12,000, 227 an SM: 0.58 -> 0.40 ms; 120,000 x 2,000 stays
    ("a_vecmat_stream_f32", {"m": 30000, "n": 12000}, "split32_cols"),
    ("a_vecmat_stream_f32", {"m": 120000, "n": 2000}, "tiled"),
    ("a_vecmat_stream_f32", {"m": 3000, "n": 6000}, "split32_cols_blocks"),  # few: several blocks a column
])
def test_the_launch_splits_long_own_streams_up_to_more_points(name, sizes, kernel):
    """The version the conditions pick; for more points, after the warp a row that races ahead of the plan's
    own where the rows are reductions.OWN_WARP_ROW long or more (not for columns side by side: their own lanes
    a column)."""
    path = ROOT / "corpus" / f"{name}.fut"
    module = module_of(path)
    picked = module.select(sizes, 132)
    if kernel.startswith("split") or not run_to("analyse", path.read_text(), path.name).plan.split.own_warp:
        assert picked.name == f"tiler_{name}_{kernel}"
    else:  # more points: the warp a row, raced against the plan's own version
        assert picked.name == f"tiler_{name}_split32" and module.version(picked).ahead
        assert module.ahead(sizes, 132).name == f"tiler_{name}_{kernel}"


@pytest.mark.parametrize("text, warp", [
    (MATVEC.format(read="row[k]"), True),
    (MATVEC.format(read="row[k] * x[(k * 7) % m]"), True),  # a gather of the shared vector beside the own row
    (PICKED.format(row="A[i]"), True),
    (COLUMNS.format(read="A[i, j]"), False),  # columns side by side have their own lanes a column
    (PRODUCT, False),
    (GATHERED, False),
])
def test_a_split_streaming_the_points_own_rows_runs_a_warp_a_row_for_more_points(text, warp):
    """One thread a point reads its own row a row apart from its neighbours' (uncoalesced), and the tiled
    kernel's block must hold its threads' rows: a warp a row for more points than the split's own versions
    run for, from OWN_WARP_ROW elements a row, raced against the plan's own version."""
    split = split_of(text)
    assert split.own_warp == warp
    assert ("a warp a row, for more points" in run_to("render", text, "t.fut")) == warp  # (the version's why)
    if warp:
        assert split.own_warp_tests[0] == reductions.Test("length", ">=", reductions.OWN_WARP_ROW)
        module = run_to("verify", text, "t.fut")
        names = [v.kernel.name for v in module.versions]
        at = names.index("tiler_t_split32")
        warp = module.versions[at]
        # after the split's own versions (and a split-K one), before the plan's
        assert warp.ahead and warp.few and at > 0 and all("_split" in n for n in names[:at])
        assert not any("_split" in n for n in names[at + 1:] if "_wide" not in n)
        many, few = {"n": 10 ** 6, "m": 16, "h": 4}, {"n": 1000, "m": 300, "h": 4}
        assert module.select(many, 132).name == "tiler_t_split32"
        assert not module.ahead(many, 132).lanes  # raced against the plan's own version
        assert module.select({**many, "m": 15}, 132).name != "tiler_t_split32"
        assert module.select(few, 132).lanes == 256  # few points: the split's own, as before
        # without launch timing, none (only the race judges it)
        assert not split_of_with(text, Options(no_launch_timing=True)).own_warp


def test_the_lanes_own_tests_are_not_repeated_where_they_imply_the_bound_or_length():
    """Each lane choice also asks that the rows be few or long, except
    where its own tests say so already (a block of 1024 for rows of 65,536
    or fewer than 4 rows an SM)."""
    split = run_to("analyse", (ROOT / "corpus" / "a_matvec_rows_f32.fut").read_text(), "mv.fut").plan.split
    wide = next(c for c in split.choices if c.lanes == reductions.WIDE_BLOCK)
    assert wide.when == ((reductions.Test("length", ">=", reductions.LONG_ROW),),
                         (reductions.Test("rows", "<", reductions.FEW_ROWS_AN_SM, True),))
    block = split.choices[-1]
    assert block.when == ((reductions.Test("rows", "<", reductions.FEW_POINTS_AN_SM, True),),
                          (reductions.Test("length", ">=", OWN_LONG_ROW),))


@pytest.mark.parametrize("path", [ROOT / "corpus" / "b_gp_matern_f64.fut", BENCHMARKS / "mlp.fut"])
def test_a_fissioned_fold_over_scratch_streams_its_own_row(path):
    """A fold fission left reading each pair's value from scratch (a
    Gaussian-process mean's exp of the distance, an MLP's hidden unit)
    reads the point's own row of it a step: split for long rows up to 512
    points an SM; the kernel as written, an inner product a step, keeps its
    bound."""
    analysis = run_to("analyse", path.read_text(), path.name)
    assert not analysis.plan.split.own_rows
    text = run_to("render", path.read_text(), path.name)
    assert "too few bytes in flight" in text


@pytest.mark.parametrize("options", [Options(lanes=256), Options(several_blocks=True)])
def test_lanes_given_or_several_blocks_forced_keep_the_few_or_long_rows(options):
    """The lanes the user gave, or several blocks forced, run only where the
    split would (few points, or up to 512 an SM for long rows): 60,000 rows
    of 1,000 (454 an SM) keep the tiled kernel."""
    path = ROOT / "corpus" / "a_matvec_rows_f32.fut"
    module = run_to("verify", path.read_text(), path.name, options)
    assert module.select({"n": 60000, "m": 1000}, 132).name == "tiler_a_matvec_rows_f32_tiled"
    assert module.select({"n": 40000, "m": 10007}, 132).lanes


def test_columns_with_lanes_given_keep_the_few_or_long_rows():
    """Columns split with the lanes given (no several blocks): 60,000
    columns of 1,000 (454 an SM) keep the tiled kernel; long columns split."""
    module = run_to("verify", COLUMNS.format(read="A[i, j]"), "c.fut", Options(lanes=32))
    assert module.select({"m": 60000, "n": 1000}, 132).name == "tiler_c_tiled"
    assert module.select({"m": 30000, "n": 12000}, 132).name == "tiler_c_split32_cols"


def test_the_own_rows_warp_leaves_split_k_racing_the_split_it_would_otherwise_be():
    """A split-K version races the next version whose condition holds: where the points are few that is still
    the split's own (a block of 1024 for one long row), not the warp a row that runs for more points."""
    module = module_of(ROOT / "corpus" / "b_lj_neighbor_list.fut")
    sizes = {"n": 1, "maxn": 4096}
    assert module.select(sizes, 132).name.endswith("_k")
    assert module.ahead(sizes, 132).name == "tiler_b_lj_neighbor_list_split1024"


@pytest.mark.parametrize("path", [ROOT / "corpus" / "b_gp_matern_f64.fut", BENCHMARKS / "mlp.fut"])
def test_a_fissioned_fold_has_no_own_rows_warp(path):
    """A fissioned version races the kernel as written, never the fold's other versions: a warp a row among
    the fold's versions would leave those unreachable, so the fold has none."""
    names = [v.kernel.name for v in module_of(path).versions]
    assert any("fold" in n for n in names) and not any("fold_split32" in n for n in names)
