"""Work moved to the map level where it varies (stage `kernel`,
tiler/kernel/hoist.py): what moves, what stays and why, what explain says,
and that the moved program computes what the source does."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import tiler

from tiler.analyse import Options
from tiler.check import check
from tiler.check import typed as T
from tiler.fuzz.properties import CHUNKINGS, _kernel_stage
from tiler.interp import run
from tiler.kernel.hoist import LAUNCH, PRELUDE
from tiler.pipeline import run_all, run_to
from tiler.syntax import parse
from tiler.tree import descendants
from tiler.workload import make_inputs

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

SOFTMAX_IN_ELEMENT = """fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) =>
              let mx = streamSeq(fn f32 (int kk, [f32, c] xc, f32 best) =>
                                   loop (best) = for k < c do max(best, xc[k]) in best,
                                 row, -3.4028235e38) in
              let s = streamSeq(fn f32 (int kk, [f32, c2] xc, f32 acc) =>
                                  loop (acc) = for k < c2 do acc + exp(xc[k] - mx) in acc,
                                row, 0f32) in
              exp(x - mx) / s,
            row),
      X)
"""

# work that must stay: it reads the element, it runs only in a branch, it runs in a loop's body
STAYS = {
    "reads the element": """fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) => loop (a = x) = for k < m do a + row[k] in a, row),
      X)
""",
    "in a branch": """fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) => if x > 0f32 then loop (a = 0f32) = for k < m do a + row[k] in a else x, row),
      X)
""",
    "in a loop's body": """fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x) =>
              loop (b = x) = for t < 3 do b + (loop (a = 0f32) = for k < m do a + row[k] in a) in b,
            row),
      X)
""",
    "right of &&": """fun [[bool, m], n] main([[f32, m], n] X) =
  map(fn [bool, m] ([f32, m] row) =>
        map(fn bool (f32 x) => x > 0f32 && (loop (a = 0f32) = for k < m do a + row[k] in a) > x, row),
      X)
""",
}

# a helper called inside an expression, reading only the outer index; and one reading no level at all
MOVES = {
    "helper in an expression": """fun f64 rowsum([[f64, w], h] a, int i) =
  loop (s = 0f64) = for k < w do s + a[i, k] in s

fun [[f64, cols], rows] main([[f64, cols], rows] A) =
  map(fn [f64, cols] (int i) =>
        map(fn f64 (int j) => A[i, j] / rowsum(A, i), iota(cols)),
      iota(rows))
""",
    "a helper given the row": """fun f32 centred([f32, m] r, f32 x) =
  let mu = streamSeq(fn f32 (int kk, [f32, c] rc, f32 acc) =>
                       loop (acc) = for k < c do acc + rc[k] in acc, r, 0f32) / f32(m) in
  x - mu

fun [[f32, m], n] main([[f32, m], n] X) =
  map(fn [f32, m] ([f32, m] row) => map(fn f32 (f32 x) => centred(row, x), row), X)
""",
    "varies with no dimension": """fun [[f32, m], n] main([[f32, m], n] X, [f32, m] w) =
  map(fn [f32, m] ([f32, m] row) =>
        map(fn f32 (f32 x, f32 wj) =>
              x * wj / sqrt(loop (s = 0f32) = for k < m do s + w[k] * w[k] in s),
            zip(row, w)),
      X)
""",
    "three levels": """fun [[[f32, p], m], n] main([[[f32, p], m], n] X) =
  map(fn [[f32, p], m] ([[f32, p], m] plane) =>
        map(fn [f32, p] ([f32, p] row) =>
              map(fn f32 (f32 x) =>
                    let t = loop (a = 0f32) = for k < p do a + row[k] in a in
                    let u = loop (a = 0f32) = for k < p do a + plane[0, k] in a in
                    x - t + u,
                  row),
            plane),
      X)
