"""Speculation (kernel/speculate.py): a stream under an `if` whose test
varies with the points runs at every point, before the `if`, where its
reads are in range at every point; the kernel stage computes what the
source does."""
from __future__ import annotations

import pytest
from conftest import tiler

from tiler.analyse import DEFAULT
from tiler.check import check
from tiler.check import typed as T
from tiler.fuzz.properties import CHUNKINGS, _kernel_stage
from tiler.interp import run
from tiler.pipeline import run_to
from tiler.syntax import parse
from tiler.workload import make_inputs

MASKED = """
fun [[f32, t], s] main([[f32, 64], s] Q, [[f32, 64], t] K{extra}) =
  map(fn [f32, t] (int i) =>
        map(fn f32 (int j) =>
              if {test} then {other}
              else
                let q = {qread} in
                let k = K[j] in
                let d = streamSeq(fn f32 (int e0, [f32, c] qc, [f32, c] kc, f32 acc) =>
                                    loop (acc) = for e < c do acc + qc[e] * kc[e] in acc,
                                  q, k, 0f32)
                in d * 0.125f32,
            iota(t)),
      iota(s))
"""


def masked(test="j > i", other="-1e30f32", qread="Q[i]", extra=""):
    return MASKED.format(test=test, other=other, qread=qread, extra=extra)


def kernel(text: str):
    return run_to("kernel", text, "t.fut", DEFAULT)


def test_a_masked_dot_product_runs_at_every_point_before_its_if():
    k = kernel(masked())
    (r,) = k.speculated
    assert r.names == ("q", "k", "d") and r.dims == (0, 1) and (r.branch.line, r.stream.line) == (5, 9)
    body = k.body
    while isinstance(body, T.Let):
        body = body.body
    assert isinstance(body, T.If) and not any(isinstance(n, T.Stream) for n in _nodes(body))


@pytest.mark.parametrize("sizes", [{"s": 5, "t": 7}, {"s": 9, "t": 3}, {"s": 1, "t": 1}])
def test_the_kernel_stage_computes_what_the_source_does_at_masked_points_too(sizes):
    text = masked(test="j > i + 1", other="f32(j) - 2.5f32")
    prog = check(parse(text, "t.fut"))
    inputs = make_inputs(prog, sizes, None, seed=3)
    results = [run(prog, inputs, c, 3) for c in CHUNKINGS]
    assert kernel(text).speculated and _kernel_stage(prog, inputs, results, 3, text) == []


@pytest.mark.parametrize("case, text", [
    ("a uniform test: every point of a block takes the same branch", masked(test="s > 4")),
    ("a row picked by data: out of range at a masked point", masked(qread="Q[p[j]]", extra=", [int, t] p")),
    ("an integer division in the moved work", masked(qread="Q[i / (j - i)]")),
    ("the other branch is work of its own", masked(other="loop (a = 0f32) = for u < 3 do a + f32(u) in a")),
])
def test_what_may_not_run_at_every_point_stays_under_its_if(case, text):
    assert not kernel(text).speculated, case


def test_the_masked_product_is_tiled_in_two_dims_and_explain_says_why(tmp_path):
    a = run_to("analyse", masked(), "t.fut", DEFAULT)
    assert sorted(a.schedule.block.spans) == [0, 1]
    (tmp_path / "t.fut").write_text(masked())
    r = tiler("explain", str(tmp_path / "t.fut"))
    assert r.returncode == 0, r.stderr
    text = " ".join(r.stdout.split())
    assert "speculated: the stream at 9:25 (with `q`, `k`, `d`), under the `if` at 5:15, runs at every point" in text
    assert "the test varies with dimensions 0, 1" in text


def _nodes(e):
    from tiler.tree import descendants

    return [e, *descendants(e, T.is_exp)]


def test_the_launch_falls_back_to_and_races_the_untiled_kernel_as_written():
    """Where few points take the stream's branch, computing it everywhere
    can cost more than tiling saves: the untiled kernel the tiled versions
    race keeps the stream under its `if`, as --no-tile does."""
    from tiler.pipeline import run_all

    cuda = run_all(masked(), "t.fut", DEFAULT)["render"]
    untiled = cuda[cuda.index("tiler_t_untiled(const"):]
    untiled = untiled[:untiled.index("\n}\n")]
    assert untiled.index("if (") < untiled.index("for (int e ")  # the branch first, then the stream's loop
    tiled = cuda[cuda.index("tiler_t_tiled(const"):]
    tiled = tiled[:tiled.index("\n}\n")]
    assert "__syncthreads()" in tiled and "rival: tiler_t_untiled" in cuda
    assert "--no-speculate" in tiler("compile", "--help").stdout