""",
}


DEFAULT = Options()


def kernel(text: str, options: Options = DEFAULT) -> T.Kernel:
    return run_to("kernel", text, "p.fut", options)


def body_work(k: T.Kernel) -> list:
    return [n for n in descendants(k.body, T.is_exp) if isinstance(n, (T.Loop, T.Stream))]


def test_a_rows_statistics_move_to_the_rows_level():
    k = kernel(SOFTMAX_IN_ELEMENT)
    assert [b.name for bs, _ in k.levels[0].lets for b in bs] == ["mx", "s"]
    assert not body_work(k)  # the element only normalises itself
    mx, s = k.hoisted
    assert (mx.what, mx.written, mx.runs, mx.reads) == ("`mx`", 1, 0, ("row",))
    assert s.reads == ("mx", "row") and "once a row, not once a point" in s.reason


def test_the_plan_then_splits_the_rows_reductions():
    a = run_to("analyse", SOFTMAX_IN_ELEMENT, "p.fut", Options())
    assert a.plan.split.active and sorted(op.value for r in a.plan.split.reductions for op in r.operators) == \
        ["+", "max"]


@pytest.mark.parametrize("name", STAYS)
def test_work_that_varies_or_may_not_run_stays(name):
    k = kernel(STAYS[name])
    assert not k.hoisted and not k.levels[0].lets and body_work(k)


@pytest.mark.parametrize("name", MOVES)
def test_work_inside_expressions_and_of_no_level_moves(name):
    k = kernel(MOVES[name])
    assert k.hoisted and all(h.moved for h in k.hoisted)
    if name == "three levels":  # t reads the row (level 1), u only the plane (level 0)
        t, u = k.hoisted
        assert (t.written, t.runs, u.written, u.runs) == (2, 1, 2, 0)
        assert not body_work(k)
    else:
        assert not body_work(k) and k.levels[0].lets
    if name == "varies with no dimension":  # two levels: once a row of the outer one (a launch only for one level)
        (h,) = k.hoisted
        assert h.reads == () and h.runs == 0 and "once a row of map level 0" in h.reason and not k.launch


ONE_LEVEL = """fun [f64, n] main([[f64, m], n] X, [f64, m] w) =
  map(fn f64 ([f64, m] xrow) =>
        let total = loop (s = 0f64) = for t < m do {step} in s in
        loop (acc = 0f64) = for t < m do acc + xrow[t] * w[t] / total in acc,
      X)
"""


def test_one_level_moves_it_to_a_launch_of_its_own():
    k = kernel(ONE_LEVEL.format(step="s + w[t]"))
    (h,) = k.hoisted
    assert h.moved and h.runs == LAUNCH and h.what == "`total`" and "once a launch" in h.reason
    assert [b.name for bs, _ in k.launch for b in bs] == ["total"]
    # the main kernel reads it from the launch's scratch array, in every version, after the kernel computing it
    module = run_all(ONE_LEVEL.format(step="s + w[t]"), "p.fut", Options())["verify"]
    for v in module.versions:
        first = v.kernel.stages[0]
        assert first.name.startswith("tiler_p_launch_") and any(p.name == "tiler_launch0_total" and
                                                                p.role == "scratch" for p in first.params)
        assert any(s.name == "tiler_launch0_total" for s in v.kernel.scratch)
    assert {v.kernel.stages[0].name for v in module.versions} == {"tiler_p_launch_split1024", "tiler_p_launch_split256_wide"}


def test_work_of_no_level_no_launch_shares_stays_and_says_so():
    k = kernel(ONE_LEVEL.format(step="if s > 1f64 then s * 0.5f64 else s + w[t]"))  # no reduction: one thread
    (h,) = k.hoisted
    assert not h.moved and not k.launch and "no reduction a launch's threads could share" in h.reason


@pytest.mark.parametrize("options", [Options(no_hoist=True), Options(no_tile=True)], ids=["--no-hoist", "--no-tile"])
def test_the_options_leave_work_where_it_was_written(options):
    k = kernel(SOFTMAX_IN_ELEMENT, options)
    assert not k.hoisted and not k.levels[0].lets and len(body_work(k)) == 4  # two streams, a loop each


PROGRAMS = [SOFTMAX_IN_ELEMENT, *MOVES.values(), *STAYS.values()]


@pytest.mark.parametrize("text", PROGRAMS, ids=["softmax", *MOVES, *STAYS])
def test_the_moved_program_computes_what_the_source_does(text):
    """The fuzzer's property: the kernel stage's program, run by the
    interpreter under each chunking, agrees with the source's."""
    prog = check(parse(text, "p.fut"))
    sizes = {s.name: 13 for s in prog.kernel.sizes}
    inputs = make_inputs(prog, sizes, None, seed=3)
    results = [run(prog, inputs, c, 3) for c in CHUNKINGS]
    assert _kernel_stage(prog, inputs, results, 3, text) == []