# ---- found by a cold review ------------------------------------------------------------------------------

NORMED = """
fun [[f32, t], s] main([[f32, 64], s] Q, [[f32, 64], t] K) =
  map(fn [f32, t] (int i) =>
        map(fn f32 (int j) =>
              if j > i then 0f32
              else
                let q = Q[i] in
                let k = K[j] in
                let nq = streamSeq(fn f32 (int e1, [f32, c1] qc1, f32 a) =>
                                     loop (a) = for u < c1 do a + qc1[u] * qc1[u] in a, q, 0f32) in
                let d = streamSeq(fn f32 (int e0, [f32, c] qc, [f32, c] kc, f32 acc) =>
                                    loop (acc) = for e < c do acc + qc[e] * kc[e] in acc, q, k, 0f32)
                in d / sqrt(nq + 1f32),
            iota(t)),
      iota(s))
"""


def _function(cuda: str, name: str) -> str:
    body = cuda[cuda.index(f"{name}(const"):]
    return body[:body.index("\n}\n")]


def test_the_untiled_fallback_is_as_written_where_hoisting_moved_work_too():
    """`nq` reads no point of the inner map: hoisted, the plan may keep the
    kernel with its work where written, and that kernel's untiled fallback
    must be the unspeculated one too."""
    from tiler.pipeline import run_all

    values = run_all(NORMED, "t.fut", DEFAULT)
    assert values["analyse"].as_written is not None and not values["analyse"].as_written.kernel.speculated
    untiled = _function(values["render"], "tiler_t_untiled")
    assert untiled.index("if (") < untiled.index("for (int u ") and untiled.index("if (") < untiled.index("for (int e ")


ROW_SUM = """
fun [f32, n] main([f32, n] xs, [[f32, m], n] A) =
  map(fn f32 (int i) =>
        if xs[i] > 0f32 then 0f32
        else let r = A[i] in
             let d = streamSeq(fn f32 (int k0, [f32, c] rc, f32 acc) =>
                                 loop (acc) = for k < c do acc + rc[k] in acc, r, 0f32)
             in d,
      iota(n))
"""


@pytest.mark.parametrize("options", [{"no_coalesce": True}, {"max_shared": 64}])
def test_a_plan_that_stages_nothing_keeps_the_program_as_written(options):
    """Speculation pays only where a block stages the stream: a plan that
    stages nothing plans the unspeculated kernel, and no two kernels share a
    name."""
    from tiler.analyse import Options
    from tiler.pipeline import run_all

    values = run_all(ROW_SUM, "t.fut", Options(**options))
    a = values["analyse"]
    assert not a.plan.schedule.tiled and not a.kernel.speculated
    names = [k.name for k in values["verify"].kernels]
    assert len(names) == len(set(names))
    untiled = _function(values["render"], "tiler_t_untiled")
    assert untiled.index("if (") < untiled.index("for (int k ")


def test_a_loop_whose_count_varies_by_point_is_not_speculated():
    """Under the mask a point runs (j - i) * 1000 iterations; every point
    computing it would run up to millions where the source ran none."""
    text = masked(qread="Q[i]").replace(
        "let q = Q[i] in",
        "let g = loop (a = 0f32) = for u < 1000 * (j - i) do a + 1f32 in a in\n                let q = Q[i] in"
    ).replace("in d * 0.125f32", "in d * 0.125f32 + g")
    assert not kernel(text).speculated
    fixed = text.replace("1000 * (j - i)", "1000")  # the same count at every point: as cheap as the stream
    assert kernel(fixed).speculated


def test_rows_read_in_the_streams_own_arguments_are_speculated():
    text = masked().replace("q, k, 0f32)", "Q[i], K[j], 0f32)")
    (r,) = kernel(text).speculated
    assert "d" in r.names