@pytest.mark.parametrize("path", sorted(CORPUS.glob("c_*.fut")), ids=lambda p: p.stem)
def test_the_corpus_moved_programs_compute_what_their_sources_do(path):
    prog = check(parse(path.read_text(), path.name))
    sizes = {s.name: 11 for s in prog.kernel.sizes}
    inputs = make_inputs(prog, sizes, None, seed=5)
    results = [run(prog, inputs, c, 5) for c in CHUNKINGS]
    assert _kernel_stage(prog, inputs, results, 5, path.read_text()) == []


def test_explain_says_what_moved_where_and_why(tmp_path):
    p = tmp_path / "softmax.fut"
    p.write_text(SOFTMAX_IN_ELEMENT)
    out = tiler("explain", str(p))
    assert out.returncode == 0
    assert "hoisted: `mx` at 4:24, written at map level 1, runs at map level 0: it reads `row` of map level 0" \
        in " ".join(out.stdout.split())
    data = json.loads(tiler("explain", str(p), "--json").stdout)
    assert [(h["what"], h["written_at"], h["runs_at"]) for h in data["hoisted"]] == [("`mx`", 1, 0), ("`s`", 1, 0)]


def test_show_transformed_draws_the_moved_program(tmp_path):
    """The moved lets are bound before the inner map, and a moved call is
    bound under the kernel's name for it and read by that name."""
    out = tiler("explain", CORPUS / "c_softmax_helpers_f64.fut", "--show-transformed").stdout
    main = out[out.index("fun [[f64, cols], rows] main"):]
    assert main.index("let mx = rowmax(logits, i) in") < main.index("let work = rowexpsum(logits, i, mx) in") \
        < main.index("map(\n        fn f64 (int j)") < main.index("exp(logits[i, j] - mx) / work")
    assert "-- hoisted from map level 1 to map level 0: the expression (14:40): it reads `i`, `mx`" in main
    p = tmp_path / "softmax.fut"
    p.write_text(SOFTMAX_IN_ELEMENT)
    out = tiler("explain", str(p), "--show-transformed").stdout
    assert out.index("let mx = streamSeq(") < out.index("let s = streamSeq(") < out.index("fn f32 (f32 x) =>") \
        < out.index("exp(x - mx) / s")


PRODUCT_WITH_A_ROW_SUM = """fun [[f32, q], n] main([[f32, m], n] A, [[f32, m], q] B) =
  map(fn [f32, q] ([f32, m] a) =>
        map(fn f32 ([f32, m] b) =>
              let s = loop (t = 0f32) = for k < m do t + a[k] in t in
              s * streamSeq(fn f32 (int kk, [f32, c] ac, [f32, c] bc, f32 acc) =>
                              loop (acc) = for k < c do acc + ac[k] * bc[k] in acc, a, b, 0f32),
            B),
      A)
"""


def test_work_the_rows_threads_would_not_share_stays_where_written():
    """The row sum reads nothing of `b`, but the product beside it is tiled,
    so no row is split (but for few points): moved, every thread would still run the sum, from
    a level whose loops are not staged. The plan is the kernel as written's,
    and the CUDA is the same as under --no-hoist."""
    from tiler.pipeline import run_all

    values = run_all(PRODUCT_WITH_A_ROW_SUM, "p.fut")
    a = values["analyse"]
    assert kernel(PRODUCT_WITH_A_ROW_SUM).hoisted[0].moved  # (the stage moved it; the plan did not take it)
    (h,) = a.kernel.hoisted
    # (split only for launches of few points: the many-point ones run the tiled kernel, as written)
    assert not h.moved and "the row's threads would not share it (" in h.reason and "fewer than 64 an SM" in h.reason
    assert not a.kernel.levels[0].lets and a.block.register is not None
    assert values["render"] == run_all(PRODUCT_WITH_A_ROW_SUM, "p.fut", Options(no_hoist=True))["render"]


PRELUDE_ONE = """
fun [f64, n] main([f64, n] X, [f64, k] w) =
  let total = loop (s = 0f64) = for j < k do s + w[j] in s in
  map(fn f64 (f64 x) => x / total, X)
"""
PRELUDE_TWO = """
fun [[f32, m], n] main([[f32, m], n] X, [f32, k] w) =
  let s = loop (s = 0f32) = for j < k do s + w[j] in s in
  map(fn [f32, m] ([f32, m] row) => map(fn f32 (f32 x) => x / s, row), X)
"""
PRELUDE_READ = """
fun [f32, n] main([f32, n] X, [f32, k] w) =
  let s = loop (s = 0f32) = for j < k do s + w[j] in s in
  let t = s * 2f32 in
  map(fn f32 (f32 x) => x / t, X)
"""

PRELUDE_READ_IN_A_ROW = """
fun [[f32, m], n] main([[f32, m], n] X, [f32, k] w) =
  let s = loop (s = 0f32) = for j < k do s + w[j] in s in
  map(fn [f32, m] ([f32, m] row) =>
        let t = s * 2f32 in
        let r = loop (a = 0f32) = for j < m do a + row[j] in a in
        map(fn f32 (f32 x) => x / (t + r), row), X)
"""


def test_a_reduction_in_mains_prelude_runs_once_a_launch_not_once_a_thread():
    """Every thread computed the prelude's sum before its point: in a kernel of one level it moves to a kernel
    of its own, once a launch; in one of more, to map level 0's lets, once a row."""
    k = kernel(PRELUDE_ONE)
    (h,) = k.hoisted
    assert (h.written, h.runs, h.what) == (PRELUDE, LAUNCH, "`total`") and not k.prelude
    assert [b.name for bs, _ in k.launch for b in bs] == ["total"] and "before the maps" in h.reason
    two = kernel(PRELUDE_TWO)
    (h,) = two.hoisted
    assert (h.written, h.runs) == (PRELUDE, 0) and not two.prelude and [b.name for bs, _ in two.levels[0].lets for b in bs] == ["s"]
    read = kernel(PRELUDE_READ)  # another prelude let reads it: it stays
    assert not read.hoisted and [p.binder.name for p in read.prelude] == ["s", "t"]
    row = kernel(PRELUDE_READ_IN_A_ROW)  # map level 0's own lets read it: it goes before them
    assert [b.name for bs, _ in row.levels[0].lets for b in bs][:2] == ["s", "t"]


@pytest.mark.parametrize("text", [PRELUDE_ONE, PRELUDE_TWO, PRELUDE_READ, PRELUDE_READ_IN_A_ROW],
                         ids=["one", "two", "read", "read-in-a-row"])
def test_a_prelude_moved_computes_what_the_source_does(text):
    prog = check(parse(text, "p.fut"))
    sizes = {s.name: 13 for s in prog.kernel.sizes}
    inputs = make_inputs(prog, sizes, None, seed=3)
    results = [run(prog, inputs, c, 3) for c in CHUNKINGS]
    assert _kernel_stage(prog, inputs, results, 3, text) == []


def test_explain_says_prelude_work_moved(tmp_path):
    p = tmp_path / "pre.fut"
    p.write_text(PRELUDE_ONE)
    out = " ".join(tiler("explain", p).stdout.split())
    assert "hoisted: `total` at 3:15, written in main's prelude, runs in a kernel of its own, once a launch" in out
    p.write_text(PRELUDE_READ_IN_A_ROW)  # not moved where the rows are not split: said as written
    out = " ".join(tiler("explain", p, "--no-split").stdout.split())
    assert "work in place: `s` at 3:11 (main's prelude): written before the maps" in out and "level -" not in out
    assert run_all(PRELUDE_READ_IN_A_ROW, "p.fut")["render"]
    shown = tiler("explain", p, "--show-transformed").stdout  # moved first in the row's body, before `t` reads it
    assert "hoisted from main's prelude to map level 0" in shown and shown.index("let s =") < shown.index("let t =")
